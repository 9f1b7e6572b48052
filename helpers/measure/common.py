"""Measurements more than one lesson makes: distances between codes, dot products grouped by
offset, least-squares linear maps, mean loss in bands of positions, orderings of trained results
that hold across seeds, and fair timing of kernels.

Conventions: a table of codes is a (length, d) tensor whose row p is the code of position p.
Distances, scores and fits are computed in float64 and returned as float64 tensors or numbers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

import torch
from torch.overrides import TorchFunctionMode

from .._checks import check_finite, check_int, check_matrix

# ---------------------------------------------------------------------------------------------
# Distances and dot products between codes


def min_pairwise_distance(codes: torch.Tensor, chunk: int = 1024) -> tuple[float, int, int]:
    """The smallest Euclidean distance between two different rows, by brute force.

    codes: (length, d) with length ≥ 2. Returns (distance, i, j) with i < j the first pair
    (in row-major order) that attains it. Computes ‖x_i − x_j‖² = ‖x_i‖² + ‖x_j‖² − 2 x_i·x_j
    in float64, ``chunk`` rows at a time, so memory stays at chunk × length numbers.
    """
    return _min_pairwise_distance(check_matrix("codes", codes, min_rows=2), check_int("chunk", chunk, 1))


def _min_pairwise_distance(x: torch.Tensor, chunk: int = 1024) -> tuple[float, int, int]:
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


class OffsetProfile(NamedTuple):
    """Scores a[p]·b[q] grouped by the offset δ = p − q (query − key): one entry per offset."""

    offsets: torch.Tensor  # (K,) int64, ascending
    mean: torch.Tensor  # (K,) float64, mean over all (p, q) with p − q = δ
    low: torch.Tensor  # (K,) smallest score at that offset
    high: torch.Tensor  # (K,) largest score at that offset

    @property
    def spread(self) -> torch.Tensor:
        """high − low per offset: 0 when the score depends only on the offset."""
        return self.high - self.low


def dot_by_offset(a: torch.Tensor, b: torch.Tensor | None = None, max_offset: int | None = None) -> OffsetProfile:
    """Dot products s[p, q] = a[p]·b[q] of every pair of rows, grouped by the offset δ = p − q.

    Row p of a is the query, row q of b the key, so δ = p − q is query position − key position (row −
    column of s), the course's convention: δ > 0 when the key comes before the query.
    a, b: (length, d) with the same shape (b defaults to a). Offsets run over
    −max_offset … max_offset (default: every offset, |δ| ≤ length − 1). If the score depends only
    on δ, the spread (high − low) is 0 at every offset.
    """
    a = check_matrix("a", a, min_rows=1)
    b = a if b is None else check_matrix("b", b, min_rows=1)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape (length, d), got {tuple(a.shape)} and {tuple(b.shape)}")
    n = a.shape[0]
    max_offset = check_int("max_offset", n - 1 if max_offset is None else max_offset, 0)
    if max_offset > n - 1:
        raise ValueError(f"max_offset must be between 0 and length − 1 = {n - 1}, got {max_offset}")
    scores = a @ b.T
    offsets = torch.arange(-max_offset, max_offset + 1)
    diagonals = [torch.diagonal(scores, offset=-int(delta)) for delta in offsets]  # s[q + δ, q]
    return OffsetProfile(
        offsets=offsets,
        mean=torch.stack([g.mean() for g in diagonals]),
        low=torch.stack([g.min() for g in diagonals]),
        high=torch.stack([g.max() for g in diagonals]),
    )


# ---------------------------------------------------------------------------------------------
# Least squares


def fit_linear_map(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, float]:
    """Least-squares linear map M (no bias) with y ≈ x Mᵀ, and how well it fits.

    x: (n, d_in), y: (n, d_out). Returns M of shape (d_out, d_in), float64, minimising
    ‖x Mᵀ − y‖_F, and the relative residual ‖x Mᵀ − y‖_F / ‖y‖_F (0 means an exact linear map
    exists; close to 1 means x explains almost nothing of y).
    """
    x = check_matrix("x", x)
    y = check_matrix("y", y)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y must have the same number of rows (samples), got {x.shape[0]} and {y.shape[0]}")
    return _fit_linear_map(x, y)


def _fit_linear_map(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, float]:
    solution = torch.linalg.lstsq(x, y, driver="gelsd").solution  # (d_in, d_out)
    residual = torch.linalg.norm(x @ solution - y) / torch.linalg.norm(y).clamp_min(1e-300)
    return solution.T.contiguous(), float(residual)


# ---------------------------------------------------------------------------------------------
# Timing kernels fairly, and the bytes an operation allocates


def round_robin_times(
    fns: dict[str, Callable[[], object]], repeats: int = 20, warmup: int = 2
) -> dict[str, list[float]]:
    """Call every function once per round, ``repeats`` rounds, and return each one's seconds.

    Interleaving the candidates spreads machine noise (other processes, frequency changes)
    over all of them instead of one; the starting candidate rotates from round to round.
    ``warmup`` untimed rounds come first (caches, allocator, lazy initialisation).
    """
    if not isinstance(fns, dict) or not fns or not all(callable(f) for f in fns.values()):
        raise ValueError("fns must be a non-empty dict of name → function taking no arguments")
    repeats = check_int("repeats", repeats, 1)
    warmup = check_int("warmup", warmup, 0)
    names = list(fns)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(warmup + repeats):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            start = time.perf_counter()
            fns[name]()
            elapsed = time.perf_counter() - start
            if r >= warmup:
                times[name].append(elapsed)
    return times


def _storages(obj, found: set[int]) -> set[int]:
    if isinstance(obj, torch.Tensor):
        found.add(obj.untyped_storage().data_ptr())
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            _storages(item, found)
    elif isinstance(obj, dict):
        for item in obj.values():
            _storages(item, found)
    return found


class _AllocationCounter(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.nbytes = 0
        self.ops: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        inputs = _storages(kwargs, _storages(args, set()))
        for result in out if isinstance(out, (list, tuple)) else (out,):
            if isinstance(result, torch.Tensor) and result.untyped_storage().data_ptr() not in inputs:
                self.nbytes += result.untyped_storage().nbytes()
                self.ops.append(getattr(func, "__name__", str(func)))
        return out


def allocated_bytes(fn: Callable[[], object]) -> tuple[int, list[str]]:
    """Bytes of the new tensors that ``fn()`` creates through torch operations, and which ops made them.

    A view, an in-place operation or a result that shares its input's memory counts nothing;
    every fresh result counts its full size (intermediates included, even if freed at once).
    """
    if not callable(fn):
        raise TypeError(f"fn must be a function taking no arguments, got {type(fn).__name__}")
    with _AllocationCounter() as counter:
        fn()
    return counter.nbytes, counter.ops


# ---------------------------------------------------------------------------------------------
# Loss by position, in bands around the training length


class BandMeans(NamedTuple):
    """Mean loss (nats) over three bands of positions; nan where the curve does not reach the end
    of the band."""

    within: float  # positions 0 … L−1
    to_2l: float  # L … 2L−1
    to_4l: float  # 2L … 4L−1


def band_means(curve: torch.Tensor, train_length: int) -> BandMeans:
    """:class:`BandMeans` of a (n,) loss-by-position curve for training length L."""
    L = check_int("train_length", train_length, 1)
    if not isinstance(curve, torch.Tensor) or curve.dim() != 1:
        raise ValueError(f"curve must be a (n,) tensor of losses by position, got {curve!r:.60}")
    return BandMeans(*(mean_over(curve, lo, hi) for lo, hi in ((0, L), (L, 2 * L), (2 * L, 4 * L))))


def mean_over(curve: torch.Tensor, lo: int, hi: int) -> float:
    """The mean of curve[lo:hi], or nan when the curve stops before ``hi``."""
    return float(curve[lo:hi].mean()) if curve.shape[0] >= hi else math.nan


# ---------------------------------------------------------------------------------------------
# Orderings: which result beats which, which of them hold for every seed, and how they compare
# with a published table's


def orderings(values: Mapping[str, float], margin: float = 0.0) -> list[tuple[str, str]]:
    """Every pair (a, b) with values[a] + margin < values[b]: "a is lower than b by more than the
    margin". nan values take part in no pair. Sorted by values[a], then values[b]."""
    margin = _check_margin("margin", margin)
    known = {name: float(v) for name, v in values.items() if not math.isnan(float(v))}
    pairs = [(a, b) for a in known for b in known if known[a] + margin < known[b]]
    return sorted(pairs, key=lambda p: (known[p[0]], known[p[1]]))


def held_for_every(per_seed: Sequence[Iterable[tuple[str, str]]]) -> list[tuple[str, str]]:
    """The pairs found in every one of ``per_seed`` (one list of pairs per seed), in the order of
    the first list."""
    if not per_seed:
        raise ValueError("per_seed must hold the pairs of at least one seed")
    sets = [set(pairs) for pairs in per_seed]
    return [pair for pair in per_seed[0] if all(pair in s for s in sets)]


class OrderingComparison(NamedTuple):
    """A published (lower is better) table's orderings, checked in the toy's table."""

    reproduced: list[tuple[str, str]]  # published a < b, and the toy has a < b by more than its margin
    reversed: list[tuple[str, str]]  # published a < b, but the toy has b < a by more than its margin
    unresolved: list[tuple[str, str]]  # published a < b, and the toy's two lie within its margin
    toy_only: list[tuple[str, str]]  # the published two lie within their margin, the toy has a < b


def compare_orderings(toy: Mapping[str, float], published: Mapping[str, float], margin: float = 0.0,
                      published_margin: float = 0.0) -> OrderingComparison:
    """Every pair of schemes in both tables, sorted into :class:`OrderingComparison`'s four lists.

    A table orders a < b when a's value is below b's by more than its margin (``margin`` for the
    toy, ``published_margin`` for the published table); pairs with a nan value are left out.
    """
    margin = _check_margin("margin", margin)
    published_margin = _check_margin("published_margin", published_margin)
    shared = [name for name in published if name in toy]
    toy_pairs = set(orderings({name: toy[name] for name in shared}, margin))
    known = {name for name in shared if not math.isnan(float(toy[name]))}
    result = OrderingComparison([], [], [], [])
    published_pairs = orderings({name: published[name] for name in known}, published_margin)
    for a, b in published_pairs:
        kind = result.reproduced if (a, b) in toy_pairs else result.reversed if (b, a) in toy_pairs else \
            result.unresolved
        kind.append((a, b))
    ordered = set(published_pairs) | {(b, a) for a, b in published_pairs}
    result.toy_only.extend(pair for pair in orderings({name: toy[name] for name in known}, margin)
                           if pair not in ordered)
    return result


def _check_margin(name: str, margin) -> float:
    margin = check_finite(name, margin)
    if margin < 0:
        raise ValueError(f"{name} must be a finite number ≥ 0, got {margin}")
    return margin
