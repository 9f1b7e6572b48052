"""Lesson 01's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import numpy as np

import helpers as H
from helpers import explorers

from . import InLesson


def counting_error(drawn: dict, values: dict) -> float:
    length = values["length"]
    plain, feature = H.counting_snapshot(length, mode="none"), H.counting_snapshot(length, mode="feature")
    added = H.counting_snapshot(length, mode="added")
    n = min(20, length)
    return float(max(abs(drawn["sizes"][0] - feature.embedding_rms), abs(drawn["sizes"][1] - (length - 1)),
                     abs(drawn["sizes"][2] - feature.max_logit) / feature.max_logit,
                     np.abs(np.asarray(drawn["weights_none"]) - plain.weights.flip(0)[:n].numpy()).max(),
                     np.abs(np.asarray(drawn["weights_feature"]) - feature.weights.flip(0)[:n].numpy()).max(),
                     abs(drawn["entropy"][0] - plain.entropy), abs(drawn["entropy"][1] - feature.entropy),
                     abs(drawn["entropy"][2] - added.entropy)))


CASES = {
    "l01 counting": (lambda: explorers.browser.counting_explorer(length=1000),
                     [(None, None, {"length": 1000}), ("length", "End", {"length": 100000}),
                      ("length", "Home", {"length": 4}), ("length", "ArrowRight", {"length": 5})],
                     counting_error),
}

IN_LESSONS = {
    "01_counting.ipynb": [
        InLesson("explorers.browser.counting_explorer(", "counting", "length", "End",
                 {"length": 100000}, counting_error),
    ],
}
