"""Committed notebooks carry their widget state the way GitHub and nbviewer render it.

A notebook whose cells display widgets stores, in ``metadata.widgets``, the entry
``application/vnd.jupyter.widget-state+json`` with ``version_major``, ``version_minor`` and a
``state`` mapping model id → {model_name, model_module, model_module_version, state}. Every
widget view in a cell's outputs must point at a model in that state, and each Output widget
that shows a figure must carry the image, so a reader who runs nothing still sees it.
"""

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"


def widget_views(nb) -> list[str]:
    return [out["data"][VIEW_MIME]["model_id"] for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", []) if VIEW_MIME in out.get("data", {})]


def check_widget_state(nb, name: str) -> None:
    views = widget_views(nb)
    if not views:
        return
    widgets = nb.metadata.get("widgets", {})
    assert STATE_MIME in widgets, f"{name}: displays widgets but has no metadata.widgets[{STATE_MIME!r}]"
    entry = widgets[STATE_MIME]
    for key in ("state", "version_major", "version_minor"):
        assert key in entry, f"{name}: widget state has no {key!r}"
    assert isinstance(entry["version_major"], int) and isinstance(entry["version_minor"], int), name
    state = entry["state"]
    assert isinstance(state, dict) and state, f"{name}: empty widget state"
    for model_id, model in state.items():
        for key in ("model_name", "model_module", "model_module_version", "state"):
            assert key in model, f"{name}: widget model {model_id} has no {key!r}"
        assert isinstance(model["state"], dict), f"{name}: widget model {model_id} state is not a mapping"
    missing = [m for m in views if m not in state]
    assert not missing, f"{name}: widget views without saved state: {missing}"
    for model_id, model in state.items():
        if model["model_name"] == "OutputModel" and model_id in _output_models_of_views(state, views):
            outputs = model["state"].get("outputs", [])
            assert outputs, f"{name}: Output widget {model_id} was saved empty (the figure would not render)"


def _output_models_of_views(state: dict, views: list[str]) -> set[str]:
    """Output models reachable from the displayed widgets (children of boxes, recursively)."""
    seen, todo = set(), list(views)
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in state:
            continue
        seen.add(model_id)
        for child in state[model_id]["state"].get("children", []):
            if isinstance(child, str) and child.startswith("IPY_MODEL_"):
                todo.append(child.removeprefix("IPY_MODEL_"))
    return {m for m in seen if state[m]["model_name"] == "OutputModel"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_widget_state_is_well_formed(path):
    check_widget_state(nbformat.read(path, as_version=4), path.name)


def test_there_are_notebooks_with_widgets():
    assert any(widget_views(nbformat.read(p, as_version=4)) for p in NOTEBOOKS)


def _notebook(state_entry, model_id="abc"):
    nb = nbformat.v4.new_notebook()
    out = nbformat.v4.new_output("display_data", data={VIEW_MIME: {"model_id": model_id, "version_major": 2,
                                                                     "version_minor": 0}, "text/plain": "VBox()"})
    nb.cells = [nbformat.v4.new_code_cell("w", outputs=[out])]
    if state_entry is not None:
        nb.metadata["widgets"] = {STATE_MIME: state_entry}
    return nb


GOOD_MODEL = {"model_name": "VBoxModel", "model_module": "@jupyter-widgets/controls",
              "model_module_version": "2.0.0", "state": {"children": ["IPY_MODEL_out"]}}
GOOD_OUTPUT = {"model_name": "OutputModel", "model_module": "@jupyter-widgets/output",
               "model_module_version": "1.0.0", "state": {"outputs": [{"output_type": "display_data"}]}}


def test_the_check_accepts_a_good_state_and_rejects_broken_ones():
    good = {"version_major": 2, "version_minor": 0, "state": {"abc": GOOD_MODEL, "out": GOOD_OUTPUT}}
    check_widget_state(_notebook(good), "good")
    broken = [
        None,
        {"version_major": 2, "version_minor": 0},
        {"state": {"abc": GOOD_MODEL, "out": GOOD_OUTPUT}},
        {"version_major": 2, "version_minor": 0, "state": {"abc": {"model_name": "VBoxModel", "state": {}}}},
        {"version_major": 2, "version_minor": 0, "state": {"other": GOOD_MODEL}},
        {"version_major": 2, "version_minor": 0,
         "state": {"abc": GOOD_MODEL, "out": {**GOOD_OUTPUT, "state": {"outputs": []}}}},
    ]
    for entry in broken:
        with pytest.raises(AssertionError):
            check_widget_state(_notebook(entry), "broken")
