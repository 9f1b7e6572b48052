"""Lesson 05's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``shift_snapshot`` and the pairs ``clock_pairs`` picks, at the sliders' ends and
between. Drawing in Chromium: tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l05_rotation_matrix import ClockHandsExplorer, clock_hands_explorer, clock_pairs  # noqa: E402
from helpers.measure.l05_rotation_matrix import shift_snapshot  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l05_rotation_matrix.js"
# (k, position, d_model, base): the sliders' ends (k ±200, p 0 and 200) and the lesson's start
SETTINGS = [(10, 0, 16, 10000.0), (-200, 0, 16, 10000.0), (200, 200, 16, 10000.0), (7, 33, 512, 500000.0),
            (-3, 5, 6, 10.0)]
PAIRS = [(16, 8), (512, 8), (6, 8), (10, 4), (2, 8), (64, 5)]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.clock_hands_explorer is clock_hands_explorer
    widget = clock_hands_explorer(d_model=16, k=10)
    assert isinstance(widget, ClockHandsExplorer) and widget.values() == {"k": 10, "position": 0}
    with pytest.raises(ValueError, match="k must be an integer from -200 to 200, got 201"):
        clock_hands_explorer(k=201)
    with pytest.raises(ValueError, match="position must be an integer from 0 to 200, got -1"):
        widget.position = -1
    with pytest.raises(ValueError, match="d_model"):
        clock_hands_explorer(d_model=15)
    data, _ = widget._repr_mimebundle_()
    assert "turned by k = 10" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def from_the_bundle(tmp_path: Path, bundle: str = "") -> dict:
    shifts = ", ".join(f"m.shiftSnapshot({k}, {p}, {d}, {b!r})" for k, p, d, b in SETTINGS)
    pairs = ", ".join(f"m.clockPairs({d}, {n})" for d, n in PAIRS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"{{shifts: [{shifts}].map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => "
                    f"[k, Array.from(v)]))), pairs: [{pairs}]}}")


def worst(out: dict) -> float:
    errors = []
    for (k, p, d, b), s in zip(SETTINGS, out["shifts"], strict=True):
        ref = shift_snapshot(k, p, d, b)
        for name in ("start", "moved", "omega", "turns"):
            errors.append(float(np.abs(np.asarray(s[name]) - getattr(ref, name).double().numpy()).max()))
    return max(errors)


def test_the_bundles_numbers_and_pairs_are_the_courses(tmp_path):
    out = from_the_bundle(tmp_path)
    assert worst(out) < 1e-6  # PE in float32 in Python: its rounding, ~6e-8, is the difference
    assert out["pairs"] == [clock_pairs(d, n) for d, n in PAIRS]


def test_the_check_catches_a_wrong_turn(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # M_k turning the wrong way: the sine's sign flipped where each pair is turned
    turn = r"([\w$]+)=Math\.sin\(([\w$]+)\*([\w$]+)\[([\w$]+)\]\);"
    wrong, planted = re.subn(turn, r"\1=-Math.sin(\2*\3[\4]);", right)
    assert planted == 1, "the turn is not found in the bundle"
    assert worst(from_the_bundle(tmp_path, wrong)) > 0.1
