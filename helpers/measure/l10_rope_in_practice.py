"""Lesson 10, RoPE in practice: what computing the angles p·ω_i in a low-precision dtype does,
and what the precision explorer shows for one position and dtype.

Pair i turns at ω_i = base^(−2i/d). An implementation "working in dtype" rounds the position
and the frequencies to that dtype and multiplies them there; the error is measured against the
same product in float64, wrapped to [−π, π) because a rotation cannot tell angles 2π apart.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from .._checks import check_base, check_even, check_int, check_positions
from ..encodings import _angles, _frequencies


class PrecisionView(NamedTuple):
    """One position's angles computed in a low-precision dtype, against float64."""

    position: int  # the position asked for
    stored: float  # the position as the dtype stores it (inf beyond its range)
    errors: torch.Tensor  # (d/2,) float64: |wrapped angle error| of each pair, in radians (nan where inf)
    worst: float  # the largest of them (nan if the position overflows)
    pairs_off: int  # how many pairs are off by more than 0.1 rad (every pair if it overflows)


def _check_float_dtype(dtype) -> torch.dtype:
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(f"dtype must be a floating-point torch dtype (torch.float16, torch.bfloat16, torch.float32 "
                        f"or torch.float64), got {dtype}")
    return dtype


def angles_in_dtype(positions, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Angles p·ω_i as an implementation computing them in ``dtype`` gets them, returned in float64.

    Positions and frequencies are rounded to ``dtype`` and multiplied in ``dtype``: shape
    (..., d/2) for positions of shape (...). Positions beyond the dtype's range become inf.
    """
    positions, d, base = check_positions(positions), check_even("d", d), check_base(base)
    return _angles_in_dtype(positions, d, base, _check_float_dtype(dtype))


def _angles_in_dtype(positions: torch.Tensor, d: int, base: float, dtype: torch.dtype) -> torch.Tensor:
    return (positions.to(dtype)[..., None] * _frequencies(d, base, dtype)).double()


def wrap_angle(theta: torch.Tensor) -> torch.Tensor:
    """Angles brought into [−π, π): what a rotation can tell apart (inf and nan stay nan)."""
    return torch.remainder(theta + math.pi, 2 * math.pi) - math.pi


def angle_error(positions, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """|wrap(angle in ``dtype`` − exact angle)| in radians, (..., d/2); at most π, nan where inf."""
    positions, d, base = check_positions(positions), check_even("d", d), check_base(base)
    return _angle_error(positions, d, base, _check_float_dtype(dtype))


def _angle_error(positions: torch.Tensor, d: int, base: float, dtype: torch.dtype) -> torch.Tensor:
    low = _angles_in_dtype(positions, d, base, dtype)
    return wrap_angle(low - _angles(positions, d, base)).abs()


def precision_view(position: int, d: int = 128, dtype: torch.dtype = torch.bfloat16,
                   base: float = 10000.0) -> PrecisionView:
    """What the precision explorer shows for one position (≥ 0) and dtype: how the dtype stores
    the position, each pair's angle error, the largest, and how many pairs are off by > 0.1 rad."""
    position, d = check_int("position", position, 0), check_even("d", d)
    base, dtype = check_base(base), _check_float_dtype(dtype)
    p = torch.tensor([position])
    errors = _angle_error(p, d, base, dtype)[0]
    stored = float(p.to(dtype).item())
    if math.isinf(stored):
        return PrecisionView(position, stored, errors, math.nan, d // 2)
    return PrecisionView(position, stored, errors, float(errors.max()), int((errors > 0.1).sum()))
