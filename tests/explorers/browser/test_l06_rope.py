"""Lesson 06's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``H.rope_pair_view`` and ``H.scores_by_offset`` at the sliders' ends and between. Drawing in
Chromium: tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails."""

from __future__ import annotations

import json
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
from helpers.explorers.browser.l06_rope import RopeExplorer, rope_explorer  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l06_rope.js"
Q, K = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
SETTINGS = [(3, 1, 1, 10000.0), (0, 0, 0, 10000.0), (64, 64, 15, 10000.0), (64, 0, 0, 100.0), (0, 64, 7, 1e6)]
OFFSETS = list(range(-64, 65))


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.rope_explorer is rope_explorer
    widget = rope_explorer(Q, K, m=3, n=1, pair=1)
    assert isinstance(widget, RopeExplorer) and widget.values() == {"m": 3, "n": 1, "pair": 1}
    assert widget.q == Q.tolist() and widget.k == K.tolist()
    with pytest.raises(ValueError, match="m must be an integer from 0 to 64, got 65"):
        rope_explorer(m=65)
    with pytest.raises(ValueError, match="pair must be an integer from 0 to 15, got 16"):
        widget.pair = 16
    with pytest.raises(ValueError, match="q and k must both have shape"):
        rope_explorer(Q, K[:16])
    data, _ = widget._repr_mimebundle_()
    assert "seen in pair 1" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    q, k, offsets = json.dumps(Q.tolist()), json.dumps(K.tolist()), json.dumps(OFFSETS)
    calls = ", ".join(f"{{view: m.pairView({q}, {k}, {a}, {b}, {p}, {base!r}), "
                      f"profile: m.scoresByOffset({q}, {k}, {offsets}, {base!r})}}" for a, b, p, base in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"), f"[{calls}]")


def worst(out: list[dict]) -> float:
    errors = []
    for (a, b, p, base), got in zip(SETTINGS, out, strict=True):
        ref = H.rope_pair_view(Q, K, a, b, p, base)
        view = got["view"]
        errors += [float(np.abs(np.asarray(view["q_xy"]) - ref.q_xy).max()),
                   float(np.abs(np.asarray(view["k_xy"]) - ref.k_xy).max()),
                   abs(view["pair_score"] - ref.pair_score), abs(view["score"] - ref.score),
                   abs(view["offset"] - ref.offset)]
        profile = H.scores_by_offset(Q, K, torch.tensor(OFFSETS), base).numpy()
        errors.append(float(np.abs(np.asarray(got["profile"]) - profile).max()))
    return max(errors)


def test_the_bundles_numbers_are_the_courses(tmp_path):
    assert worst(from_the_bundle(tmp_path)) < 1e-9


def test_the_check_catches_a_turn_the_wrong_way(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # the pair turned clockwise, (a, b) -> (a cos + b sin, ...), where RoPE turns it counter-clockwise
    wrong, planted = re.subn(r"\]\*([\w$]+)-([\w$]+)\[2\*([\w$]+)\+1\]\*([\w$]+),", r"]*\1+\2[2*\3+1]*\4,", right)
    assert planted == 1, "the turn is not found in the bundle"
    assert worst(from_the_bundle(tmp_path, wrong)) > 0.1
