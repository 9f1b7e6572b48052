"""The browser tests' shared fixtures: one JupyterLab server and one headless Chromium for the
whole run (each test opens its own page and shuts its kernels down after).

The server serves copies of the lessons cut to their explorers and the code cells those need
(common.explorers_only): what the browser tests move. Every cell of every lesson runs under nbval
twice already, so the rest would only be run a third time here."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from .common import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS, ROOT, explorers_only, unavailable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab server for every test that opens a notebook, over a copy of the notebooks."""
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} not found: apt-get install -y chromium")
    tmp = tmp_path_factory.mktemp("lab")
    root_dir = tmp / "course"
    shutil.copytree(NOTEBOOKS, root_dir / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for path in (root_dir / "notebooks").glob("[0-9][0-9]_*.ipynb"):
        nbformat.write(explorers_only(nbformat.read(path, as_version=4)), path)
    settings = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false",
                                                                            "checkForUpdates": False}))
    # render every cell (no windowing), so prompts and figures exist whether scrolled to or not
    (settings.parent / "notebook-extension").mkdir()
    (settings.parent / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}))
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(tmp / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp / "workspaces"), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp / "config"), "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--ServerApp.token={token}", f"--ServerApp.root_dir={root_dir}", "--ServerApp.open_browser=False",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(tmp / "lab.log", "w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root_dir)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("JupyterLab did not start:\n" + (tmp / "lab.log").read_text()[-3000:])
            time.sleep(0.5)
        yield {"base": base, "token": token, "log": tmp / "lab.log"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright: one for every browser test."""
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} not found: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (requirements-test.txt)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
