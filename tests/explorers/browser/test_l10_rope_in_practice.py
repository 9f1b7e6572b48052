"""Lesson 10's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``H.precision_view`` (each pair's angle error, the stored position, the pairs off, infinity past
float16's range) at the slider's ends, around float16's largest number and at many positions between.
Drawing in Chromium: tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l10_rope_in_practice import (  # noqa: E402
    AnglePrecisionExplorer,
    angle_precision_explorer,
    heading,
    sweep_positions,
    sweep_worst,
)

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l10_rope_in_practice.js"
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
# the slider's ends, powers of two and their neighbours (ties in bfloat16 and float16), float16's largest
# number 65 504 and the first integer it stores as infinity (65 520), and random positions between
POSITIONS = sorted({0, 1, 2, 3, 100, 255, 257, 511, 513, 1000, 4095, 4096, 4097, 4098, 4104, 4112, 32769, 65503,
                    65504, 65505, 65519, 65520, 65521, 65536, 70_000, 99_999, 100_000}
                   | set(np.random.default_rng(0).integers(1, 100_001, 120).tolist()))
SHAPES = [(128, 10000.0), (8, 100.0), (64, 500000.0), (128, 1e9)]  # 1e9: float16 frequencies below its normal range


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.angle_precision_explorer is angle_precision_explorer
    widget = angle_precision_explorer(position=1000.0, dtype="bfloat16", d=128)
    assert isinstance(widget, AnglePrecisionExplorer) and widget.values() == {"position": 1000.0, "dtype": "bfloat16"}
    assert widget.omega == H.frequencies(128, dtype=torch.float64).tolist()
    assert widget.sweep == sweep_positions().tolist()
    assert widget.sweep_worst["float16"][-1] is None  # float16: infinity
    with pytest.raises(ValueError, match="position must be a number from 1 to 100000, got 0.5"):
        angle_precision_explorer(position=0.5)
    with pytest.raises(ValueError, match="dtype must be one of"):
        widget.dtype = "float64"
    with pytest.raises(ValueError, match="d must be"):
        angle_precision_explorer(d=7)
    data, _ = widget._repr_mimebundle_()
    assert "largest angle error is 2.1 rad" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]
    widget.position, widget.dtype = 70_000.0, "float16"
    assert "stores position 70000 as infinity" in widget.describe()


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list:
    calls = []
    for d, base in SHAPES:
        omega = json.dumps(H.frequencies(d, base, torch.float64).tolist())
        calls.append(f"(() => {{ const omega = {omega}; return {json.dumps(POSITIONS)}.map((p) => "
                     f"{json.dumps(list(DTYPES))}.map((name) => {{ const v = m.precisionView(p, omega, name); "
                     "return { stored: Number.isFinite(v.stored) ? v.stored : 'inf', "
                     "errors: Array.from(v.errors, (e) => (Number.isNaN(e) ? null : e)), "
                     "worst: Number.isNaN(v.worst) ? null : v.worst, pairs_off: v.pairs_off }; })); })()")
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"), f"[{', '.join(calls)}]")


def mismatches(out: list) -> tuple[float, int]:
    """The largest error difference, and how many stored positions, pairs-off counts or infinities differ."""
    largest, wrong = 0.0, 0
    for (d, base), by_position in zip(SHAPES, out, strict=True):
        for p, by_dtype in zip(POSITIONS, by_position, strict=True):
            for dt, got in zip(DTYPES.values(), by_dtype, strict=True):
                ref = H.precision_view(p, d, dt, base)
                stored = "inf" if math.isinf(ref.stored) else ref.stored
                errors = np.array([np.nan if e is None else e for e in got["errors"]])
                same_nan = np.array_equal(np.isnan(errors), ref.errors.isnan().numpy())
                worst_ok = (got["worst"] is None) == math.isnan(ref.worst)
                wrong += (got["stored"] != stored) + (got["pairs_off"] != ref.pairs_off)
                wrong += (not same_nan) + (not worst_ok)
                finite = ~np.isnan(errors)
                if finite.any():
                    largest = max(largest, float(np.abs(errors[finite] - ref.errors.numpy()[finite]).max()))
                if got["worst"] is not None and not math.isnan(ref.worst):
                    largest = max(largest, abs(got["worst"] - ref.worst))
    return largest, wrong


def test_the_bundles_numbers_are_the_courses(tmp_path):
    largest, wrong = mismatches(from_the_bundle(tmp_path))
    assert wrong == 0 and largest < 1e-9, (largest, wrong)


def test_float16_stores_65504_and_then_infinity(tmp_path):
    out = evaluate(tmp_path, BUNDLE.read_text(encoding="utf-8"),
                   "[65504, 65519, 65520, 100000].map((p) => { const s = m.toDtype(p, 'float16'); "
                   "return Number.isFinite(s) ? s : 'inf'; })")
    assert out == [65504, 65504, "inf", "inf"]


def test_the_heading_and_the_rounded_position_are_pythons(tmp_path):
    positions = [1.0, 2.5, 3.5, 1000.0, 4168.69, 69183.1, 100_000.0]
    out = evaluate(tmp_path, BUNDLE.read_text(encoding="utf-8"), f"{json.dumps(positions)}.map(m.roundHalfEven)")
    assert out == [round(p) for p in positions]
    # what draw writes above the panels
    omega = json.dumps(H.frequencies(128, dtype=torch.float64).tolist())
    settings = [(1, "float32"), (1000, "bfloat16"), (4097, "bfloat16"), (4169, "float16"), (70_000, "float16"),
                (100_000, "float32")]
    lines = evaluate(tmp_path, BUNDLE.read_text(encoding="utf-8"), f"{json.dumps(settings)}.map(([p, name]) => "
                     f"m.headingLines(p, name, m.precisionView(p, {omega}, name), 64))")
    assert lines == [heading(p, name, 128, 10000.0) for p, name in settings]


def test_the_sweep_is_angle_errors_largest():
    sweep = sweep_positions()
    worst = sweep_worst(16, 10000.0)
    for name, dt in DTYPES.items():
        ref = H.angle_error(sweep, 16, dtype=dt).amax(-1).clamp_min(1e-9)
        got = torch.tensor([math.nan if w is None else w for w in worst[name]], dtype=torch.float64)
        assert torch.equal(got.isnan(), ref.isnan()) and torch.allclose(got[~got.isnan()], ref[~ref.isnan()])


def test_the_check_catches_ties_rounded_up(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # halfway cases rounded up, where IEEE (and torch) round them to the even neighbour
    wrong, planted = re.subn(r"([\w$]+)-([\w$]+)===\.5&&([\w$]+)%2===1\?", r"\1-\2===.5&&!0?", right)
    assert planted == 1, "the rounding to even is not found in the bundle"
    largest, mismatched = mismatches(from_the_bundle(tmp_path, wrong))
    assert mismatched > 0 or largest > 1e-6
