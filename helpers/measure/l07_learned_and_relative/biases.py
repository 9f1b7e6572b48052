"""Lesson 07: T5's buckets and ALiBi's slopes seen whole, how far a bias is from depending on the
offset alone, and what a bias costs in memory."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch

from ..._checks import check_int
from ...relative import alibi_slopes, t5_offset_buckets

# ---------------------------------------------------------------------------------------------
# What makes a bias relative.


def offset_spread(bias: torch.Tensor) -> float:
    """How far a score bias is from depending on k − q alone.

    bias: (..., L, L), entry [i, j] for query position i and key position j. Returns the largest
    (max − min) along any diagonal j − i = const (over all leading indices): 0 exactly when every
    entry is a function of the offset j − i, i.e. the matrix is constant along its diagonals.
    """
    if not isinstance(bias, torch.Tensor) or bias.dim() < 2 or bias.shape[-1] != bias.shape[-2]:
        shape = tuple(bias.shape) if isinstance(bias, torch.Tensor) else type(bias).__name__
        raise ValueError(f"bias must be a tensor of shape (..., L, L), got {shape}")
    if not bias.is_floating_point() or not bool(torch.isfinite(bias).all()):
        raise ValueError("bias must hold finite floating-point values (leave the causal mask out)")
    bias = bias.detach().double()
    n = bias.shape[-1]
    spread = 0.0
    for k in range(-(n - 1), n):
        diagonal = torch.diagonal(bias, offset=k, dim1=-2, dim2=-1)
        spread = max(spread, float((diagonal.amax(-1) - diagonal.amin(-1)).max()))
    return spread


# ---------------------------------------------------------------------------------------------
# T5's buckets and ALiBi's heads, for tables, plots and the explorers.


@dataclass(frozen=True)
class T5BucketView:
    """T5's bucket of every offset in a window, how many offsets each bucket holds, and where
    each bucket of keys *before* the query starts."""

    offsets: torch.Tensor  # (K,) int64, −span … 0 or −span … span
    buckets: torch.Tensor  # (K,) int64 the bucket of each offset
    widths: torch.Tensor  # (num_buckets,) int64 how many of those offsets fall in each bucket
    starts: torch.Tensor  # (n,) float64 smallest distance of each bucket before the query; NaN if empty
    edges: torch.Tensor  # (n,) float64 where the formula puts those starts (see t5_bucket_view)
    exact: int  # distances below ``exact`` have a bucket of their own (per direction)
    num_buckets: int
    max_distance: int
    bidirectional: bool


def t5_bucket_view(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False,
                   span: int = 512) -> T5BucketView:
    """The buckets of offsets −span … 0 (causal) or −span … span (bidirectional).

    Each direction has n = num_buckets (causal) or num_buckets / 2 (bidirectional) buckets. The
    first ``exact`` = n / 2 distances get a bucket each; bucket b ≥ exact starts at the first
    distance ≥ exact·(max_distance/exact)^((b − exact)/(n − exact)), a geometric sequence, so
    bucket widths grow by a constant factor up to max_distance; everything further shares the
    last bucket. A bucket whose range holds no integer distance stays empty (its start is NaN).
    """
    offsets, buckets = t5_offset_buckets(num_buckets, max_distance, bidirectional, span)
    num_buckets, max_distance = int(num_buckets), int(max_distance)
    widths = torch.bincount(buckets, minlength=num_buckets)
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    exact = per_direction // 2
    before = offsets <= 0
    starts = torch.full((per_direction,), math.nan, dtype=torch.float64)
    for b in torch.unique(buckets[before]).tolist():
        starts[b] = float(-offsets[before & (buckets == b)].max())
    b = torch.arange(per_direction, dtype=torch.float64)
    edges = torch.where(b < exact, b, exact * (max_distance / exact) ** ((b - exact) / (per_direction - exact)))
    return T5BucketView(offsets, buckets, widths, starts, edges, exact, num_buckets, max_distance, bidirectional)


@dataclass(frozen=True)
class AlibiView:
    """One ALiBi head seen whole: the slopes of all heads, the bias of the chosen head under a
    causal mask, and where a query at the last position looks when every content score is equal."""

    slopes: torch.Tensor  # (n_heads,) float32
    head: int  # the chosen head, 1 … n_heads
    bias: torch.Tensor  # (length, length) float64: −slope·(i − j) for j ≤ i, NaN above the diagonal
    weights: torch.Tensor  # (length,) float64 softmax over keys of the last query's bias row
    half_distance: float  # distance at which that weight halves: ln 2 / slope
    power_of_two: bool  # n_heads is a power of two (one geometric sequence)


def alibi_view(n_heads: int = 8, length: int = 32, head: int = 1) -> AlibiView:
    """ALiBi's head ``head`` (1-based, as in Press et al.) of ``n_heads`` over ``length`` tokens."""
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    head = check_int("head", head, 1)
    if head > n_heads:
        raise ValueError(f"head must be an integer from 1 to n_heads = {n_heads}, got {head}")
    slopes = alibi_slopes(n_heads)
    slope = float(slopes[head - 1])
    pos = torch.arange(length, dtype=torch.float64)
    distance = pos[:, None] - pos[None, :]
    bias = torch.where(distance >= 0, -slope * distance, torch.full_like(distance, math.nan))
    weights = torch.softmax(bias[-1], dim=0)
    return AlibiView(slopes, head, bias, weights, math.log(2) / slope, n_heads & (n_heads - 1) == 0)


# ---------------------------------------------------------------------------------------------
# What a scheme stores, and what it builds on every forward pass.


class BiasMemory(NamedTuple):
    """Numbers (not bytes) a score bias needs, for one sequence of ``length`` tokens."""

    length: int
    t5_stored: int  # T5: one learned number per bucket and head, whatever the length
    alibi_stored: int  # ALiBi: one fixed slope per head (no parameter)
    full_bias: int  # the bias as a (heads, L, L) tensor, as T5's must be built for every forward pass
    key_bias: int  # ALiBi in BLOOM's form: (heads, 1, L)


def bias_memory(n_heads: int, length: int, num_buckets: int = 32) -> BiasMemory:
    """How many numbers T5 and ALiBi keep, and how many their bias takes when it is built whole.

    A fused attention kernel (FlashAttention, PyTorch's flash and memory-efficient paths) never
    forms the (heads, L, L) scores, so a bias that has to be passed as a full tensor (T5's, or the
    course's own models, which hand ``F.scaled_dot_product_attention`` one float mask) costs
    memory that attention itself would not. ALiBi's bias can instead be computed inside the kernel
    from its n_heads slopes (FlashAttention's ``alibi_slopes``)."""
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    num_buckets = check_int("num_buckets", num_buckets, 2)
    return BiasMemory(length, num_buckets * n_heads, n_heads, n_heads * length * length, n_heads * length)
