"""In a real Jupyter kernel, a lesson's figures are sent at twice their pixels and shown at their own
size (sharp on 2× screens), and, in the course's own runs, every figure a cell shows is checked
(helpers.plots.figure_problems): text under 12 CSS px as shown, a figure wider than the site's
column, look-alike series, a legend over data are reported in that cell's output, which the
regression run then sees."""

import base64
import io
import os

from PIL import Image

from helpers.plots import CHECK_TEXT_ENV, COLUMN_PX, COURSE_DPI, FIGURE_REPORT

from .kernel import execute, kernel

SETUP = """
import matplotlib.pyplot as plt
from helpers import plots
plots.use_course_style()
"""
FIGURE = """
fig, ax = plt.subplots(figsize=(4, 2))
ax.plot([0, 1])
ax.set_title("a title", fontsize={size})
"""


def run_cells(cells: list[str], check: bool) -> list[dict]:
    """Run each cell in a fresh kernel; return the last cell's stream and display messages."""
    env = {k: v for k, v in os.environ.items() if k != CHECK_TEXT_ENV}
    if check:
        env[CHECK_TEXT_ENV] = "1"
    with kernel(env) as client:
        for code in cells:
            reply, outputs = execute(client, code)
            assert reply["status"] == "ok", reply
    return [m for m in outputs if m["msg_type"] in ("stream", "display_data")]


def streams(shown: list[dict]) -> str:
    return "".join(m["content"]["text"] for m in shown if m["msg_type"] == "stream")


def test_figures_are_sent_at_twice_their_pixels_and_shown_at_their_size():
    shown = run_cells([SETUP, FIGURE.format(size=10)], check=False)
    (figure,) = [m["content"] for m in shown if m["msg_type"] == "display_data"]
    width, height = Image.open(io.BytesIO(base64.b64decode(figure["data"]["image/png"]))).size
    size = figure["metadata"]["image/png"]
    # 4 × 2 inches at the course's 100 dpi is about 400 × 200 on the page (a tight crop trims it a little);
    # the page size is half the pixels, rounded down
    assert COURSE_DPI == 100
    assert (width // 2, height // 2) == (size["width"], size["height"]) and 330 < size["width"] <= 400


def test_small_text_is_reported_in_the_cell_that_shows_it():
    # 8 pt at 100 dpi is 11.1 CSS px, under 12; 9 pt is 12.5
    assert f"{FIGURE_REPORT}: text under 12 px" in streams(run_cells([SETUP, FIGURE.format(size=8)], check=True))
    assert FIGURE_REPORT not in streams(run_cells([SETUP, FIGURE.format(size=9)], check=True))
    # a learner's own kernel is left alone
    assert FIGURE_REPORT not in streams(run_cells([SETUP, FIGURE.format(size=8)], check=False))


def test_a_figure_shown_in_the_middle_of_a_cell_is_checked_too():
    # plt.show() shows the figure and closes it before the cell ends: checked as it is shown
    shown = streams(run_cells([SETUP, FIGURE.format(size=8) + "plt.show()\nprint('after')"], check=True))
    assert f"{FIGURE_REPORT}: text under 12 px" in shown and shown.rstrip().endswith("after")


WIDE = """
fig, ax = plt.subplots(figsize=(11, 2))
ax.plot([0, 1])
"""
EXPLORER = """
from helpers import explorers
explorers.browser.normalised_explorer()
"""


def test_a_wide_figure_and_an_explorer_are_checked_in_the_cell_that_shows_them():
    wide = streams(run_cells([SETUP, WIDE], check=True))
    assert f"{FIGURE_REPORT}: " in wide and f"over the {COLUMN_PX} px column" in wide
    # an explorer's figure is no open pyplot figure: it is checked all the same, and passes
    assert FIGURE_REPORT not in streams(run_cells([SETUP, EXPLORER], check=True))
