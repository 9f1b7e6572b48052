"""Figures pass the course's figure check (helpers.plots.figure_problems): text at least 12 CSS px as
shown, at most the site's column wide, no two series alike in colour (under simulated deuteranopia),
dashes and marker, no legend over data. Here: lesson 04's explorer's still picture (every explorer's
still is checked where a lesson shows it, in the course's own runs: helpers.plots.watch_figure) and
the course style's defaults. Figures drawn in a lesson's own cells are checked for sizes written below
9 pt (12.5 px at 100 dpi)."""

import json
import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest

from helpers.explorers.browser.l04_sinusoidal import STILL_SIZE, still_figure
from helpers.plots import COLUMN_PX, COURSE_DPI, COURSE_STYLE, MIN_TEXT_PX, figure_problems, small_texts

MIN_POINTS = 9  # the smallest size a lesson's cell may ask for: 12.5 CSS px at the course's 100 dpi
ROOT = Path(__file__).resolve().parents[2]
SMALL_SIZE = re.compile(r"\b(?:fontsize|labelsize|size)\s*=\s*(\d+(?:\.\d+)?)\b|fontsize\s*=\s*[\"'](?:x+-)?small[\"']")


def test_the_browser_explorers_still_picture_passes_the_figure_check():
    fig = still_figure(128, 20, 128, 10000.0)
    assert STILL_SIZE["width"] <= COLUMN_PX
    assert not figure_problems(fig, COURSE_DPI)


def test_the_check_finds_small_text():
    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.set_title("readable")
    ax.text(0.5, 0.5, "too small", fontsize=8)  # 8 pt at 100 dpi: 11.1 px
    try:
        assert small_texts(fig) == [(11.1, "too small")]
        # shown at 80 dpi, the 10 pt tick labels are 11.1 px; shown 1568 px wide, the site halves them
        assert {"too small", "0.0"} <= {t for _, t in small_texts(fig, dpi=80)}
        assert (6.9, "0.0") in small_texts(fig, width_px=2 * 784)
    finally:
        plt.close(fig)


def test_the_course_style_keeps_default_text_legible():
    with matplotlib.rc_context(COURSE_STYLE):
        fig, ax = plt.subplots()
        ax.plot([0, 1], label="a")
        ax.legend(loc="lower right")
        ax.set_xlabel("x")
        try:
            assert not small_texts(fig)
            assert min(t.get_fontsize() for t in fig.findobj(matplotlib.text.Text)) * COURSE_DPI / 72 >= MIN_TEXT_PX
        finally:
            plt.close(fig)


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.name)
def test_no_lesson_cell_asks_for_text_under_nine_points(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    small = [m.group(0) for c in cells for m in SMALL_SIZE.finditer("".join(c["source"]))
             if m.group(1) is None or float(m.group(1)) < MIN_POINTS]
    assert not small, f"{path.name}: text sizes under {MIN_POINTS} pt: {small}"


def test_the_cell_check_finds_small_sizes():
    found = [m.group(0) for m in SMALL_SIZE.finditer('ax.text(0, 0, "a", fontsize=7); ax.legend(fontsize="small")')]
    assert found == ["fontsize=7", 'fontsize="small"']
