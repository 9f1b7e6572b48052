"""Lesson 05's explorer: clock hands moved by the shift matrix."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import clock_hands_explorer  # noqa: E402


def test_the_red_hand_is_the_shifted_code():
    live = clock_hands_explorer(d_model=16, k=0)
    live.set(k=25, position=3)
    pe = H.sinusoidal(40, 16)
    pairs = [0, 1, 2, 3, 4, 5, 6, 7]  # 8 pairs, 8 clocks
    for ax, i in zip(live.fig.axes, pairs, strict=True):
        hand = ax.lines[-1]
        assert np.allclose(hand.get_xdata()[1], pe[28, 2 * i]) and np.allclose(hand.get_ydata()[1], pe[28, 2 * i + 1])
    assert live.fig._suptitle.get_text().startswith("k = 25.")
    omega0 = H.frequencies(16, dtype=torch.float64)[0].item()
    assert live.fig.axes[0].get_title() == f"pair 0: ω=1\nk·ω/2π = {25 * omega0 / (2 * np.pi):+.3g} turns"


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="k must be an integer from -200 to 200"):
        clock_hands_explorer(k=500, max_k=200)
    with pytest.raises(ValueError, match="position"):
        clock_hands_explorer(position=300)
    with pytest.raises(ValueError, match="d_model"):
        clock_hands_explorer(d_model=15)
