"""tools/learner_view.py shows a lesson's core path as a learner sees it: up to "What broke → next",
without Going deeper or refresher sections, a folded cell as its first line only."""

import importlib.util
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("learner_view", ROOT / "tools" / "learner_view.py")
learner_view = importlib.util.module_from_spec(_spec)
sys.modules["learner_view"] = learner_view  # its dataclass looks its module up there
_spec.loader.exec_module(learner_view)


def lesson(tmp_path) -> Path:
    nb = nbformat.v4.new_notebook()
    folded = nbformat.v4.new_code_cell("# Evidence: three checks\nassert 1 + 1 == 2\nassert 2 + 2 == 4")
    folded.metadata = {"jupyter": {"source_hidden": True, "outputs_hidden": True}, "tags": ["hide-cell"]}
    folded.outputs = [nbformat.v4.new_output("stream", text="one two three four five\n")]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 99 · A lesson\n\nalpha beta"),
        nbformat.v4.new_markdown_cell("## Refresher · Angles (optional, ~5 min)\n\nrefresher words here"),
        nbformat.v4.new_code_cell("refresher_code = 1"),
        nbformat.v4.new_markdown_cell("## The idea\n\ngamma "
                                      "<details><summary>the proof</summary>hidden words</details>"),
        folded,
        nbformat.v4.new_markdown_cell("## Key takeaways\n\n- delta\n\n## What broke → next\n\nepsilon\n\n"
                                      "## Going deeper · More (optional, ~3 min)\n\ndeeper words"),
        nbformat.v4.new_code_cell("deeper_code = 2"),
    ]
    path = tmp_path / "99_lesson.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_core_leaves_out_refreshers_going_deeper_and_what_is_folded(tmp_path):
    view = learner_view.view(lesson(tmp_path))
    for seen in ("alpha", "gamma", "▸ the proof [click to open]", "▸ # Evidence: three checks [code collapsed]",
                 "▸ [output collapsed]", "delta", "epsilon"):
        assert seen in view.text, seen
    for unseen in ("refresher", "hidden words", "assert", "one two three", "deeper"):
        assert unseen not in view.text, unseen


def test_the_whole_lesson_shows_every_section(tmp_path):
    text = learner_view.view(lesson(tmp_path), whole=True).text
    assert "refresher_code" in text and "deeper_code" in text


def test_counts_are_the_visible_words(tmp_path):
    view = learner_view.view(lesson(tmp_path))
    assert view.code == len("▸ # Evidence: three checks [code collapsed]".split())
    assert view.output == len("▸ [output collapsed]".split())
    assert view.words == view.prose + view.code + view.output
