"""What every browser test shares: where things are, what a missing browser means, and the copies of
the lessons the JupyterLab server serves (core and explorer sections)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / os.environ.get("BROWSER_ARTIFACTS", "test-artifacts/browser")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def unavailable(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (under CI the browser test must run; .ci/run installs chromium)")
    pytest.skip(reason)


SECTIONS = load_tool("lesson_sections")
VIEW_MIME = "application/vnd.jupyter.widget-view+json"


STATE_MIME = "application/vnd.jupyter.widget-state+json"
PROGRESS_PARTS = {"HBoxModel", "HTMLModel", "FloatProgressModel", "IntProgressModel", "LabelModel"}


def shows_explorer(cell, state: dict) -> bool:
    """Whether a cell's output is a widget with more in it than a progress bar's parts."""
    def models(model_id: str) -> set[str]:
        model = state.get(model_id, {})
        children = model.get("state", {}).get("children") or []
        return {model.get("model_name", "?")}.union(*(models(c.removeprefix("IPY_MODEL_")) for c in children))
    return any(models(out["data"][VIEW_MIME]["model_id"]) - PROGRESS_PARTS
               for out in cell.get("outputs", []) if VIEW_MIME in out.get("data", {}))


def with_explorers_only(nb):
    """``nb`` without the deeper sections that show no explorer and that no such section needs."""
    found = SECTIONS.sections(nb)
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    shows = {s.title for s in found if any(shows_explorer(cell, state) for cell in nb.cells[s.start:s.stop])}
    keep, added = set(shows), True
    while added:  # and what those need, and what that needs
        wanted = {need for s in found if s.title in keep for need in s.needs}
        added = bool(wanted - keep)
        keep |= wanted
    dropped = {i for s in found if s.title not in keep for i in range(s.start, s.stop)}
    nb.cells = [cell for i, cell in enumerate(nb.cells) if i not in dropped]
    return nb
