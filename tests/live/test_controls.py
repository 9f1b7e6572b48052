"""Control ranges: each checks a value against the bounds of the slider it builds."""

import math

import ipywidgets as W
import pytest

from helpers.live import Choice, IntRange, LogRange


def test_int_range_checks_and_builds_the_same_bounds():
    d_model = IntRange("d_model", 2, 1024, step=2)
    assert d_model.check("d_model", 512) == 512
    slider = d_model.slider(64)
    assert isinstance(slider, W.IntSlider)
    assert (slider.min, slider.max, slider.step, slider.value, slider.description) == (2, 1024, 2, 64, "d_model")
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
    slider = omega.slider(1.0)
    assert isinstance(slider, W.FloatLogSlider)
    assert slider.base == 10 and slider.min == pytest.approx(-3) and slider.max == pytest.approx(math.log10(math.pi))
    for bad in (5.0, 1e-4):
        with pytest.raises(ValueError, match=r"^omega must be a number from 0.001 to 3.14159"):
            omega.check("omega", bad)
    with pytest.raises(ValueError, match="omega must be a finite real number"):
        omega.check("omega", float("nan"))


def test_choice_as_dropdown_and_as_slider():
    order = Choice("order", [("a b", (0, 1)), ("b a", (1, 0))])
    assert order.values == [(0, 1), (1, 0)] and order.check("order", (1, 0)) == (1, 0)
    dropdown = order.slider((1, 0))
    assert isinstance(dropdown, W.Dropdown) and dropdown.value == (1, 0) and dropdown.label == "b a"
    lengths = Choice("length L", (4, 5, 10), as_slider=True, width="300px")
    slider = lengths.slider(5)
    assert isinstance(slider, W.SelectionSlider) and slider.value == 5 and slider.layout.width == "300px"
    with pytest.raises(ValueError, match=r"^length must be one of \[4, 5, 10\], got 7$"):
        lengths.check("length", 7)


def test_ranges_refuse_empty_bounds():
    with pytest.raises(ValueError, match="low ≤ high"):
        IntRange("length", 8, 4)
    with pytest.raises(ValueError, match="0 < low < high"):
        LogRange("base", 0.0, 10.0)


def test_every_control_shows_its_whole_label_and_plain_readouts():
    """ipywidgets' default label width cuts a long description ("angles co…"); "initial" sizes it to
    the text. A log slider reads out in d3's "r" type (decimal, significant digits: 1260, 0.00087),
    never "g", which writes 1.26e+3."""
    controls = [IntRange("a long position label", 0, 9).slider(3),
                LogRange("a long base label", 10.0, 1e6).slider(1e4),
                Choice("angles computed in", ["float32", "bfloat16"]).slider("float32"),
                Choice("length L", (4, 5), as_slider=True).slider(4)]
    for control in controls:
        assert control.style.description_width == "initial", control.description
    log_slider = controls[1]
    assert log_slider.readout_format.endswith("r") and "g" not in log_slider.readout_format
