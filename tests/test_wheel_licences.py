"""The wheel carries every licence of what it ships.

The package is built (offline, without build isolation, with the setuptools of this environment)
from a copy of the package, and the test reads the wheel: its METADATA's License-Expression names
the licence of each part, each License-File is in the wheel under ``*.dist-info/licenses/``, and
each kind of file it ships is covered: the code by the MIT licence, the real-text corpus by the PSF
License Agreement carried beside it, the trained models (``.pt``) and their manifests by the
licence their ``SOURCE.md`` states. A file of a new kind fails until its licence is decided here.
"""

from __future__ import annotations

import email.parser
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What identifies each licence's text in a licence file, by SPDX identifier.
LICENCE_TEXT = {
    "MIT": ("MIT License", "Permission is hereby granted, free of charge"),
    "PSF-2.0": ("PSF LICENSE AGREEMENT", 'between the Python Software Foundation ("PSF")',
                "By copying, installing or otherwise using Python"),
    "CC-BY-4.0": ("Creative Commons Attribution 4.0 International", "creativecommons.org/licenses/by/4.0"),
    "ISC": ("Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee "
            "is hereby granted",),
}
# How a SOURCE.md names a licence, by SPDX identifier.
LICENCE_NAMES = {
    "MIT": ("MIT licence", "MIT License"),
    "PSF-2.0": ("PSF License Agreement", "PSF LICENSE AGREEMENT"),
    "CC-BY-4.0": ("CC BY 4.0", "Creative Commons Attribution 4.0"),
}
CODE = {".py", ".js"}
CORPUS = {".gz"}
MODELS = {".pt", ".json"}  # weights and their manifests
NOTICES = {".md"}  # SOURCE.md and licence texts


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Iterator[zipfile.ZipFile]:
    """The wheel built from a copy of what the build reads (nothing is written into the checkout)."""
    try:
        import setuptools
    except ImportError:
        pytest.fail("setuptools is not installed here: pip install -r requirements-test.txt")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.fail(f"setuptools {setuptools.__version__} cannot write PEP 639 licence metadata (needs 77): "
                    "pip install -r requirements-test.txt")
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(ROOT / "helpers", source / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for pattern in project.get("license-files", []):
        for path in ROOT.glob(pattern):
            (source / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, source / path.relative_to(ROOT))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(tmp / "dist"), str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = (tmp / "dist").glob("*.whl")
    with zipfile.ZipFile(built) as archive:
        yield archive


def dist_info(wheel: zipfile.ZipFile) -> str:
    (name,) = {n.split("/")[0] for n in wheel.namelist() if n.split("/")[0].endswith(".dist-info")}
    return name


def metadata(wheel: zipfile.ZipFile):
    return email.parser.Parser().parsestr(wheel.read(f"{dist_info(wheel)}/METADATA").decode("utf-8"))


def expression_ids(wheel: zipfile.ZipFile) -> set[str]:
    expression = metadata(wheel)["License-Expression"]
    assert expression, "METADATA has no License-Expression"
    # every part of the wheel is under its own licence: a conjunction, no choice between licences
    assert not re.search(r"\b(OR|WITH)\b", expression), expression
    return set(re.findall(r"[A-Za-z0-9.+-]+", expression)) - {"AND"}


def licence_files(wheel: zipfile.ZipFile) -> dict[str, str]:
    """License-File path → its text, read from the wheel's dist-info/licenses/."""
    names = set(wheel.namelist())
    found = {}
    for path in metadata(wheel).get_all("License-File") or []:
        member = f"{dist_info(wheel)}/licenses/{path}"
        assert member in names, f"License-File {path} is not in the wheel ({member})"
        found[path] = wheel.read(member).decode("utf-8")
    return found


def flat(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as one space."""
    return " ".join(text.split())


def carries(text: str, spdx: str) -> bool:
    return all(marker in flat(text) for marker in LICENCE_TEXT[spdx])


def shipped(wheel: zipfile.ZipFile) -> list[PurePosixPath]:
    return [PurePosixPath(n) for n in wheel.namelist() if not n.endswith("/") and ".dist-info/" not in n]


def nearest_source(wheel: zipfile.ZipFile, path: PurePosixPath) -> tuple[PurePosixPath, str] | None:
    """The SOURCE.md in the wheel closest above ``path`` (its own folder first) and its text."""
    names = set(wheel.namelist())
    for folder in path.parents:
        candidate = folder / "SOURCE.md"
        if str(candidate) in names:
            return candidate, wheel.read(str(candidate)).decode("utf-8")
    return None


def licences_named(text: str) -> set[str]:
    return {spdx for spdx, names in LICENCE_NAMES.items() if any(name in flat(text) for name in names)}


def models_licence(text: str) -> set[str]:
    """The licences a SOURCE.md states for trained weights: those named in its paragraphs about the
    licence that speak of the weights."""
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if re.search(r"licen[cs]e", p, re.I) and "weights" in p]
    return set().union(*map(licences_named, paragraphs)) if paragraphs else set()


def test_the_expression_names_the_licence_of_every_part(wheel):
    ids = expression_ids(wheel)
    # the code (MIT), the corpus of Python's documentation (PSF), the trained models and the README that is
    # the package's description (CC BY 4.0), the parts of d3 bundled with the browser-drawn explorers (ISC)
    assert ids == {"MIT", "PSF-2.0", "CC-BY-4.0", "ISC"}, ids


def test_every_licence_file_ships_and_every_licence_has_one(wheel):
    files = licence_files(wheel)
    assert files, "METADATA names no License-File"
    for spdx in expression_ids(wheel):
        assert any(carries(text, spdx) for text in files.values()), f"no License-File carries the text of {spdx}"


def test_every_kind_of_file_shipped_is_covered(wheel):
    ids, files = expression_ids(wheel), licence_files(wheel)
    names = set(wheel.namelist())
    unknown = [str(p) for p in shipped(wheel) if p.suffix not in CODE | CORPUS | MODELS | NOTICES]
    assert not unknown, f"files of a kind whose licence is not decided here: {unknown}"
    paths = shipped(wheel)
    assert any(p.suffix == ".py" for p in paths) and "MIT" in ids
    assert any(carries(text, "MIT") for text in files.values())
    corpora = [p for p in paths if p.suffix in CORPUS]
    assert corpora, "the wheel ships no corpus (this test's kinds are out of date)"
    for corpus in corpora:
        # the PSF's text lies beside the corpus, and is one of the wheel's License-Files
        beside = [str(p) for p in paths if p.parent == corpus.parent and p.suffix in NOTICES
                  and carries(wheel.read(str(p)).decode("utf-8"), "PSF-2.0")]
        assert beside, f"no file beside {corpus} carries the PSF License Agreement"
        assert any(path in files for path in beside), f"the PSF text beside {corpus} is not a License-File"
        assert "PSF-2.0" in ids
    bundles = [p for p in paths if p.suffix == ".js" and p.parent.name == "bundle"]
    assert bundles, "the wheel ships no explorer bundle (this test's kinds are out of date)"
    for bundle in bundles:
        # each bundle names the npm packages it contains and their licences; those texts lie beside it
        named = set(re.findall(r"^// [\w.@/-]+ [\d.]+ \((\S+)\):$", wheel.read(str(bundle)).decode("utf-8"), re.M))
        assert named and named <= ids, f"{bundle} contains packages under {named}; the expression has {ids}"
        beside = [str(p) for p in paths if p.parent == bundle.parent and p.suffix in NOTICES]
        for spdx in named:
            assert any(carries(wheel.read(path).decode("utf-8"), spdx) and path in files for path in beside), \
                f"no License-File beside {bundle} carries the text of {spdx}"
    models = [p for p in paths if p.suffix in MODELS]
    assert any(p.suffix == ".pt" for p in models), "the wheel ships no model (this test's kinds are out of date)"
    for model in models:
        found = nearest_source(wheel, model)
        assert found, f"{model}: no SOURCE.md in its folder or above it in the wheel"
        source, text = found
        stated = models_licence(text)
        assert stated, f"{source} states no licence for the weights of {model}"
        assert stated <= ids, f"{source} states {stated} for {model}; the licence expression has {ids}"
        assert "CC-BY-4.0" in stated, f"{source}: the models' licence is CC BY 4.0 ({model})"
    assert all(f"{dist_info(wheel)}/licenses/{path}" in names for path in files)
