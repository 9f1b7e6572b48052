"""Lesson 05, the rotation matrix: a shift by k positions is the block-diagonal matrix M_k, which
turns the (sin, cos) pair of frequency ω_i by k·ω_i, like a clock hand."""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from .._checks import check_base, check_even, check_int
from ..encodings import _frequencies, _shift_matrix, _sinusoidal


class ShiftSnapshot(NamedTuple):
    """A code before and after the shift matrix, and how far each pair turned."""

    start: torch.Tensor  # (d_model,) float32, PE(position)
    moved: torch.Tensor  # (d_model,) float32, M_k·PE(position) = PE(position + k)
    omega: torch.Tensor  # (d_model/2,) float64, the frequency ω_i of each pair
    turns: torch.Tensor  # (d_model/2,) float64, k·ω_i / 2π (negative: turned back)


def shift_snapshot(k: int, position: int, d_model: int, base: float = 10000.0) -> ShiftSnapshot:
    """PE(position) and M_k·PE(position) (interleaved layout: pair i is (sin, cos) of ω_i at
    columns 2i, 2i + 1), with the turn k·ω_i/2π of every pair. k may be negative."""
    k = check_int("k", k, None)
    position = check_int("position", position, 0)
    d_model = check_even("d_model", d_model)
    base = check_base(base)
    start = _sinusoidal(torch.tensor(position), d_model, base)
    omega = _frequencies(d_model, base)
    return ShiftSnapshot(start, _shift_matrix(k, d_model, base) @ start, omega, k * omega / (2 * math.pi))
