"""Every lesson is a lesson of a course (COURSE.md, "Anatomy of a lesson"): a title cell with the
question, the abilities, the times and what it builds on; key takeaways, then what broke; optional
deeper sections at the end, each with its time; and nothing in the learner's view that is meant for
the course's maintainers (nbval markers belong in cell tags)."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
MINUTES = re.compile(r"~\s?(\d+)\s?min")


def markdown(nb) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "markdown"]


def headings(nb) -> list[str]:
    return [line for text in markdown(nb) for line in text.splitlines() if line.startswith("#")]


@pytest.fixture(params=NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def lesson(request):
    return request.param, nbformat.read(request.param, as_version=4)


def test_title_cell_states_question_abilities_times_and_prerequisites(lesson):
    path, nb = lesson
    title = nb.cells[0].source
    assert title.startswith(f"# {path.name[:2]} · "), f"{path.name}: title should read '# {path.name[:2]} · …'"
    for part in ("**Question", "You will be able to", "**Time", "**Builds on"):
        assert part in title, f"{path.name}: the title cell lacks {part!r}"
    abilities = title.split("You will be able to", 1)[1].split("**Time", 1)[0]
    assert 3 <= sum(line.lstrip().startswith("- ") for line in abilities.splitlines()) <= 4, \
        f"{path.name}: state 3–4 abilities"
    time_line = title.split("**Time", 1)[1].splitlines()[0]
    assert len(MINUTES.findall(time_line)) >= 1 and "core" in time_line, f"{path.name}: give the core time"


def test_takeaways_then_what_broke_then_deeper_sections(lesson):
    path, nb = lesson
    heads = headings(nb)
    names = [h.lstrip("#").strip().lower() for h in heads]
    takeaways = next((i for i, n in enumerate(names) if n.startswith("key takeaways")), None)
    assert takeaways is not None, f"{path.name}: no 'Key takeaways' heading"
    if path.name[:2] != "11":
        broke = next((i for i, n in enumerate(names) if n.startswith("what broke")), None)
        assert broke is not None and broke > takeaways, f"{path.name}: 'What broke → next' after the takeaways"
    deeper = [i for i, n in enumerate(names) if n.startswith("going deeper")]
    assert all(i > takeaways for i in deeper), f"{path.name}: deeper sections come after the core path"
    timed = [i for i in deeper if MINUTES.search(heads[i])]
    for i in deeper:
        # an umbrella "## Going deeper (optional)" may hold sections that each give their time
        umbrella = heads[i].startswith("## ") and any(j > i and heads[j].startswith("### ") for j in timed)
        assert "optional" in names[i] and (MINUTES.search(heads[i]) or umbrella), \
            f"{path.name}: '{heads[i]}' should say it is optional and give its time"
    lines = [line for text in markdown(nb) for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and "key takeaways" in line.lower())
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    bullets = [line for line in lines[start + 1:end] if line.startswith(("- ", "* ", "1. ", "2. ", "3. "))]
    assert 3 <= len(bullets) <= 5, f"{path.name}: 3–5 key takeaways, found {len(bullets)}"


def test_no_maintainer_text_in_the_learners_view(lesson):
    path, nb = lesson
    for cell in nb.cells:
        assert "NBVAL" not in cell.source, f"{path.name}: nbval markers belong in cell tags, not in the source"
    for text in markdown(nb):
        for phrase in ("nbval", "regression run", "regression check", "chosen to hold for"):
            assert phrase not in text.lower(), f"{path.name}: maintainer text in the learner's view: {phrase!r}"


def test_widget_cells_are_tagged_to_skip_output_comparison(lesson):
    path, nb = lesson
    for cell in nb.cells:
        # a slider explorer's cell (a training cell's progress bar is a widget too, but prints nothing compared)
        if cell.cell_type == "code" and "explorer" in cell.source \
                and any(VIEW_MIME in o.get("data", {}) for o in cell.get("outputs", [])):
            assert "nbval-ignore-output" in cell.metadata.get("tags", []), \
                f"{path.name}: a widget cell lacks the nbval-ignore-output tag: {cell.source[:60]!r}"


def test_whole_course_core_path_fits_in_four_hours():
    total = 0
    for path in NOTEBOOKS:
        time_line = nbformat.read(path, as_version=4).cells[0].source.split("**Time", 1)[1].splitlines()[0]
        core = re.search(r"core[^~\d]*~\s?(\d+)\s?min", time_line) or re.search(r"~\s?(\d+)\s?min[^,;]*core", time_line)
        assert core, f"{path.name}: the time line should read like 'core ~20 min'"
        total += int(core.group(1))
    assert total <= 240, f"the core path adds up to {total} min; the course promises about four hours"
