"""A lesson's parts: the core, its look-up sections and its optional "Going deeper" sections.

    python tools/lesson_sections.py notebooks/*.ipynb      # list each lesson's sections and what they need

- The core is every cell before the first cell whose headings mention "Going deeper".
- A look-up section of the core (lesson 11's conventions, glossary, references) says so in the line
  under its heading ("*Look-up section: …*"); it runs with the core but is not read as part of it.
- A deeper section starts at each heading "Going deeper · <title> (optional, ~N min)", at any level,
  and runs to the next one; sub-headings stay inside it. It runs on its own after the core, unless
  its first cell names the sections it needs, with the sentence: Run “<title>” first.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

DEEPER = re.compile(r"^#+ .*Going deeper", re.M)
SECTION = re.compile(r"^#+ Going deeper · (.+?)(?: \(optional[^)]*\))?\s*$", re.M)
NEEDS = re.compile(r"Run [“\"](.+?)[”\"] first")
LOOK_UP = re.compile(r"^#+ .*\n+\*Look-up section\b", re.M)  # the line under the heading says it


@dataclass
class Section:
    """Cells ``start`` … ``stop - 1`` of a lesson: a deeper section and the titles of those it needs."""

    title: str
    start: int
    stop: int
    needs: list[str] = field(default_factory=list)


def core_end(nb) -> int:
    """Index of the first cell after the core (the first that mentions "Going deeper" in a heading)."""
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and DEEPER.search(cell.source):
            return index
    return len(nb.cells)


def sections(nb) -> list[Section]:
    """The lesson's deeper sections, in order. Raises ValueError when a section needs one that is not
    an earlier section of the same lesson."""
    starts = [(index, SECTION.search(cell.source).group(1).strip()) for index, cell in enumerate(nb.cells)
              if cell.cell_type == "markdown" and SECTION.search(cell.source)]
    found: list[Section] = []
    for number, (start, title) in enumerate(starts):
        stop = starts[number + 1][0] if number + 1 < len(starts) else len(nb.cells)
        needs = NEEDS.findall(nb.cells[start].source)
        earlier = [s.title for s in found]
        for need in needs:
            if need not in earlier:
                raise ValueError(f"section “{title}” says Run “{need}” first, but no earlier section has that "
                                 f"title; earlier sections: {earlier or 'none'}")
        found.append(Section(title, start, stop, needs))
    return found


def is_look_up(cell) -> bool:
    """Whether a markdown cell opens a look-up section: a heading, then a line "*Look-up section: …*"."""
    return cell.cell_type == "markdown" and bool(LOOK_UP.search(cell.source))


def main(argv: list[str]) -> int:
    for path in map(Path, argv):
        nb = nbformat.read(path, as_version=4)
        print(f"{path.name}: core = cells 0–{core_end(nb) - 1}")
        for section in sections(nb):
            needs = f"  (needs {', '.join(section.needs)})" if section.needs else ""
            print(f"  cells {section.start:>3}–{section.stop - 1:<3} {section.title}{needs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
