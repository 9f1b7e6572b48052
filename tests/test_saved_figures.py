"""Every explorer's saved output carries its figure as a picture, so a reader without a kernel
(GitHub, nbviewer, the site, an untrusted notebook) sees the figure, not the widget's text."""

from pathlib import Path

import nbformat
import pytest

from helpers.plots import COLUMN_PX, FIGURE_REPORT
from helpers.training import PROGRESS_MARK

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"


def explorer_outputs(nb):
    """(cell index, output) for every displayed explorer: a widget view shown with a text form
    (a training cell's progress bar has one too, and is marked as a progress bar)."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET in data and "text/plain" in data and not out.get("metadata", {}).get(PROGRESS_MARK):
                yield i, out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_explorer_output_has_its_figure_as_an_image(path):
    nb = nbformat.read(path, as_version=4)
    missing = [i for i, out in explorer_outputs(nb) if "image/png" not in out["data"]]
    assert not missing, (f"{path.name}: explorer cells {missing} saved no image; without a kernel they show "
                         "no figure (regenerate the notebook: make notebook NB=…)")


def test_the_check_finds_a_missing_image():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("explorer")
    cell.outputs = [nbformat.v4.new_output("display_data", data={WIDGET: {"model_id": "x"}, "text/plain": "VBox()"})]
    nb.cells.append(cell)
    assert [i for i, out in explorer_outputs(nb) if "image/png" not in out["data"]] == [0]


def progress_outputs(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if out.get("metadata", {}).get(PROGRESS_MARK):
                yield i, out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_saved_progress_bar_leaves_a_plain_text_line(path):
    nb = nbformat.read(path, as_version=4)
    bars = list(progress_outputs(nb))
    for i, out in bars:
        line = out["data"].get("text/plain", "")
        assert line.rstrip().endswith("steps") and "\n" not in line.strip(), \
            f"{path.name}: cell {i}'s progress bar saved {line!r}, not a line such as 'training: 600 steps'"
    # a widget view with no marked text form is a bar saved before bars had one: regenerate the notebook
    bare = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for out in cell.get("outputs", []) if WIDGET in out.get("data", {}) and "text/plain" not in out["data"]]
    assert not bare, f"{path.name}: cells {bare} saved a widget view with no text (regenerate: make notebook NB=…)"


def test_a_progress_bar_is_not_taken_for_an_explorer():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("train")
    cell.outputs = [nbformat.v4.new_output("display_data", data={WIDGET: {"model_id": "x"}, "text/plain": "t: 5 steps"},
                                           metadata={PROGRESS_MARK: True})]
    nb.cells.append(cell)
    assert list(explorer_outputs(nb)) == [] and [i for i, _ in progress_outputs(nb)] == [0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_saved_figure_was_reported_by_the_figure_check(path):
    # the course's runs check every figure a cell shows (helpers.plots.figure_problems: text under
    # 12 CSS px as shown, wider than the column, look-alike series, a legend over data) and report
    # each problem in that cell's output
    nb = nbformat.read(path, as_version=4)
    found = [(i, out.get("text", "").strip()[:300]) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
             for out in cell.get("outputs", []) if FIGURE_REPORT in out.get("text", "")]
    assert not found, f"{path.name}: figure check reports (cell, report): {found}"


def picture_widths(outputs) -> list[tuple[int, float]]:
    """(pixel width, CSS width shown) of each PNG among ``outputs``: the width its metadata gives,
    or, without one, half its pixels (the course sends twice the pixels it shows)."""
    import base64
    import io

    from PIL import Image

    found = []
    for out in outputs:
        png = out.get("data", {}).get("image/png")
        if png:
            width = Image.open(io.BytesIO(base64.b64decode(png))).size[0]
            found.append((width, out.get("metadata", {}).get("image/png", {}).get("width", width / 2)))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_saved_figure_fits_the_sites_column(path):
    # wider than the column, the site shrinks a figure and its text with it
    nb = nbformat.read(path, as_version=4)
    wide = [(i, pixels, shown) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for pixels, shown in picture_widths(cell.get("outputs", [])) if shown > COLUMN_PX]
    assert not wide, f"{path.name}: pictures (cell, pixels, CSS width) wider than {COLUMN_PX} CSS px: {wide}"
    # and each is drawn with twice the pixels it is shown at, so its CSS width is half its pixels
    off = [(i, pixels, shown) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
           for pixels, shown in picture_widths(cell.get("outputs", [])) if abs(pixels - 2 * shown) > 1]
    assert not off, f"{path.name}: pictures (cell, pixels, CSS width) not drawn at twice their width: {off}"


def test_the_width_check_reads_a_picture_and_its_metadata():
    import base64
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1700, 10), "white").save(buf, format="PNG")
    png = base64.b64encode(buf.getvalue()).decode()
    outs = [{"data": {"image/png": png}, "metadata": {"image/png": {"width": 850}}}, {"data": {"image/png": png}}]
    assert picture_widths(outs) == [(1700, 850), (1700, 850.0)]


def blurred(outputs) -> list[tuple[int, int]]:
    """(pixel width, width shown) of each PNG among ``outputs`` without twice the pixels of its shown width."""
    import base64
    import io

    from PIL import Image

    found = []
    for out in outputs:
        png = out.get("data", {}).get("image/png")
        if png:
            width = Image.open(io.BytesIO(base64.b64decode(png))).size[0]
            shown = out.get("metadata", {}).get("image/png", {}).get("width", width)
            if width < 1.9 * shown:
                found.append((width, shown))
    return found


def blurred_widget_pictures(nb) -> list[tuple[str, int, int]]:
    """(widget model id, pixel width, width shown) for each picture held by an Output widget in the saved
    widget state without twice the pixels of its shown width."""
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return [(model_id, *sizes) for model_id, model in state.items() if model.get("model_name") == "OutputModel"
            for sizes in blurred(model.get("state", {}).get("outputs", []))]


def blurred_pictures(nb) -> list[tuple[int, int, int]]:
    """(cell, pixel width, width shown) for each saved picture without twice the pixels of its shown width."""
    return [(i, *sizes) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for sizes in blurred(cell.get("outputs", []))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_saved_figure_is_drawn_for_2x_screens(path):
    nb = nbformat.read(path, as_version=4)
    blurred = blurred_pictures(nb)
    assert not blurred, (f"{path.name}: pictures (cell, pixels, shown width) without twice the pixels: {blurred}; "
                         "draw figures in the course style (plots.use_course_style: retina), and regenerate")
    # the last slider step each explorer's Output widget holds, which JupyterLab shows for a trusted notebook
    steps = blurred_widget_pictures(nb)
    assert not steps, f"{path.name}: explorer steps (widget, pixels, shown width) without twice the pixels: {steps}"


def test_a_1x_explorer_step_in_saved_widget_state_is_found():
    import base64
    import io

    from PIL import Image

    def state(width, shown):
        buf = io.BytesIO()
        Image.new("RGB", (width, 10), "white").save(buf, format="PNG")
        out = {"output_type": "display_data", "data": {"image/png": base64.b64encode(buf.getvalue()).decode()},
               "metadata": {} if shown is None else {"image/png": {"width": shown, "height": 5}}}
        return {"model_name": "OutputModel", "state": {"outputs": [out]}}

    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        "sharp": state(200, 100), "flat": state(100, 100), "unsized": state(100, None)}}}
    assert blurred_widget_pictures(nb) == [("flat", 100, 100), ("unsized", 100, 100)]
