"""Lesson 03's explorer: ω on a log slider and the length."""

import math

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import sine_explorer  # noqa: E402


def test_omega_slider_spans_a_thousandth_to_pi_and_titles_show_the_closest_pair():
    live = sine_explorer(omega=1.0, length=50)
    omega = live.controls["omega"]
    assert (omega.base, omega.min, omega.max) == (10, pytest.approx(-3), pytest.approx(math.log10(math.pi)))
    i, j, gap = H.sine_snapshot(1.0, 50).wave_pair
    assert live.fig.axes[0].get_title().startswith(f"on the wave: closest pair {i}, {j} (gap {gap:.2g})")


@pytest.mark.parametrize(("kwargs", "words"), [({"omega": 5.0}, "omega"), ({"omega": 0.0}, "omega"),
                                               ({"length": 500}, "length"), ({"max_length": 1}, "max_length")])
def test_bad_input_is_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        sine_explorer(**kwargs)
