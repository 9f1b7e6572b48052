"""The GitHub Actions workflow: valid (actionlint), and it runs the same command as .ci/run."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"
ACTIONLINT = shutil.which("actionlint") or str(Path(sys.executable).parent / "actionlint")


def actionlint(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([ACTIONLINT, "-no-color", str(path)], capture_output=True, text=True, timeout=60)


def test_actionlint_accepts_the_workflow():
    result = actionlint(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_rejects_a_broken_workflow(tmp_path):
    broken = tmp_path / ".github" / "workflows" / "test.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(WORKFLOW.read_text().replace("runs-on: ubuntu-latest", "runs-on: ${{ matrix.nowhere }}"))
    assert actionlint(broken).returncode != 0


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def test_triggers_and_concurrency(workflow):
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as a boolean
    assert {"push", "pull_request", "schedule"} <= set(triggers)
    assert workflow["concurrency"]["cancel-in-progress"] is True


def test_runs_the_readme_test_command_like_ci(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    runs = [s.get("run", "") for s in steps]
    assert "make test" in [r.strip() for r in runs]
    assert "make test" in (ROOT / ".ci" / "run").read_text() and "make test" in (ROOT / "README.md").read_text()
    assert any("apt-get install" in r and "chromium" in r for r in runs)
    assert any("actions/cache" in s.get("uses", "") for s in steps)


def test_failure_uploads_screenshots_and_notebooks(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    upload = [s for s in steps if "upload-artifact" in s.get("uses", "")]
    assert upload and upload[0]["if"] == "failure()" and "test-artifacts" in upload[0]["with"]["path"]
    executed = [s for s in steps if "nbconvert" in s.get("run", "")]
    assert executed and executed[0]["if"] == "failure()" and "test-artifacts/executed" in executed[0]["run"]
