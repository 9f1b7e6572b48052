"""Every figure a lesson shows has alt text that says what it shows, kept in the notebook.

A code cell with an ``image/png`` output carries its alt text as MyST-NB's cell option,
``metadata["mystnb"]["image"]["alt"]``: the site (``make site``) writes it into the figure's ``<img alt>``.
MyST-NB takes only width and height from an output's own metadata, so the alt cannot live there.
One line of at most 200 characters, a sentence and not a file name or a bare "figure". A cell that
carries an alt must still show a picture: an alt left behind on a cell whose figure went is stale.
"""

import re
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PNG = "image/png"
MAX_CHARS = 200
MIN_WORDS = 5
# what a page shows when no alt is given (MyST-NB's hashed output file), or a bare picture name
FILE_NAME = re.compile(r"(^|[\s/])[\w.-]+\.(png|jpe?g|gif|svg|pdf)\b|\b[0-9a-f]{32,}\b", re.IGNORECASE)
GENERIC = {"figure", "plot", "image", "picture", "chart", "graph", "output", "explorer"}


def alt_of(cell):
    """The cell's MyST-NB alt option, or None when it has none."""
    option = cell.get("metadata", {}).get("mystnb", {})
    image = option.get("image", {}) if isinstance(option, dict) else {}
    return image.get("alt") if isinstance(image, dict) else None


def shows(cell, prefix: str) -> bool:
    return any(key.startswith(prefix) for out in cell.get("outputs", []) for key in out.get("data", {}))


def alt_problems(nb) -> list[str]:
    """What is wrong with the notebook's figure alt texts, one line per problem (empty: nothing)."""
    problems = []
    for i, cell in enumerate(nb.cells):
        alt = alt_of(cell)
        where = f"cell {i}"
        if cell.cell_type == "code" and shows(cell, PNG):
            if alt is None:
                problems.append(f"{where}: a figure without alt text (metadata mystnb.image.alt)")
                continue
            if not isinstance(alt, str):
                problems.append(f"{where}: alt is {type(alt).__name__}, not text")
                continue
            words = alt.split()
            if "\n" in alt or "\r" in alt:
                problems.append(f"{where}: alt spans more than one line")
            if alt != alt.strip():
                problems.append(f"{where}: alt starts or ends with white space")
            if len(alt) > MAX_CHARS:
                problems.append(f"{where}: alt is {len(alt)} characters, over {MAX_CHARS}")
            if FILE_NAME.search(alt):
                problems.append(f"{where}: alt names a file, not what the figure shows: {alt!r}")
            if alt.strip(" .").lower() in GENERIC or len(words) < MIN_WORDS:
                problems.append(f"{where}: alt {alt!r} does not say what the figure shows")
        elif alt is not None and not (cell.cell_type == "code" and shows(cell, "image/")):
            problems.append(f"{where}: alt text on a {cell.cell_type} cell that shows no image (stale)")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_figure_has_one_line_alt_text_and_no_alt_is_stale(path):
    problems = alt_problems(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_the_lessons_have_figures_to_check():
    figures = sum(shows(c, PNG) for p in NOTEBOOKS for c in nbformat.read(p, as_version=4).cells
                  if c.cell_type == "code")
    assert len(NOTEBOOKS) == 13 and figures >= 30, (len(NOTEBOOKS), figures)


# The check itself, on notebooks built here: each kind of fault is reported.

def figure_cell(alt=None, data=None):
    cell = new_code_cell("plt.show()", outputs=[new_output("display_data", data=data or {PNG: "iVBORw0KGgo=",
                                                                                         "text/plain": "<Figure>"})])
    if alt is not None:
        cell.metadata["mystnb"] = {"image": {"alt": alt}}
    return cell


GOOD = "Line plot of the loss against position: flat within L, rising past it"


@pytest.mark.parametrize("cell, fault", [
    (figure_cell(), "without alt text"),
    (figure_cell(""), "does not say"),
    (figure_cell("figure"), "does not say"),
    (figure_cell("Plot."), "does not say"),
    (figure_cell(GOOD + "\n"), "more than one line"),
    (figure_cell("Heat map of the scores,\nbright on the diagonal"), "more than one line"),
    (figure_cell("x" * 80 + " " + "y" * 130), "characters, over"),
    (figure_cell("3f5a0c9e7b1d2468ace013579bdf2468ace013579bdf2468ace013579bdf2468.png"), "names a file"),
    (figure_cell("The figure saved as loss_by_position.png for the page"), "names a file"),
    (figure_cell(7), "not text"),
    (new_code_cell("print(1)", metadata={"mystnb": {"image": {"alt": GOOD}}}), "stale"),
    (new_markdown_cell("Some prose", metadata={"mystnb": {"image": {"alt": GOOD}}}), "stale"),
], ids=["missing", "empty", "bare-figure", "bare-plot", "trailing-newline", "two-lines", "too-long",
        "hashed-file-name", "file-name", "not-text", "stale-code", "stale-markdown"])
def test_the_check_reports_each_fault(cell, fault):
    problems = alt_problems(new_notebook(cells=[cell]))
    assert any(fault in p for p in problems), problems


def test_the_check_passes_a_good_alt_on_an_explorer_figure():
    explorer = figure_cell(GOOD, data={PNG: "iVBORw0KGgo=", "application/vnd.jupyter.widget-view+json": {},
                                       "text/plain": "<explorer>"})
    assert alt_problems(new_notebook(cells=[figure_cell(GOOD), explorer, new_code_cell("x = 1")])) == []
