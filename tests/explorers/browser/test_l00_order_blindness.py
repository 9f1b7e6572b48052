"""Lesson 00's explorer drawn by the browser: the Python side. Its numbers are computed once in Python
(``order_snapshots``) and only picked by the page; checked here against ``order_snapshot`` and against what
must hold for any layer, and in Chromium (tests/browser/test_browser_explorers.py) at every end."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.explorers.browser.l00_order_blindness import (  # noqa: E402
    OrderExplorer,
    _example,
    order_explorer,
    order_snapshots,
)
from helpers.measure.l00_order_blindness import order_snapshot  # noqa: E402


def test_the_lesson_reaches_it_and_an_order_is_checked():
    assert explorers.browser.order_explorer is order_explorer
    widget = order_explorer(**_example())
    assert isinstance(widget, OrderExplorer) and widget.values() == {"order": "dog bites man"}
    widget.order = "man bites dog"
    with pytest.raises(ValueError, match="order must be one of .*got 'dog dog man'"):
        widget.order = "dog dog man"
    assert order_explorer(**_example(), order=(1, 2, 0)).order == "bites man dog"
    with pytest.raises(ValueError, match=r"order must be a permutation of 0 … 2, such as \(2, 1, 0\), got \(0, 0, 1\)"):
        order_explorer(**_example(), order=(0, 0, 1))
    data, _ = widget._repr_mimebundle_()
    assert "order man bites dog" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def test_the_snapshots_sent_are_the_courses_for_every_order():
    example = _example()
    s = order_snapshots(**example)
    assert len(s["labels"]) == 6 and s["labels"][-1] == "man bites dog"
    for k, order in enumerate(s["orders"]):
        ref = order_snapshot(example["mha"], example["x"], tuple(order), example["position"])
        assert np.abs(np.asarray(s["weights_plain"][k]) - ref.weights_plain.numpy()).max() < 1e-9
        assert np.abs(np.asarray(s["weights_with_position"][k]) - ref.weights_with_position.numpy()).max() < 1e-9
        assert s["moved_plain"][k] < 1e-5  # without positions, reordering moves nothing
    assert s["largest"] == pytest.approx(max(s["moved_with_position"]), rel=1e-9)
