"""Lesson 05's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

from helpers import explorers

from . import InLesson


def clock_error(drawn: dict, values: dict) -> float:
    from helpers.explorers.browser.l05_rotation_matrix import clock_pairs
    from helpers.measure.l05_rotation_matrix import shift_snapshot

    if drawn["pairs"] != clock_pairs(values["d_model"], values["n_clocks"]):
        return math.inf
    ref = shift_snapshot(values["k"], values["position"], values["d_model"], values["base"])
    return float(max(np.abs(np.asarray(drawn[name]) - getattr(ref, name).double().numpy()).max()
                     for name in ("start", "moved", "omega", "turns")))


CASES = {
    "l05 clock hands": (lambda: explorers.browser.clock_hands_explorer(d_model=16, k=10),
                        [(None, None, {"k": 10, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}),
                         ("k", "Home", {"k": -200, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}),
                         ("position", "End", {"k": -200, "position": 200, "d_model": 16, "base": 10000,
                                              "n_clocks": 8}),
                         ("k", "End", {"k": 200, "position": 200, "d_model": 16, "base": 10000, "n_clocks": 8})],
                        clock_error),
}

IN_LESSONS = {
    "05_rotation_matrix.ipynb": [
        InLesson("explorers.browser.clock_hands_explorer(", "clock-hands", "k", "End",
                 {"k": 200, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}, clock_error),
    ],
}
