"""RoPE under the microscope: the textbook formulation, scores as a function of the offset,
RoFormer's long-term-decay bound, and what low-precision angles do.

Pairs follow the ``layout`` names of :func:`helpers.rope`: "interleaved" pairs (2i, 2i+1),
"half" pairs (i, i + d/2). Pair i turns at ω_i = base^(−2i/d).
"""

from __future__ import annotations

import math

import torch

from ._checks import check_base, check_choice, check_even, check_int, check_positions
from .encodings import angles, frequencies
from .rotary import ROPE_LAYOUTS, rope


def _check_vector(name: str, x) -> torch.Tensor:
    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        raise TypeError(f"{name} must be a floating-point torch.Tensor of shape (..., d), got {type(x).__name__}")
    if x.dim() < 1:
        raise ValueError(f"{name} must have shape (..., d), got a scalar")
    check_even(f"{name}.shape[-1] (d)", x.shape[-1])
    return x


def _as_offsets(offsets, name: str) -> torch.Tensor:
    """Integer offsets (negative allowed) as a 1-D int64 tensor."""
    t = torch.as_tensor(offsets)
    if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
        raise TypeError(f"{name} must be integers, got dtype {t.dtype}")
    return t.reshape(-1).to(torch.int64)


# ---------------------------------------------------------------------------------------------
# The textbook (Hugging Face style) formulation, written out op by op.


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """(x₁ | x₂) ↦ (−x₂ | x₁) on the last dimension: the 90° turn of every (i, i + d/2) pair."""
    x = _check_vector("x", x)
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope_cos_sin(length: int, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32):
    """Tables cos and sin, each (length, d), laid out [θ | θ] for the half layout.

    Angles p·ω_i are computed in float64, then cos/sin are cast to ``dtype``.
    """
    length = check_int("length", length, 1)
    d = check_even("d", d)
    theta = angles(torch.arange(length), d, base)
    theta = torch.cat((theta, theta), dim=-1)
    return theta.cos().to(dtype), theta.sin().to(dtype)


def rope_textbook(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """``x * cos + rotate_half(x) * sin``: the half layout in five full-size tensor operations."""
    return x * cos + rotate_half(x) * sin


# ---------------------------------------------------------------------------------------------
# Rotation by explicit angles, and angles computed in a low-precision dtype.


def rotate(x: torch.Tensor, theta: torch.Tensor, layout: str = "interleaved") -> torch.Tensor:
    """Rotate each feature pair of x (..., d) by the angles theta (broadcastable to (..., d/2)).

    Pair i is turned by +theta[..., i]: (a, b) ↦ (a cos − b sin, a sin + b cos). Computed in the
    promoted dtype of x and theta; ``rotate(x, angles(p, d))`` equals ``rope(x, p)``.
    """
    x = _check_vector("x", x)
    layout = check_choice("layout", layout, ROPE_LAYOUTS)
    d = x.shape[-1]
    if not isinstance(theta, torch.Tensor) or theta.shape[-1:] != (d // 2,):
        raise ValueError(f"theta must be a tensor of shape (..., {d // 2}) for d = {d}")
    c, s = theta.cos(), theta.sin()
    if layout == "interleaved":
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * c - b * s, a * s + b * c), dim=-1).flatten(-2)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat((a * c - b * s, a * s + b * c), dim=-1)


def angles_in_dtype(positions, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Angles p·ω_i as an implementation computing them in ``dtype`` gets them, returned in float64.

    Positions and frequencies are rounded to ``dtype`` and multiplied in ``dtype``: shape
    (..., d/2) for positions of shape (...). Positions beyond the dtype's range become inf.
    """
    positions = check_positions(positions)
    d = check_even("d", d)
    if not dtype.is_floating_point:
        raise TypeError(f"dtype must be a floating-point dtype, got {dtype}")
    return (positions.to(dtype)[..., None] * frequencies(d, base, dtype)).double()


def wrap_angle(theta: torch.Tensor) -> torch.Tensor:
    """Angles brought into [−π, π): what a rotation can tell apart (inf and nan stay nan)."""
    return torch.remainder(theta + math.pi, 2 * math.pi) - math.pi


def angle_error(positions, d: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """|wrap(angle in ``dtype`` − exact angle)| in radians, (..., d/2); at most π, nan where inf."""
    exact = angles(check_positions(positions), d, base)
    return wrap_angle(angles_in_dtype(positions, d, base, dtype) - exact).abs()


# ---------------------------------------------------------------------------------------------
# Scores as a function of the offset, and RoFormer's long-term-decay bound.


def scores_by_offset(q: torch.Tensor, k: torch.Tensor, offsets, base: float = 10000.0,
                     layout: str = "interleaved") -> torch.Tensor:
    """⟨R_m q, R_n k⟩ for a query at m and a key at n = m − δ, for each offset δ in ``offsets``.

    q and k have shape (..., d) (broadcasting against each other); returns (..., len(offsets)).
    δ > 0: the key is δ tokens before the query. The score depends on δ only, so the smallest
    non-negative positions are used.
    """
    q, k = _check_vector("q", q), _check_vector("k", k)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must have the same last dimension, got {q.shape[-1]} and {k.shape[-1]}")
    delta = _as_offsets(offsets, "offsets")
    q, k = torch.broadcast_tensors(q, k)
    shape = (*q.shape[:-1], delta.numel(), q.shape[-1])
    qs = rope(q[..., None, :].expand(shape), delta.clamp(min=0), base, layout)
    ks = rope(k[..., None, :].expand(shape), (-delta).clamp(min=0), base, layout)
    return (qs * ks).sum(-1)


def _partial_sums(distances, d: int, base: float) -> torch.Tensor:
    """|S_j(δ)| = |Σ_{t<j} exp(i·δ·ω_t)| (i: imaginary unit) for j = 1 … d/2; shape (len(distances), d/2), float64."""
    delta = _as_offsets(distances, "distances").double()
    d = check_even("d", d)
    omega = frequencies(d, check_base(base), torch.float64)
    return torch.polar(torch.ones((), dtype=torch.float64), delta[:, None] * omega).cumsum(-1).abs()


def relative_decay_bound(distances, d: int, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's relative upper bound (1/(d/2))·Σ_{j=1}^{d/2} |S_j(δ)| for each distance δ; float64.

    It equals (d/2 + 1)/2 at δ = 0 and decays (not monotonically) as δ grows.
    """
    return _partial_sums(distances, d, base).mean(-1)


def decay_bound(q: torch.Tensor, k: torch.Tensor, distances, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's bound on |⟨R_m q, R_n k⟩| at distance δ = m − n, for this q and k (shape (d,)).

    With h_i = q̃_i·conj(k̃_i) (pairs (2i, 2i+1) read as complex numbers, h_{d/2} = 0), Abel
    summation gives |score| ≤ max_j |h_j − h_{j−1}| · Σ_j |S_j(δ)|. Returns (len(distances),).
    """
    q, k = _check_vector("q", q), _check_vector("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    qc = torch.view_as_complex(q.double().reshape(-1, 2))
    kc = torch.view_as_complex(k.double().reshape(-1, 2))
    h = torch.cat((qc * kc.conj(), torch.zeros(1, dtype=qc.dtype)))
    step = (h[1:] - h[:-1]).abs().max()
    return step * _partial_sums(distances, q.shape[-1], base).sum(-1)


# ---------------------------------------------------------------------------------------------
# One frequency plane, for the m/n explorer.


def rope_pair_view(q: torch.Tensor, k: torch.Tensor, m: int, n: int, pair: int = 0,
                   base: float = 10000.0) -> dict:
    """What the explorer shows: q at position m and k at position n in the plane of one pair.

    Returns floats: ``q_xy`` and ``k_xy`` (the rotated pair (2i, 2i+1) of each), ``pair_score``
    (their dot product, this pair's share of the score), ``score`` (the full ⟨R_m q, R_n k⟩) and
    ``offset`` (m − n).
    """
    q, k = _check_vector("q", q), _check_vector("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    m, n = check_int("m", m, 0), check_int("n", n, 0)
    pair = check_int("pair", pair, 0)
    if pair >= q.shape[0] // 2:
        raise ValueError(f"pair must be < d/2 = {q.shape[0] // 2}, got {pair}")
    qr = rope(q.double()[None], torch.tensor([m]), base)[0]
    kr = rope(k.double()[None], torch.tensor([n]), base)[0]
    qp, kp = qr[2 * pair : 2 * pair + 2], kr[2 * pair : 2 * pair + 2]
    return {
        "q_xy": (float(qp[0]), float(qp[1])),
        "k_xy": (float(kp[0]), float(kp[1])),
        "pair_score": float(qp @ kp),
        "score": float(qr @ kr),
        "offset": m - n,
    }
