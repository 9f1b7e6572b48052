"""A real browser over JupyterLab: each lesson (its core and the sections with an explorer, see
conftest.py) runs top to bottom without an error, and moving the control that each of its explorers
registers (helpers.live.REGISTRY) by one notch with the keyboard changes the figure. How fast it
changes is measured by benchmarks/slider_latency.py and benchmarks/browser_slider_latency.py; here a
figure only has to change before a generous deadline (REACT_WITHIN_S), long enough that a busy
machine cannot fail the test.

JupyterLab is started on 127.0.0.1 (a free port, a random token) over a *copy* of the
notebooks (autosave never touches the committed files); Debian's Chromium is driven headless
by Playwright (no browser download). Screenshots of each figure before and after the key press
go to $BROWSER_ARTIFACTS (default test-artifacts/browser/).

Under CI (CI=true) a missing Chromium or Playwright is a failure, never a skip.
"""

from __future__ import annotations

import base64
import json
import re
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from .common import ARTIFACTS, NOTEBOOKS, VIEW_MIME

STATE_MIME = "application/vnd.jupyter.widget-state+json"
CONTROL_MODELS = {"IntSliderModel", "FloatSliderModel", "FloatLogSliderModel", "SelectionSliderModel",
                  "DropdownModel"}



def registered_controls() -> dict[str, list[str]]:
    """notebook → the descriptions of the controls the test moves: for every explorer in the
    registry (helpers.live.REGISTRY) that its lesson shows, its ``moves`` control, labelled as its
    builder labels it (an explorer kept out of the lessons, ``in_lesson=False``, is in no notebook)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import helpers.explorers  # noqa: F401 (importing it registers every explorer)
    from helpers.live import REGISTRY

    controls: dict[str, list[str]] = {}
    for entry in REGISTRY.values():
        if not entry.in_lesson:
            continue
        live = entry.build_example()
        controls.setdefault(f"{entry.lesson}.ipynb", []).append(live.controls[entry.moves].description)
        plt.close(live.fig)
    return dict(sorted(controls.items()))


CONTROLS = registered_controls()
REACT_WITHIN_S = 20.0  # a deadline for a change, not a speed bar (that is benchmarks/)


def widget_controls(path: Path) -> dict[str, str]:
    """description → model name of the value controls a notebook shows: those its outputs' widget views
    reach in its saved widget state (a widget built only to draw a picture, and never shown, is not one)."""
    nb = nbformat.read(path, as_version=4)
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    todo = [out["data"][VIEW_MIME]["model_id"] for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", []) if VIEW_MIME in out.get("data", {})]
    shown: set[str] = set()
    while todo:
        model_id = todo.pop()
        if model_id in shown or model_id not in state:
            continue
        shown.add(model_id)
        todo += [child.removeprefix("IPY_MODEL_") for child in state[model_id]["state"].get("children") or []]
    return {state[m]["state"].get("description"): state[m]["model_name"] for m in shown
            if state[m].get("model_name") in CONTROL_MODELS}


def test_every_lesson_with_controls_has_a_registered_explorer():
    lessons = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert "04_sinusoidal.ipynb" in lessons, "lesson 04 (the main explorer) is missing"
    for name in lessons:
        controls = widget_controls(NOTEBOOKS / name)
        if controls:
            assert name in CONTROLS, f"{name} has controls {sorted(controls)} but no registered explorer"
    for name, descriptions in CONTROLS.items():
        assert (NOTEBOOKS / name).is_file(), f"an explorer is registered for {name}, which does not exist"
        for description in descriptions:
            assert description in widget_controls(NOTEBOOKS / name), f"{name}: no control described {description!r}"


def shut_down_kernels(lab) -> None:
    req = urllib.request.Request(f"{lab['base']}/api/sessions?token={lab['token']}")
    with urllib.request.urlopen(req, timeout=10) as r:
        sessions = json.load(r)
    for s in sessions:
        urllib.request.urlopen(urllib.request.Request(
            f"{lab['base']}/api/sessions/{s['id']}?token={lab['token']}", method="DELETE"), timeout=10)


def run_menu(page, menu: str, *commands: str) -> None:
    """Click a main-menu entry: the first item carrying one of ``commands``."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(f"^{menu}$")).click()
    page.locator(", ".join(f'li.lm-Menu-item[data-command="{c}"]' for c in commands)).first.click()


def dismiss_dialogs(page) -> None:
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    if accept.count():
        accept.first.click()


def run_all_cells(page, timeout_s: float = 180) -> None:
    """Clear all outputs, run every cell in the notebook's fresh kernel, wait until done."""
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    dismiss_dialogs(page)
    # the kernel must be up before running: the status bar reads "… | Idle"
    page.locator(".jp-StatusBar-Widget", has_text=re.compile(r"\|\s*Idle")).first.wait_for(timeout=90_000)
    run_menu(page, "Edit", "editmenu:clear-all", "notebook:clear-all-cell-outputs")
    prompts = page.locator(".jp-CodeCell .jp-InputArea-prompt")
    assert all(t.strip() in {"[ ]:", ""} for t in prompts.all_inner_texts()), "outputs were not cleared"
    run_menu(page, "Run", "runmenu:run-all", "notebook:run-all-cells")
    deadline = time.monotonic() + timeout_s
    while True:
        texts = prompts.all_inner_texts()
        if texts and all(re.fullmatch(r"\[\d+\]:", t.strip()) for t in texts):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"cells did not finish within {timeout_s:.0f} s; prompts: {texts}")
        time.sleep(0.5)


def errors_shown(page) -> list[str]:
    problems = []
    for text in page.locator(".jp-OutputArea-output").all_inner_texts():
        if "Traceback" in text or re.search(r"^\w*(Error|Exception)\b", text, re.M) \
                or "Error displaying widget" in text:
            problems.append(text[:500])
    for text in page.locator(".jp-OutputArea-output").all_inner_texts():
        if "Loading widget..." in text or "Model not found" in text:
            problems.append(text[:200])
    return problems


def image_src(img) -> str:
    return img.get_attribute("src") or ""


def image_bytes(src: str) -> bytes:
    return base64.b64decode(src.split(",", 1)[1]) if src.startswith("data:") else src.encode()


def control_parts(page, description: str):
    """The control's widget element, the element to focus and the figure under it."""
    label = re.compile(rf"^\s*{re.escape(description)}\s*$")
    control = page.locator(".widget-slider, .widget-dropdown").filter(
        has=page.locator(".widget-label", has_text=label)).first
    control.wait_for(timeout=30_000)
    focus = control.locator(".noUi-handle, select").first
    box = control.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    img = box.locator(".widget-output img").first
    img.wait_for(timeout=30_000)
    return control, focus, box, img


def move_one_notch(page, notebook: str, description: str, shot: str) -> None:
    """Move the control described ``description`` by one notch from the keyboard (or pick the
    next option of a dropdown) and check the figure under it changes within REACT_WITHIN_S."""
    control, focus, box, img = control_parts(page, description)
    box.scroll_into_view_if_needed()
    before = image_src(img)
    assert before, f"{notebook}: the figure under {description!r} has no image"
    box.screenshot(path=str(ARTIFACTS / f"{shot}-before.png"))

    focus.focus()
    is_select = focus.evaluate("e => e.tagName") == "SELECT"
    next_option = focus.evaluate("e => (e.selectedIndex + 1) % e.options.length") if is_select else None
    start = time.monotonic()
    if is_select:  # a dropdown: choose the next option, as a click in its list would
        focus.select_option(index=next_option)
    else:  # a slider: one notch from the keyboard, to the left if it starts at its maximum
        at_max = focus.get_attribute("aria-valuenow") == focus.get_attribute("aria-valuemax")
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
    after, waited = before, 0.0
    while time.monotonic() - start < REACT_WITHIN_S:
        after = image_src(img)
        if after and after != before:
            waited = time.monotonic() - start
            break
        time.sleep(0.02)
    page.wait_for_timeout(300)  # let the image settle before the screenshot
    box.screenshot(path=str(ARTIFACTS / f"{shot}-after.png"))
    assert after != before and image_bytes(after) != image_bytes(before), (
        f"{notebook}: figure did not change within {REACT_WITHIN_S} s of pressing a key on {description!r}")
    natural, shown = img.evaluate("i => [i.naturalWidth, i.getBoundingClientRect().width]")
    assert natural >= 1.9 * shown > 0, (
        f"{notebook}: the step under {description!r} has {natural} pixels shown {shown:.0f} wide: "
        "not drawn for 2× screens")
    print(f"{notebook}: {description!r} moved, figure changed after {waited * 1e3:.0f} ms; "
          f"screenshots {ARTIFACTS}/{shot}-before.png, -after.png")


# lesson 04's explorer is drawn by the browser (an anywidget, no ipywidgets controls): test_lab_anywidget.py
@pytest.mark.parametrize("notebook", sorted(CONTROLS))
def test_lesson_runs_and_its_figures_follow_the_keyboard(lab, browser, notebook):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = Path(notebook).stem
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        # a workspace of its own, reset: only this notebook is open
        page.goto(f"{lab['base']}/lab/workspaces/{stem}/tree/notebooks/{notebook}?reset&token={lab['token']}")
        run_all_cells(page)
        problems = errors_shown(page)
        assert not problems, f"{notebook}: cells show errors:\n" + "\n---\n".join(problems)
        descriptions = CONTROLS[notebook]
        for i, description in enumerate(descriptions):
            move_one_notch(page, notebook, description, stem if len(descriptions) == 1 else f"{stem}-{i + 1}")
        problems = errors_shown(page)
        assert not problems, f"{notebook}: errors after moving {descriptions}:\n" + "\n---\n".join(problems)
    finally:
        page.close()
        shut_down_kernels(lab)
