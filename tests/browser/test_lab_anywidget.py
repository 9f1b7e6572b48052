"""A real browser over JupyterLab: lesson 04's explorer, drawn by the browser (an anywidget), the
lesson's only explorer.

Opened as a clone leaves it (not trusted), lesson 04 shows the explorer's saved still picture;
run top to bottom, its browser-drawn explorer must render as a live widget (not the saved output's
stand-in), and moving its sliders from the keyboard to three settings must redraw
it with the table of ``H.sinusoidal`` at each: the numbers the page drew, to 1e-6, the
heatmap's pixels, the course's cividis of those numbers, the chosen row, and the waves, each pair's
sine column to 1e-6 (tests/browser/explorer_page.py).

Uses the shared JupyterLab server and headless Chromium (conftest.py). Screenshots of the
explorer at each setting go to $BROWSER_ARTIFACTS (default test-artifacts/browser/).
"""

from __future__ import annotations

import math

from .common import ARTIFACTS
from .explorer_page import ARM_STEP, ROOT_SELECTOR, drawn, table_problems, wait_for_values
from .lab import errors_shown, run_all_cells, shut_down_kernels

NOTEBOOK = "04_sinusoidal.ipynb"


def press(page, root, control: str, key: str, times: int = 1) -> None:
    root.locator(f'input[name="{control}"]').focus()
    for _ in range(times):
        page.keyboard.press(key)


def test_lesson_04s_browser_explorer_draws_the_courses_table(lab, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    console = []  # errors of the page itself (the lesson's Colab badge, an image on another server, fails offline)
    page.on("console", lambda m: m.type == "error" and m.location.get("url", "").startswith(lab["base"])
            and console.append(f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda e: console.append(str(e)))
    try:
        page.goto(f"{lab['base']}/lab/workspaces/anywidget/tree/notebooks/{NOTEBOOK}?reset&token={lab['token']}")
        # before anything runs (a notebook from a clone is not trusted: no widget, no script), the saved
        # output shows the explorer's still picture and its line of text
        cell = page.locator(".jp-CodeCell").filter(has_text="explorers.browser.sinusoidal_explorer(")
        still = cell.locator('.jp-OutputArea-output img[src^="data:image/png"]')
        still.wait_for(timeout=60_000)
        assert "Sinusoidal table, 128 positions by 128 dimensions" in cell.locator(".jp-OutputArea").inner_text()
        assert still.evaluate("img => img.complete && img.naturalWidth > 0")
        assert page.locator(ROOT_SELECTOR).count() == 0
        run_all_cells(page)
        problems = errors_shown(page)
        assert not problems, f"{NOTEBOOK}: cells show errors:\n" + "\n---\n".join(problems)

        root = page.locator(f".jp-OutputArea-output {ROOT_SELECTOR}")
        root.wait_for(timeout=30_000)
        assert root.count() == 1, f"{root.count()} browser-drawn explorers on the page, expected 1"
        # the lesson's only explorer: no ipywidgets slider beside it
        assert page.locator(".widget-slider").count() == 0
        # the live widget, drawn through anywidget, not the saved output's stand-in for pages without a kernel
        assert page.locator(".pe-explorer-static").count() == 0
        output = root.evaluate("r => r.closest('.jp-OutputArea-output').className")
        assert "jp-RenderedHTML" not in output, f"rendered from the saved HTML ({output}), not as a widget"
        root.scroll_into_view_if_needed()

        start = wait_for_values(root, d_model=128, position=20, length=128, base=10000)
        assert not table_problems(drawn(root)), table_problems(drawn(root))
        root.screenshot(path=str(ARTIFACTS / "04_sinusoidal-browser-start.png"))

        # three settings, each reached from the keyboard: d_model up two notches; the longest table
        # with the last position; the base down one decade (twenty notches of 0.05 in log10)
        steps = [("d_model", "ArrowRight", 2, {"d_model": 132, "position": 20, "length": 128, "base": 10000}),
                 ("length", "End", 1, {"d_model": 132, "length": 1024}),
                 ("position", "End", 1, {"d_model": 132, "position": 1023, "length": 1024}),
                 ("base", "ArrowLeft", 20, {"d_model": 132, "position": 1023, "length": 1024, "base": 1000})]
        checked = []
        for i, (control, key, times, expected) in enumerate(steps):
            draws = int(root.get_attribute("data-draws"))
            press(page, root, control, key, times)
            values = wait_for_values(root, **expected)
            assert int(root.get_attribute("data-draws")) > draws, f"moving {control} drew nothing"
            if control == "length":
                continue  # the next step sets the position on this table
            picture = drawn(root)
            problems = table_problems(picture)
            assert not problems, f"after {times} × {key} on {control} ({values}):\n" + "\n".join(problems)
            checked.append((int(picture["length"]), int(picture["d_model"]), picture["base"]))
            root.screenshot(path=str(ARTIFACTS / f"04_sinusoidal-browser-{i + 1}.png"))
        assert checked == [(128, 132, 10000), (1024, 132, 10000), (1024, 132, 1000)]
        assert start != values

        # one more key press, timed in the page from the keydown to the frame after the redraw
        root.locator('input[name="d_model"]').focus()
        page.wait_for_timeout(100)
        page.evaluate(ARM_STEP, [root.element_handle(), "canvas"])
        page.keyboard.press("ArrowLeft")
        step_ms = page.evaluate("() => window.__pe_step")
        assert math.isfinite(step_ms) and step_ms > 0  # its speed is benchmarks/browser_slider_latency.py's bar
        print(f"{NOTEBOOK}: the browser-drawn explorer (table, heatmap and waves) matched H.sinusoidal at "
              f"{checked}; a d_model step at length 1024 painted {step_ms:.0f} ms after the key press")
        assert not console, f"console errors: {console}"
        problems = errors_shown(page)
        assert not problems, f"{NOTEBOOK}: errors after moving its explorer:\n" + "\n---\n".join(problems)
    finally:
        page.close()
        shut_down_kernels(lab)
