"""Relative-position schemes that bias the attention scores instead of the inputs: ALiBi (and the
form BLOOM stores it in), T5's log buckets (and the offsets each bucket covers) and Shaw et al.'s
clipped offsets."""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from ._checks import check_int, check_integer_tensor


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi head slopes (Press et al. 2021): a (n_heads,) float32 tensor.

    For n a power of two the slopes are the geometric sequence 2^(−8h/n), h = 1 … n (the paper).
    Otherwise take those of the largest power of two n0 < n, then the first n − n0 of the
    odd-indexed slopes of 2·n0 heads (1st, 3rd, 5th, …): not in the paper, whose models all
    have 2^a heads, but the workaround in the authors' code, which BLOOM and Hugging Face follow.
    The extra slopes start at 2^(−4/n0), above every slope of the first set, then fall between
    them.
    """
    n_heads = check_int("n_heads", n_heads, 1)
    n0 = 2 ** int(math.floor(math.log2(n_heads)))

    def geometric(n: int) -> list[float]:
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]

    slopes = geometric(n0) + geometric(2 * n0)[0::2][: n_heads - n0]
    return torch.tensor(slopes, dtype=torch.float32)


def alibi_bias(n_heads: int, length: int) -> torch.Tensor:
    """The ALiBi score bias: (n_heads, length, length) with bias[h, i, j] = −slope_h·|i − j|.

    Under a causal mask only j ≤ i is used, where this is Press et al.'s −slope_h·(i − j).
    """
    n_heads = check_int("n_heads", n_heads, 1)
    length = check_int("length", length, 1)
    pos = torch.arange(length)
    distance = (pos[:, None] - pos[None, :]).abs().float()
    return -alibi_slopes(n_heads)[:, None, None] * distance


def t5_bucket(
    relative_position: torch.Tensor,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """T5's bucket index for relative_position = key position − query position (integer tensor).

    Small distances get a bucket each; larger ones share buckets whose edges are log-spaced up
    to ``max_distance`` (so a bucket's width grows roughly in proportion to its distance, i.e.
    geometrically with the bucket index); beyond it everything lands in the last bucket.
    With ``bidirectional`` half of the buckets are for keys after the query.
    """
    relative_position = check_integer_tensor("relative_position", relative_position)
    num_buckets = check_int("num_buckets", num_buckets, 4 if bidirectional else 2)
    max_distance = check_int("max_distance", max_distance, 1)

    rel = relative_position.long()
    bucket = torch.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        bucket = bucket + (rel > 0).long() * num_buckets
        distance = rel.abs()
    else:
        distance = (-rel).clamp(min=0)  # keys after the query all share bucket 0
    exact = num_buckets // 2
    if max_distance <= exact:
        share = 4 if bidirectional else 2
        raise ValueError(f"max_distance must be greater than num_buckets // {share} = {exact}, got {max_distance}")
    scaled = torch.log(distance.clamp(min=1).float() / exact) / math.log(max_distance / exact)
    far = (exact + (scaled * (num_buckets - exact)).long()).clamp(max=num_buckets - 1)
    return bucket + torch.where(distance < exact, distance, far)


def shaw_clip(offsets: torch.Tensor, max_offset: int) -> torch.Tensor:
    """Shaw et al.'s clipped offsets: clip(x, k) = max(−k, min(k, x)), elementwise.

    offsets: an integer tensor (any shape) of key position − query position; max_offset k ≥ 0.
    Returns a long tensor of the same shape with values in −k … k: offsets further than k
    share the representation of ±k (Shaw et al. 2018, section 3.2), so 2k + 1 learned
    representations cover every distance.
    """
    offsets = check_integer_tensor("offsets", offsets)
    max_offset = check_int("max_offset", max_offset, 0)
    return offsets.long().clamp(-max_offset, max_offset)


def alibi_key_bias(n_heads: int, length: int) -> torch.Tensor:
    """ALiBi in the form BLOOM stores it: slope_h × key position, (n_heads, 1, length) float32.

    Under a causal mask (j ≤ i) it differs from Press et al.'s −slope_h·(i − j) by slope_h·i, the
    same for every key of query i: a constant added to a whole row of scores, which softmax
    ignores. It needs n_heads·length numbers instead of n_heads·length².
    """
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    return alibi_slopes(n_heads)[:, None, None] * torch.arange(length, dtype=torch.float32)


class BucketRange(NamedTuple):
    """The offsets (key − query) one T5 bucket covers: first … last, both included."""

    bucket: int
    first: int
    last: int
    open_ended: bool  # True: it goes on beyond the offsets examined (the last bucket)


def t5_bucket_ranges(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False,
                     span: int = 1024) -> list[BucketRange]:
    """The range of offsets of each bucket that occurs, for offsets −span … 0 (causal) or
    −span … span (bidirectional), in order of the bucket index.

    Each bucket covers one contiguous run of offsets. A run that reaches ±span is marked
    ``open_ended``: beyond ``max_distance`` every offset in that direction lands in it.
    """
    return _bucket_ranges(*t5_offset_buckets(num_buckets, max_distance, bidirectional, span), int(span))


def t5_offset_buckets(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False,
                      span: int = 1024) -> tuple[torch.Tensor, torch.Tensor]:
    """Offsets −span … 0 (causal) or −span … span (bidirectional), (n,) int64, and the T5 bucket
    of each, (n,) int64; settings T5 cannot use are refused, with the rule they break."""
    if not isinstance(bidirectional, bool):
        raise TypeError(f"bidirectional must be True or False, got {bidirectional!r}")
    num_buckets = check_int("num_buckets", num_buckets, 4 if bidirectional else 2)
    max_distance = check_int("max_distance", max_distance, 1)
    exact = num_buckets // (4 if bidirectional else 2)
    if max_distance <= exact:
        share = 4 if bidirectional else 2
        raise ValueError(f"max_distance must be greater than num_buckets // {share} = {exact}, got {max_distance}")
    span = check_int("span", span, 1)
    if span < max_distance:
        raise ValueError(f"span must be ≥ max_distance = {max_distance}, got {span}")
    offsets = torch.arange(-span, (span if bidirectional else 0) + 1)
    return offsets, t5_bucket(offsets, bidirectional, num_buckets, max_distance)


def _bucket_ranges(offsets: torch.Tensor, buckets: torch.Tensor, span: int) -> list[BucketRange]:
    ranges = []
    for b in torch.unique(buckets).tolist():
        covered = offsets[buckets == b]
        first, last = int(covered.min()), int(covered.max())
        if covered.numel() != last - first + 1:
            raise AssertionError(f"bucket {b} does not cover one run of offsets")  # T5's buckets always do
        ranges.append(BucketRange(b, first, last, first == -span or last == span))
    return ranges
