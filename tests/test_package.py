"""The package as a whole: importing it changes no global state, ``H.`` carries every name the
lessons use, lesson modules stay apart, and CONTRIBUTING.md's Layout lists exactly the modules there are."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import helpers as H

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "helpers"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LESSON_MODULE = re.compile(r"l(\d\d)_\w+")
STORED_TABLE = re.compile(r"l(\d\d)_seed_spread")  # measure/lNN_seed_spread.py: written by benchmarks/

STATE_SCRIPT = """
import importlib, json, pkgutil, random, sys
import matplotlib, numpy, torch
def state():
    return {"rcParams": {k: repr(v) for k, v in matplotlib.rcParams.items()}, "threads": torch.get_num_threads(),
            "interop": torch.get_num_interop_threads(), "torch_rng": torch.get_rng_state().tolist(),
            "numpy_rng": repr(numpy.random.get_state()), "python_rng": repr(random.getstate()),
            "dtype": str(torch.get_default_dtype()), "grad": torch.is_grad_enabled()}
before = state()
import helpers
names = [m.name for m in pkgutil.walk_packages(helpers.__path__, "helpers.")]
for name in names:
    importlib.import_module(name)
after = state()
print(json.dumps({"modules": names, "changed": sorted(k for k in before if before[k] != after[k]),
                  "rcParams": sorted(k for k in before["rcParams"] if before["rcParams"][k] != after["rcParams"][k])}))
"""


def test_importing_any_part_of_helpers_changes_no_global_state():
    out = subprocess.run([sys.executable, "-c", STATE_SCRIPT], capture_output=True, text=True, check=True, cwd=ROOT)
    result = json.loads(out.stdout.splitlines()[-1])
    assert {"helpers.plots", "helpers.explorers", "helpers.live.controls", "helpers.measure.common"} <= set(
        result["modules"])
    assert result["changed"] == [], f"importing helpers changed {result['changed']} (rcParams: {result['rcParams']})"


def test_importing_helpers_loads_no_figure_or_widget_library():
    code = "import sys, helpers; print(sorted(m for m in ('matplotlib', 'ipywidgets', 'seaborn') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_all_is_every_public_name_and_carries_what_the_notebooks_use():
    public = {n for n, v in vars(H).items() if not n.startswith("_") and not isinstance(v, type(H))}
    assert set(H.__all__) == public and len(H.__all__) == len(public)
    used = set()
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        used |= {n for c in cells if c["cell_type"] == "code" for n in re.findall(r"\bH\.(\w+)", "".join(c["source"]))}
    assert used, "no notebook uses H."
    assert sorted(used - set(H.__all__)) == []


def modules(folder: Path) -> list[Path]:
    """Every module of ``folder`` and of its subpackages (a lesson's package, explorers/browser)."""
    return sorted(p for p in folder.rglob("*.py") if p.name != "__init__.py" and "__pycache__" not in p.parts)


def lesson_stem(path: Path) -> str:
    """The lesson module a file is part of: its package's name inside a lesson's package
    (measure/l08_train_short_test_long/runs.py → l08_train_short_test_long), else its own stem."""
    return path.parent.name if LESSON_MODULE.fullmatch(path.parent.name) else path.stem


def imported(path: Path) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            names.add(base)
            names |= {f"{base}.{a.name}" for a in node.names}
    return names


@pytest.mark.parametrize("path", modules(PACKAGE / "measure"), ids=lambda p: p.name)
def test_measurements_need_no_figures_or_widgets(path):
    forbidden = ("matplotlib", "ipywidgets", "IPython", "seaborn", "helpers.live", "helpers.explorers",
                 "helpers.plots")
    bad = sorted(n for n in imported(path) if n.split(".")[0] in forbidden or n.startswith(forbidden))
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", modules(PACKAGE / "measure") + modules(PACKAGE / "explorers"),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_lesson_module_imports_no_other_lesson(path):
    stem = lesson_stem(path)
    match = LESSON_MODULE.fullmatch(stem)
    stored = STORED_TABLE.fullmatch(path.stem)
    if stored is not None:  # a lesson's stored seed table, written by its benchmark: data, no imports of lessons
        lesson = stored.group(1)
        assert any(n.stem.startswith(lesson + "_") for n in NOTEBOOKS), f"{path.name}: no lesson {lesson}"
        assert not [n for n in imported(path) if LESSON_MODULE.fullmatch(n.rsplit(".", 1)[-1])], \
            f"{path.name} imports a lesson's module"
        return
    if match is None:  # what several lessons share: measure/common.py, explorers/browser/base.py
        assert (path.parent.name, path.stem) in {("measure", "common"), ("browser", "base")}, \
            f"{path.name}: not named lNN_<lesson>"
        assert not [n for n in imported(path) if LESSON_MODULE.fullmatch(n.rsplit(".", 1)[-1])], \
            f"{path.name}, shared by the lessons, imports a lesson's module"
        return
    assert any(n.stem == stem[1:] for n in NOTEBOOKS), f"{path.name}: no notebook {stem[1:]}.ipynb"
    others = sorted(n for n in imported(path) if LESSON_MODULE.fullmatch(n.rsplit(".", 1)[-1])
                    and n.rsplit(".", 1)[-1] not in (stem, stem[:3] + "_seed_spread"))
    assert not others, f"{path.name} imports another lesson's module: {others}"


def layout() -> list[str]:
    """The helpers/ entries of CONTRIBUTING.md's Layout block, as paths: 'encodings.py', 'measure/common.py', …"""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    entries, folder, inside = [], None, False
    for line in block.splitlines():
        name = line.strip().split(" ", 1)[0] if line.strip() else ""
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            inside = name == "helpers/"
        elif inside and indent == 2:
            folder = name if name.endswith("/") else None
            entries.append(name)
        elif inside and indent == 4 and folder:
            entries.append(folder + name)
    return entries


def test_layout_lists_every_module_and_invents_none():
    listed = layout()
    assert "encodings.py" in listed and "live/" in listed, "CONTRIBUTING.md's Layout block was not found"
    actual = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                    if "__pycache__" not in p.parts and not (p.name == "__init__.py" and p.parent != PACKAGE))
    # "lNN_<lesson>.py" stands for every lesson module of its folder
    patterns = {e: re.escape(e).replace("lNN_<lesson>", r"l\d\d_\w+") for e in listed if not e.endswith("/")}
    unlisted = [m for m in actual if not any(re.fullmatch(p, m) for p in patterns.values())]
    assert not unlisted, f"modules missing from CONTRIBUTING.md's Layout: {unlisted}"
    invented = [e for e, p in patterns.items() if not any(re.fullmatch(p, m) for m in actual)]
    assert not invented, f"CONTRIBUTING.md's Layout lists modules that do not exist: {invented}"
    folders = {str(p.parent.relative_to(PACKAGE)) + "/" for p in PACKAGE.rglob("*.py")
               if p.parent != PACKAGE and "__pycache__" not in p.parts}
    listed_folders = [re.escape(e).replace("lNN_<lesson>", r"l\d\d_\w+") for e in listed if e.endswith("/")]
    assert all(any(re.fullmatch(p, f) for p in listed_folders) for f in folders), \
        f"folders missing from CONTRIBUTING.md's Layout: {sorted(folders)}"
    assert all(any(re.fullmatch(p, f) for f in folders) for p in listed_folders), \
        "CONTRIBUTING.md's Layout lists a folder that does not exist"
