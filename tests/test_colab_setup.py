"""The setup cell: generated from one place, identical in every notebook, and really installs the
course's helpers, at the release the notebook was made with, wherever they are missing.

The simulation of a hosted runtime (Colab, Kaggle, VS Code without the repository): a fresh virtual
environment that sees the installed libraries (torch, numpy, pip, … as such a runtime has them) but
not the course's ``helpers``, and ``PE_COURSE_REPO`` pointing at a ``git clone`` of this repository
(its committed HEAD, tagged as the release the cell names, with a newer commit on top), so the
cell's ``pip install git+…@<tag>`` really runs.
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
# A checkout owned by another user (a CI container running as root over the runner's workspace) is
# one git would refuse: these tests read this repository whoever owns it.
GIT = ["git", "-c", f"safe.directory={ROOT}", "-c", f"safe.directory={ROOT}/.git"]
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
    assert nb.cells[i].source == setup_cell.setup_cell_source(extras=setup_cell.notebook_extras(nb)), \
        f"{path.name}: setup cell differs from tools/setup_cell.py; run `python tools/setup_cell.py --stamp {path}`"
    assert i <= 2, f"{path.name}: the setup cell should come right after the title"


def test_repository_url_lives_in_exactly_one_place():
    """Outside pyproject.toml the URL appears only inside generated setup cells."""
    url = setup_cell.repository_url()
    files = subprocess.run([*GIT, "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    generated = {setup_cell.setup_cell_source(), setup_cell.setup_cell_source(extras=(setup_cell.HF_EXTRA,))}
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
            text = "\n".join(c.source for c in nb.cells if c.source not in generated)
        if name == "README.md":
            text = text.replace(setup_cell.clone_command(), "").replace(f"{url}/blob/main/CONTRIBUTING.md", "")
        if url in text:
            places.append(name)
    assert places == ["pyproject.toml"]


def test_readme_clones_the_configured_repository():
    assert setup_cell.clone_command() in (ROOT / "README.md").read_text()


def fresh_env(tmp_path: Path) -> Path:
    """A virtual environment without helpers that sees this interpreter's installed libraries
    as plain path entries (so an editable install of helpers there stays invisible)."""
    env = tmp_path / "hosted-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    libs = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (env_site(python) / "preinstalled.pth").write_text("\n".join(sorted(libs)) + "\n")
    return python


def env_site(python: Path) -> Path:
    return Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())


def run_cell(python: Path, tmp_path: Path, *, repo: str, extra_path: list[Path] = (),
             expect_ok: bool = True) -> dict | subprocess.CompletedProcess:
    cell = tmp_path / "setup_cell.py"
    cell.write_text(setup_cell.setup_cell_source())
    check = tmp_path / "check.py"
    check.write_text(CHECK)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_TARGET", "VIRTUAL_ENV"))}
    env["PE_COURSE_REPO"] = repo
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in extra_path)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    work = tmp_path / "work"  # not the repository: `helpers` must not be importable from the cwd
    work.mkdir(exist_ok=True)
    proc = subprocess.run([str(python), str(check), str(cell)], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600)
    if not expect_ok:
        return proc
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import json

    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A clone of this repository whose release tag is its HEAD, with one newer commit on top, so an
    install that follows the branch instead of the tag is caught."""
    dest = tmp_path_factory.mktemp("repo") / "positional-encoding-course"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(dest)]
    subprocess.run([*GIT, "clone", "--quiet", str(ROOT), str(dest)], check=True)
    subprocess.run([*git, "tag", "--force", setup_cell.release_tag()], check=True)  # moved here if it exists
    (dest / "helpers" / "_newer_than_the_release.py").write_text("")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "after the release"], check=True)
    assert (dest / "pyproject.toml").is_file() and (dest / "helpers" / "__init__.py").is_file()
    return dest


def installed_files(python: Path) -> set[str]:
    return {p.name for p in (env_site(python) / "helpers").glob("*.py")}


def test_without_the_course_the_cell_installs_its_release(tmp_path, clone):
    python = fresh_env(tmp_path)
    result = run_cell(python, tmp_path, repo=clone.as_uri())
    assert result["before"] is False, "helpers was importable before the cell ran: not a real install test"
    assert result["after"] is not None, "the setup cell ran but helpers is still not importable"
    assert str(tmp_path / "hosted-env") in result["after"]  # installed into the hosted runtime's environment
    assert result["sinusoidal_shape"] == [4, 8]
    files = installed_files(python)
    assert "__init__.py" in files and "_newer_than_the_release.py" not in files, "installed the branch, not the tag"


def test_with_the_course_present_the_cell_does_nothing(tmp_path):
    python = fresh_env(tmp_path)
    # an unreachable repository: any install attempt would fail the cell (check=True)
    result = run_cell(python, tmp_path, repo=(tmp_path / "no-such-repo").as_uri(), extra_path=[ROOT])
    assert result["before"] is True and result["after"] == str(ROOT / "helpers" / "__init__.py")


def test_another_package_named_helpers_is_replaced_by_the_courses(tmp_path, clone):
    python = fresh_env(tmp_path)
    stranger = env_site(python) / "helpers"
    stranger.mkdir()
    (stranger / "__init__.py").write_text('"""Another course\'s helpers."""\n')
    result = run_cell(python, tmp_path, repo=clone.as_uri())
    assert result["before"] is True and result["after"] == str(stranger / "__init__.py")
    assert "pe-course-helpers" in (stranger / "__init__.py").read_text()
    assert result["sinusoidal_shape"] == [4, 8]


def test_a_helpers_file_that_hides_the_course_gets_a_clear_message(tmp_path, clone):
    python = fresh_env(tmp_path)
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "helpers.py").write_text("# a learner's own helpers.py\n")
    proc = run_cell(python, tmp_path, repo=clone.as_uri(), extra_path=[shadow], expect_ok=False)
    assert proc.returncode != 0
    assert "Another module named helpers" in proc.stderr and str(shadow / "helpers.py") in proc.stderr


def test_the_cell_names_the_release_of_pyproject():
    source = setup_cell.setup_cell_source()
    assert f"@{setup_cell.release_tag()}" in source and setup_cell.release_tag() == "v" + setup_cell.course_version()
    assert "google.colab" not in source  # it works wherever the course is missing, not only in Colab


def test_the_cell_tells_the_course_by_the_marker_in_its_init():
    assert '__course__ = "pe-course-helpers"' in (ROOT / "helpers" / "__init__.py").read_text()


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


def test_check_remote_finds_the_tag_and_names_what_is_missing(tmp_path, clone):
    assert setup_cell.check_remote(clone.as_uri()) is None
    missing_tag = setup_cell.check_remote(clone.as_uri(), tag="v999.0.0")
    assert "has no tag v999.0.0" in missing_tag
    nowhere = setup_cell.check_remote((tmp_path / "no-such-repo").as_uri())
    assert "does not answer" in nowhere


def test_lessons_that_import_transformers_install_the_hf_extra():
    from packaging.requirements import Requirement

    with open(ROOT / "pyproject.toml", "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    assert any(Requirement(r).name == "transformers" for r in extras[setup_cell.HF_EXTRA])
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        imports_hf = any(c.cell_type == "code" and setup_cell.uses_transformers(c.source)
                         for c in nb.cells)
        source = nb.cells[setup_cell.setup_cell_index(nb)].source
        assert ("[hf] @ git+" in source) == imports_hf, f"{path.name}: setup cell and transformers imports disagree"
    line = next(x for x in setup_cell.setup_cell_source(extras=("hf",)).splitlines() if "pip" in x)
    spec = line.split('f"', 1)[1].split('"', 1)[0].replace("{url}", "https://github.com/o/r")
    req = Requirement(spec)
    assert req.name == "pe-course-helpers" and req.extras == {"hf"} and req.url.endswith("@" + setup_cell.release_tag())


def release(dest: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run([sys.executable, str(ROOT / "tools" / "release.py"), "--root", str(dest), *args],
                          capture_output=True, text=True, env=env)


def test_check_release_fails_without_the_tag_or_after_helpers_change_and_a_release_mends_both(tmp_path):
    dest = tmp_path / "repo"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(dest)]
    subprocess.run([*GIT, "clone", "--quiet", "--no-tags", str(ROOT), str(dest)], check=True)
    version = setup_cell.course_version(dest)
    bare = tmp_path / "origin-with-other-tags.git"  # fault 1: the tag every setup cell names exists nowhere
    subprocess.run([*GIT, "init", "--quiet", "--bare", str(bare)], check=True)
    subprocess.run([*git, "push", "--quiet", str(bare), "HEAD:refs/heads/main", "HEAD:refs/tags/v0.0.1"],
                   check=True)
    subprocess.run([*git, "remote", "set-url", "origin", str(bare)], check=True)
    problem = setup_cell.check_release(dest)
    assert problem is not None and f"no tag v{version}" in problem and "make release" in problem

    made = release(dest, "9.9.0")
    assert made.returncode == 0, made.stderr
    assert setup_cell.check_release(dest) is None
    assert setup_cell.course_version(dest) == "9.9.0"
    tagged = subprocess.run([*git, "rev-parse", "v9.9.0^{commit}", "HEAD"], capture_output=True, text=True)
    assert len(set(tagged.stdout.split())) == 1, "the tag is not on the release commit"
    for path in sorted((dest / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert "@v9.9.0" in nb.cells[setup_cell.setup_cell_index(nb)].source, f"{path.name} not restamped"
    assert subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                          text=True).stdout == ""

    (dest / "README.md").write_text("prose only\n")  # not the package: no release needed
    subprocess.run([*git, "commit", "--quiet", "-am", "prose"], check=True)
    assert setup_cell.check_release(dest) is None

    init = dest / "helpers" / "__init__.py"  # fault 2: the package changed after its release
    init.write_text(init.read_text() + "\n# changed after the release\n")
    subprocess.run([*git, "commit", "--quiet", "-am", "helpers changed"], check=True)
    problem = setup_cell.check_release(dest)
    assert problem is not None and "helpers/__init__.py" in problem and "v9.9.0" in problem
    assert "make release" in problem

    refused = release(dest, "9.8.0")
    assert refused.returncode != 0 and "must be above the current 9.9.0" in refused.stderr
    made = release(dest, "--patch")
    assert made.returncode == 0 and "v9.9.1" in made.stdout, made.stderr
    assert setup_cell.check_release(dest) is None

    init.write_text(init.read_text() + "# not committed\n")
    refused = release(dest)
    assert refused.returncode != 0 and "uncommitted changes" in refused.stderr


def test_a_clone_without_tags_is_checked_against_origin_then_the_release_record(tmp_path):
    """CI may check out ``main`` with no tags: the check then asks origin, and where origin keeps no tags
    (a mirror of branches) or there is no origin to ask, it reads the release record; a package changed
    since the record, or a version with no record, still fails."""
    dest = tmp_path / "repo"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(dest)]
    subprocess.run([*GIT, "clone", "--quiet", "--no-tags", str(ROOT), str(dest)], check=True)
    assert not subprocess.run([*git, "tag", "--list"], capture_output=True, text=True).stdout.strip()
    tag = setup_cell.release_tag(setup_cell.course_version(dest))
    if subprocess.run([*GIT, "-C", str(ROOT), "rev-parse", "-q", "--verify", f"refs/tags/{tag}"],
                      capture_output=True).returncode == 0:  # origin (this checkout) holds the tag: it is asked
        assert setup_cell.check_release(dest) is None

    record = setup_cell.read_release_record(dest)
    assert record is not None and record["tag"] == tag, "the release record does not name the current version"
    bare = tmp_path / "branches-only.git"  # an origin that keeps no tags at all (a mirror of branches)
    subprocess.run([*GIT, "init", "--quiet", "--bare", str(bare)], check=True)
    subprocess.run([*git, "push", "--quiet", str(bare), "HEAD:refs/heads/main"], check=True)
    subprocess.run([*git, "remote", "set-url", "origin", str(bare)], check=True)
    assert setup_cell.check_release(dest) is None, "an origin with no tags at all leaves it to the record"

    subprocess.run([*git, "remote", "remove", "origin"], check=True)  # nothing to ask: the record decides
    assert setup_cell.check_release(dest) is None

    module = dest / "helpers" / "plots.py"  # the package changed after the recorded release
    module.write_text(module.read_text() + "\n# changed after the release\n")
    subprocess.run([*git, "commit", "--quiet", "-am", "helpers changed"], check=True)
    problem = setup_cell.check_release(dest)
    assert problem is not None and "helpers/plots.py" in problem and tag in problem and "make release" in problem

    init = dest / "helpers" / "__init__.py"  # a version raised by hand, with no release behind it
    init.write_text(init.read_text().replace(f'__version__ = "{tag[1:]}"', '__version__ = "99.0.0"'))
    problem = setup_cell.check_release(dest)
    assert problem is not None and "no tag v99.0.0" in problem and f"record names {tag}" in problem

    subprocess.run([*git, "checkout", "--quiet", "--", "helpers/__init__.py"], check=True)
    made = release(dest, "99.1.0")  # a release writes a new record; the clone still has no remote
    assert made.returncode == 0, made.stderr
    subprocess.run([*git, "tag", "-d", "v99.1.0"], check=True, capture_output=True)
    assert setup_cell.read_release_record(dest)["tag"] == "v99.1.0"
    assert setup_cell.check_release(dest) is None


def test_next_version_raises_one_part_and_resets_what_follows():
    sys.path.insert(0, str(ROOT / "tools"))
    import release as release_tool

    assert release_tool.next_version("0.3.7", "minor") == "0.4.0"
    assert release_tool.next_version("0.3.7", "patch") == "0.3.8"
    with pytest.raises(SystemExit, match="MAJOR.MINOR.PATCH"):
        release_tool.next_version("0.3", "minor")


def test_the_cell_says_when_the_helpers_found_are_another_version(tmp_path):
    python = fresh_env(tmp_path)
    older = tmp_path / "older-clone"
    (older / "helpers").mkdir(parents=True)
    (older / "helpers" / "__init__.py").write_text('__course__ = "pe-course-helpers"\n__version__ = "0.0.1"\n')
    cell = tmp_path / "setup_cell.py"
    cell.write_text(setup_cell.setup_cell_source())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONPATH=str(older), PE_COURSE_REPO=(tmp_path / "no-such-repo").as_uri())
    proc = subprocess.run([str(python), str(cell)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr  # found: nothing installed (the repository does not exist)
    version = setup_cell.course_version()
    assert f"helpers here are version 0.0.1; this notebook was made with {version}" in proc.stdout
    assert f"@v{version}" in proc.stdout
