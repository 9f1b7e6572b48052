"""Lesson 02's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

import helpers as H
from helpers import explorers

from . import InLesson


def normalised_error(drawn: dict, values: dict) -> float:
    ref = H.compare_lengths(values["length_a"], values["length_b"])
    if [tuple(pair) for pair in drawn["shared"]] != ref.shared:
        return math.inf
    return float(max(np.abs(np.asarray(drawn["codes_a"]) - ref.codes_a.numpy()).max(),
                     np.abs(np.asarray(drawn["codes_b"]) - ref.codes_b.numpy()).max(),
                     abs(drawn["step_a"] - ref.step_a), abs(drawn["step_b"] - ref.step_b),
                     abs(drawn["second_a"] - ref.second_a), abs(drawn["second_b"] - ref.second_b)))


CASES = {
    "l02 normalised": (lambda: explorers.browser.normalised_explorer(length_a=5, length_b=12),
                       [(None, None, {"length_a": 5, "length_b": 12}),
                        ("length_a", "End", {"length_a": 40, "length_b": 12}),
                        ("length_b", "Home", {"length_a": 40, "length_b": 2}),
                        ("length_a", "ArrowLeft", {"length_a": 39, "length_b": 2})],
                       normalised_error),
}

IN_LESSONS = {
    "02_normalised_positions.ipynb": [
        InLesson("explorers.browser.normalised_explorer(", "normalised", "length_a", "End",
                 {"length_a": 40, "length_b": 12}, normalised_error),
    ],
}
