"""The GitHub Actions workflow: valid (actionlint), and it runs the same command as .ci/run."""

import os
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


def test_runs_the_documented_test_command_like_ci(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    runs = [s.get("run", "") for s in steps]
    assert "make test" in [r.strip() for r in runs]
    assert "make test" in (ROOT / ".ci" / "run").read_text() and "make test" in (ROOT / "CONTRIBUTING.md").read_text()
    assert any("apt-get install" in r and "chromium" in r for r in runs)
    assert any("actions/cache" in s.get("uses", "") for s in steps)


def test_failure_uploads_screenshots_and_notebooks(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    upload = [s for s in steps if "upload-artifact" in s.get("uses", "")]
    assert upload and upload[0]["if"] == "failure()" and "test-artifacts" in upload[0]["with"]["path"]
    executed = [s for s in steps if "run_notebooks.py" in s.get("run", "")]
    assert executed and executed[0]["if"] == "failure()" and "test-artifacts/executed" in executed[0]["run"]


def test_failure_step_uses_the_project_runner_with_timeouts(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    executed = [s for s in steps if "run_notebooks.py" in s.get("run", "")]
    assert executed and executed[0]["if"] == "failure()"
    assert executed[0]["timeout-minutes"] <= 20 < workflow["jobs"]["test"]["timeout-minutes"]
    assert "--timeout" in executed[0]["run"] and "--output-dir test-artifacts/executed" in executed[0]["run"]


def test_runner_writes_copies_and_bounds_each_cell(tmp_path):
    """The failure step's runner: executed copies in the output folder, the notebook untouched,
    a stalled cell stopped by --timeout and recorded, execution going on past an error."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('first')"), nbformat.v4.new_code_cell("1/0"),
                nbformat.v4.new_code_cell("import time; time.sleep(60)"), nbformat.v4.new_code_cell("print('last')")]
    path = tmp_path / "stall.ipynb"
    nbformat.write(nb, path)
    before = path.read_text()
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "run_notebooks.py"), "--output-dir",
                           str(tmp_path / "out"), "--allow-errors", "--timeout", "5", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert path.read_text() == before
    copy = nbformat.read(tmp_path / "out" / "stall.ipynb", as_version=4)
    assert copy.cells[0].outputs[0]["text"] == "first\n"
    assert copy.cells[1].outputs[0]["ename"] == "ZeroDivisionError"
    assert done.returncode != 0 or copy.cells[3].outputs, done.stderr[-1000:]


def test_workflow_trusts_the_workspace_before_git_runs(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    names = [s.get("name", s.get("uses", "")) for s in steps]
    trust = next(i for i, s in enumerate(steps) if "safe.directory" in s.get("run", ""))
    assert trust == 1 and names[0].startswith("actions/checkout")
    assert "--global" in steps[trust]["run"] and "$GITHUB_WORKSPACE" in steps[trust]["run"]


@pytest.mark.skipif(os.geteuid() != 0, reason="reproducing git's ownership check needs root, as in the CI container")
def test_the_trust_step_lets_root_use_a_workspace_another_user_owns(tmp_path, workflow):
    """The container case: root runs git over a clone owned by the runner's user (uid 1001)."""
    clone = tmp_path / "workspace"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["chown", "-R", "1001:1001", str(clone)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "GITHUB_WORKSPACE": str(clone),
           "GIT_CONFIG_NOSYSTEM": "1"}
    refused = subprocess.run(["git", "ls-files"], cwd=clone, env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "dubious ownership" in refused.stderr
    step = next(s for s in workflow["jobs"]["test"]["steps"] if "safe.directory" in s.get("run", ""))
    subprocess.run(["bash", "-c", step["run"]], env=env, check=True)
    trusted = subprocess.run(["git", "ls-files"], cwd=clone, env=env, capture_output=True, text=True)
    assert trusted.returncode == 0 and "pyproject.toml" in trusted.stdout.split()


def test_weekly_job_checks_the_repository_url_and_release_tag(workflow):
    job = workflow["jobs"]["repository"]
    assert "schedule" in job["if"] and any("--check-remote" in s.get("run", "") for s in job["steps"])
