"""Lesson 11's explorer: one attention layer drawn, the place(s) of the chosen scheme lit."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import attention_layer_explorer  # noqa: E402
from helpers.explorers import l11_the_map as E  # noqa: E402


def lit(live) -> set[str]:
    """The boxes drawn in colour (thick edges), by their label."""
    ax = live.fig.axes[0]
    labels = {round(t.get_position()[0], 2): t.get_text() for t in ax.texts if t.get_position()[1] == E.ROW}
    boxes = [p for p in ax.patches if type(p).__name__ == "FancyBboxPatch"]
    assert len(boxes) == len(E.BOXES)
    return {labels[round(p.get_x() + p.get_width() / 2, 2)] for p in boxes if p.get_linewidth() > 2}


def test_every_scheme_lights_the_place_its_hooks_change():
    live = attention_layer_explorer()
    assert list(live.controls) == ["scheme"]
    assert lit(live) == {"x + PE", "rotate\nq and k", "+ bias"}  # the causal mask is not a hook
    notes = " ".join(t.get_text() for t in live.fig.axes[0].texts)
    for name in H.SCHEMES:
        assert name in notes
    box_of = {"added to x": "x + PE", "rotates q, k": "rotate\nq and k", "bias on scores": "+ bias"}
    for name in H.SCHEMES:
        live.set(scheme=name)
        assert lit(live) == {box_of[p] for p in H.hook_effects(name).places if p in box_of}, name
        assert live.fig.axes[0].get_title().startswith(f"{name}: ")
    live.set(scheme="none")
    assert lit(live) == set() and "none: no scheme, so no hook" in notes
    mask = next(t for t in live.fig.axes[0].texts if t.get_text() == "causal\nmask +\nsoftmax")
    note = next(t for t in live.fig.axes[0].texts if "so no hook" in t.get_text())
    assert abs(note.get_position()[0] - mask.get_position()[0]) > 5  # far from the mask box, not under it
    live.set(scheme="alibi")
    assert lit(live) == {"+ bias"} and "fixed" in live.fig.axes[0].get_title()
    live.set(scheme="t5")
    assert "learned" in live.fig.axes[0].get_title()
    plt.close(live.fig)


def test_bad_scheme_names_the_parameter():
    with pytest.raises(ValueError, match="scheme"):
        attention_layer_explorer(scheme="rotary")


def test_the_drawing_leaves_lesson_00s_question_open():
    # lesson 00 opens with this drawing and later asks whether a causal mask keeps the symmetry
    live = attention_layer_explorer()
    for scheme in ("every scheme", "none"):
        live.set(scheme=scheme)
        words = " ".join(t.get_text() for t in live.fig.findobj(Text)).lower()
        assert "order" not in words and "symmetr" not in words and "blind" not in words, words


def test_every_box_lies_inside_the_picture():
    live = attention_layer_explorer()
    fig, ax = live.fig, live.fig.axes[0]
    fig.canvas.draw()
    frame = ax.bbox  # the boxes are clipped to the axes: a box reaching past them is cut
    for patch in ax.patches:
        box = patch.get_window_extent()
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, patch
    plt.close(fig)
