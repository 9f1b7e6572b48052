"""Lesson 03, a single sine: sin(ω·p), the closest pair of distinct positions, the smallest gap
as a function of ω, and the same frequency as a point (cos ω·p, sin ω·p) on a circle.

Everything is computed in float64: gaps between sines can be far below float32 resolution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch

from .._checks import check_finite, check_int
from .common import _min_pairwise_distance


class ClosestPair(NamedTuple):
    """Two distinct positions i < j whose codes are nearest, and their distance."""

    i: int
    j: int
    distance: float


@dataclass(frozen=True)
class SineSnapshot:
    """Everything the single-sine explorer shows for one ω and length L."""

    values: torch.Tensor  # (L,) float64, sin(ω·p)
    circle: torch.Tensor  # (L, 2) float64, (cos ω·p, sin ω·p)
    wave_pair: ClosestPair  # closest pair on the wave
    circle_pair: ClosestPair  # closest pair on the circle
    neighbour_gap: float  # smallest step between neighbours on the wave
    turns: float  # ω·(L − 1)/2π: how many times the positions go round the circle


def _omegas(omegas) -> torch.Tensor:
    w = torch.as_tensor(omegas, dtype=torch.float64)
    if w.ndim > 1 or not bool(torch.isfinite(w).all()) or bool((w <= 0).any()):
        raise ValueError("omegas must be a finite number > 0 or a 1-D tensor of them")
    return w


def closest_pair(codes: torch.Tensor) -> ClosestPair:
    """The two distinct positions whose codes are nearest: (i, j, distance) with i < j.

    codes: (L,) scalars, compared by |c_i − c_j| (sorted, O(L log L)), or (L, k) vectors,
    compared by Euclidean distance (all pairs, :func:`helpers.min_pairwise_distance`).
    Needs L ≥ 2.
    """
    if not isinstance(codes, torch.Tensor) or codes.ndim not in (1, 2) or not codes.is_floating_point():
        raise ValueError("codes must be a floating-point tensor of shape (L,) or (L, k)")
    if codes.shape[0] < 2:
        raise ValueError(f"codes must hold at least 2 positions, got {codes.shape[0]}")
    if codes.ndim == 2 and not bool(torch.isfinite(codes).all()):
        raise ValueError("codes must hold finite values only (no NaN or inf)")
    return _closest_pair(codes.double())


def _closest_pair(c: torch.Tensor) -> ClosestPair:
    if c.ndim == 1:
        values, order = c.sort(stable=True)
        gaps = values.diff()
        k = int(gaps.argmin())
        i, j = sorted((int(order[k]), int(order[k + 1])))
        return ClosestPair(i, j, float(gaps[k]))
    distance, i, j = _min_pairwise_distance(c)
    return ClosestPair(i, j, distance)


PAIR_KINDS = ("step", "mirror", "repeat")


def pair_kind(omega: float, i: int, j: int) -> str:
    """Why the codes sin(ω·i) and sin(ω·j) of two positions i < j are close. Their difference is
    a product, sin(ω·j) − sin(ω·i) = 2·cos(ω·(i + j)/2)·sin(ω·(j − i)/2), and the smaller factor
    names the reason:

    - ``"mirror"``: |cos(ω·(i + j)/2)| is the smaller, (i + j)·ω is close to an odd multiple of π:
      the two sit either side of a crest or a trough (sin x = sin(π − x)), adjacent or not;
    - ``"repeat"``: |sin(ω·(j − i)/2)| is the smaller and (j − i)·ω/2π rounds to a whole number
      k ≥ 1: the wave came back after almost k turns;
    - ``"step"``: |sin(ω·(j − i)/2)| is the smaller and (j − i)·ω/2π rounds to 0: a small step
      along one slope of the wave (a slow wave blurring nearby positions).

    omega: a finite number > 0; i, j: positions, 0 ≤ i < j. One of :data:`PAIR_KINDS`.
    """
    omega = check_finite("omega", omega)
    if omega <= 0:
        raise ValueError(f"omega must be a finite number > 0, got {omega}")
    i, j = check_int("i", i, 0), check_int("j", j, 0)
    if j <= i:
        raise ValueError(f"j must be larger than i (two distinct positions, i < j), got i = {i}, j = {j}")
    mirror = abs(math.cos(omega * (i + j) / 2))
    repeat = abs(math.sin(omega * (j - i) / 2))
    if mirror <= repeat:
        return "mirror"
    return "step" if round(omega * (j - i) / (2 * math.pi)) == 0 else "repeat"


def _sines(w: torch.Tensor, length: int) -> torch.Tensor:
    return torch.sin(w.reshape(-1, 1) * torch.arange(length, dtype=torch.float64))


def smallest_gap(omegas, length: int) -> torch.Tensor:
    """min over positions p ≠ q in 0 … L − 1 of |sin(ω·p) − sin(ω·q)|, for each ω.

    omegas: a number or a (n,) tensor of frequencies > 0; returns a float64 tensor of the same
    shape. 0 means two positions share a code exactly.
    """
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    return _sines(w, length).sort(dim=-1).values.diff(dim=-1).amin(dim=-1).reshape(w.shape)


def neighbour_gap(omegas, length: int) -> torch.Tensor:
    """min over p of |sin(ω·(p + 1)) − sin(ω·p)|, p = 0 … L − 2: how well the code tells a word
    from the next one. At most 2·sin(ω/2) ≤ ω. Same shapes as :func:`smallest_gap`."""
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    return _sines(w, length).diff(dim=-1).abs().amin(dim=-1).reshape(w.shape)


def circle_code(length: int, omega: float = 1.0) -> torch.Tensor:
    """The sine together with the cosine of the same frequency: (L, 2) float64 rows
    (cos ω·p, sin ω·p), points on the unit circle at angle ω·p."""
    return _circle_code(check_int("length", length, 1), check_finite("omega", omega))


def _circle_code(length: int, omega: float) -> torch.Tensor:
    theta = omega * torch.arange(length, dtype=torch.float64)
    return torch.stack((theta.cos(), theta.sin()), dim=-1)


def circle_smallest_gap(omegas, length: int) -> torch.Tensor:
    """min over p ≠ q of the distance between circle codes of positions p and q, for each ω.

    The chord between angles ω·p and ω·q is 2·|sin(ω·(q − p)/2)|, which depends only on the
    offset k = q − p, so this is min over k = 1 … L − 1 of 2·|sin(k·ω/2)|.
    Same shapes as :func:`smallest_gap`.
    """
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    k = torch.arange(1, length, dtype=torch.float64)
    return (2 * torch.sin(w.reshape(-1, 1) * k / 2).abs()).amin(dim=-1).reshape(w.shape)


def sine_snapshot(omega: float, length: int) -> SineSnapshot:
    """The codes of positions 0 … L − 1 on the wave sin(ω·p) and on the circle, with the closest
    pair on each (:func:`closest_pair`), for one ω > 0 and L ≥ 2."""
    length = check_int("length", length, 2)
    omega = check_finite("omega", omega)
    if omega <= 0:
        raise ValueError(f"omega must be a finite number > 0, got {omega}")
    circle = _circle_code(length, omega)
    values = circle[:, 1].clone()
    return SineSnapshot(
        values=values,
        circle=circle,
        wave_pair=_closest_pair(values),
        circle_pair=_closest_pair(circle),
        neighbour_gap=float(values.diff().abs().min()),
        turns=omega * (length - 1) / (2 * math.pi),
    )
