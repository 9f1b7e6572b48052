"""A real browser over JupyterLab: a learner types a correct answer into lesson 04's exercise cell,
runs it, and sees the check's pass message under the cell.

Uses the shared JupyterLab server and headless Chromium (conftest.py: a copy of the notebooks
on 127.0.0.1, Debian's Chromium, no browser download). If no lesson has the 04.sinusoidal exercise
cell, the test uploads a small notebook holding that cell (setup import, heading, stub) and uses it.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import nbformat
import pytest

from .common import ARTIFACTS, NOTEBOOKS
from .lab import dismiss_dialogs, shut_down_kernels

EXERCISE_ID = "04.sinusoidal"
CHECK_LINE = f'H.check("{EXERCISE_ID}", my_sinusoidal)'
# What the learner types, line by line, as a person would: the editor indents the body after the colon;
# for the last line Shift+Home selects whatever indentation the editor offers, and typing replaces it.
TYPED_LINES = [
    "import torch",
    "def my_sinusoidal(n_positions, d_model, base=10000.0):",
    "i = torch.arange(d_model // 2, dtype=torch.float64)",
    "theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * base ** (-2 * i / d_model)",
    "return torch.stack((theta.sin(), theta.cos()), dim=-1).flatten(-2)",
]
PASSED = re.compile(rf"{re.escape(EXERCISE_ID)} · passed")


def lesson_with_the_exercise() -> str | None:
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if any(c.cell_type == "code" and "exercise" in c.metadata.get("tags", []) and CHECK_LINE in c.source
               for c in nb.cells):
            return path.name
    return None


def upload_small_notebook(server: dict) -> str:
    stub = nbformat.v4.new_code_cell('def my_sinusoidal(n_positions, d_model, base=10000.0):\n'
                                     '    raise NotImplementedError  # your code here\n\n' + CHECK_LINE)
    stub.metadata["tags"] = ["exercise"]
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import helpers as H"),
        nbformat.v4.new_markdown_cell("### Your turn · the sinusoidal encoding (implement, ~10 min)"), stub])
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    name = "exercise_check.ipynb"
    body = json.dumps({"type": "notebook", "format": "json", "content": json.loads(nbformat.writes(nb))}).encode()
    url = f"{server['base']}/api/contents/notebooks/{name}?token={server['token']}"
    request = urllib.request.Request(url, data=body, method="PUT", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        assert r.status in (200, 201)
    return name


def wait_for(predicate, timeout_s: float, what: str):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what}")


def test_typing_a_correct_answer_shows_the_pass_message(lab, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    notebook = lesson_with_the_exercise() or upload_small_notebook(lab)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{lab['base']}/lab/workspaces/exercise/tree/notebooks/{notebook}?reset&token={lab['token']}")
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
        dismiss_dialogs(page)
        page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\|\s*Idle")).first.wait_for(timeout=90_000)

        cells = page.locator(".jp-Notebook .jp-CodeCell")
        setup = cells.filter(has_text="import helpers as H").first
        exercise = cells.filter(has_text=CHECK_LINE).first
        # run the cell that imports helpers, then the learner's turn
        setup.locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        exercise.scroll_into_view_if_needed()
        editor = exercise.locator(".cm-content")
        editor.click()
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.press("Delete")
        for line in TYPED_LINES:
            page.keyboard.type(line)
            page.keyboard.press("Enter")
        page.keyboard.press("Shift+Home")
        page.keyboard.type(CHECK_LINE)
        page.keyboard.press("Shift+Enter")
        output = exercise.locator(".jp-OutputArea-output")
        text = wait_for(lambda: next((t for t in output.all_inner_texts() if EXERCISE_ID in t), None), 120,
                        f"the output of {EXERCISE_ID}'s cell")
        exercise.screenshot(path=str(ARTIFACTS / "exercise-04-sinusoidal.png"))
        typed = editor.inner_text()
        assert PASSED.search(text), f"{notebook}: the cell shows {text!r}; the editor holds:\n{typed}"
        assert "Traceback" not in text
    finally:
        page.close()
        shut_down_kernels(lab)
