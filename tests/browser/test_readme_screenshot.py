"""The README's picture of lesson 04's explorer (images/lesson-04-explorer.png) is the explorer as it is now.

Lesson 04 runs in JupyterLab (the shared server and headless Chromium of conftest.py) on a page drawn
at device scale factor 2, as a 2× screen shows it. Its explorer, drawn by the browser (an anywidget), as
the lesson opens it (the d_model, position, length and base sliders above the sinusoidal table, the vector
at one position and a few pairs' waves), is photographed into $BROWSER_ARTIFACTS (default
test-artifacts/browser/).

With UPDATE_README_SCREENSHOT=1 that photograph becomes the README's picture. Without it, the README's
picture must have the same size in pixels and differ from the photograph by less than two bars (0–255 per
channel): ``MAX_MEAN_DIFFERENCE`` over the whole picture (a moved slider, a new layout or colour) and
``MAX_TILE_DIFFERENCE`` in its worst 32 × 32 tile (one changed label). The last bits of anti-aliasing, which
a newer Chromium may draw otherwise, stay under both. On failure the difference, brightened, is saved
beside the photograph.

    UPDATE_README_SCREENSHOT=1 .venv/bin/python -m pytest tests/browser/test_readme_screenshot.py -p no:cacheprovider
"""

from __future__ import annotations

import os
import shutil

import numpy as np
from PIL import Image

from .common import ARTIFACTS, ROOT
from .explorer_page import ROOT_SELECTOR, wait_for_values
from .lab import errors_shown, run_all_cells, shut_down_kernels

NOTEBOOK = "04_sinusoidal.ipynb"
START = {"d_model": 128, "position": 20, "length": 128, "base": 10000}  # the lesson's explorer as it opens
README_IMAGE = ROOT / "images" / "lesson-04-explorer.png"
SCALE = 2  # device pixels per CSS pixel
TILE = 32  # device pixels a side
# Measured against the kernel-drawn explorer's picture this test took before (1936 × 898): two more runs,
# 0.000 and 0.00 (identical); text drawn without subpixel positioning (--disable-font-subpixel-positioning,
# as another Chromium might), 0.087 and 6.8; one label of the waves rewritten ("pair 8" → "dim 16"), 0.073
# and 48; the d_model slider one notch on, 19 (whole picture, at 1×); the picture that one replaced
# (labelled "dim 0 / dim 16 / dim 42 / dim 128", 968 × 449), scaled to its size, 27 and 214. The browser-drawn
# explorer's picture (1800 × 1258) holds to the same bars (test_the_bars_tell_a_changed_picture_from_the_same_one).
MAX_MEAN_DIFFERENCE = 1.0
MAX_TILE_DIFFERENCE = 16.0


def mean_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two RGB pictures of one size, 0–255 per channel."""
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def tile_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The largest mean, over the TILE × TILE tiles, of each pixel's largest channel difference."""
    changed = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=-1).astype(np.float64)
    rows, cols = changed.shape[0] // TILE * TILE, changed.shape[1] // TILE * TILE
    tiles = changed[:rows, :cols].reshape(rows // TILE, TILE, cols // TILE, TILE).mean(axis=(1, 3))
    return float(tiles.max())


PHOTO_WIDTH = 760


def rgb(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def test_the_readme_shows_lesson_04s_explorer_as_it_is(lab, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "readme-lesson-04-explorer.png"
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=SCALE)
    try:
        page.goto(f"{lab['base']}/lab/workspaces/readme-screenshot/tree/notebooks/{NOTEBOOK}"
                  f"?reset&token={lab['token']}")
        run_all_cells(page)
        problems = errors_shown(page)
        assert not problems, f"{NOTEBOOK}: cells show errors:\n" + "\n---\n".join(problems)
        # the live widget, drawn through anywidget (not the saved output's stand-in)
        box = page.locator(f".jp-OutputArea-output {ROOT_SELECTOR}")
        box.wait_for(timeout=30_000)
        assert box.count() == 1 and page.locator(".pe-explorer-static").count() == 0
        box.scroll_into_view_if_needed()
        wait_for_values(box, **START)
        # photographed no wider than the site's column (784 px): the README's picture is then shown at its
        # own size there, and its text at the canvas's 12 px and more
        box.evaluate(f"b => {{ b.style.maxWidth = '{PHOTO_WIDTH}px'; }}")
        page.wait_for_timeout(500)  # let the explorer redraw at that width, the sliders and the canvas settle
        width = box.evaluate("b => b.getBoundingClientRect().width")
        box.screenshot(path=str(shot), animations="disabled", caret="hide")
    finally:
        page.close()
        shut_down_kernels(lab)

    taken = rgb(shot)
    assert abs(taken.shape[1] - SCALE * width) <= SCALE, \
        f"the photograph is {taken.shape[1]} pixels wide, the explorer {width:.0f} CSS pixels at scale {SCALE}"
    if os.environ.get("UPDATE_README_SCREENSHOT") == "1":
        shutil.copyfile(shot, README_IMAGE)
        print(f"{README_IMAGE.relative_to(ROOT)} written: {taken.shape[1]} × {taken.shape[0]} pixels")
        return
    committed = rgb(README_IMAGE)
    again = ("take it again: UPDATE_README_SCREENSHOT=1 .venv/bin/python -m pytest "
             "tests/browser/test_readme_screenshot.py")
    assert committed.shape == taken.shape, (
        f"{README_IMAGE.relative_to(ROOT)} is {committed.shape[1]} × {committed.shape[0]} pixels, the explorer "
        f"now {taken.shape[1]} × {taken.shape[0]}; {again}")
    mean, tile = mean_difference(committed, taken), tile_difference(committed, taken)
    print(f"{README_IMAGE.relative_to(ROOT)} against the explorer as drawn now: mean difference {mean:.3f} "
          f"(bar {MAX_MEAN_DIFFERENCE}), worst tile {tile:.2f} (bar {MAX_TILE_DIFFERENCE})")
    stale = mean >= MAX_MEAN_DIFFERENCE or tile >= MAX_TILE_DIFFERENCE
    if stale:
        changed = np.abs(committed.astype(np.int16) - taken.astype(np.int16)).max(axis=-1)
        Image.fromarray(np.clip(changed * 4, 0, 255).astype(np.uint8)).save(
            ARTIFACTS / "readme-lesson-04-explorer-difference.png")
    assert not stale, (
        f"{README_IMAGE.relative_to(ROOT)} is not the explorer as drawn now (mean difference {mean:.2f}, bar "
        f"{MAX_MEAN_DIFFERENCE}; worst tile {tile:.1f}, bar {MAX_TILE_DIFFERENCE}; the difference is in "
        f"{ARTIFACTS}); {again}")


def test_the_bars_tell_a_changed_picture_from_the_same_one():
    """What the bars rest on, shown on the README's picture itself: the same picture passes both; the
    picture one pixel lower fails the whole-picture bar; the picture with its d_model label blanked,
    nothing else changed, fails the tile bar alone."""
    picture = rgb(README_IMAGE)
    assert mean_difference(picture, picture) == 0 and tile_difference(picture, picture) == 0
    assert mean_difference(picture, np.roll(picture, 1, axis=0)) > MAX_MEAN_DIFFERENCE
    unlabelled = picture.copy()
    unlabelled[: 2 * TILE, : 4 * TILE] = 255  # the first slider's label, "d_model", at the top left
    assert mean_difference(picture, unlabelled) < MAX_MEAN_DIFFERENCE
    assert tile_difference(picture, unlabelled) > MAX_TILE_DIFFERENCE
