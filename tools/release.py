"""Cut a release in one step: raise the version, restamp every lesson's setup cell, commit, tag.

    python tools/release.py            # the next minor version: 0.4.0 -> 0.5.0
    python tools/release.py --patch    # 0.4.0 -> 0.4.1
    python tools/release.py 1.0.0      # a version of your choosing, above the current one
    make release                       # the same as the first line

Every setup cell installs ``helpers`` from the tag ``v<version>``; ``tools/setup_cell.py --check-release``
(in ``make lint``) fails when that tag is missing or ``helpers/`` or ``pyproject.toml`` changed after it.
So a change to the package lands with a release: commit it, run this, push the branch and the tag
(``git push origin main v<version>``). The version lives in one line, ``__version__`` in
``helpers/__init__.py``; pyproject.toml reads it from there. Beside the tag, the release commit records
the tag and the git ids of ``helpers/`` and ``pyproject.toml`` in ``tools/release_record.json``, so that a
clone without tags (``git clone --no-tags``, some CI checkouts) can still be checked.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import setup_cell  # noqa: E402

SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def parse(version: str) -> tuple[int, int, int]:
    found = SEMVER.match(version)
    if found is None:
        raise SystemExit(f"version must look like MAJOR.MINOR.PATCH (for example 0.5.0), got {version!r}")
    return tuple(int(x) for x in found.groups())


def next_version(current: str, part: str) -> str:
    """``current`` with ``part`` ("minor" or "patch") raised and what follows it reset to 0."""
    major, minor, patch = parse(current)
    if part == "minor":
        return f"{major}.{minor + 1}.0"
    if part == "patch":
        return f"{major}.{minor}.{patch + 1}"
    raise ValueError(f"part must be 'minor' or 'patch', got {part!r}")


def git(root: Path, *args: str, capture: bool = True) -> str:
    done = subprocess.run(["git", "-c", f"safe.directory={root}", "-C", str(root), *args],
                          capture_output=capture, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {(done.stderr or '').strip()}")
    return done.stdout if capture else ""


def release(root: Path, version: str | None = None, part: str = "minor") -> str:
    """Raise the version to ``version`` (or the next ``part``), restamp, commit and tag; the new tag."""
    if git(root, "status", "--porcelain", "--untracked-files=no").strip():
        raise SystemExit("the working tree has uncommitted changes: commit them first, so the release tags "
                         "exactly what is committed")
    current = setup_cell.course_version(root)
    new = version or next_version(current, part)
    if parse(new) <= parse(current):
        raise SystemExit(f"the new version {new} must be above the current {current}")
    tag = setup_cell.release_tag(new)
    if git(root, "tag", "--list", tag).strip():
        raise SystemExit(f"the tag {tag} exists already")

    init = root / "helpers" / "__init__.py"
    text = init.read_text(encoding="utf-8")
    init.write_text(setup_cell.VERSION_LINE.sub(f'__version__ = "{new}"', text, count=1), encoding="utf-8")
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        setup_cell.stamp(path, version=new)
    changed = [str(init.relative_to(root))] + [str(p.relative_to(root)) for p in notebooks]
    git(root, "add", "--", *changed)
    record = {"tag": tag, **setup_cell.package_fingerprint(root, git(root, "write-tree").strip())}
    (root / setup_cell.RELEASE_RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    changed.append(setup_cell.RELEASE_RECORD)
    git(root, "add", "--", setup_cell.RELEASE_RECORD)
    git(root, "commit", "--quiet", "-m", f"Release {new}: every setup cell installs {tag}", "--", *changed)
    git(root, "tag", "-a", tag, "-m", f"Release {new}")
    return tag


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("version", nargs="?", help="the new version, MAJOR.MINOR.PATCH (default: the next minor)")
    parser.add_argument("--patch", action="store_true", help="raise the patch number instead of the minor")
    parser.add_argument("--root", type=Path, default=setup_cell.ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    tag = release(args.root.resolve(), args.version, "patch" if args.patch else "minor")
    print(f"released {tag}: push it with `git push origin main {tag}`")
