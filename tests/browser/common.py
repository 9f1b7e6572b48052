"""What every browser test shares: where things are, what a missing browser means, and the copies of
the lessons the JupyterLab server serves (each lesson's explorers and the cells they need)."""

from __future__ import annotations

import ast
import builtins
import os
from pathlib import Path

import pytest
from IPython.core.inputtransformer2 import TransformerManager

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


VIEW_MIME = "application/vnd.jupyter.widget-view+json"
STATE_MIME = "application/vnd.jupyter.widget-state+json"
PROGRESS_PARTS = {"HBoxModel", "HTMLModel", "FloatProgressModel", "IntProgressModel", "LabelModel"}
ALWAYS_THERE = set(dir(builtins)) | {"get_ipython", "display", "In", "Out"}  # what a kernel has before any cell


def shows_explorer(cell, state: dict) -> bool:
    """Whether a cell's output is a widget with more in it than a progress bar's parts."""
    def models(model_id: str) -> set[str]:
        model = state.get(model_id, {})
        children = model.get("state", {}).get("children") or []
        return {model.get("model_name", "?")}.union(*(models(c.removeprefix("IPY_MODEL_")) for c in children))
    return any(models(out["data"][VIEW_MIME]["model_id"]) - PROGRESS_PARTS
               for out in cell.get("outputs", []) if VIEW_MIME in out.get("data", {}))


def names(source: str, bodies: bool = True) -> tuple[set[str], set[str]]:
    """(names a cell binds, names it reads), its IPython syntax turned into Python first; with ``bodies``
    false, what its functions' bodies read is left out (an exercise stub's body runs only once written)."""
    tree = ast.parse(TransformerManager().transform_cell(source))
    if not bodies:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.body = [ast.Pass()]
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            read.add(node.target.id)  # x += 1 reads x first
    return bound, read


def explorers_only(nb):
    """``nb`` cut to its explorer and exercise cells and the code cells they need: walking back from the
    end, every earlier cell that binds a name still needed is kept, and what it reads is needed in turn.
    The browser tests move explorers and type into an exercise; every cell of every lesson runs under
    nbval."""
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    needed, keep = set(), set()
    for index in reversed(range(len(nb.cells))):
        cell = nb.cells[index]
        if cell.cell_type != "code":
            continue
        exercise = "exercise" in cell.metadata.get("tags", [])
        bound, read = names(cell.source, bodies=not exercise)
        if shows_explorer(cell, state) or exercise or bound & needed:
            keep.add(index)
            needed = (needed - (bound - read)) | (read - ALWAYS_THERE)
    nb.cells = [cell for i, cell in enumerate(nb.cells) if i in keep]
    return nb
