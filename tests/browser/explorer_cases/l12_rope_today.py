"""Lesson 12's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

from helpers import explorers

from . import InLesson


def grid_rope_error(drawn: dict, values: dict) -> float:
    import torch

    from helpers.measure import l12_rope_today as today

    q, k = torch.tensor(values["q"], dtype=torch.float64), torch.tensor(values["k"], dtype=torch.float64)
    rows, cols, r, c = values["rows"], values["cols"], values["query_row"], values["query_col"]
    freqs, axes = today.two_axis_split(q.shape[0], values["split"], values["base"])
    grid = today.grid_scores(q, k, r, c, rows, cols, freqs, axes).numpy()
    offsets = today.offset_scores(q, k, rows, cols, freqs, axes).numpy()
    if np.shape(drawn["grid"]) != grid.shape or np.shape(drawn["offsets"]) != offsets.shape \
            or drawn["window"] != [-r, -c]:
        return math.inf
    return float(max(np.abs(np.asarray(drawn["grid"]) - grid).max(),
                     np.abs(np.asarray(drawn["offsets"]) - offsets).max(),
                     abs(drawn["low"] - offsets.min()), abs(drawn["high"] - offsets.max()),
                     np.abs(np.asarray(drawn["fastest"]) - [freqs[axes == a].max().item() for a in (0, 1)]).max()))


CASES = {
    "l12 grid rope": (lambda: explorers.browser.grid_rope_explorer(query_row=2, query_col=3),
                      [(None, None, {"query_row": 2, "query_col": 3, "split": "halves"}),
                       ("query_row", "End", {"query_row": 7, "query_col": 3, "split": "halves"}),
                       ("split", "End", {"query_row": 7, "query_col": 3, "split": "blocks"}),
                       ("query_col", "Home", {"query_row": 7, "query_col": 0, "split": "blocks"}),
                       ("split", "ArrowLeft", {"query_row": 7, "query_col": 0, "split": "alternate pairs"}),
                       ("query_row", "Home", {"query_row": 0, "query_col": 0, "split": "alternate pairs"}),
                       ("query_col", "End", {"query_row": 0, "query_col": 7, "split": "alternate pairs"})],
                      grid_rope_error),
}

IN_LESSONS = {
    "12_rope_today.ipynb": [
        InLesson("explorers.browser.grid_rope_explorer(", "grid-rope", "query_col", "End",
                 {"query_col": 7}, grid_rope_error),
    ],
}
