"""A small attention toolkit: scaled dot-product attention that returns its weights, and a
one-layer attention block that takes any of the course's position encodings."""

from __future__ import annotations

import math

import torch
from torch import nn

from ._checks import check_choice, check_int
from .encodings import sinusoidal
from .learned import LearnedPositionalEmbedding
from .relative import alibi_bias
from .rotary import rope

ENCODINGS = ("none", "sinusoidal", "learned", "rope", "alibi")


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


class TinyAttention(nn.Module):
    """Multi-head self-attention with a chosen position signal.

    encoding: "none", "sinusoidal" or "learned" (added to the input), "rope" (rotates q and k
    per head), "alibi" (a distance bias on the scores). Input (batch, length, d_model);
    ``forward`` returns (output (batch, length, d_model), weights (batch, heads, length, length)).
    """

    def __init__(
        self, d_model: int, n_heads: int = 1, encoding: str = "none", max_len: int = 512, causal: bool = False
    ):
        super().__init__()
        self.d_model = check_int("d_model", d_model, 1)
        self.n_heads = check_int("n_heads", n_heads, 1)
        if d_model % n_heads:
            raise ValueError(f"d_model must be divisible by n_heads = {n_heads}, got {d_model}")
        self.encoding = check_choice("encoding", encoding, ENCODINGS)
        self.max_len = check_int("max_len", max_len, 1)
        self.causal = causal
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        self.learned = LearnedPositionalEmbedding(max_len, d_model) if encoding == "learned" else None

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        batch, length, _ = x.shape
        if self.encoding == "sinusoidal":
            x = x + sinusoidal(length, self.d_model).to(x)
        elif self.encoding == "learned":
            x = x + self.learned(length)
        q, k, v = self.qkv(x).view(batch, length, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        if self.encoding == "rope":
            q, k = rope(q), rope(k)
        bias = alibi_bias(self.n_heads, length).to(x) if self.encoding == "alibi" else None
        y, weights = scaled_dot_product_attention(q, k, v, bias=bias, causal=self.causal)
        return self.out(y.transpose(1, 2).reshape(batch, length, self.d_model)), weights


def attend(mha: nn.MultiheadAttention, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention of a batch-first ``nn.MultiheadAttention`` over x (batch, length, d).

    Returns (output (batch, length, d), weights averaged over heads (batch, length, length)).
    """
    if not mha.batch_first:
        raise ValueError("mha must be built with batch_first=True")
    return mha(x, x, x, need_weights=True, average_attn_weights=True)


def reorder_and_attend(
    mha: nn.MultiheadAttention, x: torch.Tensor, order, position: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Put the tokens x (length, d) in the given order, add an optional position signal
    (length, d) — one row per *slot*, so it does not move with the tokens — and attend.

    Returns (output (length, d), weights (length, length), mean-pooled output (d,)).
    """
    order = torch.as_tensor(order)
    if sorted(order.tolist()) != list(range(x.shape[0])):
        raise ValueError(f"order must be a permutation of 0 … {x.shape[0] - 1}, got {order.tolist()}")
    seq = x[order]
    if position is not None:
        seq = seq + position
    with torch.no_grad():
        out, weights = attend(mha, seq[None])
    return out[0], weights[0], out[0].mean(0)
