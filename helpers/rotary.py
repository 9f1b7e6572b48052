"""Rotary position embedding (RoPE): rotate each feature pair of q or k by its position's angle.

Pair i is rotated by +p·ω_i: (x, y) ↦ (x cos − y sin, x sin + y cos), ω_i = base^(−2i/d).
Layout "interleaved" pairs features (2i, 2i+1) (RoFormer, Meta's reference code);
layout "half" pairs (i, i + d/2) (GPT-NeoX, Hugging Face).

Angles are computed in float64 and the rotation in float32 (float64 for float64 input), then
the result is cast back to the input's dtype. The default positions 0 … length−1 reuse a
cached cos/sin table, keyed by everything it depends on.
"""

from __future__ import annotations

import torch

from ._checks import check_base, check_choice, check_even, check_positions
from .encodings import angles, shift_matrix

ROPE_LAYOUTS = ("interleaved", "half")
_CACHE_SIZE = 16
_tables: dict[tuple, torch.Tensor] = {}


def _compute_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _table(positions: torch.Tensor, d: int, base: float, layout: str, dtype, device) -> torch.Tensor:
    """cos/sin in the form each layout's kernel wants.

    interleaved: complex e^{i·p·ω} of shape (..., d/2);
    half: real (2, ..., d) holding [cos | cos] and [−sin | sin].
    """
    theta = angles(positions, d, base)
    if layout == "interleaved":
        cdtype = torch.complex128 if dtype == torch.float64 else torch.complex64
        return torch.polar(torch.ones_like(theta), theta).to(device=device, dtype=cdtype)
    cos, sin = theta.cos(), theta.sin()
    table = torch.stack((torch.cat((cos, cos), -1), torch.cat((-sin, sin), -1)))
    return table.to(device=device, dtype=dtype)


def _cached_table(length: int, d: int, base: float, layout: str, dtype, device) -> torch.Tensor:
    key = (length, d, base, layout, dtype, torch.device(device))
    table = _tables.get(key)
    if table is None:
        if len(_tables) >= _CACHE_SIZE:
            _tables.pop(next(iter(_tables)))
        table = _tables[key] = _table(torch.arange(length), d, base, layout, dtype, device)
    return table


def clear_cache() -> None:
    """Forget the cached cos/sin tables."""
    _tables.clear()


def rope(
    x: torch.Tensor,
    positions: torch.Tensor | None = None,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> torch.Tensor:
    """Rotate x of shape (..., length, d) by its positions; returns the same shape, dtype, device.

    ``positions`` defaults to 0 … length−1; otherwise an integer tensor of values ≥ 0 that
    broadcasts to x.shape[:-1] (for example (length,) or (batch, 1, length)).
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a floating-point torch.Tensor of shape (..., length, d), got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating-point tensor (float16, bfloat16, float32 or float64), got {x.dtype}")
    if x.dim() < 2:
        raise ValueError(f"x must have shape (..., length, d) with at least 2 dimensions, got shape {tuple(x.shape)}")
    d = check_even("x.shape[-1] (d)", x.shape[-1])
    base = check_base(base)
    layout = check_choice("layout", layout, ROPE_LAYOUTS)
    length = x.shape[-2]
    cdtype = _compute_dtype(x.dtype)

    if positions is None:
        table = _cached_table(length, d, base, layout, cdtype, x.device)
    else:
        positions = check_positions(positions)
        try:
            fits = torch.broadcast_shapes(positions.shape, x.shape[:-1]) == x.shape[:-1]
        except RuntimeError:
            fits = False
        if not fits:
            raise ValueError(
                f"positions must broadcast to x.shape[:-1] = {tuple(x.shape[:-1])}, got shape {tuple(positions.shape)}"
            )
        table = _table(positions.to(x.device), d, base, layout, cdtype, x.device)

    xc = x if x.dtype == cdtype else x.to(cdtype)
    if layout == "interleaved":
        pairs = torch.view_as_complex(xc.contiguous().unflatten(-1, (d // 2, 2)))
        out = torch.view_as_real(pairs * table).flatten(-2)
    else:
        h = d // 2
        cos, sin = table[0], table[1]
        out = xc * cos
        out[..., :h].addcmul_(xc[..., h:], sin[..., :h])
        out[..., h:].addcmul_(xc[..., :h], sin[..., h:])
    return out if out.dtype == x.dtype else out.to(x.dtype)


def rope_permutation(d: int) -> torch.Tensor:
    """Index tensor P (d,) that turns the interleaved layout into the half layout.

    P = [0, 2, 4, …, d−2, 1, 3, …, d−1], so that
    rope(x[..., P], layout="half") == rope(x, layout="interleaved")[..., P].
    """
    d = check_even("d", d)
    return torch.cat((torch.arange(0, d, 2), torch.arange(1, d, 2)))


def rotation_matrix(position: int, d: int, base: float = 10000.0) -> torch.Tensor:
    """The (d, d) block-diagonal matrix R_p with rope(x)[p] = R_p @ x[p] (interleaved layout)."""
    # R_p rotates (x, y) by +pω; shift_matrix(k) acts on (sin, cos) pairs, i.e. rotates by −kω.
    return shift_matrix(position, d, base).T.contiguous()
