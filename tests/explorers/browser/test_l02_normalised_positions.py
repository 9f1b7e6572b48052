"""Lesson 02's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``H.compare_lengths`` at the sliders' ends and between. Drawing in Chromium:
tests/browser/test_browser_explorers.py. Under CI (CI=true) a missing Node.js is a failure."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l02_normalised_positions import NormalisedExplorer, normalised_explorer  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l02_normalised_positions.js"
SETTINGS = [(2, 2), (40, 40), (5, 12), (13, 37), (2, 40), (21, 31)]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.normalised_explorer is normalised_explorer
    widget = normalised_explorer(length_a=5, length_b=12)
    assert isinstance(widget, NormalisedExplorer) and widget.values() == {"length_a": 5, "length_b": 12}
    with pytest.raises(ValueError, match="length_a must be an integer from 2 to 40, got 1"):
        normalised_explorer(length_a=1)
    with pytest.raises(ValueError, match="length_b must be an integer from 2 to 40, got 41"):
        widget.length_b = 41
    data, _ = widget._repr_mimebundle_()
    assert "5 and 12 words" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    calls = ", ".join(f"m.compareLengths({a}, {b})" for a, b in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"[{calls}].map((c) => ({{...c, codesA: Array.from(c.codesA), codesB: Array.from(c.codesB)}}))")


def error(c: dict, a: int, b: int) -> float:
    ref = H.compare_lengths(a, b)
    if [tuple(pair) for pair in c["shared"]] != ref.shared:
        return float("inf")
    return float(max(np.abs(np.asarray(c["codesA"]) - ref.codes_a.numpy()).max(),
                     np.abs(np.asarray(c["codesB"]) - ref.codes_b.numpy()).max(),
                     abs(c["stepA"] - ref.step_a), abs(c["secondB"] - ref.second_b)))


def test_the_bundles_numbers_are_the_courses(tmp_path):
    for (a, b), c in zip(SETTINGS, from_the_bundle(tmp_path), strict=True):
        assert error(c, a, b) < 1e-12, (a, b)


def test_the_check_catches_a_wrong_formula(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # p / L instead of p / (L - 1), in the one function that makes a sentence's codes
    wrong, planted = re.subn(r"\([\w$]+,([\w$]+)\)=>\1/\(([\w$]+)-1\)\)", r"(_,\1)=>\1/\2)", right)
    assert planted == 1, "the codes' formula is not found in the bundle"
    assert max(error(c, a, b) for (a, b), c in zip(SETTINGS, from_the_bundle(tmp_path, wrong), strict=True)) > 0.01
