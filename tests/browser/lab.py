"""Driving JupyterLab's page in the browser tests: run every cell of a notebook, read the errors its
outputs show, answer a dialog, shut the kernels down."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest


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
