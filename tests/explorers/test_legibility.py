"""Text on every figure is legible: at least 9 pt. Every registered explorer is drawn at its example
settings and every visible text on it (titles, labels, ticks, legends, annotations) is measured;
figures drawn in a lesson's own cells are checked for sizes written below 9."""

import json
import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest

import helpers.explorers  # noqa: F401  (fills the registry)
from helpers.live import REGISTRY
from helpers.plots import COURSE_STYLE, MIN_TEXT_POINTS, small_texts

MIN_POINTS = MIN_TEXT_POINTS
ROOT = Path(__file__).resolve().parents[2]
SMALL_SIZE = re.compile(r"\b(?:fontsize|labelsize|size)\s*=\s*(\d+(?:\.\d+)?)\b|fontsize\s*=\s*[\"'](?:x+-)?small[\"']")


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_explorer_draws_its_text_at_nine_points_or_more(name):
    with matplotlib.rc_context(COURSE_STYLE):
        live = REGISTRY[name].build_example()
    try:
        assert not small_texts(live.fig), f"{name}: text under {MIN_POINTS} pt: {small_texts(live.fig)}"
    finally:
        plt.close(live.fig)


def test_the_check_finds_small_text():
    fig, ax = plt.subplots()
    ax.set_title("readable")
    ax.text(0.5, 0.5, "too small", fontsize=8)
    try:
        assert small_texts(fig) == [(8.0, "too small")]
    finally:
        plt.close(fig)


def test_the_course_style_keeps_default_text_legible():
    with matplotlib.rc_context(COURSE_STYLE):
        fig, ax = plt.subplots()
        ax.plot([0, 1], label="a")
        ax.legend()
        ax.set_xlabel("x")
        try:
            assert not small_texts(fig)
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
