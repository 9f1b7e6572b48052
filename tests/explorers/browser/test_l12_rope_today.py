"""Lesson 12's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``today.two_axis_split``, ``today.grid_scores`` and ``today.offset_scores`` at the sliders' ends and
between, for every split. Drawing in Chromium: tests/browser/test_browser_explorers.py. Under CI a missing
Node.js fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l12_rope_today import GridRopeExplorer, grid_rope_explorer  # noqa: E402
from helpers.measure import l12_rope_today as today  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l12_rope_today.js"
Q, K = torch.randn(2, 64, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
# (query row, query column, split, rows, cols, base): the sliders' ends, between, every split, another grid
SETTINGS = [(2, 3, "halves", 8, 8, 10000.0), (0, 0, "halves", 8, 8, 10000.0), (7, 7, "alternate pairs", 8, 8, 10000.0),
            (7, 0, "blocks", 8, 8, 10000.0), (0, 7, "blocks", 8, 8, 100.0), (4, 11, "alternate pairs", 5, 12, 1e6)]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.grid_rope_explorer is grid_rope_explorer
    widget = grid_rope_explorer(Q, K, query_row=2, query_col=3, split="blocks")
    assert isinstance(widget, GridRopeExplorer)
    assert widget.values() == {"query_row": 2, "query_col": 3, "split": "blocks"}
    assert widget.q == Q.tolist() and widget.k == K.tolist() and (widget.rows, widget.cols) == (8, 8)
    with pytest.raises(ValueError, match="query_row must be an integer from 0 to 7, got 8"):
        grid_rope_explorer(query_row=8)
    with pytest.raises(ValueError, match="query_col must be an integer from 0 to 4, got 5"):
        grid_rope_explorer(query_col=5, cols=5)
    with pytest.raises(ValueError, match="rows must be an integer from 2 to 16, got 17"):
        grid_rope_explorer(rows=17)
    with pytest.raises(ValueError, match="split must be one of 'halves', 'alternate pairs', 'blocks'; got 'thirds'"):
        grid_rope_explorer(split="thirds")
    with pytest.raises(ValueError, match="q and k must both have shape"):
        grid_rope_explorer(Q, K[:32])
    with pytest.raises(ValueError, match="d a multiple of 4"):
        grid_rope_explorer(Q[:6], K[:6])
    with pytest.raises(ValueError, match="query_col must be an integer from 0 to 7, got -1"):
        widget.query_col = -1
    with pytest.raises(ValueError, match="split must be one of"):
        widget.split = "quarters"
    data, _ = widget._repr_mimebundle_()
    assert "split in blocks" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    q, k = json.dumps(Q.tolist()), json.dumps(K.tolist())
    calls = ", ".join(f"{{grid: m.gridScores({q}, {k}, {r}, {c}, {rows}, {cols}, {split!r}, {base!r}), "
                      f"offsets: m.offsetScores({q}, {k}, {rows}, {cols}, {split!r}, {base!r}), "
                      f"axes: m.axisSummary({Q.shape[0]}, {split!r}, {base!r})}}"
                      for r, c, split, rows, cols, base in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"), f"[{calls}]")


def worst(out: list[dict]) -> float:
    errors = []
    for (r, c, split, rows, cols, base), got in zip(SETTINGS, out, strict=True):
        freqs, axes = today.two_axis_split(Q.shape[0], split, base)
        grid = today.grid_scores(Q, K, r, c, rows, cols, freqs, axes).numpy()
        offsets = today.offset_scores(Q, K, rows, cols, freqs, axes).numpy()
        if np.shape(got["grid"]) != grid.shape or np.shape(got["offsets"]) != offsets.shape:
            return float("inf")
        errors += [float(np.abs(np.asarray(got["grid"]) - grid).max()),
                   float(np.abs(np.asarray(got["offsets"]) - offsets).max()),
                   float(np.abs(np.asarray(got["axes"]["fastest"]) - [freqs[axes == a].max() for a in (0, 1)]).max()),
                   float(np.abs(np.asarray(got["axes"]["pairs"]) - [(axes == a).sum() for a in (0, 1)]).max())]
        # the map only moves with the query: its grid is the window of the offset map the query's patch cuts out
        window = offsets[rows - 1 - r: 2 * rows - 1 - r, cols - 1 - c: 2 * cols - 1 - c]
        errors.append(float(np.abs(np.asarray(got["grid"]) - window).max()))
    return max(errors)


def test_the_bundles_numbers_are_the_courses(tmp_path):
    assert worst(from_the_bundle(tmp_path)) < 1e-9


def test_the_check_catches_a_turn_the_wrong_way(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # the pair turned clockwise, x_i cos + x_{i+h} sin, where RoPE turns it counter-clockwise
    wrong, planted = re.subn(r"\]=([\w$]+)\[([\w$]+)\]\*([\w$]+)-([\w$]+)\[([\w$]+)\+([\w$]+)\]\*([\w$]+),",
                             r"]=\1[\2]*\3+\4[\5+\6]*\7,", right)
    assert planted == 1, "the turn is not found in the bundle"
    assert worst(from_the_bundle(tmp_path, wrong)) > 0.1


def test_the_check_catches_pairs_given_to_the_wrong_axis(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # alternate pairs: odd pairs to the row and even to the column, where the row takes the even ones
    wrong, planted = re.subn(r":([\w$]+)%2\)", r":(\1+1)%2)", right)
    assert planted == 1, "the alternate split is not found in the bundle"
    assert worst(from_the_bundle(tmp_path, wrong)) > 0.1
