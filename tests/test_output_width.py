"""Printed output fits a notebook column: no saved line of a lesson's printed text is wider than
90 characters, so no page (JupyterLab's default width, Colab, the site) breaks a line mid-word or
hides its end behind a scroll bar. Listings of the helpers' own source (``inspect.getsource``,
``core_lines``, ``H.show_source`` and ``H.show_code``, folded) are the repository's code at its 120 columns,
and are exempt."""

from pathlib import Path

import nbformat
import pytest

COLUMN = 90
NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LISTINGS = ("getsource(", "core_lines(", "show_source(", "show_code(")
FIGURE_KINDS = ("image/png", "application/vnd.jupyter.widget-view+json")


def printed_text(output) -> str:
    """The text an output shows: a stream, or a result's plain text when it has no picture."""
    if output.get("output_type") == "stream":
        return output.get("text", "")
    data = output.get("data", {})
    if any(kind in data for kind in FIGURE_KINDS):
        return ""
    return data.get("text/plain", "")


def wide_lines(nb) -> list[tuple[int, int, str]]:
    """(cell index, width, start of line) for every printed line wider than COLUMN."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or any(call in cell.source for call in LISTINGS):
            continue
        for output in cell.get("outputs", []):
            found += [(i, len(line), line[:50]) for line in printed_text(output).splitlines() if len(line) > COLUMN]
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_printed_line_fits_a_notebook_column(path):
    wide = wide_lines(nbformat.read(path, as_version=4))
    assert not wide, (f"{path.name}: {len(wide)} printed lines wider than {COLUMN} characters "
                      f"(cell, width, start): {wide[:8]}")


def test_the_check_finds_a_wide_line_and_exempts_a_source_listing():
    nb = nbformat.v4.new_notebook()
    wide, listing = nbformat.v4.new_code_cell("print(x)"), nbformat.v4.new_code_cell("print(inspect.getsource(f))")
    for cell in (wide, listing):
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="short\n" + "w" * 91 + "\n")]
    nb.cells += [wide, listing]
    assert wide_lines(nb) == [(0, 91, "w" * 50)]
