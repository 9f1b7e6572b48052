"""Lesson 00's explorer: the dropdown of orders and what each shows."""

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.image import imread  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import order_explorer  # noqa: E402
from helpers.explorers.l00_order_blindness import order_picture  # noqa: E402
from helpers.live import REGISTRY  # noqa: E402


def test_every_order_is_offered_and_shows_its_snapshot():
    args = REGISTRY["order_explorer"].example()
    live = order_explorer(**args)
    control = live.controls["order"]
    assert [label for label, _ in control.options][:2] == ["dog bites man", "dog man bites"]
    assert len(control.options) == 6
    live.set(order=(2, 1, 0))
    plain, with_position = (im.get_array() for im in (live.fig.axes[0].images[0], live.fig.axes[1].images[0]))
    snap = H.order_snapshot(args["mha"], args["x"], (2, 1, 0), args["position"])
    assert torch.allclose(torch.as_tensor(plain.data), snap.weights_plain)
    assert torch.allclose(torch.as_tensor(with_position.data), snap.weights_with_position)
    bars = live.fig.axes[2].patches
    assert [b.get_height() for b in bars] == pytest.approx([snap.moved_plain, snap.moved_with_position])
    printed = [t.get_text() for t in live.fig.axes[2].texts]  # each bar's value, printed on it
    assert printed == [f"{snap.moved_plain:.3f}", f"{snap.moved_with_position:.3f}"]
    assert printed[0] == "0.000" and float(printed[1]) > 0.01
    assert [t.get_text() for t in live.fig.axes[0].get_xticklabels()] == ["man", "bites", "dog"]


def test_bad_input_is_named():
    args = REGISTRY["order_explorer"].example()
    with pytest.raises(ValueError, match="position"):
        order_explorer(**{**args, "position": args["position"][:2]})


def test_each_cell_prints_its_weight_and_the_first_token_row_is_outlined():
    args = REGISTRY["order_explorer"].example()
    live = order_explorer(**args)
    live.set(order=(1, 2, 0))  # "bites man dog": tokens[0] = "dog" is the query of row 2
    snap = H.order_snapshot(args["mha"], args["x"], (1, 2, 0), args["position"])
    for ax, weights in zip(live.fig.axes[:2], (snap.weights_plain, snap.weights_with_position), strict=True):
        printed = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
        assert printed == {(i, j): f"{weights[i, j].item():.2f}" for i in range(3) for j in range(3)}
        (outline,) = ax.patches
        assert outline.get_y() == pytest.approx(1.5)


def test_a_still_of_another_order_is_the_explorer_picture_at_that_order():
    args = REGISTRY["order_explorer"].example()
    live = order_explorer(**args)
    live.set(order=(1, 2, 0))
    still = order_picture(**args, order=[1, 2, 0])
    start = order_picture(**args, order=(0, 1, 2))
    pixels = [imread(io.BytesIO(png)) for png in (live.png, still, start)]
    assert pixels[0].shape == pixels[1].shape
    # the same picture (drawn whole, not blitted): at 2× a bar's edge may snap a pixel row apart
    assert (np.abs(pixels[0] - pixels[1]).max(axis=2) > 0.05).mean() < 1e-3
    assert (np.abs(pixels[1] - pixels[2]).max(axis=2) > 0.05).mean() > 1e-2  # another order: another picture
    for bad in ((0, 1), (0, 0, 1), "dog"):
        with pytest.raises(ValueError, match="order must be a permutation"):
            order_picture(**args, order=bad)
