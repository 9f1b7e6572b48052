"""The Colab setup cell: generated from one place, identical in every notebook, and really
installs the helpers package when run in (a simulation of) Colab.

The simulation: a stand-in ``google.colab`` module on the path, a fresh virtual environment
that sees the installed libraries (torch, numpy, pip, … as Colab has them) but not the
course's ``helpers``, and ``PE_COURSE_REPO`` pointing at a ``git clone`` of this repository
(its committed HEAD), so the cell's ``pip install git+…`` really runs.
"""

import os
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import setup_cell  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHECK = textwrap.dedent(
    """
    import importlib, importlib.util, json, sys
    before = importlib.util.find_spec("helpers")
    exec(open(sys.argv[1]).read())
    importlib.invalidate_caches()
    spec = importlib.util.find_spec("helpers")
    result = {"before": before is not None, "after": None if spec is None else spec.origin}
    if spec is not None:
        import helpers
        result["sinusoidal_shape"] = list(helpers.sinusoidal(4, 8).shape)
    print(json.dumps(result))
    """
)


def test_repository_url_is_configured_in_pyproject():
    with open(ROOT / "pyproject.toml", "rb") as f:
        url = tomllib.load(f)["project"]["urls"]["Repository"]
    assert url == setup_cell.repository_url()
    assert url.startswith("https://") and url in setup_cell.setup_cell_source()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_setup_cell_is_the_generated_one(path):
    nb = nbformat.read(path, as_version=4)
    i = setup_cell.setup_cell_index(nb)
    assert i is not None, f"{path.name}: no setup cell (a code cell starting with {setup_cell.MARKER!r})"
    assert nb.cells[i].source == setup_cell.setup_cell_source(), \
        f"{path.name}: setup cell differs from tools/setup_cell.py; run `python tools/setup_cell.py --stamp {path}`"
    assert i <= 2, f"{path.name}: the setup cell should come right after the title"


def test_repository_url_lives_in_exactly_one_place():
    """Outside pyproject.toml the URL appears only inside generated setup cells."""
    url = setup_cell.repository_url()
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    generated = setup_cell.setup_cell_source()
    places = []
    for name in files:
        path = ROOT / name
        if not path.is_file() or path.suffix in {".png", ".jpg", ".whl"}:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if path.suffix == ".ipynb" and url in text:
            nb = nbformat.read(path, as_version=4)
            text = "\n".join(c.source for c in nb.cells if c.source != generated)
        if url in text:
            places.append(name)
    assert places == ["pyproject.toml"]


def fake_colab(tmp_path: Path) -> Path:
    stub = tmp_path / "colab-stub"
    (stub / "google" / "colab").mkdir(parents=True)
    (stub / "google" / "__init__.py").write_text("")
    (stub / "google" / "colab" / "__init__.py").write_text('"""Stand-in for Colab\'s google.colab module."""\n')
    return stub


def fresh_env(tmp_path: Path) -> Path:
    """A virtual environment without helpers that sees this interpreter's installed libraries
    as plain path entries (so an editable install of helpers there stays invisible)."""
    env = tmp_path / "colab-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    libs = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "colab_preinstalled.pth").write_text("\n".join(sorted(libs)) + "\n")
    return python


def run_cell(python: Path, tmp_path: Path, *, colab: bool, repo: str, extra_path: list[Path] = ()) -> dict:
    cell = tmp_path / "setup_cell.py"
    cell.write_text(setup_cell.setup_cell_source())
    check = tmp_path / "check.py"
    check.write_text(("import google.colab\n" if colab else "") + CHECK)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_TARGET", "VIRTUAL_ENV"))}
    env["PE_COURSE_REPO"] = repo
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in [fake_colab(tmp_path), *extra_path])
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    work = tmp_path / "work"  # not the repository: `helpers` must not be importable from the cwd
    work.mkdir(exist_ok=True)
    proc = subprocess.run([str(python), str(check), str(cell)], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import json

    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("repo") / "positional-encoding-course"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    assert (dest / "pyproject.toml").is_file() and (dest / "helpers" / "__init__.py").is_file()
    return dest


def test_in_colab_the_cell_installs_helpers_from_the_repository(tmp_path, clone):
    python = fresh_env(tmp_path)
    result = run_cell(python, tmp_path, colab=True, repo=clone.as_uri())
    assert result["before"] is False, "helpers was importable before the cell ran: not a real install test"
    assert result["after"] is not None, "the setup cell ran but helpers is still not importable"
    assert str(tmp_path / "colab-env") in result["after"]  # installed into the (fake) Colab environment
    assert result["sinusoidal_shape"] == [4, 8]


def test_outside_colab_the_cell_does_nothing(tmp_path):
    python = fresh_env(tmp_path)
    # an unreachable repository: any install attempt would fail the cell (check=True)
    result = run_cell(python, tmp_path, colab=False, repo=(tmp_path / "no-such-repo").as_uri())
    assert result == {"before": False, "after": None}


def test_in_colab_with_helpers_present_the_cell_does_nothing(tmp_path):
    python = fresh_env(tmp_path)
    result = run_cell(python, tmp_path, colab=True, repo=(tmp_path / "no-such-repo").as_uri(), extra_path=[ROOT])
    assert result["before"] is True and result["after"] == str(ROOT / "helpers" / "__init__.py")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_title_cell_ends_with_its_colab_badge(path):
    nb = nbformat.read(path, as_version=4)
    title = nb.cells[0]
    assert title.cell_type == "markdown" and title.source.startswith("# ")
    badge = setup_cell.colab_badge(path.name)
    assert title.source.endswith(badge), \
        f"{path.name}: title cell lacks its current Colab badge; run `python tools/setup_cell.py --stamp {path}`"
    assert title.source.count("[![Open in Colab]") == 1


def test_colab_badge_points_at_the_notebook_on_github():
    url = "https://github.com/someone/some-course"
    assert setup_cell.colab_url("00_x.ipynb", url) == \
        "https://colab.research.google.com/github/someone/some-course/blob/main/notebooks/00_x.ipynb"
    with pytest.raises(ValueError, match="Repository URL"):
        setup_cell.colab_url("00_x.ipynb", "https://gitlab.com/someone/some-course")


def test_stamping_a_title_twice_keeps_one_badge():
    once = setup_cell.title_with_badge("# 00 · Title\n\nText.", "00_x.ipynb")
    assert setup_cell.title_with_badge(once, "00_x.ipynb") == once
    assert once.count("[![Open in Colab]") == 1 and once.startswith("# 00 · Title\n\nText.\n\n")


def test_readme_has_a_colab_badge_per_lesson_and_a_binder_badge():
    readme = (ROOT / "README.md").read_text()
    assert setup_cell.binder_badge() in readme
    for path in NOTEBOOKS:
        row = next((line for line in readme.splitlines() if f"(notebooks/{path.name})" in line), None)
        assert row is not None, f"README's lesson table has no row for {path.name}"
        assert setup_cell.colab_badge(path.name) in row, \
            f"README's row for {path.name} lacks its badge; see `python tools/setup_cell.py --badges notebooks/*.ipynb`"
