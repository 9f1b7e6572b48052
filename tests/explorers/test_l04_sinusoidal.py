"""Lesson 04's explorer: d_model, position, length and base; the position follows the length."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import sinusoidal_explorer  # noqa: E402


def test_controls_and_what_a_step_shows():
    live = sinusoidal_explorer(d_model=64, position=5, length=32)
    assert list(live.controls) == ["d_model", "position", "length", "base"]
    d = live.controls["d_model"]
    assert (d.min, d.max, d.step) == (2, 1024, 2)
    live.set(d_model=16, base=100.0, position=7)
    heatmap = live.fig.axes[0].images[0].get_array()
    assert np.allclose(heatmap, H.sinusoidal(32, 16, 100.0).numpy())
    assert live.fig.axes[0].lines[0].get_ydata()[0] == 7  # the marked row
    assert "(norm 2.83 = √(d/2))" in live.fig.axes[1].get_title()  # √8


def test_the_waves_are_named_by_pair_as_their_title_says():
    live = sinusoidal_explorer(d_model=128, position=20, length=128)
    waves = live.fig.axes[2]
    assert "of a few pairs i" in waves.get_title()
    names = [t.get_text().split("\n")[0] for t in waves.texts if t.get_text().startswith(("pair", "dim"))]
    assert names == ["pair 0", "pair 8", "pair 21", "pair 63"]  # drawn from dimensions 0, 16, 42, 126


def test_position_follows_the_length_once_and_in_any_order():
    live = sinusoidal_explorer(d_model=64, position=20, length=32)
    seen = []
    update = live.update
    live.update = lambda **values: seen.append(values) or update(**values)
    live.controls["length"].value = 16
    assert live.controls["position"].max == 15 and live.controls["position"].value == 15
    assert [(v["length"], v["position"]) for v in seen] == [(16, 15)]  # one update, already clamped
    live.controls["length"].value = 64
    assert live.controls["position"].max == 63 and live.controls["position"].value == 15


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"d_model": 7}, "d_model must be an integer from 2 to 1024 in steps of 2"),
    ({"d_model": 2048}, "d_model"),
    ({"position": 128, "length": 128}, "position must be an integer from 0 to 127"),
    ({"length": 2000}, "length"),
    ({"base": 1.5}, "base"),
])
def test_bad_input_is_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        sinusoidal_explorer(**kwargs)
