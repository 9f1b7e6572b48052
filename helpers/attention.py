"""A small attention toolkit: scaled dot-product attention that returns its weights, and the
causal attention block that any position scheme (``helpers.schemes``) plugs into."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import check_int


def scaled_dot_product_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    bias: torch.Tensor | None = None,
    causal: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q kᵀ / √d + bias) v, and the weights.

    q: (..., Lq, d), k: (..., Lk, d), v: (..., Lk, dv); bias broadcasts to (..., Lq, Lk).
    Returns (output (..., Lq, dv), weights (..., Lq, Lk)); each row of weights sums to 1.
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if bias is not None:
        scores = scores + bias
    if causal:
        lq, lk = scores.shape[-2:]
        future = torch.ones(lq, lk, dtype=torch.bool, device=scores.device).triu(lk - lq + 1)
        scores = scores.masked_fill(future, float("-inf"))
    weights = scores.softmax(dim=-1)
    return weights @ v, weights


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention that any position scheme plugs into.

    x (batch, L, d_model) → q, k, v per head (batch, heads, L, head_dim); the scheme turns q and k
    (``scheme.rotate``), and ``mask`` — the causal mask with the scheme's score bias merged in,
    from ``scheme.attention_mask`` — is added to the scores; ``None`` means the plain causal mask:
        out = softmax(q kᵀ/√head_dim + mask) v, heads concatenated, then an output projection.
    Runs through ``F.scaled_dot_product_attention``. Two cases compute the same thing explicitly:
    ``return_weights`` (which also returns the weights (batch, heads, L, L)), and training with a
    learned bias (a mask that needs a gradient), where SDPA's CPU kernels fall back to a slower
    path than plain matrix products.
    """

    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.d_model = check_int("d_model", d_model, 1)
        self.n_heads = check_int("n_heads", n_heads, 1)
        if d_model % n_heads:
            raise ValueError(f"d_model must be divisible by n_heads = {n_heads}, got d_model = {d_model}")
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)

    def forward(
        self,
        x: torch.Tensor,
        scheme,
        positions: torch.Tensor | None = None,
        mask: torch.Tensor | None = None,
        return_weights: bool = False,
    ):
        batch, length, _ = x.shape
        q, k, v = self.qkv(x).view(batch, length, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = scheme.rotate(q, k, positions)
        if return_weights:
            y, weights = scaled_dot_product_attention(q, k, v, bias=mask, causal=mask is None)
        elif mask is not None and mask.requires_grad and torch.is_grad_enabled():
            scores = torch.matmul(q, k.transpose(-2, -1)).mul_(1.0 / math.sqrt(self.head_dim)).add_(mask)
            y = torch.matmul(scores.softmax(dim=-1), v)
        else:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)
        y = self.out(y.transpose(1, 2).reshape(batch, length, self.d_model))
        return (y, weights) if return_weights else y


def attend(mha: nn.MultiheadAttention, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention of a batch-first ``nn.MultiheadAttention`` over x (batch, length, d).

    Returns (output (batch, length, d), weights averaged over heads (batch, length, length)).
    """
    if not mha.batch_first:
        raise ValueError("mha must be built with batch_first=True")
    return mha(x, x, x, need_weights=True, average_attn_weights=True)

