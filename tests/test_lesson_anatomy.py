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


CORE_BUDGET_MIN = 270  # an afternoon: 4 h 30


def stated_minutes(nb) -> tuple[int, int]:
    """(core, going deeper) minutes from the title cell's time line, e.g. 'core ~20 min · going deeper ~15 min'."""
    time_line = nb.cells[0].source.split("**Time", 1)[1].splitlines()[0]
    core = re.search(r"core[^~\d]*~\s?(\d+)\s?min", time_line)
    deeper = re.search(r"deeper[^~\d]*~\s?(\d+)\s?min", time_line)
    assert core and deeper, f"the time line should read like 'core ~20 min · going deeper ~15 min': {time_line!r}"
    return int(core.group(1)), int(deeper.group(1))


def hours(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d}"


def test_whole_course_core_path_fits_in_an_afternoon():
    total = sum(stated_minutes(nbformat.read(path, as_version=4))[0] for path in NOTEBOOKS)
    assert total <= CORE_BUDGET_MIN, f"the core path adds up to {total} min; the course promises at most 4 h 30"


def test_readme_states_each_lessons_times_and_their_sum():
    readme = (ROOT / "README.md").read_text()
    totals = [0, 0]
    for path in NOTEBOOKS:
        core, deeper = stated_minutes(nbformat.read(path, as_version=4))
        totals[0] += core
        totals[1] += deeper
        row = next((line for line in readme.splitlines() if f"(notebooks/{path.name})" in line), "")
        assert f"| {core} + {deeper} min |" in row, f"README's row for {path.name} should say {core} + {deeper} min"
    whole = next(line for line in readme.splitlines() if "**the whole course**" in line)
    assert f"**{hours(totals[0])} + {hours(totals[1])}**" in whole, \
        f"README's total should be {hours(totals[0])} + {hours(totals[1])}: {whole}"


def test_hours_are_written_as_the_readme_writes_them():
    assert (hours(238), hours(245), hours(60), hours(7)) == ("3 h 58", "4 h 05", "1 h 00", "0 h 07")


def test_title_cell_links_the_glossary(lesson):
    path, nb = lesson
    target = "#glossary" if path.name.startswith("11_") else "11_the_map.ipynb#glossary"
    assert f"({target})" in nb.cells[0].source, f"{path.name}: the title cell should link the glossary ({target})"


def test_the_glossary_defines_the_terms_newcomers_ask_about():
    nb = nbformat.read(ROOT / "notebooks" / "11_the_map.ipynb", as_version=4)
    glossary = next(c.source for c in nb.cells
                    if c.cell_type == "markdown" and re.search(r"^## Glossary( \(look-up\))?$", c.source, re.M))
    entries = {line.split("**")[1].lower() for line in glossary.splitlines() if line.startswith("- **")}
    for term in ("perplexity", "ntk", "pre-norm", "saturated softmax", "chord", "commute", "orthogonal"):
        assert any(term in entry for entry in entries), f"the glossary has no entry for {term!r}"


def test_setup_cell_is_folded_away(lesson):
    path, nb = lesson
    setup = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("# Setup:"))
    assert setup.metadata.get("jupyter", {}).get("source_hidden") and "hide-input" in setup.metadata.get("tags", []), \
        f"{path.name}: the setup cell should be folded (python tools/setup_cell.py --stamp)"


def test_a_folded_cell_is_folded_in_jupyterlab_and_on_the_site(lesson):
    """JupyterLab folds by ``metadata.jupyter``, the site (MyST-NB) by the hide-* tags: a cell folded
    in one and open in the other would show the learner different lessons."""
    path, nb = lesson
    for i, cell in enumerate(nb.cells):
        folded = cell.metadata.get("jupyter", {})
        tags = set(cell.metadata.get("tags", []))
        source_tag = bool(tags & {"hide-cell", "hide-input"})
        output_tag = bool(tags & {"hide-cell", "hide-output"})
        assert bool(folded.get("source_hidden")) == source_tag, f"{path.name} cell {i}: source folded in one view only"
        if cell.cell_type == "code":
            assert bool(folded.get("outputs_hidden")) == output_tag, \
                f"{path.name} cell {i}: output folded in one view only"
        if folded.get("source_hidden") and cell.cell_type == "code" and not cell.source.startswith("# Setup:"):
            assert cell.source.lstrip().startswith("#"), \
                f"{path.name} cell {i}: a folded cell shows only its first line; make it a comment saying what it holds"


@pytest.mark.parametrize("name, topic", [("05_rotation_matrix", "orthogonal"), ("06_rope", "conjugate")])
def test_refresher_before_the_algebra_ends_with_a_check(name, topic):
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    start = next(i for i, c in enumerate(nb.cells)
                 if c.cell_type == "markdown" and re.search(r"^#+ Refresher", c.source, re.M))
    level = len(re.match(r"#+", re.search(r"^#+ Refresher.*", nb.cells[start].source, re.M).group()).group())
    end = next((i for i in range(start + 1, len(nb.cells)) if nb.cells[i].cell_type == "markdown"
                and re.match(rf"#{{1,{level}}} ", nb.cells[i].source)), len(nb.cells))
    section = nb.cells[start:end]
    assert topic in " ".join(c.source for c in section).lower(), f"{name}: the refresher should cover {topic}"
    assert MINUTES.search(nb.cells[start].source) and "optional" in nb.cells[start].source
    checks = [c for c in section if c.cell_type == "code" and "assert" in c.source]
    assert checks and len(checks[-1].source.strip().splitlines()) <= 3, \
        f"{name}: the refresher should end with a short check"
    first_core_use = next(i for i, c in enumerate(nb.cells) if i > 1 and topic in c.source.lower())
    assert first_core_use >= start, f"{name}: {topic!r} is used (cell {first_core_use}) before the refresher"


def test_every_lesson_ends_with_the_way_on():
    """The last cell of each lesson links the next lesson by its title; lesson 11 ends the argument and points
    to the practice after it; the last lesson leads back to the map."""
    paths = NOTEBOOKS
    titles = [nbformat.read(p, as_version=4).cells[0].source.split("\n")[0].lstrip("# ").strip() for p in paths]
    for k, path in enumerate(paths):
        last = nbformat.read(path, as_version=4).cells[-1]
        assert last.cell_type == "markdown", f"{path.name} ends on a code cell"
        if k + 1 < len(paths):
            expected = f"[{titles[k + 1]} →]({paths[k + 1].name})"
            assert last.source.startswith("**Next:**") and expected in last.source, \
                f"{path.name} does not end with a link to {paths[k + 1].name}: {last.source!r}"
        else:
            assert last.source.startswith("**Back to**") and "(11_the_map.ipynb)" in last.source, path.name
