"""Lesson 09's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

from helpers import explorers

from . import InLesson


def pair_scale_error(drawn: dict, values: dict) -> float:
    """How far the drawn pictures are from shape_pictures: every method's scales, the chosen one's wavelengths,
    counts, attention scale and full factor; infinite where a pair's kind differs (they must be equal)."""
    from helpers.measure.l09_stretching_rope import MODEL_SHAPES, shape_pictures
    from helpers.rope_scaling import PAIR_KINDS

    if (drawn["method"], drawn["factor"]) != (values["method"], values["factor"]):
        return math.inf
    shape = MODEL_SHAPES[values["model"]]
    pictures = shape_pictures(shape, values["factor"])
    ref = pictures[values["method"]]
    if drawn["shape"] != shape.name or tuple(drawn["kinds"]) != ref.kinds \
            or drawn["counts"] != [ref.count(k) for k in PAIR_KINDS] \
            or any(tuple(drawn["kinds_by_method"][m]) != p.kinds for m, p in pictures.items()):
        return math.inf
    return float(max(np.abs(np.asarray(drawn["relative_wavelength"]) - ref.relative_wavelength.numpy()).max(),
                     np.abs(np.asarray(drawn["scale"]) - ref.scale.numpy()).max(),
                     *(np.abs(np.asarray(drawn["scales"][m]) - p.scale.numpy()).max() for m, p in pictures.items()),
                     *(abs(drawn["full_factors"][m] - p.factor) for m, p in pictures.items()),
                     abs(drawn["attention_scale"] - ref.attention_scale), abs(drawn["full_factor"] - ref.factor)))


CASES = {
    "l09 pair scale": (lambda: explorers.browser.pair_scale_explorer(method="yarn", factor=4.0, model=0),
                       [(None, None, {"method": "yarn", "factor": 4.0, "model": 0}),
                        ("factor", "End", {"method": "yarn", "factor": 64.0, "model": 0}),
                        ("method", "ArrowLeft", {"method": "dynamic", "factor": 64.0, "model": 0}),
                        ("model", "End", {"method": "dynamic", "factor": 64.0, "model": 2}),
                        ("factor", "Home", {"method": "dynamic", "factor": 1.0, "model": 2}),
                        ("method", "End", {"method": "llama3", "factor": 1.0, "model": 2}),
                        ("factor", "ArrowRight", {"method": "llama3", "factor": 1.5, "model": 2}),
                        ("model", "ArrowLeft", {"method": "llama3", "factor": 1.5, "model": 1}),
                        ("method", "Home", {"method": "linear", "factor": 1.5, "model": 1}),
                        ("method", "ArrowRight", {"method": "ntk", "factor": 1.5, "model": 1})],
                       pair_scale_error),
}

IN_LESSONS = {
    "09_stretching_rope.ipynb": [
        InLesson("explorers.browser.pair_scale_explorer(", "pair-scale", "factor", "End",
                 {"method": "yarn", "factor": 64.0, "model": 0}, pair_scale_error),
    ],
}
