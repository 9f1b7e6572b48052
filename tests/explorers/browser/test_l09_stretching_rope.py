"""Lesson 09's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``shape_pictures`` for every method, every factor the slider offers (its ends included) and every
model shape: each pair's wavelength ÷ L and scale to 1e-6, its kind exactly, the counts, the attention scale
and the full factor. Drawing in Chromium: tests/browser/test_browser_explorers.py. Under CI a missing
Node.js fails."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l09_stretching_rope import (  # noqa: E402
    FACTOR,  # noqa: E402
    PairScaleExplorer,
    pair_scale_explorer,
    shape_constants,
)
from helpers.measure.l09_stretching_rope import MODEL_SHAPES, shape_pictures  # noqa: E402
from helpers.rope_scaling import PAIR_KINDS, SCALING_METHODS  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l09_stretching_rope.js"
SETTINGS = [(model, float(factor)) for model in range(len(MODEL_SHAPES)) for factor in FACTOR.values]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.pair_scale_explorer is pair_scale_explorer
    widget = pair_scale_explorer(method="yarn", factor=4.0, model=0)
    assert isinstance(widget, PairScaleExplorer)
    assert widget.values() == {"method": "yarn", "factor": 4.0, "model": 0}
    assert widget.factors == [float(f) for f in FACTOR.values] and widget.shapes == shape_constants()
    with pytest.raises(ValueError, match="method must be one of"):
        pair_scale_explorer(method="rope")
    with pytest.raises(ValueError, match="factor must be one of"):
        pair_scale_explorer(factor=5.0)
    with pytest.raises(ValueError, match="model must be one of"):
        widget.model = 3
    with pytest.raises(ValueError, match="factor must be one of"):
        widget.factor = 100.0
    data, _ = widget._repr_mimebundle_()
    assert "21 pairs kept, 25 blended, 18 divided by 4" in data["text/plain"]
    assert json.dumps(widget._esm) in data["text/html"]


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    shapes = json.dumps(shape_constants())
    calls = ", ".join(f"m.shapePictures(shapes[{model}], {factor!r})" for model, factor in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"(() => {{ const shapes = {shapes}; return [{calls}]; }})()")


def worst(out: list[dict]) -> float:
    """The largest difference from shape_pictures; infinite where a pair's kind differs."""
    errors = []
    for (model, factor), got in zip(SETTINGS, out, strict=True):
        for method, ref in shape_pictures(MODEL_SHAPES[model], factor).items():
            p = got[method]
            if tuple(p["kinds"]) != ref.kinds or p["counts"] != [ref.count(k) for k in PAIR_KINDS]:
                return math.inf
            errors += [float(np.abs(np.asarray(p["scale"]) - ref.scale.numpy()).max()),
                       float(np.abs(np.asarray(p["relative_wavelength"]) - ref.relative_wavelength.numpy()).max()),
                       abs(p["attention_scale"] - ref.attention_scale), abs(p["factor"] - ref.factor)]
    return max(errors)


def test_the_bundles_numbers_are_the_courses(tmp_path):
    out = from_the_bundle(tmp_path)
    assert len(out) == 36 and set(out[0]) == set(SCALING_METHODS)
    assert worst(out) < 1e-6
    # every kind is met somewhere, so the comparison of kinds is not vacuous
    assert {k for picture in out for p in picture.values() for k in p["kinds"]} == set(PAIR_KINDS)


def test_the_check_catches_a_yarn_ramp_rounded_the_wrong_way(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # the ramp's first pair rounded up, where the released code rounds it down: one kept pair fewer
    wrong, planted = re.subn(r"Math\.max\(Math\.floor\(", "Math.max(Math.ceil(", right)
    assert planted == 1, "the ramp's start is not found in the bundle"
    assert worst(from_the_bundle(tmp_path, wrong)) == math.inf


def test_the_check_catches_a_wrong_temperature(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # YaRN's temperature 0.1·ln(factor) + 1 with 0.2 for 0.1: only the attention scale changes
    wrong, planted = re.subn(r"\.1\*Math\.log\(([\w$]+)\)\+1", r".2*Math.log(\1)+1", right)
    assert planted == 1, "the temperature is not found in the bundle"
    assert 0.1 < worst(from_the_bundle(tmp_path, wrong)) < math.inf
