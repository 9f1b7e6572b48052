"""What every lesson starts with, generated from the one place the repository URL lives
(``[project.urls] Repository`` in pyproject.toml): the setup cell, and the "Open in Colab" badge
in the title cell. The README's lesson table and its Binder badge use the same functions.

    python tools/setup_cell.py --stamp notebooks/*.ipynb   # rewrite each notebook's setup cell and badge
    python tools/setup_cell.py --badges notebooks/*.ipynb  # print the README's badges
    python tools/setup_cell.py --check-remote              # the repository answers and has the release tag
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Setup: wherever"
SETUP_PREFIX = "# Setup:"  # every version of the cell starts so, older stamps included
BRANCH = "main"
COLAB_BADGE = "https://colab.research.google.com/assets/colab-badge.svg"
BINDER_BADGE = "https://mybinder.org/badge_logo.svg"


def repository_url() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"]


def course_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def release_tag(version: str | None = None) -> str:
    """The git tag the setup cell installs from: ``v`` + the package version."""
    return f"v{version or course_version()}"


def setup_cell_source(url: str | None = None, version: str | None = None) -> str:
    """The first code cell of every lesson.

    Wherever the course's ``helpers`` is not the one Python would import (Colab, Kaggle, VS Code,
    a saved copy of the notebook), it installs the course's package at the release the notebook
    was made with, with what it needs that the runtime lacks. The package is told apart from any
    other module named ``helpers`` by reading the ``__course__`` line of its ``__init__.py``
    (importing a stranger's module could run anything).
    """
    url = url or repository_url()
    tag = release_tag(version)
    return (
        f"{MARKER} the course's helpers are missing (Colab, Kaggle, VS Code, a saved copy), install them\n"
        f"# at the release this notebook was made with ({tag}). Where they are installed, this cell does nothing.\n"
        "import importlib.util, os, subprocess, sys\n"
        "\n"
        "def course_helpers_found():\n"
        '    spec = importlib.util.find_spec("helpers")\n'
        "    return spec is not None and spec.origin is not None and os.path.isfile(spec.origin) \\\n"
        '        and \'__course__ = "pe-course-helpers"\' in open(spec.origin, encoding="utf-8").read()\n'
        "\n"
        "if not course_helpers_found():\n"
        f'    url = os.environ.get("PE_COURSE_REPO", "{url}")\n'
        f'    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", f"git+{{url}}@{tag}"], check=True)\n'
        "    importlib.invalidate_caches()\n"
        "    if not course_helpers_found():\n"
        '        hiding = importlib.util.find_spec("helpers").origin\n'
        '        raise ImportError(f"Another module named helpers ({hiding}) hides the course\'s; "\n'
        '                          "rename it, or open the notebook from another folder.")'
    )


def check_remote(url: str | None = None, tag: str | None = None) -> str | None:
    """None if the repository answers and holds the release tag the setup cells install; else what is wrong.

    Every badge and setup cell depends on it: a renamed repository or an untagged release breaks
    every lesson opened from a badge, silently, until someone runs this.
    """
    url = url or repository_url()
    tag = tag or release_tag()
    env = {"GIT_TERMINAL_PROMPT": "0"}  # a missing repository must fail, not ask for a password
    try:
        done = subprocess.run(["git", "ls-remote", "--tags", url, f"refs/tags/{tag}"], capture_output=True, text=True,
                              timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return f"{url} did not answer within 60 s"
    if done.returncode != 0:
        return f"{url} does not answer as a git repository: {done.stderr.strip()[-300:]}"
    if f"refs/tags/{tag}" not in done.stdout:
        return f"{url} has no tag {tag}: tag the release the setup cells install (git tag {tag} && git push --tags)"
    return None


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
        if cell.cell_type == "code" and cell.source.startswith(SETUP_PREFIX):
            return i
    return None


def stamp(path: Path) -> bool:
    """Write the current setup cell and Colab badge into ``path``; True if the notebook changed."""
    import nbformat  # only stamping needs it; --check-remote runs on a bare Python

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
    elif sys.argv[1:2] == ["--check-remote"]:
        problem = check_remote()
        print(problem or f"{repository_url()} answers and has {release_tag()}")
        sys.exit(1 if problem else 0)
    elif sys.argv[1:2] != ["--stamp"]:
        print(setup_cell_source())
    else:
        for p in sys.argv[2:]:
            print(f"{p}: {'updated' if stamp(Path(p)) else 'up to date'}")
