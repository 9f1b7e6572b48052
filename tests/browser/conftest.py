"""The browser tests' shared fixtures: one JupyterLab server and one headless Chromium for the
whole run (each test opens its own page and shuts its kernels down after).

The server serves copies of the lessons cut to their explorers and the code cells those need
(common.explorers_only): what the browser tests move. Every cell of every lesson runs under nbval
twice already, so the rest would only be run a third time here."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from .common import CHROMIUM, CHROMIUM_ARGS, NOTEBOOKS, ROOT, explorers_only, unavailable
from .lab import jupyter_lab


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
    try:
        with jupyter_lab(tmp, ROOT) as (base, token):
            yield {"base": base, "token": token, "log": tmp / "lab.log"}
    except RuntimeError as error:  # it did not start
        pytest.fail(str(error))


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
