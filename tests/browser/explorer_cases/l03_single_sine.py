"""Lesson 03's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

import helpers as H
from helpers import explorers

from . import InLesson


def sine_error(drawn: dict, values: dict) -> float:
    ref = H.sine_snapshot(values["omega"], values["length"])
    circle = ref.circle.numpy()
    wave_i, wave_j, wave_gap = drawn["wave_pair"]
    ci, cj, circle_gap = drawn["circle_pair"]
    return float(max(
        np.abs(np.asarray(drawn["values"]) - ref.values.numpy()).max(),
        np.abs(np.asarray(drawn["circle"]) - circle).max(),
        abs(wave_gap - ref.wave_pair.distance), abs(circle_gap - ref.circle_pair.distance),
        abs(abs(circle[wave_j, 1] - circle[wave_i, 1]) - ref.wave_pair.distance),  # a tie may pick another pair
        abs(float(np.linalg.norm(circle[ci] - circle[cj])) - ref.circle_pair.distance),
        abs(drawn["neighbour_gap"] - ref.neighbour_gap), abs(drawn["turns"] - ref.turns)))


CASES = {
    "l03 sine": (lambda: explorers.browser.sine_explorer(omega=0.3, length=50),
                 [(None, None, {"omega": 0.3, "length": 50}),
                  ("omega", "End", {"omega": math.pi, "length": 50}),
                  ("length", "End", {"omega": math.pi, "length": 200}),
                  ("omega", "Home", {"omega": 1e-3, "length": 200}),
                  ("length", "Home", {"omega": 1e-3, "length": 2})],
                 sine_error),
}

IN_LESSONS = {
    "03_single_sine.ipynb": [
        InLesson("explorers.browser.sine_explorer(", "sine", "omega", "End",
                 {"omega": math.pi, "length": 50}, sine_error),
    ],
}
