"""Lesson 00's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

import numpy as np

from helpers import explorers

from . import InLesson


def order_error(drawn: dict, values: dict) -> float:
    from helpers.explorers.browser.l00_order_blindness import _example
    from helpers.measure.l00_order_blindness import order_snapshot

    example = _example()
    order = tuple(drawn["order"])
    if " ".join(example["tokens"][i] for i in order) != values["order"]:
        return math.inf
    ref = order_snapshot(example["mha"], example["x"], order, example["position"])
    return float(max(np.abs(np.asarray(drawn["weights_plain"]) - ref.weights_plain.numpy()).max(),
                     np.abs(np.asarray(drawn["weights_with_position"]) - ref.weights_with_position.numpy()).max(),
                     abs(drawn["moved"][0] - ref.moved_plain), abs(drawn["moved"][1] - ref.moved_with_position)))


def order_truths(drawn: dict, values: dict) -> float:
    """For any layer and tokens (a lesson's own): each attention row sums to 1, and without a position signal
    the pooled output does not move when the tokens are reordered (attention is order-blind)."""
    rows = np.asarray(drawn["weights_plain"] + drawn["weights_with_position"]).sum(axis=1)
    return float(max(np.abs(rows - 1).max(), abs(drawn["moved"][0])))


def _order_explorer():
    from helpers.explorers.browser.l00_order_blindness import _example

    return explorers.browser.order_explorer(**_example())


CASES = {
    "l00 order": (_order_explorer,
                  [(None, None, {"order": "dog bites man"}), ("order", "End", {"order": "man bites dog"}),
                   ("order", "ArrowLeft", {"order": "man dog bites"}), ("order", "Home", {"order": "dog bites man"})],
                  order_error),
}

IN_LESSONS = {
    "00_order_blindness.ipynb": [
        InLesson("explorers.browser.order_explorer(", "order", "order", "End",
                 {}, order_truths),
    ],
}
