"""A lesson that needs a newer library stops with a message naming the version, not a traceback."""

from importlib import metadata

import pytest

from helpers import compat


def fake_versions(monkeypatch, versions: dict[str, str]):
    def version(name):
        if name not in versions:
            raise metadata.PackageNotFoundError(name)
        return versions[name]
    monkeypatch.setattr(compat.metadata, "version", version)


@pytest.mark.parametrize("installed", ["5.15.0", "5.23.0", "6.0.0rc1", "5.0.0"])
def test_new_enough_passes_and_returns_the_version(monkeypatch, installed):
    fake_versions(monkeypatch, {"transformers": installed})
    assert compat.require("transformers", "5.0") == installed


@pytest.mark.parametrize("installed", ["4.57.1", "4.9.0", "4.57.0.dev0"])
def test_too_old_names_the_needed_and_the_installed_version(monkeypatch, installed):
    fake_versions(monkeypatch, {"transformers": installed})
    with pytest.raises(ImportError) as err:
        compat.require("transformers", "5.0", why="rope_parameters")
    message = str(err.value)
    assert "transformers >= 5.0" in message and installed in message and "rope_parameters" in message
    assert "pip install -U 'transformers>=5.0'" in message


def test_missing_package(monkeypatch):
    fake_versions(monkeypatch, {})
    with pytest.raises(ImportError, match="not installed"):
        compat.require("transformers", "5.0")


def test_the_real_installed_transformers_is_new_enough():
    assert compat.require("transformers", "5.0") == metadata.version("transformers")


@pytest.mark.parametrize("bad", ["", "x", None])
def test_bad_minimum(bad):
    with pytest.raises((ValueError, TypeError), match="minimum"):
        compat.require("transformers", bad)


@pytest.mark.parametrize(("version", "release"), [("5.15.0", (5, 15, 0)), ("6.0.0rc1", (6, 0, 0)),
                                                  ("4.57.1.dev0", (4, 57, 1)), ("2.13.0+cpu", (2, 13, 0))])
def test_release_by_hand(version, release):
    assert compat._release(version) == release


# A kernel whose runtime reports an older library than the course needs: the lesson's import cell
# must stop with compat.require's message, not a TypeError deep inside a slider.
OLD_RUNTIME = """
import importlib.metadata as metadata
real = metadata.version
metadata.version = lambda name: {fake!r} if name == {package!r} else real(name)
try:
    {statement}
except ImportError as error:
    print("STOPPED:", error)
else:
    print("IMPORTED")
"""


@pytest.mark.parametrize(("package", "fake", "statement", "needed"), [
    ("torch", "2.3.1", "import helpers as H", "torch >= 2.4"),
])
def test_a_lesson_on_a_too_old_library_stops_with_the_message(package, fake, statement, needed):
    import subprocess
    import sys

    code = OLD_RUNTIME.format(fake=fake, package=package, statement=statement)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("STOPPED:"), done.stdout
    assert needed in done.stdout and fake in done.stdout and "pip install -U" in done.stdout


def test_the_declared_floors_are_what_the_code_requires():
    """pyproject's floors and the versions compat.require asks for at import agree."""
    import re
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    floors = dict(re.match(r"([\w-]+)>=([\d.]+)", dep).groups()
                  for dep in tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"])
    required = {}
    for path in (root / "helpers").rglob("*.py"):
        for package, minimum in re.findall(r'^require\("([\w-]+)", "([\d.]+)"', path.read_text(), re.M):
            required[package] = minimum
    assert required == {"torch": "2.4"}
    for package, minimum in required.items():
        assert floors[package] == minimum, f"pyproject declares {package}>={floors[package]}, the code needs {minimum}"
