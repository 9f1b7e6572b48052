"""Lesson 07's two explorers drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``t5_bucket_view`` (T5's buckets: the same bucket at every offset, for every setting the sliders
reach) and ``alibi_view`` / ``H.alibi_slopes`` (ALiBi), at the sliders' ends and between. Drawing in
Chromium: tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l07_learned_and_relative import (  # noqa: E402
    SPAN,
    AlibiExplorer,
    T5BucketsExplorer,
    alibi_explorer,
    t5_buckets_explorer,
)
from helpers.measure.l07_learned_and_relative import alibi_view, t5_bucket_view  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l07_learned_and_relative.js"
T5_SETTINGS = [(32, 128, False), (32, 128, True), (4, 40, False), (4, 400, True), (64, 40, False), (64, 400, True),
               (64, 40, True), (4, 40, True)]
T5_GRID = [(n, d, b) for n in range(4, 65, 4) for d in range(40, 401, 8) for b in (False, True)]  # every setting
ALIBI_SETTINGS = [(8, 32, 1), (1, 8, 1), (16, 128, 16), (12, 64, 10), (3, 8, 3), (16, 8, 1), (5, 128, 5)]


def test_the_lesson_reaches_them_and_arguments_are_checked():
    assert explorers.browser.t5_buckets_explorer is t5_buckets_explorer
    assert explorers.browser.alibi_explorer is alibi_explorer
    t5 = t5_buckets_explorer(num_buckets=32, max_distance=128, bidirectional=False)
    assert isinstance(t5, T5BucketsExplorer) and t5.kind == "t5-buckets" and t5.span == SPAN
    assert t5.values() == {"num_buckets": 32, "max_distance": 128, "bidirectional": False}
    with pytest.raises(ValueError, match="num_buckets must be"):
        t5_buckets_explorer(num_buckets=30)
    with pytest.raises(ValueError, match="max_distance must be"):
        t5.max_distance = 408
    alibi = alibi_explorer(n_heads=8, length=32, head=1)
    assert isinstance(alibi, AlibiExplorer) and alibi.kind == "alibi"
    assert alibi.values() == {"n_heads": 8, "length": 32, "head": 1}
    with pytest.raises(ValueError, match="head must be an integer from 1 to 8, got 9"):
        alibi.head = 9
    with pytest.raises(ValueError, match="length must be"):
        alibi_explorer(length=36)
    alibi.head = 8
    alibi.n_heads = 5  # the head follows the head count down, as its slider does
    assert alibi.values() == {"n_heads": 5, "length": 32, "head": 5}
    for widget, words in ((t5, "max_distance 128, causal"), (alibi, "head 5 of 5")):
        data, _ = widget._repr_mimebundle_()
        assert words in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]
        assert '"kind": "' + widget.kind + '"' in data["text/html"]  # the page's model picks the explorer


def from_the_bundle(tmp_path: Path, bundle: str = "") -> dict:
    t5 = ", ".join(f"m.t5View({n}, {d}, {str(b).lower()}, {SPAN})" for n, d, b in T5_SETTINGS)
    alibi = ", ".join(f"m.alibiView({n}, {length}, {head})" for n, length, head in ALIBI_SETTINGS)
    # every setting of the sliders: each bucket's run of offsets (where the bucket changes, and to what)
    grid = json.dumps(T5_GRID)
    runs = (f"{grid}.map(([n, d, b]) => {{ const v = m.t5View(n, d, b, {SPAN}); const out = [];"
            " v.buckets.forEach((x, k) => { if (k === 0 || x !== v.buckets[k - 1]) out.push(k, x); }); return out; })")
    slopes = "Array.from({length: 16}, (_, k) => m.alibiSlopes(k + 1))"
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"{{t5: [{t5}], alibi: [{alibi}], runs: {runs}, slopes: {slopes}}}")


def runs(buckets: np.ndarray) -> list[int]:
    change = np.flatnonzero(np.r_[True, buckets[1:] != buckets[:-1]])
    return np.column_stack([change, buckets[change]]).ravel().tolist()


def nan(values) -> np.ndarray:
    return np.array([math.nan if x is None else x for x in values], dtype=float)


def t5_error(got: dict, setting) -> float:
    ref = t5_bucket_view(*setting, span=SPAN)
    if got["offsets"] != ref.offsets.tolist() or got["exact"] != ref.exact:
        return math.inf
    starts, ref_starts = nan(got["starts"]), ref.starts.numpy()
    if not np.array_equal(np.isnan(starts), np.isnan(ref_starts)):
        return math.inf
    return float(max(np.abs(np.asarray(got["buckets"]) - ref.buckets.numpy()).max(),
                     np.abs(np.asarray(got["widths"]) - ref.widths.numpy()).max(),
                     np.nan_to_num(np.abs(starts - ref_starts)).max(),
                     np.abs(np.asarray(got["edges"]) - ref.edges.numpy()).max()))


def alibi_error(got: dict, setting) -> float:
    ref = alibi_view(*setting)
    bias, ref_bias = np.array([nan(row) for row in got["bias"]]), ref.bias.numpy()
    if bias.shape != ref_bias.shape or not np.array_equal(np.isnan(bias), np.isnan(ref_bias)):
        return math.inf
    if got["power_of_two"] != ref.power_of_two:
        return math.inf
    return float(max(np.abs(np.asarray(got["slopes"]) - ref.slopes.double().numpy()).max(),
                     abs(got["slope"] - float(ref.slopes[ref.head - 1])),
                     np.nan_to_num(np.abs(bias - ref_bias)).max(),
                     np.abs(np.asarray(got["weights"]) - ref.weights.numpy()).max(),
                     abs(got["half_distance"] - ref.half_distance) / ref.half_distance))


def worst(out: dict) -> float:
    errors = [t5_error(got, s) for got, s in zip(out["t5"], T5_SETTINGS, strict=True)]
    errors += [alibi_error(got, s) for got, s in zip(out["alibi"], ALIBI_SETTINGS, strict=True)]
    return max(errors)


def grid_mismatches(out: dict) -> list:
    """The settings of the sliders at which some offset lands in another bucket than in Python."""
    return [s for s, got in zip(T5_GRID, out["runs"], strict=True)
            if got != runs(H.t5_offset_buckets(*s, span=SPAN)[1].numpy())]


def slope_mismatches(out: dict) -> list[int]:
    return [n for n, got in enumerate(out["slopes"], 1) if got != H.alibi_slopes(n).double().tolist()]


@pytest.fixture(scope="module")
def right(tmp_path_factory):
    return from_the_bundle(tmp_path_factory.mktemp("l07"))


def test_the_bundles_numbers_are_the_courses(right):
    assert worst(right) < 1e-9


def test_every_offset_lands_in_pythons_bucket_at_every_setting(right):
    assert len(right["runs"]) == len(T5_GRID) == 16 * 46 * 2
    assert grid_mismatches(right) == []


def test_every_head_count_has_pythons_slopes_exactly(right):
    assert slope_mismatches(right) == []


def plant(pattern: str, replacement: str) -> str:
    wrong, planted = re.subn(pattern, replacement, BUNDLE.read_text(encoding="utf-8"))
    assert planted == 1, f"{pattern} is not found once in the bundle"
    return wrong


def test_the_check_catches_rounding_where_torch_truncates(tmp_path):
    out = from_the_bundle(tmp_path, plant(r"Math\.trunc\(", "Math.round("))
    assert worst(out) == math.inf or worst(out) >= 1
    assert len(grid_mismatches(out)) > 100


def test_the_check_catches_a_product_left_in_double_precision(tmp_path):
    # the bucket's product scaled·(n − exact) not rounded to float32, as torch rounds it
    out = from_the_bundle(tmp_path, plant(r"Math\.trunc\([\w$]+\(([\w$]+\*\([\w$]+-[\w$]+\))\)\)", r"Math.trunc(\1)"))
    assert grid_mismatches(out)


def test_the_check_catches_the_wrong_slopes_in_between(tmp_path):
    # the extra heads given the even-indexed slopes of 2·n0 heads (those the first n0 heads already have)
    out = from_the_bundle(tmp_path, plant(r"%2===0\)\.slice\(", "%2===1).slice("))
    assert worst(out) > 0.01
    assert slope_mismatches(out) == [n for n in range(1, 17) if n & (n - 1)]
