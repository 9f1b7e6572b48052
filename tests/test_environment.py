"""The pinned environment: requirements files and environment.yml name the same versions."""

import re
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^\s*(?:-\s+)?([A-Za-z0-9_.\-]+)==([^\s#]+)")


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        m = PIN.match(line)
        if m:
            found[m.group(1).lower().replace("_", "-")] = m.group(2)
    return found


def test_requirements_pin_every_line():
    for name in ("requirements.txt", "requirements-test.txt"):
        for line in (ROOT / name).read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                assert PIN.match(line), f"{name}: {line!r} is not pinned with =="


CPU_INDEX = "--extra-index-url https://download.pytorch.org/whl/cpu"


def test_environment_yml_has_the_learners_pins():
    """For conda users: what a learner needs (requirements.txt), none of the test tools."""
    assert pins(ROOT / "environment.yml") == pins(ROOT / "requirements.txt")


def test_environment_yml_takes_pytorchs_cpu_build_then_the_checkouts_helpers():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip[0] == CPU_INDEX, "PyTorch's CPU index must come before torch (else Linux gets the CUDA build)"
    assert CPU_INDEX in (ROOT / "binder" / "environment.yml").read_text()  # the same index as Binder's
    assert pip[-1] == "-e ."
    # why the extra index is enough: the CPU index's 2.13.0+cpu meets the pin and sorts above PyPI's 2.13.0
    torch = pins(ROOT / "environment.yml")["torch"]
    assert f"{torch}+cpu" in SpecifierSet(f"=={torch}") and Version(f"{torch}+cpu") > Version(torch)


def test_torch_is_the_cpu_release_the_course_is_tested_with():
    assert pins(ROOT / "requirements.txt")["torch"] == "2.13.0"


def test_binder_installs_the_course_pins_then_helpers():
    """repo2docker reads binder/ (it then ignores the root's environment.yml), installs
    binder/environment.yml before the repository is copied in, and runs binder/postBuild after."""
    env = (ROOT / "binder" / "environment.yml").read_text()
    assert pins(ROOT / "binder" / "environment.yml") == pins(ROOT / "requirements.txt")
    assert "  - python=3.11" in env.splitlines()
    assert not re.search(r"^\s*-\s+-e\b", env, re.M), "an editable install cannot run before the repository is copied"
    post = ROOT / "binder" / "postBuild"
    assert post.stat().st_mode & 0o111, "binder/postBuild must be executable"
    lines = [line for line in post.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert lines[-1] == "python -m pip install --no-deps -e ."
    assert post.read_text().startswith("#!/bin/bash\n")


def test_colab_environment_names_colab_versions():
    """The Colab-like environment pins the versions Colab's runtime ships (2026 package list)."""
    colab = pins(ROOT / "requirements-colab.txt")
    expected = {"ipywidgets": "7.7.1", "ipython": "7.34.0", "ipykernel": "6.17.1", "jupyter-client": "7.4.9",
                "traitlets": "5.7.1", "matplotlib": "3.10.0", "seaborn": "0.13.2", "numpy": "2.1.3",
                "transformers": "5.15.0"}
    assert {k: colab.get(k) for k in expected} == expected
    assert colab["torch"] == pins(ROOT / "requirements.txt")["torch"]
