"""JupyterLab for the browser tests and the slider benchmark: start it (``jupyter_lab``), and drive its page:
run every cell of a notebook, read the errors its outputs show, answer a dialog, shut the kernels down."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter_lab(folder: Path, python_path: Path):
    """JupyterLab on 127.0.0.1 over ``folder / "course"``, with settings of its own (no news; every cell
    rendered, no windowing, so prompts and figures exist whether scrolled to or not), its kernels importing
    from ``python_path``; its log in ``folder / "lab.log"``. Yields its address and token; raises
    RuntimeError, with the log's end, if it does not start within two minutes."""
    settings = folder / "settings" / "@jupyterlab"
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    (settings / "notebook-extension").mkdir()
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"), "PYTHONPATH": str(python_path),
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
