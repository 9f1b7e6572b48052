"""Every browser-drawn explorer, one slider step as a learner sees it, beside the same picture drawn by the kernel.

    python benchmarks/browser_slider_latency.py [--rounds N] [--only NAME ...]

The explorers are those the browser tests check (``tests/browser/explorer_cases/``, one module per
lesson; ``--only`` takes their names, e.g. ``"l06 rope"``), built with the same arguments. A *step*
is one press of → or ← on a slider, timed in headless Chromium (Debian's, through Playwright, at
device scale factor 2) from the keydown event to the first frame painted after the new picture is in
place: a redrawn canvas for the browser-drawn explorer, a new ``<img>`` for the kernel-drawn one.

* **bare page**: the explorer's saved HTML on a page of its own, as the course's web site shows it
  (no Jupyter, no kernel). Every slider of every explorer is stepped; the bar is a median of at
  most 16 ms (one frame at 60 Hz) and a worst step of at most 50 ms.
* **JupyterLab**: one notebook made for the run shows each explorer twice, interleaved key press
  by key press: the browser-drawn widget, and a kernel-drawn twin of it (an ipywidgets slider whose
  step goes to the kernel, which sets the explorer's value, redraws its still figure with Matplotlib
  at twice the page's pixels and sends the PNG back: what a kernel-drawn explorer does on each step).
  The browser-drawn step must be faster than the kernel's round trip.

Prints, per explorer and slider, the medians and worst steps, how much of the step the explorer's
script took (``draw_ms``), and the machine's load average: on a busy machine every number grows.
Exit status 1 if a bar is missed or a picture did not change.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.explorer_page import ARM_STEP  # noqa: E402
from tests.browser.lab import jupyter_lab, run_all_cells  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
MEDIAN_MS, WORST_MS = 16.0, 50.0
EXPLORER = ".pe-explorer"


def kernel_twin(widget, name: str, values: list):
    """A kernel-drawn twin of ``widget``: a slider over ``values`` (two values of the explorer's
    slider ``name``) whose every step sets that value and redraws the still figure in the kernel."""
    import ipywidgets
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from helpers.plots import COURSE_DPI

    def png() -> bytes:
        fig = widget.still_figure()
        FigureCanvasAgg(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=2 * COURSE_DPI, facecolor="white")
        return buffer.getvalue()

    slider = ipywidgets.IntSlider(value=0, min=0, max=len(values) - 1, description=name)
    image = ipywidgets.Image(value=png(), format="png", layout=ipywidgets.Layout(width="624px"))

    def step(change):
        setattr(widget, name, values[change["new"]])
        image.value = png()

    slider.observe(step, names="value")
    return ipywidgets.VBox([slider, image], layout=ipywidgets.Layout(border="1px solid #ccc"))


def timed_press(page, target, what: str, focus, key: str) -> float:
    """Milliseconds from the key press on ``focus`` to the frame painted after ``target`` changed."""
    focus.focus()
    page.wait_for_timeout(100)
    page.evaluate(ARM_STEP, [target.element_handle(), what])
    page.keyboard.press(key)
    return page.evaluate("() => window.__pe_step")


def key_for(slider) -> str:
    """→ unless the slider is at its end."""
    at_end = slider.evaluate("s => Number(s.value) >= Number(s.max) - 1e-9")
    return "ArrowLeft" if at_end else "ArrowRight"


def steps_on(page, root, slider, rounds: int) -> tuple[list[float], list[float]]:
    """``rounds`` timed steps (after two not timed) of ``slider``, back and forth; and the script's draw times."""
    times, script = [], []
    for r in range(rounds + 2):
        ms = timed_press(page, root, "canvas", slider, key_for(slider))
        page.wait_for_timeout(60)
        if r >= 2:
            times.append(ms)
            script.append(root.evaluate("r => globalThis.__pe_explorers[r.dataset.peId].draw_ms"))
    return times, script


def bare_page(browser, name: str, build, rounds: int) -> dict[str, tuple[list[float], list[float]]]:
    """Every slider of the explorer ``name``, stepped on a page of its own saved HTML."""
    widget = build()
    page = browser.new_page(viewport={"width": 1000, "height": 1000}, device_scale_factor=2)
    try:
        page.set_content(f"<!doctype html><html lang='en'><body>{widget.static_html()}</body></html>")
        root = page.locator(EXPLORER)
        page.wait_for_function("() => document.querySelector('.pe-explorer')?.dataset.draws >= '1'", timeout=30_000)
        return {slider.get_attribute("name"): steps_on(page, root, slider, rounds)
                for slider in root.locator("input[type=range]").all()}
    finally:
        page.close()


def first_step_values(browser, build, slider_name: str) -> list:
    """The explorer's value of ``slider_name`` before and after one step (→, or ← at the end)."""
    page = browser.new_page()
    try:
        page.set_content(f"<!doctype html><html><body>{build().static_html()}</body></html>")
        root = page.locator(EXPLORER)
        page.wait_for_function("() => document.querySelector('.pe-explorer')?.dataset.draws >= '1'", timeout=30_000)
        read = f"r => globalThis.__pe_explorers[r.dataset.peId].values[{slider_name!r}]"
        before = root.evaluate(read)
        slider = root.locator(f'input[name="{slider_name}"]')
        draws = root.get_attribute("data-draws")
        slider.press(key_for(slider))
        page.wait_for_function(f"() => document.querySelector('.pe-explorer').dataset.draws !== '{draws}'")
        return [before, root.evaluate(read)]
    finally:
        page.close()


def lab_notebook(chosen: dict[str, tuple[str, list]]) -> nbformat.NotebookNode:
    cells = [nbformat.v4.new_code_cell(
        "from benchmarks.browser_slider_latency import kernel_twin\n"
        "from helpers import plots\nfrom tests.browser.explorer_cases import CASES\n\nplots.use_course_style()")]
    for name, (slider, values) in chosen.items():
        cells += [nbformat.v4.new_code_cell(f"CASES[{name!r}][0]()"),
                  nbformat.v4.new_code_cell(f"kernel_twin(CASES[{name!r}][0](), {slider!r}, {values!r})")]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    return nb


def median_worst(times: list[float]) -> str:
    return f"{statistics.median(times):6.1f} {max(times):6.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12, help="timed key presses of each (after 2 not timed)")
    parser.add_argument("--only", nargs="*", default=None, help="explorers to time (names as in CASES)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from tests.browser.explorer_cases import CASES

    if not Path(CHROMIUM).exists():
        print(f"no chromium at {CHROMIUM}: apt-get install chromium, or set CHROMIUM")
        return 1
    names = sorted(CASES) if not args.only else [n for n in sorted(CASES) if n in args.only]
    failed = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"])
        print(f"one slider step (→ or ←), key press to the new picture painted, headless Chromium {browser.version} "
              f"at device scale factor 2; {args.rounds} steps each; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores")
        print(f"\nbare page (the saved HTML, as the web site shows it): bar median ≤ {MEDIAN_MS:g} ms, "
              f"worst ≤ {WORST_MS:g} ms")
        print(f"{'explorer':<22} {'slider':<14} {'median  worst':>13} {'script median ms':>17}")
        chosen = {}
        for name in names:
            build, steps, _ = CASES[name]
            timed = bare_page(browser, name, build, args.rounds)
            for slider, (times, script) in timed.items():
                print(f"{name:<22} {slider:<14} {median_worst(times):>13} {statistics.median(script):17.1f}")
                if statistics.median(times) > MEDIAN_MS or max(times) > WORST_MS:
                    failed.append(f"{name} {slider}: median {statistics.median(times):.1f} ms, "
                                  f"worst {max(times):.1f} ms on the bare page")
            slider = next(s for s, _, _ in steps if s is not None)
            chosen[name] = (slider, first_step_values(browser, build, slider))

        folder = Path(tmp)
        (folder / "course").mkdir()
        nbformat.write(lab_notebook(chosen), folder / "course" / "bench.ipynb")
        print("\nJupyterLab, interleaved key press by key press: the browser-drawn explorer and its kernel-drawn twin")
        print(f"{'explorer':<22} {'slider':<14} {'kernel median  worst':>20} {'browser median  worst':>21} "
              f"{'ratio':>6}")
        with jupyter_lab(folder, ROOT) as (base, token):
            page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
            page.goto(f"{base}/lab/workspaces/bench/tree/bench.ipynb?reset&token={token}")
            run_all_cells(page, timeout_s=600)
            roots = page.locator(f".jp-OutputArea-output {EXPLORER}")
            twins = page.locator(".jp-OutputArea-output .widget-vbox").filter(has=page.locator(".widget-image"))
            for i, (name, (slider, _)) in enumerate(chosen.items()):
                root, twin = roots.nth(i), twins.nth(i)
                root.wait_for(timeout=60_000)
                twin.scroll_into_view_if_needed()
                handle = twin.locator(".noUi-handle").first
                own = root.locator(f'input[name="{slider}"]')
                kernel, drawn = [], []
                for r in range(args.rounds + 2):
                    try:
                        k_ms = timed_press(page, twin, "img", handle, "ArrowRight" if r % 2 == 0 else "ArrowLeft")
                        page.wait_for_timeout(100)
                        root.scroll_into_view_if_needed()
                        b_ms = timed_press(page, root, "canvas", own, key_for(own))
                        page.wait_for_timeout(100)
                    except Exception as error:  # a picture that does not change in 10 s
                        failed.append(f"{name}: {error}")
                        break
                    if r >= 2:
                        kernel.append(k_ms)
                        drawn.append(b_ms)
                if not kernel:
                    continue
                k, b = statistics.median(kernel), statistics.median(drawn)
                print(f"{name:<22} {slider:<14} {median_worst(kernel):>20} {median_worst(drawn):>21} {k / b:5.1f}x")
                if not b < k:
                    failed.append(f"{name}: the browser's step ({b:.1f} ms) is not faster than the kernel's "
                                  f"({k:.1f} ms)")
        browser.close()
    for line in failed:
        print("FAIL " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
