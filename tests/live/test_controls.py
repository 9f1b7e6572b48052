"""Control ranges: each checks a value against its bounds, with an error that names the parameter."""

import math

import pytest

from helpers.live import Choice, IntRange, LogRange


def test_int_range_checks_its_bounds_and_steps():
    d_model = IntRange("d_model", 2, 1024, step=2)
    assert d_model.check("d_model", 512) == 512
    for bad in (0, 7, 1026):
        with pytest.raises(ValueError, match=rf"^d_model must be an integer from 2 to 1024 in steps of 2, got {bad}$"):
            d_model.check("d_model", bad)
    with pytest.raises(TypeError, match="d_model must be an integer"):
        d_model.check("d_model", 64.0)
    assert IntRange("k", -5, 5).check("k", -5) == -5
    with pytest.raises(ValueError, match=r"^k must be an integer from -5 to 5, got 6$"):
        IntRange("k", -5, 5).check("k", 6)


def test_log_range():
    omega = LogRange("ω", 1e-3, math.pi)
    assert omega.check("omega", 1.0) == 1.0
    for bad in (5.0, 1e-4):
        with pytest.raises(ValueError, match=r"^omega must be a number from 0.001 to 3.14159"):
            omega.check("omega", bad)
    with pytest.raises(ValueError, match="omega must be a finite real number"):
        omega.check("omega", float("nan"))


def test_choice_of_values_or_labelled_values():
    order = Choice("order", [("a b", (0, 1)), ("b a", (1, 0))])
    assert order.values == [(0, 1), (1, 0)] and order.check("order", (1, 0)) == (1, 0)
    lengths = Choice("length L", (4, 5, 10))
    assert lengths.values == [4, 5, 10] and lengths.check("length", 5) == 5
    with pytest.raises(ValueError, match=r"^length must be one of \[4, 5, 10\], got 7$"):
        lengths.check("length", 7)


def test_ranges_refuse_empty_bounds():
    with pytest.raises(ValueError, match="low ≤ high"):
        IntRange("length", 8, 4)
    with pytest.raises(ValueError, match="0 < low < high"):
        LogRange("base", 0.0, 10.0)
