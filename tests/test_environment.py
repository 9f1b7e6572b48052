"""The pinned environment: requirements files and environment.yml name the same versions."""

import re
from pathlib import Path

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


def test_environment_yml_has_the_same_pins():
    pip = {**pins(ROOT / "requirements.txt"), **pins(ROOT / "requirements-test.txt")}
    conda = pins(ROOT / "environment.yml")
    assert pip == conda


def test_torch_is_the_cpu_release_the_course_is_tested_with():
    assert pins(ROOT / "requirements.txt")["torch"] == "2.13.0"
