"""Rotary position embedding (RoPE): rotate each feature pair of q or k by its position's angle.

Pair i is rotated by +p·ω_i, counter-clockwise: (x, y) ↦ (x cos − y sin, x sin + y cos),
ω_i = base^(−2i/d), or any other frequencies passed as ``freqs`` (the scaled ones of
``helpers.rope_scaling``). ``helpers.shift_matrix`` turns the (sin, cos) pairs of the sinusoidal code
the other way (clockwise, by −kω_i); the two matrices are transposes of each other.
Layout "interleaved" pairs features (2i, 2i+1) (RoFormer, Meta's reference code);
layout "half" pairs (i, i + d/2) (GPT-NeoX, Hugging Face).

Angles are computed in float64 and the rotation in float32 (float64 for float64 input), then
the result is cast back to the input's dtype. The default positions 0 … length−1 reuse a
cached cos/sin table, keyed by everything it depends on.
"""

from __future__ import annotations

import torch

from ._checks import check_base, check_choice, check_even, check_int, check_pairs, check_positions
from .encodings import _angles, shift_matrix

ROPE_LAYOUTS = ("interleaved", "half")
_CACHE_SIZE = 16
_tables: dict[tuple, torch.Tensor] = {}


def _compute_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _table(positions: torch.Tensor, d: int, base: float, layout: str, dtype, device, freqs=None) -> torch.Tensor:
    """cos/sin in the form each layout's kernel wants.

    interleaved: complex e^{i·p·ω} of shape (..., d/2);
    half: real (2, ..., d) holding [cos | cos] and [−sin | sin].
    ``freqs`` (float64, (d/2,)) replaces ω = base^(−2i/d) when given.
    """
    if freqs is None:
        theta = _angles(positions, d, base)
    else:
        theta = positions.to(torch.float64)[..., None] * freqs.to(positions.device)
    if layout == "interleaved":
        cdtype = torch.complex128 if dtype == torch.float64 else torch.complex64
        return torch.polar(torch.ones_like(theta), theta).to(device=device, dtype=cdtype)
    cos, sin = theta.cos(), theta.sin()
    table = torch.stack((torch.cat((cos, cos), -1), torch.cat((-sin, sin), -1)))
    return table.to(device=device, dtype=dtype)


def _cached_table(length: int, d: int, base: float, layout: str, dtype, device, freqs=None) -> torch.Tensor:
    frequency_key = base if freqs is None else tuple(freqs.tolist())
    key = (length, d, frequency_key, layout, dtype, torch.device(device))
    table = _tables.get(key)
    if table is None:
        if len(_tables) >= _CACHE_SIZE:
            _tables.pop(next(iter(_tables)))
        table = _tables[key] = _table(torch.arange(length), d, base, layout, dtype, device, freqs)
    return table


def _check_freqs(freqs, d: int) -> torch.Tensor:
    """Return ``freqs`` as a float64 tensor if it is a finite real tensor of shape (d/2,)."""
    expected = f"a finite real floating-point tensor of shape (d/2,) = ({d // 2},)"
    if not isinstance(freqs, torch.Tensor):
        raise TypeError(f"freqs must be {expected}, got {type(freqs).__name__}")
    if not freqs.is_floating_point():
        raise TypeError(f"freqs must be {expected}, got dtype {freqs.dtype}")
    if tuple(freqs.shape) != (d // 2,):
        raise ValueError(f"freqs must be {expected} for x.shape[-1] = {d}, got shape {tuple(freqs.shape)}")
    freqs = freqs.detach().to(torch.float64)
    if not bool(torch.isfinite(freqs).all()):
        raise ValueError(f"freqs must be {expected}, got non-finite values {freqs[~torch.isfinite(freqs)].tolist()}")
    return freqs


def clear_cache() -> None:
    """Forget the cached cos/sin tables."""
    _tables.clear()


def rope(
    x: torch.Tensor,
    positions: torch.Tensor | None = None,
    base: float = 10000.0,
    layout: str = "interleaved",
    *,
    freqs: torch.Tensor | None = None,
) -> torch.Tensor:
    """Rotate x of shape (..., length, d) by its positions; returns the same shape, dtype, device.

    The token at position p has pair i turned by +p·ω_i (counter-clockwise, as in the module's
    docstring), in the pairing ``layout`` names.

    ``positions`` defaults to 0 … length−1; otherwise an integer tensor of values ≥ 0 that
    broadcasts to x.shape[:-1] (for example (length,) or (batch, 1, length)).
    ``freqs``, a finite real tensor of shape (d/2,), replaces ω_i = base^(−2i/d) (``base`` is
    then unused): pair i turns by p·freqs[i], the angle worked out in float64. They are taken as
    constants: no gradient flows into them.
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
    if freqs is not None:
        freqs = _check_freqs(freqs, d)
    length = x.shape[-2]
    cdtype = _compute_dtype(x.dtype)

    if positions is None:
        table = _cached_table(length, d, base, layout, cdtype, x.device, freqs)
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
        table = _table(positions.to(x.device), d, base, layout, cdtype, x.device, freqs)

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
    """The (d, d) block-diagonal matrix R_p with rope(x)[p] = R_p @ x[p] (interleaved layout).

    Block i turns its pair (x, y) by +p·ω_i, counter-clockwise: (x, y) ↦ (x cos − y sin, x sin + y cos),
    the course's rotation convention. It is the transpose of lesson 05's shift matrix:
    R_p = M_pᵀ = M_{−p} = ``shift_matrix(p, d).T``. M_p turns each (sin, cos) pair of a sinusoidal code
    clockwise, moving it p positions on; R_p turns the other way, so R_p @ PE[q] = PE[q − p].
    """
    # shift_matrix(k) acts on (sin, cos) pairs, i.e. rotates by −kω; its transpose rotates by +kω.
    return shift_matrix(position, d, base).T.contiguous()


# ---------------------------------------------------------------------------------------------
# Rotation by explicit angles, and the textbook (Hugging Face style) form written out op by op.


def rotate(x: torch.Tensor, theta: torch.Tensor, layout: str = "interleaved") -> torch.Tensor:
    """Rotate each feature pair of x (..., d) by the angles theta (broadcastable to (..., d/2)).

    Pair i is turned by +theta[..., i]: (a, b) ↦ (a cos − b sin, a sin + b cos). Computed in the
    promoted dtype of x and theta; ``rotate(x, angles(p, d))`` equals ``rope(x, p)``.
    """
    x = check_pairs("x", x)
    layout = check_choice("layout", layout, ROPE_LAYOUTS)
    d = x.shape[-1]
    if not isinstance(theta, torch.Tensor) or theta.shape[-1:] != (d // 2,):
        raise ValueError(f"theta must be a tensor of shape (..., {d // 2}) for d = {d}")
    return _rotate(x, theta, layout)


def _rotate(x: torch.Tensor, theta: torch.Tensor, layout: str) -> torch.Tensor:
    c, s = theta.cos(), theta.sin()
    if layout == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * c - b * s, a * s + b * c), dim=-1).flatten(-2)
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    return torch.cat((a * c - b * s, a * s + b * c), dim=-1)


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x₁ | x₂) ↦ (−x₂ | x₁) on the last dimension: the 90° turn of every (i, i + d/2) pair."""
    x1, x2 = check_pairs("x", x).chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope_cos_sin(length: int, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32):
    """Tables cos and sin, each (length, d), laid out [θ | θ] for the half layout.

    Angles p·ω_i are computed in float64, then cos/sin are cast to ``dtype``.
    """
    length, d, base = check_int("length", length, 1), check_even("d", d), check_base(base)
    theta = _angles(torch.arange(length), d, base)
    theta = torch.cat((theta, theta), dim=-1)
    return theta.cos().to(dtype), theta.sin().to(dtype)


def rope_textbook(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """``x * cos + rotate_half(x) * sin``: the half layout in five full-size tensor operations."""
    return x * cos + rotate_half(x) * sin
