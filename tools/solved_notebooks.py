"""Copies of the lessons with every exercise solved, for nbval.

    python tools/solved_notebooks.py --out DIR notebooks/*.ipynb

In each copy, every code cell tagged ``exercise`` holds its exercise's solution (``H.solution``'s
code, what it prints or draws captured), and its last line, the ``H.check(…)`` call, prints one
line: ``<id> · passed``. That line
is also the cell's stored output, so nbval over the copies checks two things in one run: every
solution passes its check inside its lesson, and no other cell's output changes when the learner's
cells are solved (every other stored output is the committed one). A failing check prints its
whole message under that line, which nbval then shows as the difference.
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
from helpers.exercises import core  # noqa: E402

EXERCISE_TAG = "exercise"


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
    """A copy of ``nb`` with every exercise cell solved and its expected output set to "<id> · passed"."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        found = exercise_id(cell)
        if found is None:
            continue
        cell.source = solved_source(core.get(found))
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{found} · passed\n")]
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
