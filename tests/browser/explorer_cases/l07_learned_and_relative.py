"""Lesson 07's two browser-drawn explorers in the browser tests (see __init__.py): T5's buckets and ALiBi."""

from __future__ import annotations

import math

import numpy as np

from helpers import explorers
from helpers.measure.l07_learned_and_relative import alibi_view, t5_bucket_view

from . import InLesson


def _nan(values) -> np.ndarray:
    return np.array([math.nan if x is None else x for x in values], dtype=float)


def t5_error(drawn: dict, values: dict) -> float:
    ref = t5_bucket_view(values["num_buckets"], values["max_distance"], values["bidirectional"], values["span"])
    if drawn["offsets"] != ref.offsets.tolist() or drawn["exact"] != ref.exact:
        return math.inf
    starts, ref_starts = _nan(drawn["starts"]), ref.starts.numpy()
    if starts.shape != ref_starts.shape or not np.array_equal(np.isnan(starts), np.isnan(ref_starts)):
        return math.inf
    return float(max(np.abs(np.asarray(drawn["buckets"]) - ref.buckets.numpy()).max(),
                     np.abs(np.asarray(drawn["widths"]) - ref.widths.numpy()).max(),
                     np.nan_to_num(np.abs(starts - ref_starts)).max(),
                     np.abs(np.asarray(drawn["edges"]) - ref.edges.numpy()).max()))


def alibi_error(drawn: dict, values: dict) -> float:
    ref = alibi_view(values["n_heads"], values["length"], values["head"])
    bias, ref_bias = np.array([_nan(row) for row in drawn["bias"]]), ref.bias.numpy()
    if bias.shape != ref_bias.shape or not np.array_equal(np.isnan(bias), np.isnan(ref_bias)):
        return math.inf
    if drawn["power_of_two"] != ref.power_of_two or drawn["head"] != ref.head:
        return math.inf
    weights = ref.weights.numpy()
    return float(max(np.abs(np.asarray(drawn["slopes"]) - ref.slopes.double().numpy()).max(),
                     abs(drawn["slope"] - float(ref.slopes[ref.head - 1])),
                     np.nan_to_num(np.abs(bias - ref_bias)).max(),
                     np.abs(np.asarray(drawn["weights"]) - weights).max(),
                     np.abs(np.asarray(drawn["weights_from_last"]) - weights[::-1]).max(),
                     abs(drawn["half_distance"] - ref.half_distance) / ref.half_distance))


CASES = {
    "l07 t5 buckets": (lambda: explorers.browser.t5_buckets_explorer(num_buckets=32, max_distance=128,
                                                                     bidirectional=False),
                       [(None, None, {"num_buckets": 32, "max_distance": 128, "bidirectional": False}),
                        ("num_buckets", "End", {"num_buckets": 64, "max_distance": 128, "bidirectional": False}),
                        ("max_distance", "Home", {"num_buckets": 64, "max_distance": 40, "bidirectional": False}),
                        ("bidirectional", "End", {"num_buckets": 64, "max_distance": 40, "bidirectional": True}),
                        ("num_buckets", "Home", {"num_buckets": 4, "max_distance": 40, "bidirectional": True}),
                        ("max_distance", "End", {"num_buckets": 4, "max_distance": 400, "bidirectional": True}),
                        ("bidirectional", "Home", {"num_buckets": 4, "max_distance": 400, "bidirectional": False})],
                       t5_error),
    "l07 alibi": (lambda: explorers.browser.alibi_explorer(n_heads=8, length=32, head=1),
                  [(None, None, {"n_heads": 8, "length": 32, "head": 1}),
                   ("head", "End", {"n_heads": 8, "length": 32, "head": 8}),
                   ("n_heads", "Home", {"n_heads": 1, "length": 32, "head": 1}),  # the head follows the count
                   ("length", "End", {"n_heads": 1, "length": 128, "head": 1}),
                   ("n_heads", "End", {"n_heads": 16, "length": 128, "head": 1}),
                   ("head", "End", {"n_heads": 16, "length": 128, "head": 16}),
                   ("n_heads", "ArrowLeft", {"n_heads": 15, "length": 128, "head": 15}),  # not a power of two
                   ("length", "Home", {"n_heads": 15, "length": 8, "head": 15})],
                  alibi_error),
}

IN_LESSONS = {
    "07_learned_and_relative.ipynb": [
        InLesson("explorers.browser.t5_buckets_explorer(", "t5-buckets", "max_distance", "End",
                 {"num_buckets": 32, "max_distance": 400, "bidirectional": False}, t5_error),
        InLesson("explorers.browser.alibi_explorer(", "alibi", "head", "End",
                 {"n_heads": 8, "length": 32, "head": 8}, alibi_error),
    ],
}
