"""Print a lesson's core path as a learner sees it, and count what it asks them to read.

    python tools/learner_view.py notebooks/04_sinusoidal.ipynb            # the core, as text
    python tools/learner_view.py --counts notebooks/*.ipynb               # one line per lesson
    python tools/learner_view.py --all notebooks/06_rope.ipynb            # the whole lesson

The core path runs from the title cell to "Key takeaways" and "What broke → next" (both
included); "Going deeper" sections, optional refreshers and the look-up sections of lesson 11
(Conventions, Glossary, References) are left out. A collapsed cell
(``metadata.jupyter.source_hidden`` / ``outputs_hidden``, tagged ``hide-cell``, ``hide-input`` or
``hide-output`` for the site) shows as one line, and so does a ``<details>`` block in prose: what
a learner sees before the click. A figure shows as ``[figure]``, an explorer's widget as
``[explorer]``. The counts are words of prose, of code and of printed output that are visible.
"""

from __future__ import annotations

import argparse
import base64
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

VIEW_MIME = "application/vnd.jupyter.widget-view+json"
DETAILS = re.compile(r"<details>\s*<summary>(.*?)</summary>.*?</details>", re.S)
OPTIONAL = re.compile(r"^#+ (.*(Going deeper|Refresher)|Conventions$|Glossary$|References$)")
WHAT_BROKE = re.compile(r"^#+ What broke")
HIDE_TAGS = {"hide-cell", "hide-input", "hide-output"}


def source_hidden(cell) -> bool:
    tags = set(cell.metadata.get("tags", []))
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden")) or bool(tags & {"hide-cell", "hide-input"})


def outputs_hidden(cell) -> bool:
    tags = set(cell.metadata.get("tags", []))
    return bool(cell.metadata.get("jupyter", {}).get("outputs_hidden")) or bool(tags & {"hide-cell", "hide-output"})


@dataclass
class View:
    text: str
    prose: int
    code: int
    output: int

    @property
    def words(self) -> int:
        return self.prose + self.code + self.output


def printed(cell, figures: list | None = None) -> str:
    """What a code cell's outputs show, as text; each figure's PNG is appended to ``figures``."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            data = out["data"]
            if out.get("metadata", {}).get("course_progress_bar"):
                parts.append(f"[progress bar] {data.get('text/plain', '')}")
            elif VIEW_MIME in data:
                if figures is not None and "image/png" in data:
                    figures.append(data["image/png"])
                    parts.append(f"[explorer: sliders over figure {len(figures)}]")
                else:
                    parts.append("[explorer]")
            elif "image/png" in data or "image/svg+xml" in data:
                if figures is not None and "image/png" in data:
                    figures.append(data["image/png"])
                    parts.append(f"[figure {len(figures)}]")
                else:
                    parts.append("[figure]")
            elif "text/html" in data:
                parts.append("[table or page]")
            elif "text/plain" in data:
                parts.append(data["text/plain"])
        elif out.get("output_type") == "error":
            parts.append(f"ERROR {out.get('ename')}")
    return "\n".join(parts)


def view(path: Path, whole: bool = False, figures: list | None = None) -> View:
    nb = nbformat.read(path, as_version=4)
    lines, prose, code, output = [], 0, 0, 0
    skip_level, finished = 0, False  # skip_level: the level of the optional section being skipped
    for index, cell in enumerate(nb.cells):
        if not whole and finished:
            break
        if cell.cell_type == "markdown":
            text = cell.source
            if not whole:
                kept = []
                for line in text.splitlines():
                    heading = re.match(r"^(#+) ", line)
                    if heading:
                        level = len(heading.group(1))
                        if skip_level and level <= skip_level:
                            skip_level = 0
                        if not skip_level and OPTIONAL.search(line):
                            skip_level = level
                        if finished and level <= 2:
                            break
                        if WHAT_BROKE.search(line):
                            finished = True
                    if not skip_level:
                        kept.append(line)
                text = "\n".join(kept)
                if not text.strip():
                    continue
            shown = DETAILS.sub(lambda m: f"▸ {m.group(1).strip()} [click to open]", text)
            if source_hidden(cell):
                shown = "▸ " + text.strip().splitlines()[0] + " [collapsed]"
            lines.append(f"--- cell {index} (markdown)\n{shown}")
            prose += len(shown.split())
        else:
            if not whole and skip_level:
                continue
            if source_hidden(cell):
                first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
                src = f"▸ {first} [code collapsed]"
            else:
                src = cell.source
            out = printed(cell, None if outputs_hidden(cell) else figures)
            if outputs_hidden(cell) and out:
                out = "▸ [output collapsed]"
            lines.append(f"--- cell {index} (code)\n{src}" + (f"\n>>> output\n{out}" if out else ""))
            code += len(src.split())
            output += len(out.split())
    return View("\n".join(lines), prose, code, output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--counts", action="store_true", help="one line of counts per lesson")
    parser.add_argument("--all", action="store_true", help="the whole lesson, not only its core")
    parser.add_argument("--figures", type=Path, metavar="DIR",
                        help="also write each visible figure to DIR/<lesson>-figure-<n>.png ([figure n] in the text)")
    args = parser.parse_args()
    total = 0
    for path in args.notebooks:
        figures: list = []
        v = view(path, whole=args.all, figures=figures)
        if args.figures:
            args.figures.mkdir(parents=True, exist_ok=True)
            for n, encoded in enumerate(figures, 1):
                (args.figures / f"{path.stem}-figure-{n}.png").write_bytes(base64.b64decode(encoded))
        total += v.words
        if args.counts:
            print(f"{path.name:<36} prose {v.prose:>5}  code {v.code:>5}  output {v.output:>5}  visible {v.words:>6}")
        else:
            print(v.text)
    if args.counts and len(args.notebooks) > 1:
        print(f"{'total':<36} {'':>36} visible {total:>6}")


if __name__ == "__main__":
    main()
