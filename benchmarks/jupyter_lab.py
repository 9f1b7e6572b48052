"""JupyterLab for the benchmarks that drive it with a browser: started on 127.0.0.1 with settings of its
own, and a notebook's cells run from its menu."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter_lab(folder: Path, python_path: Path):
    """JupyterLab on 127.0.0.1 over ``folder / "course"``, with settings of its own (no news, no windowing), its
    kernels importing from ``python_path``. Yields its address and token."""
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


def run_all(page, timeout_s: float = 180) -> None:
    """Run every cell of the open notebook and wait until each has its prompt number."""
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for(timeout=90_000)
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('li.lm-Menu-item[data-command="runmenu:run-all"], '
                 'li.lm-Menu-item[data-command="notebook:run-all-cells"]').first.click()
    prompts = page.locator(".jp-CodeCell .jp-InputArea-prompt")
    deadline = time.monotonic() + timeout_s
    while not all(t.strip()[1:-2].isdigit() for t in prompts.all_inner_texts()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the cells did not finish: {prompts.all_inner_texts()}")
        time.sleep(0.5)
