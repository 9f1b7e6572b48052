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


def test_the_circles_dots_are_coloured_by_position_dark_first_yellow_last():
    # the lesson's caption: each dot coloured by its position, dark purple for 0, yellow for the last
    live = sine_explorer(omega=0.3, length=50)
    dots = live.fig.axes[1].collections[0]
    assert dots.get_cmap().name == "viridis" and dots.get_clim() == (0, 49)
    first, last = dots.to_rgba(0), dots.to_rgba(49)
    assert first[2] > first[1] and last[0] > 0.9 and last[1] > 0.8 and last[2] < 0.3  # purple, then yellow
