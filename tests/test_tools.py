"""The contributor's tools: ``make check``'s choice of tests and lesson (tools/check_changes.py),
``make test``'s table of targets and seconds (tools/time_targets.py)."""

from __future__ import annotations

from pathlib import Path

from tests.tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]


CHECK = load_tool("check_changes")
TIMED = load_tool("time_targets")


def test_a_changed_lesson_module_selects_the_tests_beside_it_and_those_importing_it():
    chosen = CHECK.selected_tests(["helpers/exercises/l04_sinusoidal.py"])
    assert "tests/exercises/test_l04_sinusoidal.py" in chosen
    assert "tests/explorers/browser/test_l04_sinusoidal.py" not in chosen  # another module of the same name
    assert "tests/test_encodings.py" not in chosen


def test_a_changed_module_selects_every_test_that_imports_it():
    chosen = set(CHECK.selected_tests(["helpers/plots.py"]))
    # read off the import lines by hand, not by the tool's parser
    importing = {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py") if "browser" not in p.parts
                 and any(line.startswith(("from helpers", "import helpers")) and "plots" in line
                         for line in p.read_text().splitlines())}
    assert importing and importing <= chosen


def test_a_shared_test_helper_selects_its_users_and_browser_tests_are_left_to_their_target():
    chosen = CHECK.selected_tests(["tests/kernel.py", "tests/browser/test_site.py"])
    assert chosen == ["tests/test_figure_style.py", "tests/test_figures_in_kernel.py",
                      "tests/test_progress_in_kernel.py"]


def test_a_changed_tool_selects_the_tests_that_name_it():
    assert "tests/test_tools.py" in CHECK.selected_tests(["tools/time_targets.py"])


def test_the_lesson_is_the_changed_notebook_else_the_lesson_of_a_changed_module_else_00():
    assert CHECK.chosen_lesson(["README.md", "notebooks/06_rope.ipynb"]).name == "06_rope.ipynb"
    assert CHECK.chosen_lesson(["helpers/measure/l09_stretching_rope/methods.py"]).name == "09_stretching_rope.ipynb"
    assert CHECK.chosen_lesson(["helpers/measure/l03_single_sine.py"]).name == "03_single_sine.ipynb"
    assert CHECK.chosen_lesson(["Makefile"]).name == "00_order_blindness.ipynb"


def test_the_time_table_lists_each_target_and_the_total():
    text = TIMED.table([("lint", 12.4, "ok"), ("test-unit", 300.6, "FAILED (2)")])
    lines = text.splitlines()
    assert lines[0].split() == ["target", "seconds", "result"]
    assert lines[2].split() == ["lint", "12", "ok"] and lines[3].split() == ["test-unit", "301", "FAILED", "(2)"]
    assert lines[-1].split() == ["total", "313"]
