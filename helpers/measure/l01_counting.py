"""Lesson 01, counting: the raw index p = 0, 1, 2, … joined to token embeddings, attention over
such inputs, its entropy, and the gradients it lets through."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .._checks import check_choice, check_int

COUNTING_MODES = ("none", "feature", "added")
# The lengths the counting explorer offers: 1-2-5 per decade from 4 to 100 000.
COUNTING_LENGTHS = (4, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


@dataclass(frozen=True)
class CountingSnapshot:
    """The last token's attention row over L tokens that carry their raw index."""

    length: int
    position: float  # L − 1, the largest index
    embedding_rms: float  # root mean square of the embedding entries
    ratio: float  # position / embedding_rms
    max_logit: float  # largest logit of the last query
    weights: torch.Tensor  # (L,) its attention row
    entropy: float  # of that row, in nats
    uniform_entropy: float  # log L
    weight_on_last: float  # the weight on the query token itself


@dataclass(frozen=True)
class CountingGradients:
    """Gradients that reach the embeddings through one attention row."""

    loss: float
    per_token: torch.Tensor  # (L,) float64, ‖∂loss/∂e_j‖
    median: float
    max: float
    reached: int  # tokens whose gradient is above 10⁻⁶ of the largest
    entropy: float  # of the attention row, nats


@dataclass(frozen=True)
class LinearGradients:
    """Gradients of one linear layer that reads the counted input."""

    loss: float
    grad_weight: float  # ‖∂loss/∂W‖
    grad_embedding: float  # mean_j ‖∂loss/∂e_j‖
    grad_content: float  # ‖∂loss/∂W‖ over the d_model rows that read the embedding
    weight_content: float  # ‖W‖ over those rows
    grad_index: float  # the same for the row that reads the index column ("feature" only; else 0)
    weight_index: float
    weight: torch.Tensor  # (w, d_model) W itself, w = d_model + 1 with the index as a feature
    grad: torch.Tensor  # (w, d_model) ∂loss/∂W = x̄ rᵀ


def _check_embeddings(embeddings) -> None:
    if not isinstance(embeddings, torch.Tensor) or embeddings.ndim != 2 or not embeddings.is_floating_point():
        raise ValueError("embeddings must be a floating-point tensor of shape (length, d_model)")


def random_embeddings(length: int, d_model: int = 16, seed: int = 0) -> torch.Tensor:
    """Token embeddings as ``nn.Embedding`` initialises them: a (length, d_model) float32 tensor
    of independent N(0, 1) entries, from a generator seeded with ``seed``.

    The first n rows do not depend on ``length``, so longer sequences extend shorter ones.
    """
    return _random_embeddings(check_int("length", length, 1), check_int("d_model", d_model, 1),
                              check_int("seed", seed, 0))


def _random_embeddings(length: int, d_model: int, seed: int) -> torch.Tensor:
    return torch.randn(length, d_model, generator=torch.Generator().manual_seed(seed))


def with_index(embeddings: torch.Tensor, mode: str = "added") -> torch.Tensor:
    """Join the raw index p = 0 … L − 1 to (L, d) embeddings.

    mode "none": the embeddings unchanged, (L, d);
    mode "feature": the index as one extra column, x_p = [e_p, p], (L, d + 1);
    mode "added": the index added to every entry, x_p = e_p + p·1, (L, d).
    """
    mode = check_choice("mode", mode, COUNTING_MODES)
    _check_embeddings(embeddings)
    return _with_index(embeddings, mode)


def _with_index(embeddings: torch.Tensor, mode: str) -> torch.Tensor:
    p = torch.arange(embeddings.shape[0], dtype=embeddings.dtype, device=embeddings.device)
    if mode == "feature":
        return torch.cat((embeddings, p[:, None]), dim=-1)
    if mode == "added":
        return embeddings + p[:, None]
    return embeddings


def attention_entropy(weights: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Entropy in nats of attention rows: H = −Σ_j a_j·log a_j along ``dim`` (0·log 0 = 0).

    H = log L for a uniform row over L keys and H = 0 for a row on a single key.
    Returns ``weights`` with ``dim`` removed.
    """
    if not isinstance(weights, torch.Tensor) or not weights.is_floating_point():
        raise TypeError("weights must be a floating-point tensor of attention weights")
    if weights.numel() and (bool((weights < 0).any()) or not bool(torch.isfinite(weights).all())):
        raise ValueError("weights must be finite and ≥ 0 (rows of a softmax)")
    return _entropy(weights, dim)


def _entropy(weights: torch.Tensor, dim: int = -1) -> torch.Tensor:
    terms = torch.where(weights > 0, -weights * weights.clamp_min(torch.finfo(weights.dtype).tiny).log(),
                        torch.zeros_like(weights))
    h = terms.sum(dim)
    return torch.where(h > 0, h, torch.zeros_like(h))  # no −0.0 or rounding below zero


def projections(d_model: int = 16, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Query, key and value projections W_q, W_k, W_v: three (d_model, d_model) float32 matrices
    of N(0, 1/d_model) entries (so e·W has entries of about the size of e's), seeded with seed + 1."""
    return _projections(check_int("d_model", d_model, 1), check_int("seed", seed, 0))


def _projections(d_model: int, seed: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed + 1)
    return tuple(torch.randn(d_model, d_model, generator=g) / math.sqrt(d_model) for _ in range(3))


def counting_attention(embeddings: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor,
                       mode: str = "added") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One attention row, the last token's, with the raw index in its queries, keys and values.

    q_j = with_index(e·W_q), k_j = with_index(e·W_k), v_j = with_index(e·W_v) (rows j = 0 … L − 1,
    width w = d or d + 1 by ``mode``); logits_j = q_{L−1}·k_j / √w; a = softmax(logits);
    output = Σ_j a_j·v_j. With mode "feature" the index term of logit j is (L − 1)·j / √w, with
    "added" it is about (L − 1)·j·√w: it grows with the square of the index.

    embeddings (L, d), projections (d, d). Returns (logits (L,), weights (L,), output (w,)).
    Only the last row is needed, and k_j·q = e_j·(W_k q) + (index term), so nothing of size
    L × d is formed beyond the embeddings: O(L·d), fast even for L = 100 000.
    """
    mode = check_choice("mode", mode, COUNTING_MODES)
    _check_embeddings(embeddings)
    d = embeddings.shape[-1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if not isinstance(w, torch.Tensor) or w.shape != (d, d):
            raise ValueError(f"{name} must be a ({d}, {d}) tensor to match the embeddings' width, got "
                             f"{tuple(w.shape) if isinstance(w, torch.Tensor) else type(w).__name__}")
    return _counting_attention(embeddings, w_q, w_k, w_v, mode)


def _counting_attention(embeddings, w_q, w_k, w_v, mode: str):
    d = embeddings.shape[-1]
    last = embeddings.shape[0] - 1
    p = torch.arange(last + 1, dtype=embeddings.dtype, device=embeddings.device)
    q = embeddings[-1] @ w_q
    if mode == "feature":  # q = [e W_q, L − 1], k_j = [e_j W_k, j]
        logits = (embeddings @ (w_k @ q) + last * p) / math.sqrt(d + 1)
    elif mode == "added":  # q = e W_q + (L − 1)·1, k_j = e_j W_k + j·1
        q = q + last
        logits = (embeddings @ (w_k @ q) + q.sum() * p) / math.sqrt(d)
    else:
        logits = embeddings @ (w_k @ q) / math.sqrt(d)
    weights = logits.softmax(dim=-1)
    output = (weights @ embeddings) @ w_v
    if mode == "feature":
        output = torch.cat((output, (weights @ p)[None]))
    elif mode == "added":
        output = output + weights @ p
    return logits, weights, output


def counting_snapshot(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> CountingSnapshot:
    """Everything the counting explorer shows for one sequence length L.

    Embeddings from :func:`random_embeddings`, projections from :func:`projections`, attention
    from :func:`counting_attention`, the entropy from :func:`attention_entropy`.
    """
    length, d_model = check_int("length", length, 1), check_int("d_model", d_model, 1)
    mode, seed = check_choice("mode", mode, COUNTING_MODES), check_int("seed", seed, 0)
    e = _random_embeddings(length, d_model, seed)
    logits, weights, _ = _counting_attention(e, *_projections(d_model, seed), mode)
    rms = float(e.pow(2).mean().sqrt())
    return CountingSnapshot(
        length=length,
        position=float(length - 1),
        embedding_rms=rms,
        ratio=(length - 1) / rms,
        max_logit=float(logits.max()),
        weights=weights,
        entropy=float(_entropy(weights)),
        uniform_entropy=math.log(length),
        weight_on_last=float(weights[-1]),
    )


def counting_gradients(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> CountingGradients:
    """Gradients that reach the embeddings through the attention row of :func:`counting_attention`.

    loss = output·r with r (w,) of N(0, 1/w) entries (seeded with seed + 2); ``per_token`` is
    ‖∂loss/∂e_j‖ for each token j (float64), ``reached`` counts the tokens whose gradient is above
    10⁻⁶ of the largest, and ``entropy`` is the row's (nats).
    """
    length, d_model = check_int("length", length, 1), check_int("d_model", d_model, 1)
    mode, seed = check_choice("mode", mode, COUNTING_MODES), check_int("seed", seed, 0)
    e = _random_embeddings(length, d_model, seed).requires_grad_(True)
    _, weights, output = _counting_attention(e, *_projections(d_model, seed), mode)
    r = torch.randn(output.shape[-1], generator=torch.Generator().manual_seed(seed + 2)) / math.sqrt(output.shape[-1])
    loss = output @ r
    loss.backward()
    per_token = e.grad.double().norm(dim=-1)  # float64: squares of float32 gradients near 1e-27 would underflow to 0
    return CountingGradients(
        loss=float(loss.detach()),
        per_token=per_token,
        median=float(per_token.median()),
        max=float(per_token.max()),
        reached=int((per_token > 1e-6 * per_token.max()).sum()),
        entropy=float(_entropy(weights.detach())),
    )


def linear_gradients(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> LinearGradients:
    """Gradients of one linear layer y_j = x_j·W reading the counted input x = with_index(e, mode).

    loss = mean_j y_j·r with W (w, d_model) of N(0, 1/d_model) entries and r a unit vector
    (seeded with seed + 3; the content rows of W do not depend on ``mode``). By hand:
    ∂loss/∂W = x̄ rᵀ with x̄ = mean_j x_j, so ‖∂loss/∂W‖ = ‖x̄‖, which grows like (L − 1)/2 with
    the index in x; and ∂loss/∂e_j = (W r)/L, whatever the index. The gradient is also split by
    the rows of W: those that read the embedding, and the one that reads the index column.
    ``weight`` and ``grad`` hold W and ∂loss/∂W themselves, so a lesson can take an optimiser step.
    """
    length, d_model = check_int("length", length, 1), check_int("d_model", d_model, 1)
    mode, seed = check_choice("mode", mode, COUNTING_MODES), check_int("seed", seed, 0)
    e = _random_embeddings(length, d_model, seed).requires_grad_(True)
    x = _with_index(e, mode)
    g = torch.Generator().manual_seed(seed + 3)
    r = torch.randn(d_model, generator=g)
    r = r / r.norm()
    w = torch.randn(d_model, d_model, generator=g)
    if x.shape[-1] > d_model:  # the row that reads the index column
        w = torch.cat((w, torch.randn(1, d_model, generator=g)))
    w = (w / math.sqrt(d_model)).requires_grad_(True)
    loss = (x @ w @ r).mean()
    loss.backward()
    return LinearGradients(
        loss=float(loss.detach()),
        grad_weight=float(w.grad.norm()),
        grad_embedding=float(e.grad.norm(dim=-1).mean()),
        grad_content=float(w.grad[:d_model].norm()),
        weight_content=float(w.detach()[:d_model].norm()),
        grad_index=float(w.grad[d_model:].norm()),
        weight_index=float(w.detach()[d_model:].norm()),
        weight=w.detach().clone(),
        grad=w.grad.clone(),
    )
