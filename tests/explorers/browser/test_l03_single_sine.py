"""Lesson 03's explorer drawn by the browser: the Python side (arguments, values shared with the
page, the saved output) and the bundle's own numbers, run by Node.js against ``H.sine_snapshot`` at
the sliders' ends and between. Drawing in Chromium: tests/browser/test_browser_explorers.py.
Under CI (CI=true) a missing Node.js is a failure, never a skip.
"""

from __future__ import annotations

import base64
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
from helpers.explorers.browser.l03_single_sine import SineExplorer, sine_explorer  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l03_single_sine.js"
# the sliders' ends (ω 0.001 and π, L 2 and 200) and settings between, where the pairs are mirror
# images, repeats after a turn and small steps
SETTINGS = [(1e-3, 2), (math.pi, 200), (0.3, 50), (1.0, 128), (2 * math.pi / 7, 60), (0.05, 200)]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.sine_explorer is sine_explorer
    widget = sine_explorer(omega=0.3, length=50)
    assert isinstance(widget, SineExplorer) and widget.values() == {"omega": 0.3, "length": 50}
    assert widget.get_state()["_esm"] == BUNDLE.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="omega must be a number from 0.001 to 3.14159, got 4"):
        sine_explorer(omega=4)
    with pytest.raises(ValueError, match="length must be an integer from 2 to 200, got 201"):
        sine_explorer(length=201)
    with pytest.raises(ValueError, match="length must be an integer from 2 to 10, got 11"):
        widget = sine_explorer(length=5, max_length=10)
        widget.length = 11


def test_the_saved_output_carries_the_bundle_a_picture_and_a_description():
    widget = sine_explorer(omega=0.3, length=50)
    data, metadata = widget._repr_mimebundle_()
    snapshot = H.sine_snapshot(0.3, 50)
    assert f"closest pair on the wave {snapshot.wave_pair.i} and {snapshot.wave_pair.j}" in data["text/plain"]
    png = base64.b64decode(data["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and metadata["image/png"] == widget.still_size()
    page = data["text/html"]
    assert json.dumps(widget._esm) in page and "stubModel" in page and '"omega": 0.3' in page
    assert "<img src=\"data:image/png;base64," in page and "</script>" not in widget._esm


def snapshots_from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    calls = ", ".join(f"m.sineSnapshot({omega!r}, {length})" for omega, length in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"[{calls}].map((s) => ({{values: Array.from(s.values), cos: Array.from(s.cos), "
                    "wave: s.wave, circle: s.circle, neighbour: s.neighbour, turns: s.turns}))")


def pair_errors(s: dict, omega: float, length: int) -> float:
    """The largest difference between the bundle's snapshot and H.sine_snapshot's. A pair may differ
    where two pairs tie; its gap may not, nor the gap of the positions it names."""
    ref = H.sine_snapshot(omega, length)
    values, circle = ref.values.numpy(), ref.circle.numpy()
    errors = [np.abs(np.asarray(s["values"]) - values).max(), np.abs(np.asarray(s["cos"]) - circle[:, 0]).max(),
              abs(s["neighbour"] - ref.neighbour_gap), abs(s["turns"] - ref.turns),
              abs(s["wave"]["gap"] - ref.wave_pair.distance), abs(s["circle"]["gap"] - ref.circle_pair.distance)]
    i, j = s["wave"]["i"], s["wave"]["j"]
    errors.append(abs(abs(values[j] - values[i]) - ref.wave_pair.distance))
    ci, cj = s["circle"]["i"], s["circle"]["j"]
    errors.append(abs(float(np.linalg.norm(circle[ci] - circle[cj])) - ref.circle_pair.distance))
    assert i < j and ci < cj
    return float(max(errors))


def test_the_bundles_numbers_are_the_courses(tmp_path):
    for (omega, length), s in zip(SETTINGS, snapshots_from_the_bundle(tmp_path), strict=True):
        assert pair_errors(s, omega, length) < 1e-6, (omega, length)


def test_the_check_catches_a_wrong_formula(tmp_path):
    # the snapshot's wave as cos(ω·p), not sin(ω·p): in the bundle, the one loop that fills both
    right = BUNDLE.read_text(encoding="utf-8")
    loop = r"\]=Math\.sin\(([\w$]+\*[\w$]+)\),([\w$]+\[[\w$]+\])=Math\.cos\("
    wrong, planted = re.subn(loop, r"]=Math.cos(\1),\2=Math.cos(", right)
    assert planted == 1, "the snapshot's loop is not found in the bundle"
    worst = max(pair_errors(s, omega, length) for (omega, length), s
                in zip(SETTINGS, snapshots_from_the_bundle(tmp_path, wrong), strict=True))
    assert worst > 0.1

