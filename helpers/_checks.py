"""Input checks shared by the helpers: each raises an error that names the parameter.

Public functions call these once, at their entry; what they call inside trusts its input.
"""

from __future__ import annotations

import math
import numbers

import torch


def check_integer_tensor(name: str, value, what: str = "an integer tensor", minimum: int | None = None) -> torch.Tensor:
    """Return ``value`` as an integer tensor (a list or number is converted), or raise.

    Floating-point, complex and bool dtypes are refused with a TypeError; with ``minimum``, so
    is (with a ValueError) any entry below it. Messages read "{name} must be {what}, got …".
    """
    if not isinstance(value, torch.Tensor):
        try:
            value = torch.as_tensor(value)
        except (TypeError, ValueError, RuntimeError) as err:
            raise TypeError(f"{name} must be {what}, got {value!r}") from err
    if value.is_floating_point() or value.is_complex() or value.dtype == torch.bool:
        raise TypeError(f"{name} must be {what}, got dtype {value.dtype}")
    if minimum is not None and value.numel() and int(value.min()) < minimum:
        raise ValueError(f"{name} must be {what}, got a minimum of {int(value.min())}")
    return value


def check_positions(positions, name: str = "positions") -> torch.Tensor:
    """Return ``positions`` as an integer tensor of non-negative values."""
    return check_integer_tensor(name, positions, "an integer tensor of values ≥ 0", minimum=0)


def check_int(name: str, value, minimum: int | None) -> int:
    """Return ``value`` as an int, or raise if it is not an integer ≥ ``minimum`` (any integer
    when ``minimum`` is None). A one-element integer tensor counts as an integer."""
    what = "an integer (negative allowed)" if minimum is None else f"an integer ≥ {minimum}"
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = int(check_integer_tensor(name, value, what).item())
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be {what}, got {value}")
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


def check_matrix(name: str, x, min_rows: int = 1) -> torch.Tensor:
    """Return ``x`` as a float64 (rows, columns) tensor of finite real numbers, or raise."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a 2-D torch.Tensor of shape (rows, columns), got {type(x).__name__}")
    if x.dim() != 2:
        raise ValueError(f"{name} must be a 2-D tensor of shape (rows, columns), got shape {tuple(x.shape)}")
    if x.is_complex() or x.dtype == torch.bool:
        raise TypeError(f"{name} must hold real numbers, got dtype {x.dtype}")
    if x.shape[0] < min_rows:
        raise ValueError(f"{name} must have at least {min_rows} rows, got shape {tuple(x.shape)}")
    x = x.detach().to(torch.float64)
    if not torch.isfinite(x).all():
        raise ValueError(f"{name} must hold finite values only (no NaN or inf)")
    return x


def check_pairs(name: str, x) -> torch.Tensor:
    """Return ``x`` if it is a floating-point tensor of shape (..., d) with d even (feature pairs)."""
    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        raise TypeError(f"{name} must be a floating-point torch.Tensor of shape (..., d), got {type(x).__name__}")
    if x.dim() < 1:
        raise ValueError(f"{name} must have shape (..., d), got a scalar")
    check_even(f"{name}.shape[-1] (d)", x.shape[-1])
    return x
