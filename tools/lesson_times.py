"""Each lesson's reading times, all counted by one method, and the minutes its headings state.

    python tools/lesson_times.py notebooks/*.ipynb           # counted against stated, lesson by lesson
    python tools/lesson_times.py --write notebooks/*.ipynb   # write the counted minutes into the lessons
                                                             # and README's table of lessons
    python tools/lesson_times.py --longest-run-first DIR/*.ipynb   # the paths, longest stored run first

The method, the same for every part of every lesson (a learner reading and doing, not running):
- prose: the words of markdown cells at 130 words a minute (link targets, HTML tags, markdown
  symbols and the folded body of a ``<details>`` block left out);
- code: the visible code and the printed text at 260 words a minute (cells tagged ``hide-cell`` are
  folded evidence and left out; so is the code of ``hide-input`` cells and of exercise cells, whose
  reading is part of the exercise);
- 3 minutes for each cell that shows a figure or an explorer;
- each exercise's own stated minutes ("### Your turn · … (kind, ~N min)").

The core is every cell before the first "Going deeper" heading, less its refresher (a heading that
starts with "Refresher") and its look-up sections (a heading with "*Look-up section: …*" under it),
each timed apart.
The deeper time is the sum of the sections' times (tools/lesson_sections.py).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lesson_sections  # noqa: E402

PROSE_PER_MIN = 130
CODE_PER_MIN = 260
FIGURE_MIN = 3
FIGURE_MIMES = ("image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json")
EXERCISE = re.compile(r"^#+ Your turn · .*~\s?(\d+)\s?min", re.M)
DETAILS = re.compile(r"<details>.*?</details>", re.S)
HEADING = re.compile(r"^(#+) (.*)$", re.M)
WORD = re.compile(r"\w")
TIME_LINE = re.compile(r"^\*\*Time:\*\*.*$", re.M)
SECTION_MINUTES = re.compile(r"(^#+ Going deeper · .*\(optional, ~)\d+( min\))", re.M)
UMBRELLA_MINUTES = re.compile(r"(^#+ Going deeper \(optional, ~)\d+( min in all\))", re.M)


def words(text: str) -> int:
    """Whitespace-separated tokens with a letter or digit in them."""
    return sum(1 for token in text.split() if WORD.search(token))


def prose_words(source: str) -> int:
    text = DETAILS.sub(" ", source)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    text = re.sub(r"<[^>]+>", " ", text)  # HTML tags
    text = re.sub(r"[#*_`|>]", " ", text)
    return words(text)


def printed_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif data and not any(m in data for m in FIGURE_MIMES):
            parts.append(data.get("text/plain", ""))
    return "".join(parts)


def shows_figure(cell) -> bool:
    return any(m in out.get("data", {}) for out in cell.get("outputs", []) for m in FIGURE_MIMES)


def minutes(cells) -> float:
    """The method above over ``cells``."""
    prose = code = figures = 0
    exercises = 0.0
    for cell in cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":
            prose += prose_words(cell.source)
            exercises += sum(int(n) for n in EXERCISE.findall(cell.source))
            continue
        if cell.cell_type != "code" or "hide-cell" in tags:
            continue
        if "hide-input" not in tags and "exercise" not in tags:
            code += words(cell.source)
        code += words(printed_text(cell))
        figures += shows_figure(cell)
    return prose / PROSE_PER_MIN + code / CODE_PER_MIN + FIGURE_MIN * figures + exercises


def side_parts(nb, starts) -> dict[str, set[int]]:
    """The core's cells under a heading for which ``starts(heading text, its cell)`` gives a part's name, to
    the next heading of the same or a higher level: {name: cell indices}."""
    parts: dict[str, set[int]] = {}
    current: tuple[str, int] | None = None
    for index, cell in enumerate(nb.cells[: lesson_sections.core_end(nb)]):
        if cell.cell_type == "markdown":
            for level, text in ((len(m.group(1)), m.group(2).strip()) for m in HEADING.finditer(cell.source)):
                if current and level <= current[1]:
                    current = None
                name = starts(text, cell)
                if name:
                    current = (name, level)
        if current:
            parts.setdefault(current[0], set()).add(index)
    return parts


def part_name(heading: str, cell) -> str | None:
    if lesson_sections.is_look_up(cell):
        return "look-up sections"
    if heading.lower().startswith("refresher"):
        return "refresher"
    return None


@dataclass
class Times:
    core: int
    deeper: int
    sections: dict[str, int]
    parts: dict[str, int]  # refresher, look-up sections


def counted(nb) -> Times:
    """Minutes by the method, each rounded up to a whole minute (at least 1)."""
    end = lesson_sections.core_end(nb)
    parts = side_parts(nb, part_name)
    apart = set().union(*parts.values()) if parts else set()
    core_cells = [c for i, c in enumerate(nb.cells[:end]) if i not in apart]
    if end < len(nb.cells):  # the text before the first "Going deeper" heading in its cell belongs to the core
        head = nb.cells[end].source.split("Going deeper")[0].rsplit("\n#", 1)[0]
        core_cells.append(nbformat.v4.new_markdown_cell(head))

    def whole(value: float) -> int:
        return max(1, math.ceil(round(value, 6)))

    sections = {s.title: whole(minutes(nb.cells[s.start: s.stop])) for s in lesson_sections.sections(nb)}
    return Times(core=whole(minutes(core_cells)), deeper=sum(sections.values()), sections=sections,
                 parts={name: whole(minutes([nb.cells[i] for i in sorted(cells)])) for name, cells in parts.items()})


def time_line(times: Times) -> str:
    line = f"**Time:** core ~{times.core} min · going deeper ~{times.deeper} min"
    for name, value in times.parts.items():
        line += f" · {name} ~{value} min (optional)" if name == "refresher" else f" · {name} ~{value} min"
    return line


def stated(nb) -> Times:
    """The minutes the lesson's title and headings state."""
    line = TIME_LINE.search(nb.cells[0].source).group(0)
    found = dict(re.findall(r"(core|going deeper|refresher|look-up sections) ~(\d+) min", line))
    sections = {}
    for section in lesson_sections.sections(nb):
        heading = next(h for h in HEADING.findall(nb.cells[section.start].source) if "Going deeper · " in h[1])
        value = re.search(r"~\s?(\d+)\s?min", heading[1])
        sections[section.title] = int(value.group(1)) if value else None
    return Times(core=int(found.get("core", 0)), deeper=int(found.get("going deeper", 0)), sections=sections,
                 parts={k: int(v) for k, v in found.items() if k in ("refresher", "look-up sections")})


def write(nb) -> bool:
    """Put the counted minutes into the title's time line and every section heading; True if changed."""
    times = counted(nb)
    before = [cell.source for cell in nb.cells]
    nb.cells[0].source = TIME_LINE.sub(time_line(times), nb.cells[0].source, count=1)
    for section in lesson_sections.sections(nb):
        cell = nb.cells[section.start]
        value = times.sections[section.title]
        cell.source = SECTION_MINUTES.sub(lambda m, value=value: f"{m.group(1)}{value}{m.group(2)}", cell.source)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = UMBRELLA_MINUTES.sub(lambda m: f"{m.group(1)}{times.deeper}{m.group(2)}", cell.source)
    return before != [cell.source for cell in nb.cells]


README = Path(__file__).resolve().parents[1] / "README.md"


def run_seconds(nb) -> float:
    """Seconds the lesson's cells took when it was last run (each cell's execution metadata)."""
    def seconds(cell) -> float:
        timing = cell.get("metadata", {}).get("execution", {})
        start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
        if not (start and end):
            return 0.0
        return (datetime.fromisoformat(end.replace("Z", "+00:00"))
                - datetime.fromisoformat(start.replace("Z", "+00:00"))).total_seconds()
    return sum(seconds(cell) for cell in nb.cells)


def longest_run_first(paths: list[Path]) -> list[Path]:
    """``paths`` in the order a pool of test workers should take them: the longest stored run first, so the
    last lesson to start is a short one."""
    return sorted(paths, key=lambda p: -run_seconds(nbformat.read(p, as_version=4)))


def hours(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d}"


def readme_with(text: str, times: dict[str, Times]) -> str:
    """README's lesson table with each lesson's "core + deeper min" and the whole course's sum in hours."""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        for name, t in times.items():
            if f"(notebooks/{name})" in line:
                lines[number] = re.sub(r"\| \d+ \+ \d+ min \|", f"| {t.core} + {t.deeper} min |", line)
        if "**the whole course**" in line:
            core, deeper = (sum(t.core for t in times.values()), sum(t.deeper for t in times.values()))
            lines[number] = re.sub(r"\*\*\d+ h \d+ \+ \d+ h \d+\*\*", f"**{hours(core)} + {hours(deeper)}**", line)
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the counted minutes into the lessons")
    parser.add_argument("--longest-run-first", action="store_true",
                        help="only print the paths, longest stored run first (the order for nbval's workers)")
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.longest_run_first:
        print(" ".join(str(p) for p in longest_run_first(args.notebooks)))
        return 0
    total, everything = 0, {}
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        times = counted(nb)
        total += times.core
        everything[path.name] = times
        said = stated(nb)
        print(f"{path.name:<34} core {times.core:>3} (states {said.core:>3})   deeper {times.deeper:>3} "
              f"(states {said.deeper:>3})   " + "  ".join(f"{k} {v}" for k, v in times.parts.items()))
        if args.write and write(nb):
            nbformat.write(nb, path)
    print(f"core path in all: {total} min ({hours(total)})")
    if args.write and len(everything) > 1:
        README.write_text(readme_with(README.read_text(), everything))
    return 0


if __name__ == "__main__":
    sys.exit(main())
