"""Lesson 00, order blindness: the same tokens in another order, attended with and without a
position signal that belongs to the slots (it does not move with the tokens)."""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn


class Reordered(NamedTuple):
    """Attention over tokens put in one order."""

    output: torch.Tensor  # (length, d)
    weights: torch.Tensor  # (length, length), averaged over heads
    pooled: torch.Tensor  # (d,) mean of the output rows


class OrderSnapshot(NamedTuple):
    """What the order explorer shows for one order: the attention maps without and with the
    position signal, and how far the mean-pooled output moved from the original order's."""

    weights_plain: torch.Tensor  # (length, length)
    weights_with_position: torch.Tensor  # (length, length)
    moved_plain: float  # max |pooled(order) − pooled(original)|, no position signal
    moved_with_position: float  # the same with the position signal


def _check_order(order, length: int) -> torch.Tensor:
    order = torch.as_tensor(order)
    if sorted(order.tolist()) != list(range(length)):
        raise ValueError(f"order must be a permutation of 0 … {length - 1}, got {order.tolist()}")
    return order


def _check_inputs(mha, x, position) -> None:
    if not isinstance(mha, nn.MultiheadAttention) or not mha.batch_first:
        raise ValueError("mha must be an nn.MultiheadAttention built with batch_first=True")
    if not isinstance(x, torch.Tensor) or x.dim() != 2:
        raise ValueError("x must be a (length, d) tensor of token embeddings")
    if position is not None and (not isinstance(position, torch.Tensor) or position.shape != x.shape):
        raise ValueError(f"position must be None or a tensor of the same shape as x, {tuple(x.shape)}")


def reorder_and_attend(
    mha: nn.MultiheadAttention, x: torch.Tensor, order, position: torch.Tensor | None = None
) -> Reordered:
    """Put the tokens x (length, d) in the given order, add an optional position signal
    (length, d) — one row per *slot*, so it does not move with the tokens — and attend with a
    batch-first ``nn.MultiheadAttention``.

    Returns (output (length, d), weights (length, length), mean-pooled output (d,)).
    """
    _check_inputs(mha, x, position)
    return _reorder_and_attend(mha, x, _check_order(order, x.shape[0]), position)


def _reorder_and_attend(mha, x, order, position) -> Reordered:
    seq = x[order]
    if position is not None:
        seq = seq + position
    with torch.no_grad():
        out, weights = mha(seq[None], seq[None], seq[None], need_weights=True, average_attn_weights=True)
    return Reordered(out[0], weights[0], out[0].mean(0))


def order_snapshot(mha: nn.MultiheadAttention, x: torch.Tensor, order, position: torch.Tensor) -> OrderSnapshot:
    """Attend over x in ``order`` without and with ``position``, each compared with the
    original order 0 … length − 1 under the same signal (see :func:`reorder_and_attend`)."""
    _check_inputs(mha, x, position)
    order = _check_order(order, x.shape[0])
    original = torch.arange(x.shape[0])
    plain, with_position = (_reorder_and_attend(mha, x, order, p) for p in (None, position))
    plain_ref, position_ref = (_reorder_and_attend(mha, x, original, p).pooled for p in (None, position))
    return OrderSnapshot(
        weights_plain=plain.weights,
        weights_with_position=with_position.weights,
        moved_plain=float((plain.pooled - plain_ref).abs().max()),
        moved_with_position=float((with_position.pooled - position_ref).abs().max()),
    )
