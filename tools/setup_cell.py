"""What every lesson starts with, generated from the one place the repository URL lives
(``[project.urls] Repository`` in pyproject.toml): the setup cell, and the "Open in Colab" badge
in the title cell. The README's lesson table and its Binder badge use the same functions.

    python tools/setup_cell.py --stamp notebooks/*.ipynb   # rewrite each notebook's setup cell and badge
    python tools/setup_cell.py --badges notebooks/*.ipynb  # print the README's badges
    python tools/setup_cell.py --check-remote              # the repository answers and has the release tag
    python tools/setup_cell.py --check-release             # the release tag exists and helpers/ is as it left them

Which refs they name, and why. The badges (Colab, Binder, the site's launch buttons) open the lessons
on ``main``, so a learner reads the newest text. The setup cell installs ``helpers`` from the release tag
``v<version>``, a ref that never moves, so a notebook saved today installs the same helpers next year.
The two agree because ``--check-release`` (``make lint``) fails unless the tag of the current version
exists and ``helpers/`` and ``pyproject.toml`` are as that tag left them (a clone without tags asks
``origin``, then reads the release record, ``tools/release_record.json``): a change to the package
needs a release (``make release``, tools/release.py: bump the version, restamp, commit and tag in one
step). At run time, the cell also says plainly when the helpers Python imports are not the version the
notebook was made with (an older clone, a stale install).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# Setup: wherever"
SETUP_PREFIX = "# Setup:"  # every version of the cell starts so, older stamps included
BRANCH = "main"  # badges open the branch; Binder's postBuild installs helpers from the same checkout
# Lessons that import transformers install the extra that brings a recent enough version
# (Colab's older images ship transformers 4), before anything has imported it.
HF_EXTRA = "hf"
COLAB_BADGE = "https://colab.research.google.com/assets/colab-badge.svg"
BINDER_BADGE = "https://mybinder.org/badge_logo.svg"


def repository_url() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"]


VERSION_LINE = re.compile(r'^__version__ = "([^"]+)"$', re.MULTILINE)


def course_version(root: Path = ROOT) -> str:
    """The package's version: the ``__version__`` line of ``helpers/__init__.py`` (pyproject.toml reads it
    from there), read as text so that a bare Python can run this tool."""
    found = VERSION_LINE.search((root / "helpers" / "__init__.py").read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"{root / 'helpers' / '__init__.py'}: no line `__version__ = \"X.Y.Z\"`")
    return found.group(1)


def release_tag(version: str | None = None) -> str:
    """The git tag the setup cell installs from: ``v`` + the package version."""
    return f"v{version or course_version()}"


def setup_cell_source(url: str | None = None, version: str | None = None, extras: tuple[str, ...] = ()) -> str:
    """The first code cell of every lesson.

    Wherever the course's ``helpers`` is not the one Python would import (Colab, Kaggle, VS Code,
    a saved copy of the notebook), it installs the course's package at the release the notebook
    was made with, with what it needs that the runtime lacks. The package is told apart from any
    other module named ``helpers`` by reading the ``__course__`` line of its ``__init__.py``
    (importing a stranger's module could run anything); its version from the ``__version__`` line of the
    same file. Where the version found is not the one the notebook was made with,
    the cell says so and how to install the right one.
    """
    url = url or repository_url()
    version = version or course_version()
    tag = release_tag(version)
    requirement = f"pe-course-helpers[{','.join(extras)}] @ git+{{url}}@{tag}" if extras else f"git+{{url}}@{tag}"
    return (
        f"{MARKER} the course's helpers are missing (Colab, Kaggle, VS Code, a saved copy), install them\n"
        f"# at the release this notebook was made with ({tag}). Where they are installed, it checks their version.\n"
        "import importlib.util, os, re, subprocess, sys\n"
        "\n"
        "def course_helpers_version():\n"
        '    """The version of the course\'s helpers Python would import; None where they are missing."""\n'
        '    spec = importlib.util.find_spec("helpers")\n'
        "    if spec is None or spec.origin is None or not os.path.isfile(spec.origin):\n"
        "        return None\n"
        '    init = open(spec.origin, encoding="utf-8").read()\n'
        "    if '__course__ = \"pe-course-helpers\"' not in init:\n"
        "        return None\n"
        "    found = re.search(r'^__version__ = \"([^\"]+)\"$', init, re.MULTILINE)\n"
        '    return found.group(1) if found else "older than 0.4.0"\n'
        "\n"
        f'url = os.environ.get("PE_COURSE_REPO", "{url}")\n'
        "if course_helpers_version() is None:\n"
        f'    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", f"{requirement}"], check=True)\n'
        "    importlib.invalidate_caches()\n"
        "    if course_helpers_version() is None:\n"
        '        hiding = importlib.util.find_spec("helpers").origin\n'
        '        raise ImportError(f"Another module named helpers ({hiding}) hides the course\'s; "\n'
        '                          "rename it, or open the notebook from another folder.")\n'
        f'if course_helpers_version() != "{version}":\n'
        f'    print(f"Note: the course\'s helpers here are version {{course_helpers_version()}}; this notebook was "\n'
        f'          f"made with {version}, so some outputs may differ. To match it: pip install \'git+{{url}}@{tag}\'")'
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


def clone_command(url: str | None = None) -> str:
    """The README's first Quick start line."""
    return f"git clone {url or repository_url()}.git"


RELEASE_RECORD = "tools/release_record.json"
PACKAGE_PATHS = ("helpers", "pyproject.toml")


def _git(root: Path) -> list[str]:
    return ["git", "-c", f"safe.directory={root}", "-C", str(root)]


def package_fingerprint(root: Path, treeish: str = "HEAD") -> dict[str, str]:
    """The git object ids of ``helpers/`` and ``pyproject.toml`` in ``treeish`` (a commit or a tree):
    equal ids mean equal contents, in any clone."""
    ids = {}
    for path in PACKAGE_PATHS:
        done = subprocess.run([*_git(root), "rev-parse", f"{treeish}:{path}"], capture_output=True, text=True)
        ids[path] = done.stdout.strip() if done.returncode == 0 else ""
    return ids


def _tags_on_origin(root: Path) -> dict[str, str] | None:
    """The tags ``origin`` holds, each with the commit it names ({} if origin answers with no tags at all);
    None if there is no origin or it does not answer (a clone made with ``--no-tags`` from a copy that is
    gone)."""
    try:
        done = subprocess.run([*_git(root), "ls-remote", "--tags", "origin"], capture_output=True, text=True,
                              timeout=20, env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return None
    refs = dict(reversed(line.split("\t")) for line in done.stdout.splitlines() if "\t" in line)
    tags = {}
    for ref, commit in refs.items():
        if ref.startswith("refs/tags/") and not ref.endswith("^{}"):
            tags[ref[len("refs/tags/"):]] = refs.get(ref + "^{}", commit)
    return tags


def _has_commit(root: Path, commit: str) -> bool:
    return subprocess.run([*_git(root), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True).returncode == 0


def _changed_since(root: Path, base: str, tag: str) -> str | None:
    diff = subprocess.run([*_git(root), "diff", "--name-only", base, "HEAD", "--", *PACKAGE_PATHS],
                          capture_output=True, text=True, check=True)
    return _changed_message(diff.stdout.split(), tag)


def _changed_message(changed: list[str], tag: str) -> str | None:
    if not changed:
        return None
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return (f"{shown} changed since the release {tag}, which every setup cell installs: "
            "cut a new release with `make release` (it raises the version, restamps, commits and tags)")


def read_release_record(root: Path) -> dict | None:
    path = root / RELEASE_RECORD
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def check_release(root: Path = ROOT, tag: str | None = None) -> str | None:
    """None if the release tag of the current version exists and ``helpers/`` and ``pyproject.toml``
    are as it left them; else what is wrong and how to put it right.

    Where to find the tag, in order: this clone's tags; ``origin``'s (a clone made with ``--no-tags``);
    and, where neither this clone nor origin keeps any tag (a mirror of branches only, or no origin at
    all), the release record that ``make release`` writes
    beside the tag (``tools/release_record.json``: the tag and the git ids of ``helpers/`` and
    ``pyproject.toml`` it was cut from)."""
    tag = tag or release_tag(course_version(root))
    missing = (f"there is no tag {tag}, yet every setup cell installs it: cut the release with `make release` "
               "(tools/release.py bumps the version, restamps the notebooks, commits and tags)")
    found = subprocess.run([*_git(root), "rev-parse", "-q", "--verify", f"refs/tags/{tag}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode == 0:
        return _changed_since(root, tag, tag)
    on_origin = _tags_on_origin(root)
    if on_origin:  # origin keeps tags: it must hold this one
        if tag not in on_origin:
            return missing + " (origin has no such tag either)"
        if _has_commit(root, on_origin[tag]):
            return _changed_since(root, on_origin[tag], tag)
    elif subprocess.run([*_git(root), "tag", "--list"], capture_output=True, text=True).stdout.strip():
        return missing  # this clone has tags, only not this one
    record = read_release_record(root)
    if record is None or record.get("tag") != tag:
        named = f" (the release record names {record.get('tag')})" if record else ""
        return missing + named
    now = package_fingerprint(root)
    changed = [path for path in PACKAGE_PATHS if now[path] != record.get(path)]
    if changed and now["helpers"] and _has_object(root, record.get("helpers", "")):
        inside = subprocess.run([*_git(root), "diff", "--name-only", record["helpers"], now["helpers"]],
                                capture_output=True, text=True, check=True).stdout.split()
        changed = [f"helpers/{p}" for p in inside] + [p for p in changed if p != "helpers"]
    return _changed_message(changed, tag)


def _has_object(root: Path, object_id: str) -> bool:
    return bool(object_id) and subprocess.run([*_git(root), "cat-file", "-e", object_id],
                                              capture_output=True).returncode == 0


def _github_path(url: str) -> str:
    """``owner/name`` from ``https://github.com/owner/name``."""
    prefix = "https://github.com/"
    if not url.startswith(prefix):
        raise ValueError(f"Repository URL must start with {prefix}, got {url!r}")
    return url[len(prefix):].rstrip("/").removesuffix(".git")


def colab_url(notebook: str, url: str | None = None) -> str:
    """Colab's address for ``notebooks/<notebook>`` on ``main`` (its setup cell installs the release tag,
    whose helpers ``main``'s are checked to equal)."""
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


def uses_transformers(source: str) -> bool:
    return "import transformers" in source or "from transformers" in source


def notebook_extras(nb) -> tuple[str, ...]:
    """The package extras a lesson's setup cell installs: ``hf`` where a cell imports transformers."""
    uses_hf = any(cell.cell_type == "code" and uses_transformers(cell.source)
                  for cell in nb.cells)
    return (HF_EXTRA,) if uses_hf else ()


def collapse_source(cell) -> None:
    """Fold a cell's code away, one click from view: JupyterLab reads ``jupyter.source_hidden``,
    the site (MyST-NB) the ``hide-input`` tag. The setup cell is plumbing, not part of the lesson."""
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    tags = cell.metadata.setdefault("tags", [])
    if "hide-input" not in tags:
        tags.append("hide-input")


def stamp(path: Path, version: str | None = None) -> bool:
    """Write the current setup cell (for ``version``, by default the package's) and Colab badge into
    ``path``; True if the notebook changed."""
    import nbformat  # only stamping needs it; --check-remote runs on a bare Python

    nb = nbformat.read(path, as_version=4)
    i = setup_cell_index(nb)
    if i is None:
        raise SystemExit(f"{path}: no cell starting with {MARKER!r}")
    if nb.cells[0].cell_type != "markdown":
        raise SystemExit(f"{path}: the first cell should be the markdown title")
    title = title_with_badge(nb.cells[0].source, path.name)
    source = setup_cell_source(version=version, extras=notebook_extras(nb))
    cell = nb.cells[i]
    collapsed = cell.metadata.get("jupyter", {}).get("source_hidden") and "hide-input" in cell.metadata.get("tags", [])
    if cell.source == source and nb.cells[0].source == title and collapsed:
        return False
    cell.source = source
    collapse_source(cell)
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
    elif sys.argv[1:2] == ["--check-release"]:
        problem = check_release()
        print(problem or f"helpers/ and pyproject.toml match the release {release_tag()}")
        sys.exit(1 if problem else 0)
    elif sys.argv[1:2] != ["--stamp"]:
        print(setup_cell_source())
    else:
        for p in sys.argv[2:]:
            print(f"{p}: {'updated' if stamp(Path(p)) else 'up to date'}")
