"""A lesson's parts (tools/lesson_sections.py), and the solved copies' promise that every "Going deeper"
section runs on its own after the core (tools/solved_notebooks.py; ``make test-portable`` runs every
lesson that way under nbval)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from tests.tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SECTIONS = load_tool("lesson_sections")
SOLVED = load_tool("solved_notebooks")


def lesson(*cells):
    """A notebook from ("md" | "code", source) pairs."""
    nb = nbformat.v4.new_notebook()
    make = {"md": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell}
    nb.cells = [make[kind](source) for kind, source in cells]
    return nb


def two_sections(second_heading: str):
    return lesson(("md", "# 00 · A lesson"), ("code", "core_value = 1"),
                  ("md", "## Key takeaways\n- one"),
                  ("md", "## Going deeper (optional)\n\n### Going deeper · First part (optional, ~2 min)"),
                  ("code", "from_first = core_value + 1"),
                  ("md", second_heading),
                  ("code", "print(core_value + from_first)"))


def test_the_core_ends_at_the_first_going_deeper_heading_and_sections_run_to_the_next():
    nb = two_sections("### Going deeper · Second part (optional, ~3 min)\n\n#### A sub-heading stays inside")
    assert SECTIONS.core_end(nb) == 3
    found = SECTIONS.sections(nb)
    assert [(s.title, s.start, s.stop, s.needs) for s in found] == [
        ("First part", 3, 5, []), ("Second part", 5, 7, [])]


def test_a_section_names_what_it_needs_and_only_earlier_sections_count():
    nb = two_sections("### Going deeper · Second part (optional, ~3 min)\n\nRun “First part” first.")
    assert SECTIONS.sections(nb)[1].needs == ["First part"]
    wrong = two_sections("### Going deeper · Second part (optional, ~3 min)\n\nRun “Third part” first.")
    with pytest.raises(ValueError, match="Third part.*earlier sections: \\['First part'\\]"):
        SECTIONS.sections(wrong)


def test_a_look_up_section_says_so_under_its_heading_and_keeps_its_heading_and_anchor():
    assert SECTIONS.is_look_up(nbformat.v4.new_markdown_cell(
        '<a id="glossary"></a>\n## Glossary\n\n*Look-up section: kept apart from the core\'s reading time.*\n- a'))
    assert not SECTIONS.is_look_up(nbformat.v4.new_markdown_cell("## Glossary\n\nLook-up section, in a sentence."))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_lesson_names_only_earlier_sections_it_needs(path):
    nb = nbformat.read(path, as_version=4)
    found = SECTIONS.sections(nb)  # raises on a "Run “…” first" naming no earlier section
    assert all(s.start >= SECTIONS.core_end(nb) for s in found)


def run(nb, tmp_path):
    runner = load_tool("run_notebooks")
    nb.metadata["kernelspec"] = runner.KERNELSPEC
    runner.Client(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb


def printed(nb) -> list[str]:
    """What each code cell printed, leaving out the cells a solved copy adds."""
    return ["".join(o.get("text", "") for o in c.get("outputs", [])) for c in nb.cells
            if c.cell_type == "code" and SOLVED.SECTION_TAG not in c.metadata.get("tags", [])]


@pytest.mark.end_to_end
def test_a_section_that_uses_another_sections_name_fails_in_the_solved_copy(tmp_path):
    plain = two_sections("### Going deeper · Second part (optional, ~3 min)")
    assert printed(run(nbformat.from_dict(plain), tmp_path))[-1] == "3\n"  # top to bottom, it runs
    with pytest.raises(CellExecutionError) as error:
        run(SOLVED.solved(plain), tmp_path)
    assert error.value.ename == "NameError" and "'from_first'" in error.value.evalue


@pytest.mark.end_to_end
def test_a_section_that_says_what_to_run_first_gets_those_names_and_the_cores(tmp_path):
    needs = two_sections("### Going deeper · Second part (optional, ~3 min)\n\nRun “First part” first.")
    needs.cells.insert(6, nbformat.v4.new_code_cell("core_value = 100  # changed here, put back for the next"))
    needs.cells.append(nbformat.v4.new_markdown_cell("### Going deeper · Third part (optional, ~1 min)"))
    needs.cells.append(nbformat.v4.new_code_cell("print(core_value, 'from_first' in dir())"))
    copy = run(SOLVED.solved(needs), tmp_path)
    assert printed(copy)[-3:] == ["", "102\n", "1 False\n"]  # the third sees the core's value, not the second's
    added = [c for c in copy.cells if SOLVED.SECTION_TAG in c.metadata.get("tags", [])]
    assert added and all(not c.outputs for c in added)  # nothing for nbval to compare
