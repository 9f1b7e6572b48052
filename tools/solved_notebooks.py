"""Copies of the lessons with every exercise solved, for nbval.

    python tools/solved_notebooks.py --out DIR notebooks/*.ipynb

In each copy, every code cell tagged ``exercise`` holds its exercise's solution (``H.solution``'s
code, what it prints or draws captured), and its last line, the ``H.check(…)`` call, prints one
line: ``<id> · passed``. That line
is also the cell's stored output, so nbval over the copies checks three things in one run: every
solution passes its check inside its lesson, no other cell's output changes when the learner's
cells are solved (every other stored output is the committed one), and every "Going deeper" section
runs on its own after the core. A failing check prints its whole message under that line, which
nbval then shows as the difference.

Each section runs on its own: the copy saves the kernel's names after the core and after each
section (tools/lesson_sections.py), and before a section puts back those of the core and of the
sections it says to run first, so a name that only another section defines is a NameError there.
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
import textwrap
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import lesson_sections  # noqa: E402

from helpers.exercises import core  # noqa: E402

EXERCISE_TAG = "exercise"
SECTION_TAG = "section-names"  # the cells the copy adds to save and restore the kernel's names


def exercise_id(cell) -> str | None:
    """The id of the exercise a cell tagged ``exercise`` checks (its last ``H.check("…"`` line), else None."""
    if cell.cell_type != "code" or EXERCISE_TAG not in cell.metadata.get("tags", []):
        return None
    tree = ast.parse(cell.source)
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    if isinstance(call, ast.Call) and ast.unparse(call.func) == "H.check" and call.args \
            and isinstance(call.args[0], ast.Constant):
        return call.args[0].value
    return None


def solved_source(exercise) -> str:
    """The solution, what it shows captured (an explore solution prints its run), and its closing
    ``H.check(…)`` turned into one printed verdict line."""
    tree = ast.parse(exercise.solution)
    body, last = tree.body[:-1], tree.body[-1]
    if not (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)):
        raise ValueError(f"{exercise.id}: its solution must end with the H.check(…) call")
    lines = exercise.solution.rstrip("\n").splitlines()
    check = ast.unparse(last.value)
    verdict = (f"_verdict = {check}\n"
               "print(f\"{_verdict.exercise_id} · {_verdict.status}\" + ('' if _verdict.passed else '\\n' + "
               "_verdict.message))")
    if not body:
        return verdict
    head = textwrap.indent("\n".join(lines[:body[-1].end_lineno]), "    ")
    return f"from IPython.utils.capture import capture_output as _capture\nwith _capture():\n{head}\n{verdict}"


def solved(nb):
    """A copy of ``nb`` with every exercise cell solved and its expected output set to "<id> · passed",
    and each deeper section run on its own after the core (``isolated_sections``)."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        found = exercise_id(cell)
        if found is None:
            continue
        cell.source = solved_source(core.get(found))
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{found} · passed\n")]
    return isolated_sections(nb)


def _names_cell(source: str):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = [SECTION_TAG]
    return cell


def save_names(key: str):
    """A cell that saves a shallow copy of the kernel's names under ``key``."""
    return _names_cell(f"get_ipython()._lesson_names = {{**getattr(get_ipython(), '_lesson_names', {{}}), "
                       f"{key!r}: dict(get_ipython().user_ns)}}")


def restore_names(keys: list[str]):
    """A cell that puts back the kernel's names saved under ``keys`` (later keys win), and no others."""
    return _names_cell(f"(lambda ip: (ip.user_ns.clear(), [ip.user_ns.update(ip._lesson_names[k]) "
                       f"for k in {keys!r}]))(get_ipython());")


def isolated_sections(nb):
    """``nb`` with cells added that run each deeper section after the core alone (plus the sections
    it needs): names saved after the core and after each section, restored before each section."""
    found = lesson_sections.sections(nb)
    if not found:
        return nb
    after = {section.stop: section for section in found}
    before = {section.start: section for section in found}
    cells = []
    for index, cell in enumerate(nb.cells + [None]):
        if index in after:
            cells.append(save_names(after[index].title))
        if index == lesson_sections.core_end(nb):
            cells.append(save_names(""))
        if index in before:
            cells.append(restore_names(["", *before[index].needs]))
        if cell is not None:
            cells.append(cell)
    nb.cells = cells
    return nb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for the solved copies")
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.notebooks:
        nbformat.write(solved(nbformat.read(path, as_version=4)), args.out / path.name)
    print(f"{len(args.notebooks)} solved copies in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
