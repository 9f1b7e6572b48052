"""Input checks shared by the helpers: each raises an error that names the parameter."""

from __future__ import annotations

import math
import numbers

import torch


def check_int(name: str, value, minimum: int) -> int:
    """Return ``value`` as an int, or raise if it is not an integer ≥ ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, torch.Tensor) and value.numel() == 1 and not value.is_floating_point():
            value = int(value.item())
        else:
            raise TypeError(f"{name} must be an integer ≥ {minimum}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise ValueError(f"{name} must be an integer ≥ {minimum}, got {value}")
    return int(value)


def check_even(name: str, value) -> int:
    """Return ``value`` if it is an even integer ≥ 2 (sin/cos pairs need an even width)."""
    value = check_int(name, value, 1)
    if value % 2:
        raise ValueError(f"{name} must be even (dimensions come in sin/cos pairs), got {value}")
    return value


def check_base(base) -> float:
    """Return ``base`` as a float if it is a finite real number > 1."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise TypeError(f"base must be a finite number > 1, got {base!r}")
    base = float(base)
    if not math.isfinite(base) or base <= 1.0:
        raise ValueError(f"base must be a finite number > 1, got {base}")
    return base


def check_finite(name: str, value) -> float:
    """Return ``value`` as a float if it is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def check_choice(name: str, value, allowed: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}")
    return value


def check_positions(positions, name: str = "positions") -> torch.Tensor:
    """Return ``positions`` as an integer tensor of non-negative values."""
    if not isinstance(positions, torch.Tensor):
        try:
            positions = torch.as_tensor(positions)
        except (TypeError, ValueError, RuntimeError) as err:
            raise TypeError(f"{name} must be an integer tensor of values ≥ 0, got {positions!r}") from err
    if positions.is_floating_point() or positions.is_complex() or positions.dtype == torch.bool:
        raise TypeError(f"{name} must be an integer tensor of values ≥ 0, got dtype {positions.dtype}")
    if positions.numel() and int(positions.min()) < 0:
        raise ValueError(f"{name} must be an integer tensor of values ≥ 0, got a minimum of {int(positions.min())}")
    return positions
