"""Control ranges: one object owns a control's label and bounds, checks a value a caller passes
(with an error that names the parameter) and builds the slider or dropdown that offers them.

Works with ipywidgets 7.7 (Colab) and 8.x (JupyterLab 4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as W

from .._checks import check_finite, check_int

_STYLE = {"description_width": "initial"}


@dataclass(frozen=True)
class IntRange:
    """Integers low, low + step, …, up to high."""

    label: str
    low: int
    high: int
    step: int = 1

    def __post_init__(self):
        if not self.low <= self.high or self.step < 1:
            raise ValueError(f"{self.label}: needs low ≤ high and step ≥ 1, got {self.low}, {self.high}, {self.step}")

    def check(self, name: str, value) -> int:
        """``value`` as an int, or an error naming ``name`` and the allowed values."""
        value = check_int(name, value, None)
        if not self.low <= value <= self.high or (value - self.low) % self.step:
            steps = f" in steps of {self.step}" if self.step > 1 else ""
            raise ValueError(f"{name} must be an integer from {self.low} to {self.high}{steps}, got {value}")
        return value

    def slider(self, value: int) -> W.IntSlider:
        return W.IntSlider(value=value, min=self.low, max=self.high, step=self.step, description=self.label,
                           style=_STYLE)


@dataclass(frozen=True)
class LogRange:
    """Positive numbers from low to high on a log scale; ``step`` is in powers of ten. The slider
    reads out three significant digits in plain decimals (1260, 0.00087), never ``1.26e+3``."""

    label: str
    low: float
    high: float
    step: float = 0.01

    def __post_init__(self):
        if not 0 < self.low < self.high or self.step <= 0:
            raise ValueError(f"{self.label}: needs 0 < low < high and step > 0, got {self.low}, {self.high}")

    def check(self, name: str, value) -> float:
        value = check_finite(name, value)
        if not self.low <= value <= self.high:
            raise ValueError(f"{name} must be a number from {self.low:g} to {self.high:g}, got {value}")
        return value

    def slider(self, value: float) -> W.FloatLogSlider:
        return W.FloatLogSlider(value=value, base=10, min=math.log10(self.low), max=math.log10(self.high),
                                step=self.step, description=self.label, readout_format=".3r", style=_STYLE)


@dataclass(frozen=True)
class Choice:
    """One of a list of values, each shown by its text: a dropdown, or a slider over the list.

    ``options`` holds values, or (text, value) pairs.
    """

    label: str
    options: Sequence
    as_slider: bool = False
    width: str | None = None

    @property
    def values(self) -> list:
        return [o[1] if isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) else o for o in self.options]

    def check(self, name: str, value):
        if value not in self.values:
            raise ValueError(f"{name} must be one of {self.values}, got {value!r}")
        return value

    def slider(self, value) -> W.Dropdown | W.SelectionSlider:
        layout = W.Layout(width=self.width) if self.width else W.Layout()
        if self.as_slider:
            return W.SelectionSlider(options=list(self.options), value=value, description=self.label,
                                     continuous_update=True, style=_STYLE, layout=layout)
        return W.Dropdown(options=list(self.options), value=value, description=self.label, style=_STYLE,
                          layout=layout)
