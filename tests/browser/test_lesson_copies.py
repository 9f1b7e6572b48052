"""The copies of the lessons the browser tests' JupyterLab serves (common.explorers_only): each lesson's
explorers and exercises and the code cells they need, found from the names each cell binds and reads."""

from __future__ import annotations

import re

import nbformat

from .common import NOTEBOOKS, STATE_MIME, explorers_only, names, shows_explorer


def widget_cell(source: str, model_id: str):
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": {"model_id": model_id, "version_major": 2, "version_minor": 0}})]
    return cell


def test_a_cells_names_are_read_through_ipython_syntax():
    assert names("%matplotlib inline\nimport torch.nn as nn\nfrom helpers import explorers\ny = f(x)") == (
        {"nn", "explorers", "y"}, {"get_ipython", "f", "x"})
    assert names("def g(a):\n    return a + b\nfor i in range(3):\n    total += i") == (
        {"g", "i", "total"}, {"a", "b", "range", "i", "total"})  # a parameter is the function's own


def test_an_explorer_keeps_the_cells_it_needs_and_nothing_else():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 08 · A lesson"),
                nbformat.v4.new_code_cell("import torch\nfrom helpers import explorers"),
                nbformat.v4.new_code_cell("slow = torch.randn(10**8).sum()  # nothing the explorer needs"),
                nbformat.v4.new_code_cell("x = 3"),
                widget_cell("train()", "bar"),  # a progress bar: not an explorer
                nbformat.v4.new_code_cell("x = x + 1"),
                nbformat.v4.new_code_cell("x = 100  # after the explorer: not needed"),
                nbformat.v4.new_code_cell("table = torch.ones(3)  # read only by the stub's body"),
                nbformat.v4.new_code_cell("def my_fn(p):\n    return table[p]\n\nH.check('99.x', my_fn)"),
                ]
    nb.cells[-1].metadata["tags"] = ["exercise"]
    nb.cells.insert(6, widget_cell("view = explorers.some_explorer(torch.tensor(x))", "box"))
    models = {"bar": ("HBoxModel", ["IPY_MODEL_p"]), "p": ("FloatProgressModel", []),
              "box": ("VBoxModel", ["IPY_MODEL_s", "IPY_MODEL_o"]), "s": ("IntSliderModel", []),
              "o": ("OutputModel", [])}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        key: {"model_name": name, "state": {"children": children}} for key, (name, children) in models.items()}}}
    kept = explorers_only(nb)
    assert [c.source for c in kept.cells] == ["import torch\nfrom helpers import explorers", "x = 3", "x = x + 1",
                                              "view = explorers.some_explorer(torch.tensor(x))",
                                              "def my_fn(p):\n    return table[p]\n\nH.check('99.x', my_fn)"]


def test_every_lesson_keeps_each_cell_that_shows_an_explorer_and_each_cell_that_builds_one():
    checked = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
        shown = [c.source for c in nb.cells if c.cell_type == "code" and shows_explorer(c, state)]
        # a cell that calls an explorer's builder (not one that borrows an explorer module's colours)
        built = [c.source for c in nb.cells if c.cell_type == "code"
                 and re.search(r"explorers\.(browser\.)?\w+_explorer\(", c.source) and "picture()" not in c.source]
        if not shown and not built:
            continue  # a lesson without an explorer (12, for now): nothing to keep
        checked.append(path.name)
        kept = [c.source for c in explorers_only(nb).cells]
        assert shown and all(cell in kept for cell in shown + built), path.name
    assert len(checked) >= 12, checked
