"""Running a browser-drawn explorer's bundle in Node.js, for the tests that compare its numbers with
the Python reference. Under CI (CI=true) a missing Node.js is a failure, never a skip."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
NODE = shutil.which("node")


def evaluate(tmp_path: Path, bundle: str, expression: str):
    """Import ``bundle`` (an ES module's text) as ``m`` and return ``expression`` (JavaScript that may
    use ``m``), passed through JSON."""
    if NODE is None:
        if IN_CI:
            pytest.fail("node not found (under CI the bundle's tests must run)")
        pytest.skip("node (Node.js) not found")
    path = tmp_path / f"bundle-{len(list(tmp_path.glob('bundle-*.mjs')))}.mjs"
    path.write_text(bundle, encoding="utf-8")
    program = (f"const m = await import({json.dumps(path.as_uri())});\n"
               f"process.stdout.write(JSON.stringify({expression}));")
    done = subprocess.run([NODE, "--input-type=module", "-e", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)
