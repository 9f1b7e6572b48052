"""The setup cell every lesson starts with, generated from the one place the repository URL
lives (``[project.urls] Repository`` in pyproject.toml).

    python tools/setup_cell.py --stamp notebooks/*.ipynb   # rewrite each notebook's setup cell
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Setup: in Colab"


def repository_url() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"]


def setup_cell_source(url: str | None = None) -> str:
    url = url or repository_url()
    return (
        f"{MARKER}, install the course's helpers package (Colab already has torch, matplotlib\n"
        "# and ipywidgets, so nothing else is installed). Elsewhere this cell does nothing.\n"
        "import importlib.util, os, subprocess, sys\n"
        'if "google.colab" in sys.modules and importlib.util.find_spec("helpers") is None:\n'
        f'    url = os.environ.get("PE_COURSE_REPO", "{url}")\n'
        '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", f"git+{url}"], check=True)'
    )


def setup_cell_index(nb) -> int | None:
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.source.startswith(MARKER):
            return i
    return None


def stamp(path: Path) -> bool:
    """Write the current setup cell into ``path``; True if the notebook changed."""
    nb = nbformat.read(path, as_version=4)
    i = setup_cell_index(nb)
    if i is None:
        raise SystemExit(f"{path}: no cell starting with {MARKER!r}")
    if nb.cells[i].source == setup_cell_source():
        return False
    nb.cells[i].source = setup_cell_source()
    nbformat.write(nb, path)
    return True


if __name__ == "__main__":
    if sys.argv[1:2] != ["--stamp"]:
        print(setup_cell_source())
    else:
        for p in sys.argv[2:]:
            print(f"{p}: {'updated' if stamp(Path(p)) else 'up to date'}")
