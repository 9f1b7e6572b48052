"""Every browser-drawn explorer a lesson shows weighs at most 300 KB saved: the cell's outputs (the
widget view, the still picture, the page's HTML with its script) and the widget's saved state."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
VIEW = "application/vnd.jupyter.widget-view+json"
BUILDER = re.compile(r"explorers\.browser\.\w+_explorer\(")


def explorer_cells():
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        for cell in nb.cells:
            if cell.cell_type == "code" and BUILDER.search(cell.source):
                yield pytest.param(cell, state, id=f"{path.stem}:{BUILDER.search(cell.source).group(0)}")


CELLS = list(explorer_cells())


def test_the_lessons_show_browser_drawn_explorers():
    assert len(CELLS) >= 3


@pytest.mark.parametrize(("cell", "state"), CELLS)
def test_a_saved_explorer_weighs_at_most_300_kb(cell, state):
    models = [o["data"][VIEW]["model_id"] for o in cell.outputs if VIEW in o.get("data", {})]
    assert models, "the cell shows no widget"
    saved = len(json.dumps(cell.outputs)) + sum(len(json.dumps(state.get(m, {}))) for m in models)
    assert saved <= 300 * 1024, f"{saved / 1024:.0f} KB"
