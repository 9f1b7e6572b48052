"""Lesson 08's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import functools
import math

import numpy as np

from helpers import explorers

from . import InLesson


def _nan(value) -> float:
    return math.nan if value is None else float(value)  # JSON writes NaN as null


def _far(got, want) -> float:
    got, want = _nan(got), _nan(want)
    return 0.0 if math.isnan(got) and math.isnan(want) else abs(got - want)


def sent_run(values: dict):
    """The ShortContextRun the browser was sent: the float32 curves, each as a run of one batch."""
    import torch

    from helpers.explorers.browser.l08_train_short_test_long import decode
    from helpers.measure.l08_train_short_test_long import ShortContextRun

    d = values["data"]
    return ShortContextRun(0, d["train_length"], {n: torch.from_numpy(decode(c))[None] for n, c in d["curves"].items()},
                           torch.from_numpy(decode(d["floor"])))


def loss_curves_error(drawn: dict, values: dict, run=None) -> float:
    """How far the drawn curves, mean losses and perplexities are from ``run.prefix_losses`` (default: the
    run of the curves the browser was sent); perplexities relatively."""
    run = sent_run(values) if run is None else run
    n = values["length"]
    shown = dict(values["data"]["groups"])[values["group"]]
    if drawn["length"] != n or drawn["shown"] != shown or sorted(drawn["cut"]) != sorted(shown):
        return math.inf
    walls = [name for name in shown if run.curve(name).shape[0] < n]
    if drawn["walls"] != walls:
        return math.inf
    ref = run.prefix_losses(n, shown)
    floor = float(run.floor[:n].mean())
    errors = [_far(drawn["prefix"][name], ref[name]) for name in shown]
    errors += [_far(_nan(drawn["perplexity"][name]) / math.exp(ref[name]), 1.0) for name in shown]
    errors += [_far(drawn["floor_loss"], floor), _far(drawn["floor_perplexity"] / math.exp(floor), 1.0)]
    for name in shown:
        want = run.curve(name)[:n].numpy()
        got = np.asarray(drawn["cut"][name], dtype=np.float64)
        errors.append(math.inf if got.shape != want.shape else float(np.abs(got - want).max()))
    return max(errors)


@functools.cache
def _example_run():
    from helpers.explorers.browser.l08_train_short_test_long import _example

    return _example()["run"]


def example_error(drawn: dict, values: dict) -> float:
    """Against the example run itself, whose float32 rounding moves a loss by at most 2⁻²⁴ of it."""
    return loss_curves_error(drawn, values, _example_run())


def _loss_curves_explorer():
    return explorers.browser.loss_curves_explorer(_example_run(), length=128)


CASES = {
    "l08 loss curves": (_loss_curves_explorer,
                        [(None, None, {"group": "all six", "length": 128}),
                         ("length", "End", {"group": "all six", "length": 320}),
                         ("length", "ArrowLeft", {"group": "all six", "length": 304}),
                         ("group", "End", {"group": "t5", "length": 304}),
                         ("group", "ArrowLeft", {"group": "alibi", "length": 304}),
                         ("group", "ArrowLeft", {"group": "rope", "length": 304}),
                         ("group", "ArrowLeft", {"group": "learned", "length": 304}),
                         ("length", "Home", {"group": "learned", "length": 64}),
                         ("group", "Home", {"group": "all six", "length": 64})],
                        example_error),
}

IN_LESSONS = {
    "08_train_short_test_long.ipynb": [
        InLesson("explorers.browser.loss_curves_explorer(", "loss_curves", "length", "End",
                 {"group": "all six", "length": 320}, loss_curves_error),
    ],
}
