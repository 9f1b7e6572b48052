"""Lesson 04's explorer, one slider step as a learner sees it: drawn by the kernel next to drawn by the browser.

    python benchmarks/browser_slider_latency.py [--rounds N]

Both explorers of lesson 04 run in JupyterLab, driven by headless Chromium (Debian's, through
Playwright, as the browser tests drive it), in one notebook made for the run: the kernel-drawn
one (``explorers.sinusoidal_explorer``: the slider's value goes to the kernel, which recomputes the
table, redraws the figure and sends a PNG back) and the browser-drawn one
(``explorers.browser.sinusoidal_explorer``: the page computes the table and draws it on a canvas).
A *step* is one press of → or ← on the d_model slider, timed in the page from the keydown event to
the first frame painted after the new picture is in place (a new ``<img>`` for the kernel's, a
redrawn canvas for the browser's). The two are timed in the same run, interleaved key press by key
press, at the lesson's start (length 128, d_model 128) and at a long table (length 1024, d_model 512).

Prints the median of each, side by side, their ratio, how much of the browser's step its script
took (computing the table and drawing it, ``data-draw-ms``), and the same step on a bare page (the
explorer's saved HTML, as the course's web site shows it: no Jupyter around it), with the
machine's load average: on a busy machine every number grows. Exit status 1 if the browser's step is not faster than the
kernel's round trip, or a picture did not change.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.explorer_page import ARM_STEP, ROOT_SELECTOR  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SETTINGS = [(128, 128), (1024, 512)]  # (length, d_model) of each pair of explorers


def bench_notebook() -> nbformat.NotebookNode:
    cells = [nbformat.v4.new_code_cell("from helpers import explorers, plots\n\nplots.use_course_style()")]
    for length, d_model in SETTINGS:
        arguments = f"d_model={d_model}, position=20, length={length}"
        cells += [nbformat.v4.new_code_cell(f"explorers.sinusoidal_explorer({arguments})"),
                  nbformat.v4.new_code_cell(f"explorers.browser.sinusoidal_explorer({arguments})")]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    return nb


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter_lab(folder: Path):
    """JupyterLab on 127.0.0.1 over ``folder``, with settings of its own (no news, no windowing)."""
    settings = folder / "settings" / "@jupyterlab"
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    (settings / "notebook-extension").mkdir()
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"), "PYTHONPATH": str(ROOT),
           "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"), "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
           "JUPYTER_CONFIG_DIR": str(folder / "config")}
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--ServerApp.token={token}", f"--ServerApp.root_dir={folder / 'course'}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(folder / "lab.log", "w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder / "course")
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=5):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log_text = (folder / "lab.log").read_text()[-3000:]
                    raise RuntimeError("JupyterLab did not start:\n" + log_text) from None
                time.sleep(0.5)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def run_all(page) -> None:
    """Run every cell of the open notebook and wait until each has its prompt number."""
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for(timeout=90_000)
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('li.lm-Menu-item[data-command="runmenu:run-all"], '
                 'li.lm-Menu-item[data-command="notebook:run-all-cells"]').first.click()
    prompts = page.locator(".jp-CodeCell .jp-InputArea-prompt")
    deadline = time.monotonic() + 180
    while not all(t.strip()[1:-2].isdigit() for t in prompts.all_inner_texts()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the cells did not finish: {prompts.all_inner_texts()}")
        time.sleep(0.5)


def timed_press(page, target, what: str, focus, key: str) -> float:
    """Milliseconds from the key press on ``focus`` to the frame painted after ``target`` changed. The
    focus moves first and settles (in JupyterLab it makes that cell the active one), then the timer
    is armed and the key pressed."""
    focus.focus()
    page.wait_for_timeout(100)
    page.evaluate(ARM_STEP, [target.element_handle(), what])
    page.keyboard.press(key)
    return page.evaluate("() => window.__pe_step")


def bare_page_steps(browser, length: int, d_model: int, rounds: int) -> list[float]:
    """The browser-drawn explorer's step on a page of its own: its saved HTML, no Jupyter."""
    from helpers.explorers.browser import sinusoidal_explorer

    widget = sinusoidal_explorer(d_model=d_model, position=20, length=length)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.set_content(f"<!doctype html><html><body>{widget.static_html()}</body></html>")
        root = page.locator(ROOT_SELECTOR)
        root.wait_for(timeout=30_000)
        slider = root.locator('input[name="d_model"]')
        times = []
        for r in range(rounds + 2):
            ms = timed_press(page, root, "canvas", slider, "ArrowRight" if r % 2 == 0 else "ArrowLeft")
            page.wait_for_timeout(150)
            if r >= 2:
                times.append(ms)
        return times
    finally:
        page.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed key presses of each (after 2 warm-up ones)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"no chromium at {CHROMIUM}: apt-get install chromium, or set CHROMIUM")
        return 1
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        folder = Path(tmp)
        (folder / "course").mkdir()
        nbformat.write(bench_notebook(), folder / "course" / "bench.ipynb")
        with jupyter_lab(folder) as (base, token):
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{base}/lab/workspaces/bench/tree/bench.ipynb?reset&token={token}")
            run_all(page)
            kernel_boxes = page.locator(".jp-OutputArea-output .widget-vbox").filter(
                has=page.locator(".widget-output img"))
            roots = page.locator(ROOT_SELECTOR)
            kernel_boxes.nth(len(SETTINGS) - 1).wait_for(timeout=60_000)
            roots.nth(len(SETTINGS) - 1).wait_for(timeout=60_000)
            print("lesson 04's explorer, one d_model step (→ or ←) in JupyterLab and headless Chromium, from the "
                  f"key press to the new picture painted: median of {args.rounds}, interleaved")
            print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; chromium {browser.version}")
            print(f"{'length × d_model':>16}  {'kernel-drawn ms':>15}  {'browser-drawn ms':>16}  {'ratio':>6}"
                  f"  {'its script ms':>13}  {'bare page ms':>12}")
            failed = []
            for i, (length, d_model) in enumerate(SETTINGS):
                box, root = kernel_boxes.nth(i), roots.nth(i)
                box.scroll_into_view_if_needed()
                handle = box.locator(".widget-slider").filter(has_text="d_model").locator(".noUi-handle").first
                slider = root.locator('input[name="d_model"]')
                kernel, drawn, script = [], [], []
                for r in range(args.rounds + 2):
                    key = "ArrowRight" if r % 2 == 0 else "ArrowLeft"
                    try:
                        k_ms = timed_press(page, box, "img", handle, key)
                        page.wait_for_timeout(150)
                        b_ms = timed_press(page, root, "canvas", slider, key)
                        page.wait_for_timeout(150)
                    except Exception as error:  # a picture that does not change in 10 s
                        failed.append(f"{length} × {d_model}: {error}")
                        break
                    if r >= 2:
                        kernel.append(k_ms)
                        drawn.append(b_ms)
                        script.append(float(root.get_attribute("data-draw-ms")))
                if not kernel:
                    continue
                bare_ms = bare_page_steps(browser, length, d_model, args.rounds)
                k, b = statistics.median(kernel), statistics.median(drawn)
                print(f"{f'{length} × {d_model}':>16}  {k:15.1f}  {b:16.1f}  {k / b:5.1f}x"
                      f"  {statistics.median(script):13.1f}  {statistics.median(bare_ms):12.1f}")
                if not b < k:
                    failed.append(f"{length} × {d_model}: the browser's step ({b:.1f} ms) is not faster than "
                                  f"the kernel's round trip ({k:.1f} ms)")
            browser.close()
    for line in failed:
        print("FAIL " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
