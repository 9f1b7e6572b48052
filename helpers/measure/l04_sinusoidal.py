"""Lesson 04, many frequencies: how often each dimension of a code changes sign, how far the
sinusoidal code moves under a shift, whether a linear read-out recovers a label, and what the
sinusoidal explorer shows for one setting."""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from .._checks import check_base, check_even, check_int, check_integer_tensor, check_matrix
from ..encodings import _frequencies, _sinusoidal
from .common import _fit_linear_map


class SinusoidalSnapshot(NamedTuple):
    """The encoding for one (d_model, length, base) and the row of one position."""

    table: torch.Tensor  # (length, d_model) float32, helpers.sinusoidal
    wavelengths: torch.Tensor  # (d_model/2,) float64, 2π/ω_i in positions
    norm: float  # ‖PE[position]‖ = √(d_model/2)


def sign_changes(codes: torch.Tensor) -> torch.Tensor:
    """How often each column changes sign going down the rows: a (d,) int64 tensor.

    For codes of shape (length, d), column j counts the p in 0 … length−2 with
    (codes[p, j] ≥ 0) ≠ (codes[p+1, j] ≥ 0); zero counts as positive.
    For sin(p·ω) with 0 < ω < π this is about (length − 1)·ω/π: fast frequencies flip often.
    """
    nonneg = check_matrix("codes", codes, min_rows=1) >= 0
    return (nonneg[1:] != nonneg[:-1]).sum(dim=0)


def shift_distance(offsets, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """‖PE(p + k) − PE(p)‖ for the sinusoidal encoding, which does not depend on p.

    Each (sin, cos) pair contributes (sin(p+k)ω − sin pω)² + (cos(p+k)ω − cos pω)² = 4 sin²(kω/2), so
        ‖PE(p + k) − PE(p)‖ = 2·sqrt(Σ_i sin²(k·ω_i / 2)).
    offsets: integer tensor (or list) of any shape (negative allowed); returns float64 of that shape.
    """
    d_model = check_even("d_model", d_model)
    k = check_integer_tensor("offsets", offsets, "integers (negative allowed)")
    half = k.to(torch.float64)[..., None] * _frequencies(d_model, check_base(base)) / 2
    return 2.0 * torch.sin(half).pow(2).sum(dim=-1).sqrt()


def linear_probe_accuracy(x: torch.Tensor, labels, train: torch.Tensor) -> float:
    """Can a linear read-out recover ``labels`` from ``x``? Accuracy on the held-out rows.

    Fits W, c by least squares so that x W + c ≈ one_hot(labels) on the rows where ``train`` is
    True, predicts argmax(x W + c) on the other rows, and returns the fraction predicted right.
    x: (n, d); labels: (n,) integers ≥ 0; train: (n,) bool with at least one True and one False.
    """
    x = check_matrix("x", x)
    labels = check_integer_tensor("labels", labels, "integers ≥ 0")
    if labels.shape != (x.shape[0],) or (labels.numel() and int(labels.min()) < 0):
        raise ValueError(f"labels must be {x.shape[0]} integers ≥ 0, one per row of x; got shape {tuple(labels.shape)}")
    if not isinstance(train, torch.Tensor) or train.dtype != torch.bool or train.shape != (x.shape[0],):
        raise ValueError(f"train must be a bool tensor of shape ({x.shape[0]},) marking the rows to fit on")
    if train.all() or not train.any():
        raise ValueError("train must mark at least one row to fit on and leave at least one row to test on")
    features = torch.cat((x, torch.ones(x.shape[0], 1, dtype=x.dtype)), dim=1)
    targets = torch.nn.functional.one_hot(labels.long(), int(labels.max()) + 1).to(x.dtype)
    weights, _ = _fit_linear_map(features[train], targets[train])
    predicted = (features[~train] @ weights.T).argmax(dim=1)
    return float((predicted == labels[~train]).double().mean())


def sinusoidal_snapshot(d_model: int, position: int, length: int, base: float = 10000.0) -> SinusoidalSnapshot:
    """The (length, d_model) sinusoidal table, its wavelengths 2π/ω_i, and the norm of row
    ``position`` (0 ≤ position < length): what the sinusoidal explorer draws for one setting."""
    d_model = check_even("d_model", d_model)
    length = check_int("length", length, 1)
    position = check_int("position", position, 0)
    base = check_base(base)
    if position >= length:
        raise ValueError(f"position must be between 0 and length − 1 = {length - 1}, got {position}")
    table = _sinusoidal(torch.arange(length), d_model, base)
    return SinusoidalSnapshot(table, 2 * math.pi / _frequencies(d_model, base), float(table[position].norm()))
