"""End to end: the notebooks' exercise cells, with and without their solutions.

- Static (the committed notebooks): every code cell tagged ``exercise`` names one registered id in its
  ``H.check("…"`` line, every registered id has exactly one such cell, in course order, and the
  stored output of each says "not attempted".
- Solved: ``make test-portable`` runs nbval over copies of every lesson with each exercise cell
  replaced by its solution (tools/solved_notebooks.py), so every check must say "passed" inside its
  lesson and every other output must stay the committed one. The copying is proven here on a small
  synthetic notebook, executed: a solution passes, a stub is not attempted, a wrong answer fails and
  its message is what nbval would show.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

import helpers as H
from helpers.exercises import core
from tests.tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[2]


NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLVED = load_tool("solved_notebooks")
CHECK_CALL = re.compile(r'H\.check\(\s*"([^"]+)"')


def exercise_cells(nb) -> list[tuple[int, str | None]]:
    """(cell index, exercise id or None when the cell names none) of every code cell tagged ``exercise``."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            ids = CHECK_CALL.findall(cell.source)
            found.append((index, ids[-1] if len(ids) == 1 else None))
    return found


def output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
        elif out.get("output_type") == "error":
            parts.append(f"{out.get('ename')}: {out.get('evalue')}")
    return "".join(parts)


def verdicts(nb) -> dict[str, str]:
    """exercise id → its cell's output text."""
    return {exercise_id: output_text(nb.cells[index]) for index, exercise_id in exercise_cells(nb)}


def execute(nb, cwd: Path) -> None:
    runner = load_tool("run_notebooks")
    nb.metadata["kernelspec"] = runner.KERNELSPEC
    runner.Client(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute()


def _read(path: Path):
    return nbformat.read(path, as_version=4)


WITH_EXERCISES = [p for p in NOTEBOOKS if exercise_cells(_read(p))]


# --- static: the committed notebooks ------------------------------------------------------------


def test_every_exercise_cell_names_one_registered_exercise():
    problems = []
    for path in NOTEBOOKS:
        for index, exercise_id in exercise_cells(_read(path)):
            if exercise_id is None:
                problems.append(f"{path.name} cell {index}: no single H.check(\"NN.name\", …) call")
            elif exercise_id not in H.EXERCISES:
                problems.append(f"{path.name} cell {index}: {exercise_id!r} is not registered")
            elif not exercise_id.startswith(path.name[:2] + "."):
                problems.append(f"{path.name} cell {index}: {exercise_id!r} belongs to lesson {exercise_id[:2]}")
    assert not problems, "\n".join(problems)


def test_every_registered_exercise_has_exactly_one_cell_in_course_order():
    placed = [(path.name, exercise_id) for path in NOTEBOOKS for _, exercise_id in exercise_cells(_read(path))
              if exercise_id]
    count = {i: sum(1 for _, e in placed if e == i) for i in H.EXERCISES}
    missing = [i for i, n in count.items() if n == 0]
    twice = [i for i, n in count.items() if n > 1]
    assert not missing and not twice, (
        f"registered exercises without an exercise cell: {missing or 'none'}; in more than one cell: {twice or 'none'}")
    order = [e for _, e in placed if e in count]
    # an exercise moved to a lesson's Going deeper part comes after that lesson's core exercises
    notebooks = [_read(path) for path in NOTEBOOKS]
    deeper = {e for nb in notebooks for index, e in exercise_cells(nb) if e and in_going_deeper(nb, index)}
    expected = sorted(H.EXERCISES, key=lambda e: (e[:2], e in deeper))  # stable: registry order otherwise
    assert order == expected, "the notebooks ask the exercises in another order than helpers/exercises " \
                              f"defines them:\nnotebooks: {order}\nregistry:  {expected}"


def in_going_deeper(nb, index) -> bool:
    """Whether cell ``index`` lies after the lesson's first "Going deeper" heading."""
    return any(cell.cell_type == "markdown" and re.search(r"^#+ Going deeper", cell.source, re.M)
               for cell in nb.cells[:index])


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_committed_exercise_cells_are_stubs_that_say_not_attempted(path):
    nb = _read(path)
    for index, exercise_id in exercise_cells(nb):
        cell = nb.cells[index]
        assert cell.source.rstrip().splitlines()[-1].startswith(f'H.check("{exercise_id}"'), \
            f"{path.name} cell {index}: the check must be the cell's last line"
        assert f"{exercise_id} · not attempted" in output_text(cell), \
            f"{path.name} cell {index} ({exercise_id}): stored output is {output_text(cell)!r}"
        before = []  # the markdown cells since the previous code cell
        for cell in reversed(nb.cells[:index]):
            if cell.cell_type != "markdown":
                break
            before.append(cell.source)
        assert any(line.startswith("### Your turn · ") for text in before for line in text.splitlines()), \
            f"{path.name} cell {index} ({exercise_id}): no '### Your turn · …' heading in the markdown just before it"


# --- the machinery on a synthetic notebook ----------------------------------------------------------

STUB = '''def my_sinusoidal(n_positions, d_model, base=10000.0):
    """PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i): (n_positions, d_model)."""
    raise NotImplementedError  # your code here

H.check("04.sinusoidal", my_sinusoidal)'''


def synthetic_notebook(exercise_source: str):
    nb = nbformat.v4.new_notebook()
    exercise = nbformat.v4.new_code_cell(exercise_source)
    exercise.metadata["tags"] = ["exercise"]
    nb.cells = [nbformat.v4.new_code_cell("import helpers as H"),
                nbformat.v4.new_markdown_cell("### Your turn · the encoding (implement, ~5 min)"), exercise,
                nbformat.v4.new_code_cell("print('after')")]
    return nb


@pytest.mark.end_to_end
def test_solved_copies_print_one_verdict_line_that_nbval_compares(tmp_path):
    stub = synthetic_notebook(STUB)
    assert exercise_cells(stub) == [(2, "04.sinusoidal")]
    solved_nb = SOLVED.solved(stub)
    solution = core.get("04.sinusoidal").solution
    body = [line for line in solution.rstrip("\n").splitlines()[:-1] if line.strip()]  # all but H.check
    source = solved_nb.cells[2].source.splitlines()
    assert all("    " + line in source for line in body)  # run inside a capture of what it shows
    assert stub.cells[2].source == STUB and solved_nb.cells[2].metadata["tags"] == ["exercise"]
    assert [c.source for i, c in enumerate(solved_nb.cells) if i != 2] == [c.source for i, c in enumerate(stub.cells)
                                                                         if i != 2]
    assert output_text(solved_nb.cells[2]) == "04.sinusoidal · passed\n"  # what nbval expects

    wrong_solution = STUB.replace("raise NotImplementedError  # your code here",
                                  "import torch\n    return torch.zeros(n_positions, d_model)")
    wrong = synthetic_notebook(STUB)
    wrong.cells[2].source = SOLVED.solved_source(SimpleNamespace(id="04.sinusoidal", solution=wrong_solution))
    # a solution that prints and draws on its way (as an explore solution does) still shows one line
    talkative = synthetic_notebook(STUB)
    talkative.cells[2].source = SOLVED.solved_source(SimpleNamespace(
        id="04.sinusoidal", solution="print('my run')\ndisplay(42)\n" + solution))
    for nb in (stub, solved_nb, wrong, talkative):
        execute(nb, tmp_path)
    assert output_text(talkative.cells[2]) == "04.sinusoidal · passed\n"
    marks = core.MARKS
    assert verdicts(stub)["04.sinusoidal"].startswith(f"{marks['not attempted']} 04.sinusoidal · not attempted yet")
    assert output_text(solved_nb.cells[2]) == "04.sinusoidal · passed\n"
    failed = output_text(wrong.cells[2])
    # nbval would show this in place of "04.sinusoidal · passed": the verdict, then the check's message
    assert failed.startswith("04.sinusoidal · failed\n04.sinusoidal · failed: ") and "H.hint" in failed
    assert output_text(wrong.cells[3]) == "after\n"  # a failed check does not stop the notebook


def test_every_lesson_has_a_solved_copy_with_each_exercise_solved():
    for path in WITH_EXERCISES:
        nb = _read(path)
        copy = SOLVED.solved(nb)
        # the cells the copy adds to run each deeper section on its own (tests/test_lesson_sections.py)
        copy.cells = [c for c in copy.cells if SOLVED.SECTION_TAG not in c.metadata.get("tags", [])]
        assert len(copy.cells) == len(nb.cells), path.name
        cells = exercise_cells(nb)
        assert [SOLVED.exercise_id(nb.cells[i]) for i, _ in cells] == [e for _, e in cells], path.name
        for index, exercise_id in cells:
            assert output_text(copy.cells[index]) == f"{exercise_id} · passed\n", (path.name, index)
            assert copy.cells[index].source.rstrip().endswith("_verdict.message))"), (path.name, index)
        unchanged = [i for i in range(len(nb.cells)) if i not in dict(cells)]
        assert all(copy.cells[i] == nb.cells[i] for i in unchanged), path.name
