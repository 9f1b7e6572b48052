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
