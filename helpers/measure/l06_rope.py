"""Lesson 06, RoPE under the microscope: scores as a function of the offset, RoFormer's
long-term-decay bound, and one frequency plane for the explorer.

Pairs follow the ``layout`` names of :func:`helpers.rope`: "interleaved" pairs (2i, 2i+1),
"half" pairs (i, i + d/2). Pair i turns at ω_i = base^(−2i/d).
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from .._checks import check_base, check_even, check_int, check_integer_tensor, check_pairs
from ..encodings import _frequencies
from ..rotary import _rotate, rope


class PairView(NamedTuple):
    """A query at position m and a key at position n, seen in the plane of one pair."""

    q_xy: tuple[float, float]  # the rotated pair (2i, 2i+1) of q
    k_xy: tuple[float, float]  # the same of k
    pair_score: float  # their dot product: this pair's share of the score
    score: float  # the full score ⟨R_m q, R_n k⟩
    offset: int  # m − n


def _offsets(offsets, name: str) -> torch.Tensor:
    """Integer offsets (negative allowed) as a 1-D int64 tensor."""
    return check_integer_tensor(name, offsets, "integers").reshape(-1).to(torch.int64)


def _check_q_k(q, k, single: bool) -> None:
    check_pairs("q", q)
    check_pairs("k", k)
    if single and (q.dim() != 1 or q.shape != k.shape):
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must have the same last dimension, got {q.shape[-1]} and {k.shape[-1]}")


# ---------------------------------------------------------------------------------------------
# Scores as a function of the offset, and RoFormer's long-term-decay bound.


def scores_by_offset(q: torch.Tensor, k: torch.Tensor, offsets, base: float = 10000.0,
                     layout: str = "interleaved") -> torch.Tensor:
    """⟨R_m q, R_n k⟩ for a query at m and a key at n = m − δ, for each offset δ in ``offsets``.

    q and k have shape (..., d) (broadcasting against each other); returns (..., len(offsets)).
    δ > 0: the key is δ tokens before the query. The score depends on δ only, so the smallest
    non-negative positions are used.
    """
    _check_q_k(q, k, single=False)
    delta = _offsets(offsets, "offsets")
    q, k = torch.broadcast_tensors(q, k)
    shape = (*q.shape[:-1], delta.numel(), q.shape[-1])
    qs = rope(q[..., None, :].expand(shape), delta.clamp(min=0), base, layout)
    ks = rope(k[..., None, :].expand(shape), (-delta).clamp(min=0), base, layout)
    return (qs * ks).sum(-1)


def _partial_sums(delta: torch.Tensor, d: int, base: float) -> torch.Tensor:
    """|S_j(δ)| = |Σ_{t<j} exp(i·δ·ω_t)| (i: imaginary unit) for j = 1 … d/2; shape (len(δ), d/2), float64."""
    omega = _frequencies(d, base)
    return torch.polar(torch.ones((), dtype=torch.float64), delta.double()[:, None] * omega).cumsum(-1).abs()


def relative_decay_bound(distances, d: int, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's relative upper bound (1/(d/2))·Σ_{j=1}^{d/2} |S_j(δ)| for each distance δ; float64.

    It equals (d/2 + 1)/2 at δ = 0 and falls fast over the first few dozen δ; after that it falls much
    more slowly while oscillating (for d = 128, between about 2 and 11 from δ = 200 to 4095, its mean
    over 3000 … 4095 about two thirds of its mean over 200 … 399).
    """
    delta = _offsets(distances, "distances")
    return _partial_sums(delta, check_even("d", d), check_base(base)).mean(-1)


def decay_bound(q: torch.Tensor, k: torch.Tensor, distances, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's bound on |⟨R_m q, R_n k⟩| at distance δ = m − n, for this q and k (shape (d,)).

    With h_i = q̃_i·conj(k̃_i) (pairs (2i, 2i+1) read as complex numbers, h_{d/2} = 0), Abel
    summation gives |score| ≤ max_j |h_j − h_{j−1}| · Σ_j |S_j(δ)|. Returns (len(distances),).
    """
    _check_q_k(q, k, single=True)
    delta, base = _offsets(distances, "distances"), check_base(base)
    qc = torch.view_as_complex(q.double().reshape(-1, 2))
    kc = torch.view_as_complex(k.double().reshape(-1, 2))
    h = torch.cat((qc * kc.conj(), torch.zeros(1, dtype=qc.dtype)))
    step = (h[1:] - h[:-1]).abs().max()
    return step * _partial_sums(delta, q.shape[-1], base).sum(-1)


# ---------------------------------------------------------------------------------------------
# One frequency plane, for the m/n explorer.


def rope_pair_view(q: torch.Tensor, k: torch.Tensor, m: int, n: int, pair: int = 0,
                   base: float = 10000.0) -> PairView:
    """q (d,) at position m and k (d,) at position n, rotated by RoPE (interleaved pairs), seen
    in the plane of pair i = ``pair`` (0 ≤ pair < d/2); computed in float64."""
    _check_q_k(q, k, single=True)
    m, n = check_int("m", m, 0), check_int("n", n, 0)
    pair, base = check_int("pair", pair, 0), check_base(base)
    if pair >= q.shape[0] // 2:
        raise ValueError(f"pair must be < d/2 = {q.shape[0] // 2}, got {pair}")
    omega = _frequencies(q.shape[0], base)
    qr = _rotate(q.double(), m * omega, "interleaved")
    kr = _rotate(k.double(), n * omega, "interleaved")
    qp, kp = qr[2 * pair : 2 * pair + 2], kr[2 * pair : 2 * pair + 2]
    return PairView(
        q_xy=(float(qp[0]), float(qp[1])),
        k_xy=(float(kp[0]), float(kp[1])),
        pair_score=float(qp @ kp),
        score=float(qr @ kr),
        offset=m - n,
    )

