"""In a real Jupyter kernel, a lesson's figures are sent at twice their pixels and shown at their own
size (sharp on 2× screens), and, in the course's own runs, every figure a cell shows is measured:
text under 9 pt is reported in that cell's output, which the regression run then sees."""

import base64
import io
import os

from PIL import Image

from helpers.plots import CHECK_TEXT_ENV, SMALL_TEXT_REPORT

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
    # 4 × 2 inches at the course's 80 dpi is about 320 × 160 on the page (a tight crop trims it a little)
    assert (width, height) == (2 * size["width"], 2 * size["height"]) and 250 < size["width"] <= 320


def test_small_text_is_reported_in_the_cell_that_shows_it():
    assert SMALL_TEXT_REPORT in streams(run_cells([SETUP, FIGURE.format(size=7)], check=True))
    assert SMALL_TEXT_REPORT not in streams(run_cells([SETUP, FIGURE.format(size=9)], check=True))
    # a learner's own kernel is left alone
    assert SMALL_TEXT_REPORT not in streams(run_cells([SETUP, FIGURE.format(size=7)], check=False))
