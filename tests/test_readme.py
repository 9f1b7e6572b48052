"""The README is the learner's page and CONTRIBUTING.md the maintainer's: what each must say, and the
link between them, which works both on GitHub and on the web site (where only the README and the lessons
are pages, so it is a full GitHub address built from pyproject.toml's Repository URL)."""

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text()
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def repository_url() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"].rstrip("/")


def contributing_url() -> str:
    return f"{repository_url()}/blob/main/CONTRIBUTING.md"


def test_the_readme_links_contributing_on_github():
    assert f"]({contributing_url()})" in README
    assert CONTRIBUTING.startswith("# Contributing")


def test_the_readme_names_the_lessons_that_need_transformers():
    """The lessons whose code cells import transformers are the ones the README says need it."""
    importing = []
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        if re.search(r"^\s*(?:import transformers|from transformers\b)", code, re.M):
            importing.append(path.name[:2])
    sentence = next(s for s in re.split(r"(?<=\.)\s", README.replace("\n", " ")) if "need `transformers`" in s)
    named = re.findall(r"\b\d\d\b", sentence.split("need `transformers`")[0])
    assert named == importing, f"the README says lessons {named} need transformers; {importing} import it"


def test_maintainers_material_lives_in_contributing():
    for words in ("nbval", "ATEN_CPU_CAPABILITY", "## Layout", "make test-", "benchmarks/"):
        assert words not in README, f"the README, a learner's page, mentions {words!r}: CONTRIBUTING.md's"
        assert words in CONTRIBUTING, f"CONTRIBUTING.md does not mention {words!r}"


def test_contributing_lists_every_target_of_make_test():
    makefile = (ROOT / "Makefile").read_text()
    targets = re.search(r"^TEST_TARGETS\s*:=\s*(.+)$", makefile, re.M).group(1).split()
    rows = [line for line in CONTRIBUTING.splitlines() if line.startswith("| `make ")]
    assert [re.match(r"\| `make ([\w-]+)`", row).group(1) for row in rows] == targets
