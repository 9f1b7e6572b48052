"""Lesson 10's explorer: RoPE's angles computed in a low-precision dtype, by pair and by position."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from helpers.explorers import angle_precision_explorer  # noqa: E402
from helpers.explorers.l10_rope_in_practice import pair_ticks  # noqa: E402


def test_a_step_draws_the_chosen_dtype_and_position():
    live = angle_precision_explorer(position=1000.0, dtype="bfloat16", d=8, base=100.0)
    assert list(live.controls) == ["position", "dtype"]
    live.set(position=1003.4, dtype="bfloat16")  # rounded to position 1003, which bfloat16 stores as 1004
    by_pair, by_position = live.fig.axes
    bold = max(by_pair.lines, key=lambda line: line.get_linewidth())
    assert bold.get_label() == "bfloat16"
    # pair 0 turns at ω = 1: 1004 rad against 1003 rad, off by 1 rad
    assert bold.get_ydata()[0] == pytest.approx(1.0)
    assert "stores position 1003 as 1004" in live.fig.texts[0].get_text()
    marker = by_position.lines[-1]
    assert marker.get_xdata()[0] == 1003 and marker.get_ydata()[0] == pytest.approx(1.0)
    plt.close(live.fig)


def test_float16_overflow_is_said_and_not_drawn():
    live = angle_precision_explorer(position=70_000.0, dtype="float16")
    assert "as infinity" in live.fig.texts[0].get_text()
    assert math.isnan(live.fig.axes[1].lines[-1].get_ydata()[0])
    float32 = next(line for line in live.fig.axes[0].lines if line.get_label() == "float32")
    assert np.all(np.asarray(float32.get_ydata()) < 1e-2)  # float32 angles are still fine there
    plt.close(live.fig)


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"position": 0.5}, ValueError, "position must be a number from 1 to 100000"),
    ({"dtype": "float64"}, ValueError, "dtype must be one of"),
    ({"dtype": torch.bfloat16}, ValueError, "dtype must be one of"),
    ({"d": 7}, ValueError, "d must be even"),
])
def test_bad_input_is_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        angle_precision_explorer(**kwargs)


def test_the_pair_axis_ticks_round_pairs_and_the_last():
    assert pair_ticks(128) == [0, 16, 32, 48, 63]
    assert pair_ticks(8) == [0, 1, 2, 3] and pair_ticks(2) == [0]
    live = angle_precision_explorer()
    assert list(live.fig.axes[0].get_xticks()) == [0, 16, 32, 48, 63]
    plt.close(live.fig)
