"""Lesson 01's explorer drawn by the browser: the Python side. Its numbers are computed once in Python
(``counting_snapshots``) and only picked by the page; they are checked here against ``H.counting_snapshot``
and against what they must be by construction, and in Chromium (tests/browser/test_browser_explorers.py)
against the reference at the slider's ends."""

from __future__ import annotations

import json
import math

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser.l01_counting import CountingExplorer, counting_explorer, counting_snapshots  # noqa: E402


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.counting_explorer is counting_explorer
    widget = counting_explorer(length=900)  # snaps to the nearest length the slider offers
    assert isinstance(widget, CountingExplorer) and widget.values() == {"length": 1000}
    with pytest.raises(ValueError, match=r"length must be one of \[4, 5, 10"):
        widget.length = 999
    with pytest.raises(ValueError, match="shown_keys"):
        counting_explorer(shown_keys=1)
    data, _ = widget._repr_mimebundle_()
    assert "L = 1,000" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def test_the_snapshots_sent_are_the_courses():
    s = counting_snapshots(shown_keys=20)
    assert s["lengths"] == list(H.COUNTING_LENGTHS)
    for k, length in enumerate(H.COUNTING_LENGTHS):
        plain = H.counting_snapshot(length, mode="none")
        assert s["entropy_none"][k] == pytest.approx(plain.entropy, rel=1e-11)
        assert len(s["weights_none"][k]) == min(20, length)
        assert s["weights_none"][k][0] == pytest.approx(s["weight_on_last_none"][k], rel=1e-11)  # 0 back: itself
        assert s["ratio"][k] == pytest.approx((length - 1) / s["embedding_rms"][k], rel=1e-9)
        assert s["entropy_none"][k] <= math.log(length) + 1e-9  # no row is more spread than the uniform one
