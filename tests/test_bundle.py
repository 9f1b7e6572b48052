"""The explorers' bundles match their sources: ``node js/build.mjs --check`` (``make bundle-check``, in
``make lint``) passes on the checkout, and fails, naming the file, when a shipped bundle or a source
has changed without a rebuild. Under CI (CI=true) a missing Node.js or js/node_modules is a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
NODE = shutil.which("node")


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of js/ (its node_modules linked) and of the shipped bundles, laid out as in the checkout."""
    if NODE is None or not (ROOT / "js" / "node_modules" / "esbuild").exists():
        reason = "node and js/node_modules are needed (make bundle-check installs them)"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    (tmp_path / "js").mkdir()
    for name in ("build.mjs", "package.json", "src"):
        source = ROOT / "js" / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / "js" / name)
    (tmp_path / "js" / "node_modules").symlink_to(ROOT / "js" / "node_modules")
    shutil.copytree(ROOT / "helpers" / "explorers" / "browser" / "bundle",
                    tmp_path / "helpers" / "explorers" / "browser" / "bundle")
    return tmp_path


def check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, str(root / "js" / "build.mjs"), "--check"], capture_output=True, text=True,
                          timeout=120)


def test_the_shipped_bundles_match_their_sources(copy):
    done = check(copy)
    assert done.returncode == 0 and "match their sources" in done.stdout, done.stderr


def test_a_bundle_edited_by_hand_fails(copy):
    bundle = copy / "helpers" / "explorers" / "browser" / "bundle" / "l03_single_sine.js"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace("Math.sin(", "Math.cos(", 1), encoding="utf-8")
    done = check(copy)
    assert done.returncode == 1 and "l03_single_sine.js" in done.stderr and "make bundle" in done.stderr


def test_a_source_changed_without_a_rebuild_fails(copy):
    source = copy / "js" / "src" / "l03_single_sine.js"
    source.write_text(source.read_text(encoding="utf-8").replace("go round", "turn"), encoding="utf-8")
    done = check(copy)
    assert done.returncode == 1 and "l03_single_sine.js" in done.stderr
