"""The quick check for the edit-test loop (``make check``): the unit tests of what changed and one
lesson under nbval, in a few minutes instead of the whole ``make test``.

    python tools/check_changes.py [--base REV] [--dry-run]

What changed: the files that differ from ``REV`` (default HEAD: what is not committed yet), and
files git does not track yet. If nothing differs from HEAD, the last commit's own changes are taken.
What runs:
- every test file that changed;
- for a changed module of ``helpers``, the test files that import it (``from helpers.a import b``,
  ``import helpers.a.b``, ``from helpers.a.b import …``) or that are named after it (``tests/a/test_b.py``);
  for another changed file under ``tests/`` (a shared helper), the test files that import it, else
  those next to it; for a changed script of ``tools/``, the test files that name it;
- under nbval, one lesson with its exercises solved (tools/solved_notebooks.py: every check must
  pass, every other output must be the committed one): the first changed notebook, else the lesson
  of the first changed ``helpers/*/lNN_*`` module, else lesson 00.
The browser tests (minutes of JupyterLab and Chromium) are left to ``make test-browser``; a change
under tests/browser is named at the end. ``make test`` still runs everything before a change lands.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
NOTEBOOKS = ROOT / "notebooks"
SOLVED = ROOT / "_build" / "check"
NBVAL = ["--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", "-p", "no:cacheprovider"]
LESSON_MODULE = re.compile(r"^l(\d\d)_")


def git(*args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]


def changed_files(base: str) -> list[str]:
    files = git("diff", "--name-only", base) + git("ls-files", "--others", "--exclude-standard")
    if not files and base == "HEAD":
        files = git("diff", "--name-only", "HEAD~1", "HEAD")
    return sorted({f for f in files if (ROOT / f).exists()})


def module_name(path: str) -> str | None:
    """helpers/a/b.py → helpers.a.b; helpers/a/__init__.py → helpers.a; None for other files."""
    parts = Path(path).with_suffix("").parts
    if path.endswith(".py") and parts and parts[0] == "helpers":
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return None


def imported_modules(test_file: Path) -> set[str]:
    """Every helpers module a test file imports, by its dotted name (names imported from a package
    count as its modules: ``from helpers.a import b`` gives helpers.a and helpers.a.b)."""
    found: set[str] = set()
    try:
        tree = ast.parse(test_file.read_text())
    except SyntaxError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("helpers"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("helpers") \
                and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def imported_names(test_file: Path) -> set[str]:
    """The last part of every module name a test file imports (``from .kernel import …`` gives kernel)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(test_file.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.rsplit(".", 1)[-1])
        elif isinstance(node, ast.Import):
            names.update(a.name.rsplit(".", 1)[-1] for a in node.names)
    return names


def selected_tests(files: list[str]) -> list[str]:
    test_files = sorted(p for p in TESTS.rglob("test_*.py") if "browser" not in p.relative_to(TESTS).parts)
    chosen: set[Path] = set()
    for f in files:
        path = ROOT / f
        if f.startswith("tests/browser/"):
            continue  # minutes of JupyterLab and Chromium: make test-browser
        if f.startswith("tests/") and f.endswith(".py"):
            if path.name.startswith("test_"):
                chosen.add(path)
            else:  # a shared helper: the tests that import it, else every test beside it
                users = {p for p in test_files if path.stem in imported_names(p)}
                chosen.update(users or {p for p in test_files if p.parent == path.parent})
        elif f.startswith("tools/") and f.endswith(".py"):
            chosen.update(p for p in test_files if path.stem in p.read_text())
        elif (name := module_name(f)) is not None:
            # named after it: helpers/a/b.py ↔ tests/a/test_b.py
            twin = TESTS.joinpath(*Path(f).parent.parts[1:], f"test_{path.stem}.py")
            chosen.update(p for p in test_files if name in imported_modules(p) or p == twin)
    return [str(p.relative_to(ROOT)) for p in sorted(chosen) if p.exists()]


def chosen_lesson(files: list[str]) -> Path:
    lessons = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for f in files:
        if f.startswith("notebooks/") and f.endswith(".ipynb") and (ROOT / f) in lessons:
            return ROOT / f
    for f in files:
        match = next((m for part in Path(f).parts if (m := LESSON_MODULE.match(part))), None)
        if f.startswith("helpers/") and match:
            for lesson in lessons:
                if lesson.name.startswith(match.group(1)):
                    return lesson
    return lessons[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="compare with this revision (default: HEAD)")
    parser.add_argument("--dry-run", action="store_true", help="say what would run, run nothing")
    args = parser.parse_args()
    files = changed_files(args.base)
    tests = selected_tests(files)
    lesson = chosen_lesson(files)
    print(f"changed: {len(files)} files; unit tests: {len(tests)} files; nbval: {lesson.relative_to(ROOT)}")
    for t in tests:
        print(f"  {t}")
    if any(f.startswith("tests/browser/") for f in files):
        print("browser tests changed: run make test-browser (not part of make check)")
    runs = []
    if tests:
        runs.append([sys.executable, "-m", "pytest", "-q", "-n", "2", *tests])
    runs.append([sys.executable, str(ROOT / "tools" / "solved_notebooks.py"), "--out", str(SOLVED),
                 str(lesson.relative_to(ROOT))])
    runs.append([sys.executable, "-m", "pytest", "-q", *NBVAL, str((SOLVED / lesson.name).relative_to(ROOT))])
    if args.dry_run:
        for run in runs:
            print("would run:", " ".join(run[1:]))
        return 0
    for run in runs:
        status = subprocess.run(run, cwd=ROOT).returncode
        if status not in (0, 5):  # 5: no test selected
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
