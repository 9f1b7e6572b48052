"""Measurements the lessons make on position codes: sign changes, distances between codes,
dot products grouped by offset, and least-squares fits of linear maps.

Conventions: a table of codes is a (length, d) tensor whose row p is the code of position p.
Everything is computed in float64 and returned as float64 tensors or Python numbers.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from ._checks import check_even, check_int
from .encodings import frequencies


def _check_matrix(name: str, x, min_rows: int = 1) -> torch.Tensor:
    """Return ``x`` as a float64 (rows, columns) tensor, or raise naming ``name``."""
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


def sign_changes(codes: torch.Tensor) -> torch.Tensor:
    """How often each column changes sign going down the rows: a (d,) int64 tensor.

    For codes of shape (length, d), column j counts the p in 0 … length−2 with
    (codes[p, j] ≥ 0) ≠ (codes[p+1, j] ≥ 0); zero counts as positive.
    For sin(p·ω) with 0 < ω < π this is about (length − 1)·ω/π: fast frequencies flip often.
    """
    x = _check_matrix("codes", codes, min_rows=1)
    nonneg = x >= 0
    return (nonneg[1:] != nonneg[:-1]).sum(dim=0)


def min_pairwise_distance(codes: torch.Tensor, chunk: int = 1024) -> tuple[float, int, int]:
    """The smallest Euclidean distance between two different rows, by brute force.

    codes: (length, d) with length ≥ 2. Returns (distance, i, j) with i < j the first pair
    (in row-major order) that attains it. Computes ‖x_i − x_j‖² = ‖x_i‖² + ‖x_j‖² − 2 x_i·x_j
    in float64, ``chunk`` rows at a time, so memory stays at chunk × length numbers.
    """
    x = _check_matrix("codes", codes, min_rows=2)
    chunk = check_int("chunk", chunk, 1)
    n = x.shape[0]
    sq = (x * x).sum(dim=1)
    best, best_i, best_j = float("inf"), -1, -1
    for start in range(0, n - 1, chunk):
        rows = torch.arange(start, min(start + chunk, n))
        d2 = sq[rows, None] + sq[None, :] - 2.0 * (x[rows] @ x.T)
        # only j > i: each pair once, never a row with itself
        d2.masked_fill_(torch.arange(n)[None, :] <= rows[:, None], float("inf"))
        value, flat = d2.flatten().min(dim=0)
        if value.item() < best:
            best = value.item()
            best_i, best_j = int(rows[flat // n]), int(flat % n)
    return max(best, 0.0) ** 0.5, best_i, best_j


def shift_distance(offsets, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """‖PE(p + k) − PE(p)‖ for the sinusoidal encoding, which does not depend on p.

    Each (sin, cos) pair contributes (sin(p+k)ω − sin pω)² + (cos(p+k)ω − cos pω)² = 4 sin²(kω/2), so
        ‖PE(p + k) − PE(p)‖ = 2·sqrt(Σ_i sin²(k·ω_i / 2)).
    offsets: integer tensor (or list) of any shape (negative allowed); returns float64 of that shape.
    """
    d_model = check_even("d_model", d_model)
    k = torch.as_tensor(offsets)
    if k.is_floating_point() or k.is_complex() or k.dtype == torch.bool:
        raise TypeError(f"offsets must be integers (negative allowed), got dtype {k.dtype}")
    omega = frequencies(d_model, base, torch.float64)
    half = k.to(torch.float64)[..., None] * omega / 2
    return 2.0 * torch.sin(half).pow(2).sum(dim=-1).sqrt()


class OffsetProfile(NamedTuple):
    """Scores a[p]·b[q] grouped by offset k = q − p: one entry per offset."""

    offsets: torch.Tensor  # (K,) int64, ascending
    mean: torch.Tensor  # (K,) float64, mean over all (p, q) with q − p = k
    low: torch.Tensor  # (K,) smallest score at that offset
    high: torch.Tensor  # (K,) largest score at that offset

    @property
    def spread(self) -> torch.Tensor:
        """high − low per offset: 0 when the score depends only on the offset."""
        return self.high - self.low


def dot_by_offset(a: torch.Tensor, b: torch.Tensor | None = None, max_offset: int | None = None) -> OffsetProfile:
    """Dot products s[p, q] = a[p]·b[q] of every pair of rows, grouped by the offset k = q − p.

    a, b: (length, d) with the same shape (b defaults to a). Offsets run over
    −max_offset … max_offset (default: every offset, |k| ≤ length − 1). If the score depends only
    on k, the spread (high − low) is 0 at every offset.
    """
    a = _check_matrix("a", a, min_rows=1)
    b = a if b is None else _check_matrix("b", b, min_rows=1)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape (length, d), got {tuple(a.shape)} and {tuple(b.shape)}")
    n = a.shape[0]
    if max_offset is None:
        max_offset = n - 1
    max_offset = check_int("max_offset", max_offset, 0)
    if max_offset > n - 1:
        raise ValueError(f"max_offset must be between 0 and length − 1 = {n - 1}, got {max_offset}")
    scores = a @ b.T
    offsets = torch.arange(-max_offset, max_offset + 1)
    diagonals = [torch.diagonal(scores, offset=int(k)) for k in offsets]
    return OffsetProfile(
        offsets=offsets,
        mean=torch.stack([g.mean() for g in diagonals]),
        low=torch.stack([g.min() for g in diagonals]),
        high=torch.stack([g.max() for g in diagonals]),
    )


def fit_linear_map(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, float]:
    """Least-squares linear map M (no bias) with y ≈ x Mᵀ, and how well it fits.

    x: (n, d_in), y: (n, d_out). Returns M of shape (d_out, d_in), float64, minimising
    ‖x Mᵀ − y‖_F, and the relative residual ‖x Mᵀ − y‖_F / ‖y‖_F (0 means an exact linear map
    exists; close to 1 means x explains almost nothing of y).
    """
    x = _check_matrix("x", x)
    y = _check_matrix("y", y)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y must have the same number of rows (samples), got {x.shape[0]} and {y.shape[0]}")
    solution = torch.linalg.lstsq(x, y, driver="gelsd").solution  # (d_in, d_out)
    residual = torch.linalg.norm(x @ solution - y) / torch.linalg.norm(y).clamp_min(1e-300)
    return solution.T.contiguous(), float(residual)


def linear_probe_accuracy(x: torch.Tensor, labels, train: torch.Tensor) -> float:
    """Can a linear read-out recover ``labels`` from ``x``? Accuracy on the held-out rows.

    Fits W, c by least squares so that x W + c ≈ one_hot(labels) on the rows where ``train`` is
    True, predicts argmax(x W + c) on the other rows, and returns the fraction predicted right.
    x: (n, d); labels: (n,) integers ≥ 0; train: (n,) bool with at least one True and one False.
    """
    x = _check_matrix("x", x)
    labels = torch.as_tensor(labels)
    if labels.is_floating_point() or labels.is_complex() or labels.dtype == torch.bool:
        raise TypeError(f"labels must be integers ≥ 0, got dtype {labels.dtype}")
    if labels.shape != (x.shape[0],) or (labels.numel() and int(labels.min()) < 0):
        raise ValueError(f"labels must be {x.shape[0]} integers ≥ 0, one per row of x; got shape {tuple(labels.shape)}")
    if not isinstance(train, torch.Tensor) or train.dtype != torch.bool or train.shape != (x.shape[0],):
        raise ValueError(f"train must be a bool tensor of shape ({x.shape[0]},) marking the rows to fit on")
    if train.all() or not train.any():
        raise ValueError("train must mark at least one row to fit on and leave at least one row to test on")
    features = torch.cat((x, torch.ones(x.shape[0], 1, dtype=x.dtype)), dim=1)
    targets = torch.nn.functional.one_hot(labels.long(), int(labels.max()) + 1).to(x.dtype)
    weights, _ = fit_linear_map(features[train], targets[train])
    predicted = (features[~train] @ weights.T).argmax(dim=1)
    return float((predicted == labels[~train]).double().mean())
