"""Lesson 10's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

import helpers as H
from helpers import explorers

from . import InLesson

DTYPES = ("float16", "bfloat16", "float32")


def precision_error(drawn: dict, values: dict) -> float:
    """How far the drawn errors, stored positions, pairs off, heading, marker and sweep are from Python's
    (math.inf where a count, a stored value, an infinity or a line of text differs)."""
    import torch

    from helpers.explorers.browser.l10_rope_in_practice import heading, sweep_positions, sweep_worst

    d, base = values["d"], values["base"]
    p = round(values["position"])
    if drawn["position"] != p or drawn["dtype"] != values["dtype"]:
        return math.inf
    errors = []
    for name in DTYPES:
        ref = H.precision_view(p, d, getattr(torch, name), base)
        got = drawn["views"][name]
        if got["stored"] != ("inf" if math.isinf(ref.stored) else ref.stored) or got["pairs_off"] != ref.pairs_off:
            return math.inf
        if (got["worst"] is None) != math.isnan(ref.worst):
            return math.inf
        mine = np.array([np.nan if e is None else e for e in got["errors"]])
        if not np.array_equal(np.isnan(mine), ref.errors.isnan().numpy()):
            return math.inf
        finite = ~np.isnan(mine)
        if finite.any():
            errors.append(float(np.abs(mine[finite] - ref.errors.numpy()[finite]).max()))
        if got["worst"] is not None:
            errors.append(abs(got["worst"] - ref.worst))
    if drawn["heading"] != heading(p, values["dtype"], d, base) or drawn["sweep"] != sweep_positions().tolist():
        return math.inf
    chosen = H.precision_view(p, d, getattr(torch, values["dtype"]), base)
    if (drawn["marker"] is None) != math.isnan(chosen.worst):
        return math.inf
    if drawn["marker"] is not None:
        errors.append(abs(drawn["marker"] - max(chosen.worst, 1e-9)))
    for name, ref in sweep_worst(d, base).items():
        got = drawn["sweep_worst"][name]
        if [g is None for g in got] != [r is None for r in ref]:
            return math.inf
        errors += [abs(g - r) for g, r in zip(got, ref, strict=True) if r is not None]
    return max(errors)


CASES = {
    "l10 angle precision": (lambda: explorers.browser.angle_precision_explorer(position=1000.0, dtype="bfloat16"),
                            [(None, None, {"position": 1000.0, "dtype": "bfloat16"}),
                             ("position", "End", {"position": 100_000.0, "dtype": "bfloat16"}),
                             ("dtype", "Home", {"position": 100_000.0, "dtype": "float16"}),
                             ("position", "Home", {"position": 1.0, "dtype": "float16"}),
                             ("dtype", "End", {"position": 1.0, "dtype": "float32"})],
                            precision_error),
}

IN_LESSONS = {
    "10_rope_in_practice.ipynb": [
        InLesson("explorers.browser.angle_precision_explorer(", "angle-precision", "position", "End",
                 {"position": 100_000.0, "dtype": "bfloat16"}, precision_error),
    ],
}
