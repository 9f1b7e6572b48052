"""Lesson 08's explorer drawn by the browser: the Python side and the bundle's numbers, run by Node.js
against ``ShortContextRun.prefix_losses`` at the slider's ends and between. Drawing in Chromium:
tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails.

The curves travel as float32 (a saved explorer carries them twice, and as float64 digits they would take
its output past 300 KB): the bundle's numbers are compared with prefix_losses of the float32-rounded
curves, which they equal to float64 rounding (1e-12), and with prefix_losses of the run itself, which
float32 moves by at most 2⁻²⁴ of a loss: to 1e-6 for the losses and, relatively, for the perplexities.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l08_train_short_test_long import (  # noqa: E402
    LossCurvesExplorer,
    decode,
    encode,
    loss_curves_data,
    loss_curves_explorer,
)
from helpers.measure.l08_train_short_test_long import ShortContextRun  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l08_train_short_test_long.js"


@functools.cache
def example_run() -> ShortContextRun:
    """Six untrained models scored on a few sequences (L = 64, curves of 320 positions, the learned
    table's 256): the kernel explorer's example, fast to build."""
    from helpers.explorers.browser.l08_train_short_test_long import _example

    return _example()["run"]


def rounded(run: ShortContextRun) -> ShortContextRun:
    """The run as the browser has it: each curve rounded to float32 (one batch, so its mean is itself)."""
    import torch

    def f32(t):
        return torch.from_numpy(decode(encode(t)))

    return dataclasses.replace(run, losses={name: f32(run.curve(name))[None] for name in run.schemes},
                               floor=f32(run.floor))


# (n, schemes): both ends of the slider (L and 5L), the learned table's last length (4L, where its curve
# ends) and one notch either side of it, a notch past L
SETTINGS = [(64, ("none", "sinusoidal", "learned", "rope", "alibi", "t5")), (80, ("rope", "alibi", "t5")),
            (128, ("sinusoidal", "learned")), (240, ("learned",)), (256, ("learned", "rope")),
            (272, ("learned", "none")), (320, ("none", "sinusoidal", "learned", "rope", "alibi", "t5"))]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    run = example_run()
    assert explorers.browser.loss_curves_explorer is loss_curves_explorer
    widget = loss_curves_explorer(run, length=128)
    assert isinstance(widget, LossCurvesExplorer) and widget.values() == {"group": "all six", "length": 128}
    assert loss_curves_explorer(run, schemes=("rope", "alibi", "t5")).values() == {
        "group": "relative: rope, alibi, t5", "length": 320}
    assert widget.data["length"] == 320 and widget.data["train_length"] == 64
    assert len(decode(widget.data["curves"]["learned"])) == 256 and len(decode(widget.data["floor"])) == 320
    # the static figures' colours and dash patterns (in line widths: × 1.5 px)
    assert widget.data["styles"]["none"] == {"colour": "#595959", "dash": [1.5, 2.25]}
    assert widget.data["styles"]["sinusoidal"] == {"colour": "#0072b2", "dash": []}
    with pytest.raises(ValueError, match="length must be an integer from 64 to 320 in steps of 16, got 100"):
        loss_curves_explorer(run, length=100)
    with pytest.raises(ValueError, match="length must be an integer from 64 to 320 in steps of 16, got 48"):
        widget.length = 48
    with pytest.raises(ValueError, match="schemes must be one of"):
        loss_curves_explorer(run, schemes=("rope", "none"))
    with pytest.raises(ValueError, match="group must be one of"):
        widget.group = "rope and t5"
    with pytest.raises(TypeError, match="run must be a ShortContextRun"):
        loss_curves_explorer({"rope": run.curve("rope")})
    data, _ = widget._repr_mimebundle_()
    assert "cut at n = 128" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]
    widget.group, widget.length = "learned", 320
    assert "learned no row past 256" in widget.describe()


def test_the_curves_travel_as_float32_to_the_last_bit():
    run = example_run()
    data = loss_curves_data(run)
    for name in run.schemes:
        assert np.array_equal(decode(data["curves"][name]), run.curve(name).numpy().astype(np.float32))
    assert np.array_equal(decode(data["floor"]), run.floor.numpy().astype(np.float32))


def from_the_bundle(tmp_path: Path, data: dict, bundle: str = "") -> list[dict]:
    calls = ", ".join(f"m.prefixTable(data, {n}, {json.dumps(list(names))})" for n, names in SETTINGS)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"),
                    f"(() => {{ const data = {json.dumps(data)}; return [{calls}]; }})()")


def errors(out: list[dict], run: ShortContextRun) -> tuple[float, float]:
    """The largest difference of a loss and the largest relative difference of a perplexity from the
    reference (math.inf where one is nan and the other is not)."""
    loss_errors, ppl_errors = [], []
    for (n, names), got in zip(SETTINGS, out, strict=True):
        ref = run.prefix_losses(n, names)
        floor = float(run.floor[:n].mean())
        pairs = [(got["loss"][name], ref[name]) for name in names] + [(got["floor_loss"], floor)]
        ppls = [(got["perplexity"][name], math.exp(ref[name])) for name in names]
        ppls.append((got["floor_perplexity"], math.exp(floor)))
        for value, want in pairs:
            value = math.nan if value is None else value  # JSON writes NaN as null
            loss_errors.append(0.0 if math.isnan(value) and math.isnan(want) else abs(value - want))
        for value, want in ppls:
            value = math.nan if value is None else value
            ppl_errors.append(0.0 if math.isnan(value) and math.isnan(want) else abs(value / want - 1))
    return max(e if not math.isnan(e) else math.inf for e in loss_errors), max(
        e if not math.isnan(e) else math.inf for e in ppl_errors)


def test_the_bundles_numbers_are_prefix_losses(tmp_path):
    run = example_run()
    out = from_the_bundle(tmp_path, loss_curves_data(run))
    assert out[-1]["loss"]["learned"] is None and out[-3]["loss"]["learned"] is not None  # 5L: past the table
    exact_loss, exact_ppl = errors(out, rounded(run))  # what the browser was sent
    assert exact_loss < 1e-12 and exact_ppl < 1e-12
    loss, ppl = errors(out, run)  # the run itself: float32 moves a loss by at most 2⁻²⁴ of it
    assert loss < 1e-6 and ppl < 1e-6


def test_the_check_catches_a_mean_that_skips_the_first_token(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    wrong, planted = re.subn(r"for\(let ([\w$]+)=0;\1<([\w$]+);\1\+\+\)([\w$]+)\+=", r"for(let \1=1;\1<\2;\1++)\3+=",
                             right)
    assert planted == 1, "the prefix mean's loop is not found in the bundle"
    loss, _ = errors(from_the_bundle(tmp_path, loss_curves_data(example_run()), wrong), example_run())
    assert loss > 1e-3
