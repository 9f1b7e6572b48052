"""Lesson 11's reference list covers the course: every "X et al." that any lesson cites has an entry there
(with the same year where the citation gives one), and every arXiv link in the list is well formed
(NNNN.NNNNN, the same id in the link's text and its address, a real month)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
MAP = NOTEBOOKS / "11_the_map.ipynb"
LIST_HEADINGS = ("## References", "## Where to go next")

# a year is 19xx or 20xx, not a count ("Press et al.'s 2512 tokens")
CITATION = re.compile(r"\b([A-Z][A-Za-z\-]+) et al\.(?:'s)?,? ?\(?((?:19|20)\d{2}\b)?")
ENTRY = re.compile(r"^- (?P<authors>[^()]+?) \((?P<year>\d{4})\)")
ARXIV_LINK = re.compile(r"\[arXiv:(?P<shown>[^\]]*)\]\(https?://arxiv\.org/abs/(?P<target>[^)\s]*)\)")
ARXIV_ANY = re.compile(r"arxiv\.org/abs/([^)\s\]]*)|arXiv:([^\]\s)]*)")
ARXIV_ID = re.compile(r"^(\d{2})(\d{2})\.\d{5}$")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _is_list(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and "".join(cell["source"]).lstrip().startswith(LIST_HEADINGS)


def reference_entries(cells: list[dict]) -> list[str]:
    """The bullet lines of lesson 11's reference lists."""
    lists = [c for c in cells if _is_list(c)]
    assert lists, "lesson 11 has no '## References' cell"
    return [line for c in lists for line in "".join(c["source"]).splitlines() if line.startswith("- ")]


def citations(notebooks: dict[str, list[dict]]) -> set[tuple[str, str | None, str]]:
    """(name, year or None, notebook) for every "X et al." in the lessons, the reference lists left out."""
    found = set()
    for name, cells in notebooks.items():
        for cell in cells:
            if name == MAP.name and _is_list(cell):
                continue
            for m in CITATION.finditer("".join(cell["source"])):
                found.add((m.group(1), m.group(2), name))
    return found


def problems(notebooks: dict[str, list[dict]]) -> list[str]:
    """Everything wrong with lesson 11's reference lists, as readable lines (empty when all is well)."""
    entries = reference_entries(notebooks[MAP.name])
    listed = []
    found = []
    for line in entries:
        m = ENTRY.match(line)
        if m is None:
            found.append(f"reference without 'Authors (year)' at its start: {line[:80]}")
            continue
        listed.append((m.group("authors"), m.group("year")))
        if "](http" not in line:
            found.append(f"reference without a link: {line[:80]}")
        for link in ARXIV_LINK.finditer(line):
            if link.group("shown") != link.group("target"):
                found.append(f"arXiv link shows {link.group('shown')} but points to {link.group('target')}")
        for groups in ARXIV_ANY.findall(line):
            arxiv_id = groups[0] or groups[1]
            well_formed = ARXIV_ID.match(arxiv_id)
            if well_formed is None or not 1 <= int(well_formed.group(2)) <= 12:
                found.append(f"malformed arXiv id {arxiv_id!r} (expected NNNN.NNNNN, YYMM.number) in: {line[:80]}")
    for name, year, where in sorted(citations(notebooks), key=str):
        matches = [y for authors, y in listed if authors.startswith(f"{name} et al.")]
        if not matches:
            found.append(f"{name} et al. is cited in {where} but not listed in lesson 11's references")
        elif year is not None and year not in matches:
            found.append(f"{name} et al. ({year}) is cited in {where}, but lesson 11 lists {name} et al. "
                         f"only for {', '.join(sorted(matches))}")
    return found


def course() -> dict[str, list[dict]]:
    return {path.name: _cells(path) for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))}


def test_every_cited_paper_is_listed_and_every_arxiv_id_is_well_formed():
    notebooks = course()
    assert len(citations(notebooks)) > 10  # the scan finds the course's citations at all
    assert problems(notebooks) == []


def _edit_list(notebooks, old: str, new: str) -> dict[str, list[dict]]:
    mutated = copy.deepcopy(notebooks)
    for cell in mutated[MAP.name]:
        text = "".join(cell["source"])
        if _is_list(cell) and old in text:
            cell["source"] = [text.replace(old, new, 1)]
            return mutated
    raise AssertionError(f"{old!r} is not in lesson 11's reference lists")


def test_the_check_fails_on_mutated_copies():
    notebooks = course()
    dropped = _edit_list(notebooks, "- Peng et al. (2023)", "- Peng and others (2023)")
    assert any(p.startswith("Peng et al. is cited in 09_stretching_rope.ipynb") for p in problems(dropped))

    wrong_year = _edit_list(notebooks, "- Press et al. (2021)", "- Press et al. (2020)")
    assert any(p.startswith("Press et al. (2021) is cited") for p in problems(wrong_year))

    short_id = _edit_list(notebooks, "[arXiv:2306.15595](https://arxiv.org/abs/2306.15595)",
                          "[arXiv:2306.1559](https://arxiv.org/abs/2306.1559)")
    assert any("malformed arXiv id '2306.1559'" in p for p in problems(short_id))

    mismatched = _edit_list(notebooks, "(https://arxiv.org/abs/2309.00071)", "(https://arxiv.org/abs/2309.00072)")
    assert any("shows 2309.00071 but points to 2309.00072" in p for p in problems(mismatched))

    no_month = _edit_list(notebooks, "arXiv:2104.09864](https://arxiv.org/abs/2104.09864)",
                          "arXiv:2113.09864](https://arxiv.org/abs/2113.09864)")
    assert any("malformed arXiv id '2113.09864'" in p for p in problems(no_month))

    uncited = copy.deepcopy(notebooks)
    uncited["09_stretching_rope.ipynb"].append({"cell_type": "markdown", "source": ["As Nobody et al. (2030) show."]})
    assert "Nobody et al. is cited in 09_stretching_rope.ipynb but not listed in lesson 11's references" in \
        problems(uncited)
