"""Lesson 04's browser-drawn explorer in the browser tests (see __init__.py). The whole table and its
heatmap's pixels are checked too, in JupyterLab (test_lab_anywidget.py) and on the site (test_site.py),
through tests/browser/explorer_page.py."""

from __future__ import annotations

import math

import numpy as np
import torch

import helpers as H
from helpers import explorers
from helpers.explorers.browser.l04_sinusoidal import _wave_pairs
from helpers.measure.l04_sinusoidal import sinusoidal_snapshot

from . import InLesson

NAMES = ("d_model", "position", "length", "base")


def sinusoidal_error(drawn: dict, values: dict) -> float:
    """The largest difference between what was drawn (the chosen row and its norm, each wave's values and
    wavelength) and H.sinusoidal's table at the slider values; the norm and the wavelengths relative to
    the snapshot's norm and 2π/ω_i."""
    if any(drawn[name] != values[name] for name in NAMES):
        return math.inf
    n, d, p, base = values["length"], values["d_model"], values["position"], values["base"]
    pairs = _wave_pairs(d // 2)
    if drawn["pairs"] != pairs or [w["pair"] for w in drawn["waves"]] != pairs:
        return math.inf
    table = H.sinusoidal(n, d, base).double().numpy()
    omega = H.frequencies(d, base, dtype=torch.float64).numpy()
    # the norm relative to the snapshot's, which float32 rounds (√512 = 22.6 to about 1e-6)
    errors = [float(np.abs(np.asarray(drawn["row"]) - table[p]).max()),
              abs(drawn["norm"] / sinusoidal_snapshot(d, p, n, base).norm - 1)]
    for wave in drawn["waves"]:
        i = wave["pair"]
        errors += [float(np.abs(np.asarray(wave["values"]) - table[:, 2 * i]).max()),
                   abs(wave["wavelength"] * omega[i] / (2 * math.pi) - 1)]
    return max(errors)


START = {"d_model": 128, "position": 20, "length": 128, "base": 10000}

# from the lesson's start, every slider to its lower end, then every slider to its upper end (the length
# first: the position's end follows it), each reached from the keyboard; then the length down and up again
CASES = {
    "l04 sinusoidal": (lambda: explorers.browser.sinusoidal_explorer(d_model=128, position=20, length=128),
                       [(None, None, START),
                        ("d_model", "Home", {**START, "d_model": 2}),
                        ("length", "Home", {"d_model": 2, "position": 7, "length": 8, "base": 10000}),
                        ("position", "Home", {"d_model": 2, "position": 0, "length": 8, "base": 10000}),
                        ("base", "Home", {"d_model": 2, "position": 0, "length": 8, "base": 10}),
                        ("base", "ArrowRight", {"d_model": 2, "position": 0, "length": 8, "base": 11.2201845430}),
                        ("d_model", "End", {"d_model": 1024, "position": 0, "length": 8, "base": 11.2201845430}),
                        ("length", "End", {"d_model": 1024, "position": 0, "length": 1024, "base": 11.2201845430}),
                        ("position", "End", {"d_model": 1024, "position": 1023, "length": 1024,
                                             "base": 11.2201845430}),
                        ("base", "End", {"d_model": 1024, "position": 1023, "length": 1024, "base": 1e6}),
                        # shorter, then longer again: the rows kept from the longer table are shown again
                        ("length", "Home", {"d_model": 1024, "position": 7, "length": 8, "base": 1e6}),
                        ("length", "ArrowRight", {"d_model": 1024, "position": 7, "length": 16, "base": 1e6})],
                       sinusoidal_error),
}

IN_LESSONS = {
    "04_sinusoidal.ipynb": [
        InLesson("explorers.browser.sinusoidal_explorer(", "sinusoidal", "d_model", "ArrowRight",
                 {**START, "d_model": 130}, sinusoidal_error),
    ],
}
