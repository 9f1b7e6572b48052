"""What every lesson starts with, generated from the one place the repository URL lives
(``[project.urls] Repository`` in pyproject.toml): the setup cell, and the "Open in Colab" badge
in the title cell. The README's lesson table and its Binder badge use the same functions.

    python tools/setup_cell.py --stamp notebooks/*.ipynb   # rewrite each notebook's setup cell and badge
    python tools/setup_cell.py --badges notebooks/*.ipynb  # print the README's badges
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Setup: in Colab"
BRANCH = "main"
COLAB_BADGE = "https://colab.research.google.com/assets/colab-badge.svg"
BINDER_BADGE = "https://mybinder.org/badge_logo.svg"


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


def _github_path(url: str) -> str:
    """``owner/name`` from ``https://github.com/owner/name``."""
    prefix = "https://github.com/"
    if not url.startswith(prefix):
        raise ValueError(f"Repository URL must start with {prefix}, got {url!r}")
    return url[len(prefix):].rstrip("/").removesuffix(".git")


def colab_url(notebook: str, url: str | None = None) -> str:
    """Colab's address for ``notebooks/<notebook>`` on the main branch."""
    repo = _github_path(url or repository_url())
    return f"https://colab.research.google.com/github/{repo}/blob/{BRANCH}/notebooks/{notebook}"


def colab_badge(notebook: str, url: str | None = None) -> str:
    return f"[![Open in Colab]({COLAB_BADGE})]({colab_url(notebook, url)})"


def binder_badge(url: str | None = None) -> str:
    """Binder's address: JupyterLab on the notebooks folder, built from ``binder/``."""
    target = f"https://mybinder.org/v2/gh/{_github_path(url or repository_url())}/{BRANCH}?urlpath=lab/tree/notebooks"
    return f"[![Binder]({BINDER_BADGE})]({target})"


def title_with_badge(title: str, notebook: str) -> str:
    """The title cell's markdown with exactly one, current Colab badge as its last line."""
    lines = [line for line in title.rstrip("\n").split("\n") if not line.startswith("[![Open in Colab]")]
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n\n" + colab_badge(notebook)


def setup_cell_index(nb) -> int | None:
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.source.startswith(MARKER):
            return i
    return None


def stamp(path: Path) -> bool:
    """Write the current setup cell and Colab badge into ``path``; True if the notebook changed."""
    nb = nbformat.read(path, as_version=4)
    i = setup_cell_index(nb)
    if i is None:
        raise SystemExit(f"{path}: no cell starting with {MARKER!r}")
    if nb.cells[0].cell_type != "markdown":
        raise SystemExit(f"{path}: the first cell should be the markdown title")
    title = title_with_badge(nb.cells[0].source, path.name)
    if nb.cells[i].source == setup_cell_source() and nb.cells[0].source == title:
        return False
    nb.cells[i].source = setup_cell_source()
    nb.cells[0].source = title
    nbformat.write(nb, path)
    return True


if __name__ == "__main__":
    if sys.argv[1:2] == ["--badges"]:
        print(binder_badge())
        for p in sys.argv[2:]:
            print(f"{Path(p).name}: {colab_badge(Path(p).name)}")
    elif sys.argv[1:2] != ["--stamp"]:
        print(setup_cell_source())
    else:
        for p in sys.argv[2:]:
            print(f"{p}: {'updated' if stamp(Path(p)) else 'up to date'}")
