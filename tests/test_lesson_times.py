"""Every lesson's times counted by one method (tools/lesson_times.py): the method on hand-counted cells,
and each lesson stating what it counts (title line, every deeper section, the deeper time their sum)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests.tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TIMES = load_tool("lesson_times")


def code(source: str, tags=(), text: str | None = None, figure: bool = False):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = list(tags)
    if text is not None:
        cell.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=text))
    if figure:
        data = {"image/png": "iVBOR", "text/plain": "<Figure>"}
        cell.outputs.append(nbformat.v4.new_output("display_data", data=data))
    return cell


def prose(n_words: int, extra: str = "") -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(extra + " ".join(["word"] * n_words))


def test_the_method_on_cells_counted_by_hand():
    # 130 prose words = 1 min; 260 code + printed words = 1 min; a figure 3 min; an exercise its own minutes
    assert TIMES.minutes([prose(260)]) == 2
    # "=" is not a word
    assert TIMES.minutes([code("x = 1 " * 52, text="value " * 104)]) == pytest.approx((52 * 2 + 104) / 260)
    assert TIMES.minutes([code("plot()", figure=True)]) == pytest.approx(3 + 1 / 260)
    assert TIMES.minutes([prose(0, "### Your turn · Build it (implement, ~8 min)\n")]) == pytest.approx(8 + 7 / 130)
    # folded evidence, hidden code, exercise stubs and <details> bodies are left out
    assert TIMES.minutes([code("a b c", tags=["hide-cell"], text="x " * 999)]) == 0
    assert TIMES.minutes([code("a b c", tags=["hide-input"], text="x y")]) == pytest.approx(2 / 260)
    assert TIMES.minutes([code("a b c", tags=["exercise"])]) == 0
    details = nbformat.v4.new_markdown_cell("see <details><summary>why</summary>" + "word " * 500 + "</details>")
    assert TIMES.minutes([details]) == pytest.approx(1 / 130)
    # link targets and markdown symbols are not words
    assert TIMES.prose_words("**Read** [lesson 02](02_normalised_positions.ipynb#the-same-word) — *here*") == 4


def lesson_nb():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 05 · A lesson\n\n**Time:** core ~1 min · going deeper ~1 min"),
                prose(130),
                nbformat.v4.new_markdown_cell("## Refresher\n\n" + "word " * 260),
                nbformat.v4.new_markdown_cell("### Still the refresher"),
                nbformat.v4.new_markdown_cell("## Back in the core"),
                code("plot()", figure=True),
                nbformat.v4.new_markdown_cell("## Glossary\n\n*Look-up section: apart.*\n\n" + "word " * 130),
                nbformat.v4.new_markdown_cell("## Key takeaways\n- a\n\n## Going deeper (optional, ~1 min in all)\n\n"
                                              "### Going deeper · One (optional, ~1 min)\n\n" + "word " * 300),
                nbformat.v4.new_markdown_cell("### Going deeper · Two (optional, ~1 min)\n\n" + "word " * 10)]
    return nb


def test_refresher_and_look_up_parts_are_timed_apart_and_the_deeper_time_is_the_sum_of_sections():
    nb = lesson_nb()
    counted = TIMES.counted(nb)
    # the refresher: 260 words + its 3 heading words, 2.02 min; the glossary: 1 + 3 + 130 words, 1.03 min
    assert counted.parts == {"refresher": 3, "look-up sections": 2}
    assert counted.sections == {"One": 3, "Two": 1} and counted.deeper == 4
    # title 11 words, 130, "Back in the core" 4, the takeaways' 3: 148 words; a figure; "plot()": 4.14 min
    assert counted.core == 5
    assert TIMES.write(nb)
    assert nb.cells[0].source.endswith("**Time:** core ~5 min · going deeper ~4 min · refresher ~3 min (optional) · "
                                       "look-up sections ~2 min")
    assert "### Going deeper · One (optional, ~3 min)" in nb.cells[7].source
    assert "## Going deeper (optional, ~4 min in all)" in nb.cells[7].source
    assert "### Going deeper · Two (optional, ~1 min)" in nb.cells[8].source
    assert not TIMES.write(nb)  # a second write changes nothing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_lesson_states_the_minutes_the_method_counts(path):
    nb = nbformat.read(path, as_version=4)
    counted, stated = TIMES.counted(nb), TIMES.stated(nb)
    assert stated == counted, (f"{path.name}: states {stated}, the method counts {counted}; "
                               f"run: python tools/lesson_times.py --write {path.relative_to(ROOT)}")


def test_readme_rows_and_total_follow_the_counted_times():
    text = ("| 00 | [a](notebooks/00_a.ipynb) | why? | 20 + 7 min | badge |\n"
            "| 01 | [b](notebooks/01_b.ipynb) | how? | 39 + 32 min | badge |\n"
            "| | **the whole course** | | **0 h 59 + 0 h 39** | |\n")
    times = {"00_a.ipynb": TIMES.Times(14, 6, {}, {}), "01_b.ipynb": TIMES.Times(50, 17, {}, {})}
    assert TIMES.readme_with(text, times) == ("| 00 | [a](notebooks/00_a.ipynb) | why? | 14 + 6 min | badge |\n"
                                              "| 01 | [b](notebooks/01_b.ipynb) | how? | 50 + 17 min | badge |\n"
                                              "| | **the whole course** | | **1 h 04 + 0 h 23** | |\n")


def test_lessons_are_handed_out_longest_stored_run_first(tmp_path):
    def timed(seconds: float):
        cell = nbformat.v4.new_code_cell("pass")
        cell.metadata["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00.000000Z",
                                      "shell.execute_reply": f"2026-01-01T00:00:{seconds:09.6f}Z"}
        return cell

    paths = []
    for name, seconds in (("00_a", 2.5), ("01_b", 41.0), ("02_c", 7.25)):
        nb = nbformat.v4.new_notebook()
        nb.cells = [timed(seconds), nbformat.v4.new_code_cell("not run yet")]
        paths.append(tmp_path / f"{name}.ipynb")
        nbformat.write(nb, paths[-1])
    assert TIMES.run_seconds(nbformat.read(paths[2], as_version=4)) == 7.25
    assert [p.stem for p in TIMES.longest_run_first(paths)] == ["01_b", "02_c", "00_a"]
