"""Every markdown link to a notebook, in the lessons and in the README, names a notebook that exists.

A relative link (``[lesson 08](08_train_short_test_long.ipynb)`` in a lesson,
``notebooks/06_rope.ipynb`` in the README) must resolve from the file that holds it; a link to the
course's notebooks on GitHub or Colab (``…/blob/main/notebooks/06_rope.ipynb``) must name a notebook
in ``notebooks/``. Anchors (``#section``) are ignored; code cells are not read.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")  # ](target) or ](target "title")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)  # code blocks and spans hold no links
HOSTED = re.compile(r"https?://(?:github\.com|colab\.research\.google\.com)/.*?/blob/[^/]+/(notebooks/[^?#]+\.ipynb)")


def notebook_links(markdown: str) -> list[str]:
    """The targets of the markdown links in ``markdown`` that point at a notebook (.ipynb)."""
    targets = (t.split("#", 1)[0] for t in LINK.findall(CODE.sub("", markdown)))
    return [t for t in targets if t.endswith(".ipynb")]


def sources() -> list[tuple[Path, str]]:
    """(file, its markdown) for README.md and for every markdown cell of every lesson."""
    found = [(ROOT / "README.md", (ROOT / "README.md").read_text())]
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        found.append((path, "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")))
    return found


def broken(path: Path, markdown: str) -> list[str]:
    bad = []
    for target in notebook_links(markdown):
        hosted = HOSTED.match(target)
        if hosted:
            resolved = ROOT / hosted[1]
        elif re.match(r"[a-z]+://", target):
            continue  # a notebook somewhere else on the web is not ours to check
        else:
            resolved = (path.parent / target).resolve()
        if not resolved.is_file():
            bad.append(target)
    return bad


def test_the_link_finder_finds_links_and_only_links():
    text = ("See [lesson 05](05_rotation_matrix.ipynb#clock-hands) and [![b](badge.svg)]"
            "(https://colab.research.google.com/github/o/r/blob/main/notebooks/06_rope.ipynb), "
            "`make notebook NB=notebooks/x.ipynb` and [a page](https://example.org/y.html).\n"
            "```\n[not a link](zz.ipynb)\n```")
    assert notebook_links(text) == ["05_rotation_matrix.ipynb",
                                     "https://colab.research.google.com/github/o/r/blob/main/notebooks/06_rope.ipynb"]
    assert broken(ROOT / "notebooks" / "x.ipynb", "[gone](99_no_such_lesson.ipynb)") == ["99_no_such_lesson.ipynb"]
    assert broken(ROOT / "README.md", "[x](https://colab.research.google.com/github/o/r/blob/main/notebooks/"
                                      "99_none.ipynb)") == ["https://colab.research.google.com/github/o/r/blob/main/"
                                                            "notebooks/99_none.ipynb"]


def test_every_lesson_links_onwards():
    # every lesson but the last points at another notebook somewhere in its prose
    for path, markdown in sources()[1:-1]:
        assert any(not t.startswith("http") for t in notebook_links(markdown)), f"{path.name} links to no lesson"


@pytest.mark.parametrize(("path", "markdown"), sources(), ids=lambda v: v.name if isinstance(v, Path) else "")
def test_every_notebook_link_resolves(path, markdown):
    assert notebook_links(markdown), f"{path.name}: no notebook link found"
    bad = broken(path, markdown)
    assert not bad, f"{path.relative_to(ROOT)} links to notebooks that do not exist: {bad}"
