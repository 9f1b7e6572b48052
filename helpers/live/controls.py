"""Control ranges: one object owns a control's label and bounds and checks a value a caller passes
(with an error that names the parameter)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .._checks import check_finite, check_int


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


@dataclass(frozen=True)
class LogRange:
    """Positive numbers from low to high on a log scale; ``step`` is in powers of ten."""

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


@dataclass(frozen=True)
class Choice:
    """One of a list of values, each shown by its text: ``options`` holds values, or (text, value) pairs."""

    label: str
    options: Sequence

    @property
    def values(self) -> list:
        return [o[1] if isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) else o for o in self.options]

    def check(self, name: str, value):
        if value not in self.values:
            raise ValueError(f"{name} must be one of {self.values}, got {value!r}")
        return value
