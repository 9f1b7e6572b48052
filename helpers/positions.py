"""The first three attempts at a position signal, and the measurements that break them.

Lesson 01, counting: the raw index p = 0, 1, 2, … joined to token embeddings, attention over
such inputs, its entropy, and the gradients it lets through.
Lesson 02, normalised positions: p / (L − 1), compared across lengths and while a sentence grows.
Lesson 03, a single sine: sin(ω·p), the closest pair of distinct positions, the smallest gap as a
function of ω, and the same frequency as a point (cos ω·p, sin ω·p) on a circle.

Everything is computed in float64 where precision matters (gaps between sines can be far below
float32 resolution).
"""

from __future__ import annotations

import math

import torch

from ._checks import check_choice, check_finite, check_int
from .analysis import min_pairwise_distance

COUNTING_MODES = ("none", "feature", "added")


# ---------------------------------------------------------------------------------------------
# Lesson 01: counting
# ---------------------------------------------------------------------------------------------


def random_embeddings(length: int, d_model: int = 16, seed: int = 0) -> torch.Tensor:
    """Token embeddings as ``nn.Embedding`` initialises them: a (length, d_model) float32 tensor
    of independent N(0, 1) entries, from a generator seeded with ``seed``.

    The first n rows do not depend on ``length``, so longer sequences extend shorter ones.
    """
    length = check_int("length", length, 1)
    d_model = check_int("d_model", d_model, 1)
    seed = check_int("seed", seed, 0)
    return torch.randn(length, d_model, generator=torch.Generator().manual_seed(seed))


def with_index(embeddings: torch.Tensor, mode: str = "added") -> torch.Tensor:
    """Join the raw index p = 0 … L − 1 to (L, d) embeddings.

    mode "none": the embeddings unchanged, (L, d);
    mode "feature": the index as one extra column, x_p = [e_p, p], (L, d + 1);
    mode "added": the index added to every entry, x_p = e_p + p·1, (L, d).
    """
    mode = check_choice("mode", mode, COUNTING_MODES)
    if not isinstance(embeddings, torch.Tensor) or embeddings.ndim != 2 or not embeddings.is_floating_point():
        raise ValueError("embeddings must be a floating-point tensor of shape (length, d_model)")
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
    terms = torch.where(weights > 0, -weights * weights.clamp_min(torch.finfo(weights.dtype).tiny).log(),
                        torch.zeros_like(weights))
    h = terms.sum(dim)
    return torch.where(h > 0, h, torch.zeros_like(h))  # no −0.0 or rounding below zero


def projections(d_model: int = 16, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Query, key and value projections W_q, W_k, W_v: three (d_model, d_model) float32 matrices
    of N(0, 1/d_model) entries (so e·W has entries of about the size of e's), seeded with seed + 1."""
    d_model = check_int("d_model", d_model, 1)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0) + 1)
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
    if not isinstance(embeddings, torch.Tensor) or embeddings.ndim != 2 or not embeddings.is_floating_point():
        raise ValueError("embeddings must be a floating-point tensor of shape (length, d_model)")
    d = embeddings.shape[-1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if not isinstance(w, torch.Tensor) or w.shape != (d, d):
            raise ValueError(f"{name} must be a ({d}, {d}) tensor to match the embeddings' width, got "
                             f"{tuple(w.shape) if isinstance(w, torch.Tensor) else type(w).__name__}")
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


def counting_snapshot(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> dict:
    """Everything the counting explorer shows for one sequence length L.

    Embeddings from :func:`random_embeddings`, projections from :func:`projections`, attention
    from :func:`counting_attention`. Returns ``position`` = L − 1 (the largest index),
    ``embedding_rms`` (root mean square of the embedding entries), ``ratio`` = position /
    embedding_rms, ``max_logit`` (largest logit of the last query), ``weights`` (its attention
    row, (L,)), ``entropy`` (of that row, nats), ``uniform_entropy`` = log L, and
    ``weight_on_last`` (the weight on the query token itself).
    """
    e = random_embeddings(length, d_model, seed)
    logits, weights, _ = counting_attention(e, *projections(d_model, seed), mode=mode)
    rms = float(e.pow(2).mean().sqrt())
    return {
        "length": length,
        "position": float(length - 1),
        "embedding_rms": rms,
        "ratio": (length - 1) / rms,
        "max_logit": float(logits.max()),
        "weights": weights,
        "entropy": float(attention_entropy(weights)),
        "uniform_entropy": math.log(length),
        "weight_on_last": float(weights[-1]),
    }


def counting_gradients(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> dict:
    """Gradients that reach the embeddings through the attention row of :func:`counting_attention`.

    loss = output·r with r (w,) of N(0, 1/w) entries (seeded with seed + 2). Returns the
    ``loss``, ``per_token`` (L,) float64 = ‖∂loss/∂e_j‖ for each token j, its ``median`` and ``max``,
    ``reached`` = how many tokens get a gradient above 10⁻⁶ of the largest, and the row's
    ``entropy`` (nats).
    """
    e = random_embeddings(length, d_model, seed).requires_grad_(True)
    _, weights, output = counting_attention(e, *projections(d_model, seed), mode=mode)
    r = torch.randn(output.shape[-1], generator=torch.Generator().manual_seed(seed + 2)) / math.sqrt(output.shape[-1])
    loss = output @ r
    loss.backward()
    per_token = e.grad.double().norm(dim=-1)  # float64: squares of float32 gradients near 1e-27 would underflow to 0
    return {
        "loss": float(loss.detach()),
        "per_token": per_token,
        "median": float(per_token.median()),
        "max": float(per_token.max()),
        "reached": int((per_token > 1e-6 * per_token.max()).sum()),
        "entropy": float(attention_entropy(weights.detach())),
    }


def linear_gradients(length: int, d_model: int = 16, mode: str = "added", seed: int = 0) -> dict:
    """Gradients of one linear layer y_j = x_j·W reading the counted input x = with_index(e, mode).

    loss = mean_j y_j·r with W (w, d_model) of N(0, 1/d_model) entries and r a unit vector
    (seeded with seed + 3; the content rows of W do not depend on ``mode``). By hand:
    ∂loss/∂W = x̄ rᵀ with x̄ = mean_j x_j, so ‖∂loss/∂W‖ = ‖x̄‖, which grows like (L − 1)/2 with
    the index in x; and ∂loss/∂e_j = (W r)/L, whatever the index.
    Returns ``loss``, ``grad_weight`` = ‖∂loss/∂W‖ and ``grad_embedding`` = mean_j ‖∂loss/∂e_j‖;
    split by the rows of W, ``grad_content`` / ``weight_content`` = ‖∂loss/∂W‖ / ‖W‖ over the
    d_model rows that read the embedding, and ``grad_index`` / ``weight_index`` the same for the
    row that reads the index column (mode "feature" only; 0.0 otherwise).
    """
    e = random_embeddings(length, d_model, seed).requires_grad_(True)
    x = with_index(e, mode)
    g = torch.Generator().manual_seed(check_int("seed", seed, 0) + 3)
    r = torch.randn(d_model, generator=g)
    r = r / r.norm()
    w = torch.randn(d_model, d_model, generator=g)
    if x.shape[-1] > d_model:  # the row that reads the index column
        w = torch.cat((w, torch.randn(1, d_model, generator=g)))
    w = (w / math.sqrt(d_model)).requires_grad_(True)
    loss = (x @ w @ r).mean()
    loss.backward()
    return {
        "loss": float(loss.detach()),
        "grad_weight": float(w.grad.norm()),
        "grad_embedding": float(e.grad.norm(dim=-1).mean()),
        "grad_content": float(w.grad[:d_model].norm()),
        "weight_content": float(w.detach()[:d_model].norm()),
        "grad_index": float(w.grad[d_model:].norm()),
        "weight_index": float(w.detach()[d_model:].norm()),
    }


# ---------------------------------------------------------------------------------------------
# Lesson 02: normalised positions
# ---------------------------------------------------------------------------------------------


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


def compare_lengths(length_a: int, length_b: int) -> dict:
    """Normalised codes of two sentences side by side (what the two-length slider shows).

    Returns ``codes_a`` (L_a,) and ``codes_b`` (L_b,) as float64 p / (L − 1); ``step_a``,
    ``step_b`` = 1 / (L − 1), the gap between neighbours; ``second_a``, ``second_b``, the code of
    the second word (index 1); and ``shared``, the index pairs (i, j) whose codes are exactly
    equal, i·(L_b − 1) = j·(L_a − 1).
    """
    length_a = check_int("length_a", length_a, 2)
    length_b = check_int("length_b", length_b, 2)
    codes_a = torch.arange(length_a, dtype=torch.float64) / (length_a - 1)
    codes_b = torch.arange(length_b, dtype=torch.float64) / (length_b - 1)
    g = math.gcd(length_a - 1, length_b - 1)  # solutions: i = m·(L_a − 1)/g, j = m·(L_b − 1)/g
    shared = [(m * (length_a - 1) // g, m * (length_b - 1) // g) for m in range(g + 1)]
    return {
        "codes_a": codes_a,
        "codes_b": codes_b,
        "step_a": 1.0 / (length_a - 1),
        "step_b": 1.0 / (length_b - 1),
        "second_a": float(codes_a[1]),
        "second_b": float(codes_b[1]),
        "shared": shared,
    }


# ---------------------------------------------------------------------------------------------
# Lesson 03: a single sine
# ---------------------------------------------------------------------------------------------


def _omegas(omegas) -> torch.Tensor:
    w = torch.as_tensor(omegas, dtype=torch.float64)
    if w.ndim > 1 or not bool(torch.isfinite(w).all()) or bool((w <= 0).any()):
        raise ValueError("omegas must be a finite number > 0 or a 1-D tensor of them")
    return w


def closest_pair(codes: torch.Tensor) -> tuple[int, int, float]:
    """The two distinct positions whose codes are nearest: (i, j, distance) with i < j.

    codes: (L,) scalars, compared by |c_i − c_j| (sorted, O(L log L)), or (L, k) vectors,
    compared by Euclidean distance (all pairs, :func:`helpers.analysis.min_pairwise_distance`).
    Needs L ≥ 2.
    """
    if not isinstance(codes, torch.Tensor) or codes.ndim not in (1, 2) or not codes.is_floating_point():
        raise ValueError("codes must be a floating-point tensor of shape (L,) or (L, k)")
    if codes.shape[0] < 2:
        raise ValueError(f"codes must hold at least 2 positions, got {codes.shape[0]}")
    c = codes.double()
    if c.ndim == 1:
        values, order = c.sort(stable=True)
        gaps = values.diff()
        k = int(gaps.argmin())
        i, j = sorted((int(order[k]), int(order[k + 1])))
        return i, j, float(gaps[k])
    distance, i, j = min_pairwise_distance(c)
    return i, j, distance


def smallest_gap(omegas, length: int) -> torch.Tensor:
    """min over positions p ≠ q in 0 … L − 1 of |sin(ω·p) − sin(ω·q)|, for each ω.

    omegas: a number or a (n,) tensor of frequencies > 0; returns a float64 tensor of the same
    shape. 0 means two positions share a code exactly.
    """
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    values = torch.sin(w.reshape(-1, 1) * torch.arange(length, dtype=torch.float64))
    return values.sort(dim=-1).values.diff(dim=-1).amin(dim=-1).reshape(w.shape)


def neighbour_gap(omegas, length: int) -> torch.Tensor:
    """min over p of |sin(ω·(p + 1)) − sin(ω·p)|, p = 0 … L − 2: how well the code tells a word
    from the next one. At most 2·sin(ω/2) ≤ ω. Same shapes as :func:`smallest_gap`."""
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    values = torch.sin(w.reshape(-1, 1) * torch.arange(length, dtype=torch.float64))
    return values.diff(dim=-1).abs().amin(dim=-1).reshape(w.shape)


def circle_code(length: int, omega: float = 1.0) -> torch.Tensor:
    """The sine together with the cosine of the same frequency: (L, 2) float64 rows
    (cos ω·p, sin ω·p), points on the unit circle at angle ω·p."""
    length = check_int("length", length, 1)
    omega = check_finite("omega", omega)
    theta = omega * torch.arange(length, dtype=torch.float64)
    return torch.stack((theta.cos(), theta.sin()), dim=-1)


def circle_smallest_gap(omegas, length: int) -> torch.Tensor:
    """min over p ≠ q of the distance between circle codes of positions p and q, for each ω.

    The chord between angles ω·p and ω·q is 2·|sin(ω·(q − p)/2)|, which depends only on the
    offset k = q − p, so this is min over k = 1 … L − 1 of 2·|sin(k·ω/2)|.
    Same shapes as :func:`smallest_gap`.
    """
    length = check_int("length", length, 2)
    w = _omegas(omegas)
    k = torch.arange(1, length, dtype=torch.float64)
    return (2 * torch.sin(w.reshape(-1, 1) * k / 2).abs()).amin(dim=-1).reshape(w.shape)


def sine_snapshot(omega: float, length: int) -> dict:
    """Everything the single-sine explorer shows for one ω and length L.

    ``values`` (L,) float64 sin(ω·p); ``circle`` (L, 2) the circle codes; ``wave_pair`` and
    ``circle_pair``: the closest pair (i, j, distance) on the wave and on the circle;
    ``neighbour_gap``: the smallest step between neighbours on the wave; ``turns``: ω·(L − 1)/2π,
    how many times the positions go round the circle.
    """
    length = check_int("length", length, 2)
    omega = check_finite("omega", omega)
    if omega <= 0:
        raise ValueError(f"omega must be a finite number > 0, got {omega}")
    circle = circle_code(length, omega)
    values = circle[:, 1].clone()
    return {
        "values": values,
        "circle": circle,
        "wave_pair": closest_pair(values),
        "circle_pair": closest_pair(circle),
        "neighbour_gap": float(values.diff().abs().min()),
        "turns": omega * (length - 1) / (2 * math.pi),
    }
