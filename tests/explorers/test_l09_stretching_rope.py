"""Lesson 09's explorer: the per-pair scale of each stretching method."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from helpers.explorers import pair_scale_explorer  # noqa: E402


def lines_by_label(live):
    return {line.get_label(): line for line in live.fig.axes[0].get_lines()}


def test_dynamic_is_drawn_with_its_own_factor():
    # Llama 2 (d 128) at factor 4: dynamic NTK configured with 4 and asked for n = 4L divides its slowest
    # pair by 4·4 − 3 = 13, NTK-aware by 4; the two thin lines differ.
    live = pair_scale_explorer(method="dynamic", factor=4.0, model=0)
    lines = lines_by_label(live)
    dynamic, ntk = lines["dynamic at n = factor·L"].get_ydata(), lines["ntk"].get_ydata()
    assert dynamic[-1] == pytest.approx(13.0) and ntk[-1] == pytest.approx(4.0)
    assert dynamic[0] == pytest.approx(1.0) and ntk[0] == pytest.approx(1.0)
    assert any("1 blended" not in t.get_text() and "divided by 13" in t.get_text() for t in live.fig.texts)
    live.set(method="yarn")
    assert any("21 pairs kept, 25 blended, 18 divided by 4" in t.get_text() for t in live.fig.texts)
    plt.close(live.fig)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="method"):
        pair_scale_explorer(method="rope")
