"""Lesson 06's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

import helpers as H
from helpers import explorers

from . import InLesson


def rope_error(drawn: dict, values: dict) -> float:
    import torch

    q, k = torch.tensor(values["q"], dtype=torch.float64), torch.tensor(values["k"], dtype=torch.float64)
    ref = H.rope_pair_view(q, k, values["m"], values["n"], values["pair"], values["base"])
    profile = H.scores_by_offset(q, k, torch.tensor(drawn["offsets"]), values["base"]).numpy()
    if drawn["offsets"] != list(range(-values["max_position"], values["max_position"] + 1)):
        return math.inf
    return float(max(np.abs(np.asarray(drawn["q_xy"]) - ref.q_xy).max(),
                     np.abs(np.asarray(drawn["k_xy"]) - ref.k_xy).max(), abs(drawn["pair_score"] - ref.pair_score),
                     abs(drawn["score"] - ref.score),
                     abs(drawn["offset"] - ref.offset), np.abs(np.asarray(drawn["profile"]) - profile).max()))


CASES = {
    "l06 rope": (lambda: explorers.browser.rope_explorer(m=3, n=1, pair=1),
                 [(None, None, {"m": 3, "n": 1, "pair": 1}),
                  ("m", "End", {"m": 64, "n": 1, "pair": 1}),
                  ("pair", "End", {"m": 64, "n": 1, "pair": 15}),
                  ("n", "End", {"m": 64, "n": 64, "pair": 15}),
                  ("m", "Home", {"m": 0, "n": 64, "pair": 15})],
                 rope_error),
}

IN_LESSONS = {
    "06_rope.ipynb": [
        InLesson("explorers.browser.rope_explorer(", "rope", "m", "End",
                 {"m": 64, "n": 1, "pair": 1}, rope_error),
    ],
}
