"""Lesson 02, normalised positions: p / (L − 1), compared across lengths and while a sentence
grows token by token."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .._checks import check_finite, check_int


@dataclass(frozen=True)
class LengthComparison:
    """The normalised codes of two sentences side by side (what the two-length slider shows)."""

    codes_a: torch.Tensor  # (L_a,) float64, p / (L_a − 1)
    codes_b: torch.Tensor  # (L_b,) float64
    step_a: float  # 1 / (L_a − 1), the gap between neighbours
    step_b: float
    second_a: float  # the code of the second word (index 1)
    second_b: float
    shared: list[tuple[int, int]]  # index pairs (i, j) whose codes are exactly equal


def nearest_position(code: float, length: int) -> int:
    """The index p in 0 … L − 1 whose normalised code p / (L − 1) is nearest to ``code``.

    Codes outside [0, 1] give the nearest end; ties round half to even.
    """
    code = check_finite("code", code)
    length = check_int("length", length, 2)
    return int(min(max(round(code * (length - 1)), 0), length - 1))


def growing_codes(length: int) -> torch.Tensor:
    """Normalised codes while a sentence is written token by token (decoding).

    Row t (t = 0 … L − 1) holds the codes p / t of tokens p = 0 … t once the sentence has t + 1
    tokens (row 0 is [0]); entries for tokens not yet written are NaN. Shape (L, L), float64.
    """
    length = check_int("length", length, 1)
    t = torch.arange(length, dtype=torch.float64)[:, None]
    p = torch.arange(length, dtype=torch.float64)[None, :]
    codes = torch.where(t > 0, p / t.clamp_min(1), torch.zeros(()))
    return torch.where(p <= t, codes, torch.full((), float("nan"), dtype=torch.float64))


def compare_lengths(length_a: int, length_b: int) -> LengthComparison:
    """Normalised codes p / (L − 1) of two sentences of lengths L_a and L_b (both ≥ 2).

    Two codes are equal when i·(L_b − 1) = j·(L_a − 1); with g = gcd(L_a − 1, L_b − 1) the
    solutions are i = m·(L_a − 1)/g, j = m·(L_b − 1)/g for m = 0 … g.
    """
    length_a = check_int("length_a", length_a, 2)
    length_b = check_int("length_b", length_b, 2)
    codes_a = torch.arange(length_a, dtype=torch.float64) / (length_a - 1)
    codes_b = torch.arange(length_b, dtype=torch.float64) / (length_b - 1)
    g = math.gcd(length_a - 1, length_b - 1)
    return LengthComparison(
        codes_a=codes_a,
        codes_b=codes_b,
        step_a=1.0 / (length_a - 1),
        step_b=1.0 / (length_b - 1),
        second_a=float(codes_a[1]),
        second_b=float(codes_b[1]),
        shared=[(m * (length_a - 1) // g, m * (length_b - 1) // g) for m in range(g + 1)],
    )
