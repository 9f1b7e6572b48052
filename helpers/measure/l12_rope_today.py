"""Lesson 12, RoPE today: the variants of RoPE that recent models use, computed without training.

- **Several axes.** A token may have more than one position: a patch of an image has a row and a
  column; Qwen2-VL's M-RoPE gives every token three, (temporal, height, width). Each frequency pair
  is then assigned to one axis and turns by that axis's position: pair i of a token with positions
  (p_0, p_1, …) turns by p_{a(i)}·ω_i (``multi_axis_rope``). Two ways to assign the pairs:
  ``axial_2d`` (2-D axial RoPE: each axis owns half the features, with the frequencies of a head half
  as wide) and ``mrope_axes`` (M-RoPE: consecutive blocks of the usual ω_i = base^(−2i/d), the fastest
  block to the first axis). ``two_axis_split`` names three splits for a row and a column;
  ``grid_scores`` gives one query patch's scores with a key on every patch of a grid, ``offset_scores``
  the score against the offset key − query. ``mrope_position_ids`` builds the three ids of a sequence
  that mixes text, images and videos.
- **Multi-head Latent Attention** (DeepSeek-V2 and V3) caches one small latent vector per token and
  folds the key up-projection into the query. ``mla_scores`` computes a head's scores both ways,
  without RoPE, with RoPE on the latent, and with a separate ("decoupled") rotary part;
  ``cache_elements_per_token`` counts what each kind of attention keeps per token.
- **Bases.** ``wavelengths`` and ``pairs_turning_within``: how many pairs complete a turn within a
  window or a context, for a given base.
- **Rope types.** ``rope_type_frequencies`` computes, from a configuration's ``rope_parameters``, the
  frequencies and attention factor of every rope type of Hugging Face ``transformers`` 5 (default,
  linear, dynamic, yarn, longrope, llama3) with the course's own code (``rope_scaling``), and
  ``longrope_frequencies`` the one type lesson 09 did not cover.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch

from .._checks import check_base, check_choice, check_even, check_int, check_pairs
from ..encodings import frequencies
from ..rope_scaling import scaled_frequencies
from ..rotary import rope, rotate

MODALITIES = ("text", "image", "video")


def multi_axis_rope(x: torch.Tensor, positions: torch.Tensor, freqs: torch.Tensor, axis_of_pair: torch.Tensor,
                    layout: str = "half") -> torch.Tensor:
    """Rotate x (..., n, d): pair i of token t turns by positions[axis_of_pair[i], t]·freqs[i].

    ``positions``: (axes, n) integers; ``freqs``: (d/2,); ``axis_of_pair``: (d/2,) integers in
    0 … axes − 1. Angles in float64; the result has x's dtype. With one axis it is ``rope``.
    """
    d = check_even("x.shape[-1] (d)", x.shape[-1])
    positions = torch.as_tensor(positions)
    if positions.dim() != 2 or positions.shape[-1] != x.shape[-2]:
        raise ValueError(f"positions must have shape (axes, {x.shape[-2]}), got {tuple(positions.shape)}")
    axis_of_pair = torch.as_tensor(axis_of_pair, dtype=torch.long)
    if freqs.shape != (d // 2,) or axis_of_pair.shape != (d // 2,):
        raise ValueError(f"freqs and axis_of_pair must have shape ({d // 2},) for d = {d}")
    if axis_of_pair.min() < 0 or axis_of_pair.max() >= positions.shape[0]:
        raise ValueError(f"axis_of_pair must lie in 0 … {positions.shape[0] - 1}")
    theta = positions.to(torch.float64)[axis_of_pair].T * freqs.to(torch.float64)  # (n, d/2)
    return rotate(x.to(torch.float64), theta, layout).to(x.dtype)


def axial_2d(d: int, base: float = 10000.0) -> tuple[torch.Tensor, torch.Tensor]:
    """2-D axial RoPE: (freqs, axis_of_pair). The first d/4 pairs turn with the row, the other d/4 with
    the column, each set with the frequencies of a head of d/2 features, base^(−2j/(d/2))."""
    d = check_even("d", d)
    if d % 4:
        raise ValueError(f"d must be a multiple of 4 (two axes, each of whole pairs), got {d}")
    half = frequencies(d // 2, check_base(base), torch.float64)
    return torch.cat((half, half)), torch.arange(d // 2) // (d // 4)


def mrope_axes(d: int, sections=(16, 24, 24), base: float = 10000.0) -> tuple[torch.Tensor, torch.Tensor]:
    """M-RoPE (Qwen2-VL): (freqs, axis_of_pair). The usual ω_i = base^(−2i/d); pairs 0 … s_0 − 1 turn with
    the temporal id, the next s_1 with the height id, the last s_2 with the width id."""
    d = check_even("d", d)
    sections = [check_int("sections", s, 1) for s in sections]
    if sum(sections) != d // 2:
        raise ValueError(f"sections must add up to d/2 = {d // 2} pairs, got {sections} (sum {sum(sections)})")
    axes = torch.cat([torch.full((s,), a) for a, s in enumerate(sections)])
    return frequencies(d, check_base(base), torch.float64), axes


def grid_positions(rows: int, cols: int) -> torch.Tensor:
    """(2, rows·cols): the (row, column) of each patch, row by row."""
    r, c = torch.meshgrid(torch.arange(check_int("rows", rows, 1)), torch.arange(check_int("cols", cols, 1)),
                          indexing="ij")
    return torch.stack((r.flatten(), c.flatten()))


def mrope_position_ids(segments, spatial_merge_size: int = 2) -> torch.Tensor:
    """The (temporal, height, width) ids of a sequence, shape (3, n), as Qwen2-VL assigns them.

    ``segments``: a list of ("text", n_tokens), ("image", (t, h, w)) or ("video", (t, h, w)), with
    (t, h, w) the grid of patches before the spatial merge (each merged token covers
    spatial_merge_size² patches). A text token gets three equal ids, one more than the token before.
    A picture starting at id s gets, for frame f, merged row r and column c, the ids (s + f, s + r, s + c);
    the next segment starts at s + max(h, w)/spatial_merge_size, as transformers 5's ``get_rope_index``
    does: one past the largest id, unless a video has more frames than that.
    """
    merge = check_int("spatial_merge_size", spatial_merge_size, 1)
    parts, start = [], 0
    for kind, size in segments:
        if kind not in MODALITIES:
            raise ValueError(f"a segment's kind must be one of {MODALITIES}, got {kind!r}")
        if kind == "text":
            n = check_int("a text segment's length", size, 1)
            parts.append(torch.arange(start, start + n).expand(3, n))
        else:
            t, h, w = size
            if h % merge or w % merge:
                raise ValueError(f"a {kind}'s height and width must be multiples of {merge}, got {size}")
            ft, fh, fw = torch.meshgrid(torch.arange(t), torch.arange(h // merge), torch.arange(w // merge),
                                        indexing="ij")
            parts.append(start + torch.stack((ft.flatten(), fh.flatten(), fw.flatten())))
            start += max(h, w) // merge
            continue
        start = int(parts[-1].max()) + 1
    return torch.cat(parts, dim=1)


def axis_wavelengths(freqs: torch.Tensor, axis_of_pair: torch.Tensor, axis: int) -> torch.Tensor:
    """The wavelengths 2π/ω (positions per turn) of the pairs that turn with ``axis``, fastest first."""
    return (2 * math.pi / freqs.to(torch.float64)[torch.as_tensor(axis_of_pair) == axis]).sort().values


AXIS_SPLITS = ("halves", "alternate pairs", "blocks")


def two_axis_split(d: int, split: str = "halves", base: float = 10000.0) -> tuple[torch.Tensor, torch.Tensor]:
    """(freqs, axis_of_pair), both (d/2,), for a head of d features on two axes (0: row, 1: column).

    ``"halves"``: ``axial_2d`` (pairs 0 … d/4 − 1 to the row, the rest to the column, each half with
    base^(−2j/(d/2))); ``"alternate pairs"``: the usual ω_i = base^(−2i/d), even pairs to the row, odd to
    the column; ``"blocks"``: the usual ω_i, the fastest d/4 pairs to the row, the slowest d/4 to the column
    (M-RoPE's consecutive blocks, for two axes).
    """
    split = check_choice("split", split, AXIS_SPLITS)
    if split == "halves":
        return axial_2d(d, base)
    d = check_even("d", d)
    if d % 4:
        raise ValueError(f"d must be a multiple of 4 (two axes, each of whole pairs), got {d}")
    if split == "blocks":
        return mrope_axes(d, (d // 4, d // 4), base)
    return frequencies(d, check_base(base), torch.float64), torch.arange(d // 2) % 2


def _two_axis_score(q: torch.Tensor, k: torch.Tensor, query: torch.Tensor, keys: torch.Tensor, freqs: torch.Tensor,
                    axis_of_pair: torch.Tensor) -> torch.Tensor:
    """⟨q turned at ``query`` (2,), k turned at each column of ``keys`` (2, n)⟩, (n,)."""
    q, k = check_pairs("q", q), check_pairs("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    turned_q = multi_axis_rope(q.double()[None], query[:, None], freqs, axis_of_pair)[0]
    turned_k = multi_axis_rope(k.double().expand(keys.shape[1], -1), keys, freqs, axis_of_pair)
    return turned_k @ turned_q


def grid_scores(q: torch.Tensor, k: torch.Tensor, query_row: int, query_col: int, rows: int, cols: int,
                freqs: torch.Tensor, axis_of_pair: torch.Tensor) -> torch.Tensor:
    """The score of one query patch with a key on every patch of a rows × cols grid, (rows, cols) float64.

    Entry [r', c'] = ⟨R(query_row, query_col) q, R(r', c') k⟩, where R(r, c) turns pair i by
    (r if axis_of_pair[i] == 0 else c)·freqs[i] (``multi_axis_rope``, half layout); q and k are (d,).
    """
    rows, cols = check_int("rows", rows, 1), check_int("cols", cols, 1)
    query = torch.tensor([check_int("query_row", query_row, 0), check_int("query_col", query_col, 0)])
    if query[0] >= rows or query[1] >= cols:
        raise ValueError(f"the query patch ({int(query[0])}, {int(query[1])}) must lie on the {rows} × {cols} grid")
    return _two_axis_score(q, k, query, grid_positions(rows, cols), freqs, axis_of_pair).reshape(rows, cols)


def offset_scores(q: torch.Tensor, k: torch.Tensor, rows: int, cols: int, freqs: torch.Tensor,
                  axis_of_pair: torch.Tensor) -> torch.Tensor:
    """The score against the offset key − query, (2·rows − 1, 2·cols − 1) float64: entry [a + rows − 1,
    b + cols − 1] is the score of a query at (max(−a, 0), max(−b, 0)) with a key at (max(a, 0), max(b, 0)),
    a = key row − query row, b = key column − query column. On a rows × cols grid the scores of a query at
    (r, c) are the window [rows − 1 − r : 2·rows − 1 − r, cols − 1 − c : 2·cols − 1 − c] of this map
    (scores depend on the offsets alone).
    """
    rows, cols = check_int("rows", rows, 1), check_int("cols", cols, 1)
    a, b = torch.meshgrid(torch.arange(1 - rows, rows), torch.arange(1 - cols, cols), indexing="ij")
    a, b = a.flatten(), b.flatten()
    out = torch.empty(a.shape[0], dtype=torch.float64)
    for j in range(a.shape[0]):
        query = torch.stack((a[j].clamp(max=0).neg(), b[j].clamp(max=0).neg()))
        key = torch.stack((a[j].clamp(min=0), b[j].clamp(min=0)))[:, None]
        out[j] = _two_axis_score(q, k, query, key, freqs, axis_of_pair)[0]
    return out.reshape(2 * rows - 1, 2 * cols - 1)


# --- Multi-head Latent Attention -------------------------------------------------------------------


class MlaWeights(NamedTuple):
    """One layer's projections, float64. Per head j: q = h·W_q[j]ᵀ (the part without position, head_dim),
    q_rope = h·W_qr[j]ᵀ (rope_dim). Shared by the heads: the latent c = h·W_dkv ᵀ (latent features, the
    only thing cached besides the rotary key), the rotary key k_rope = h·W_kr ᵀ (rope_dim). Per head: the
    key up-projection k = c·W_uk[j]ᵀ."""

    W_q: torch.Tensor  # (heads, head_dim, d_model)
    W_qr: torch.Tensor  # (heads, rope_dim, d_model)
    W_dkv: torch.Tensor  # (latent, d_model)
    W_kr: torch.Tensor  # (rope_dim, d_model)
    W_uk: torch.Tensor  # (heads, head_dim, latent)


def mla_weights(d_model: int = 64, heads: int = 4, head_dim: int = 16, latent: int = 16, rope_dim: int = 8,
                seed: int = 0) -> MlaWeights:
    """Random projections of one MLA layer (float64, scaled so that scores are of order one)."""
    g = torch.Generator().manual_seed(seed)

    def w(*shape):
        return torch.randn(*shape, generator=g, dtype=torch.float64) / math.sqrt(shape[-1])

    return MlaWeights(w(heads, head_dim, d_model), w(heads, rope_dim, d_model), w(latent, d_model),
                      w(rope_dim, d_model), w(heads, head_dim, latent))


MLA_MODES = ("no rope", "rope on the latent", "decoupled rope")


def mla_scores(h: torch.Tensor, weights: MlaWeights, mode: str) -> tuple[torch.Tensor, torch.Tensor]:
    """(uncompressed, absorbed) scores (heads, n, n) of the tokens h (n, d_model) at positions 0 … n − 1.

    uncompressed: every key decompressed, k = c·W_ukᵀ, as plain attention computes it.
    absorbed: only the cache is read; W_uk is folded into the query, q̃ = q·W_uk, and scored against c.
    - "no rope": no position at all; absorbed = uncompressed.
    - "rope on the latent": q and k rotated (uncompressed: R_m q · R_n k). Only c is cached, so the absorbed
      form can rotate nothing but the latent: (R_m q)·W_uk · R_n c, which is not the same.
    - "decoupled rope": q and k as in "no rope", plus a rotary part: q_rope per head and one k_rope shared by
      the heads and cached already rotated; the score adds R_m q_rope · R_n k_rope in both forms.
    """
    if mode not in MLA_MODES:
        raise ValueError(f"mode must be one of {MLA_MODES}, got {mode!r}")
    h = h.to(torch.float64)
    q = torch.einsum("nd,jed->jne", h, weights.W_q)  # (heads, n, head_dim)
    c = h @ weights.W_dkv.T  # (n, latent): the cache
    k = torch.einsum("nl,jel->jne", c, weights.W_uk)  # (heads, n, head_dim), decompressed
    q_absorbed = torch.einsum("jne,jel->jnl", q, weights.W_uk)  # (heads, n, latent)
    if mode == "no rope":
        return q @ k.transpose(-1, -2), q_absorbed @ c.T
    if mode == "rope on the latent":
        uncompressed = rope(q, layout="half") @ rope(k, layout="half").transpose(-1, -2)
        absorbed = torch.einsum("jne,jel->jnl", rope(q, layout="half"), weights.W_uk) @ rope(c, layout="half").T
        return uncompressed, absorbed
    q_r = rope(torch.einsum("nd,jed->jne", h, weights.W_qr), layout="half")
    k_r = rope(h @ weights.W_kr.T, layout="half")  # (n, rope_dim): cached, rotated, shared by the heads
    rotary = q_r @ k_r.T
    return q @ k.transpose(-1, -2) + rotary, q_absorbed @ c.T + rotary


def cache_elements_per_token(layers: int, *, kv_heads: int | None = None, head_dim: int | None = None,
                             latent: int | None = None, rope_dim: int | None = None) -> int:
    """Numbers a decoder keeps per token in its key-value cache, over ``layers`` layers.

    Multi-head or grouped-query attention (kv_heads, head_dim): a key and a value per key-value head,
    2·kv_heads·head_dim per layer. MLA (latent, rope_dim): the latent and the rotary key, latent + rope_dim.
    """
    layers = check_int("layers", layers, 1)
    if latent is not None:
        return layers * (check_int("latent", latent, 1) + check_int("rope_dim", rope_dim, 0))
    return layers * 2 * check_int("kv_heads", kv_heads, 1) * check_int("head_dim", head_dim, 1)


# --- Bases ---------------------------------------------------------------------------------------


def wavelengths(d: int, base: float = 10000.0) -> torch.Tensor:
    """2π/ω_i = 2π·base^(2i/d): positions per full turn of each pair, float64, fastest pair first."""
    return 2 * math.pi / frequencies(check_even("d", d), check_base(base), torch.float64)


def pairs_turning_within(d: int, base: float, length: int) -> int:
    """How many pairs complete at least one full turn within ``length`` positions (wavelength ≤ length)."""
    return int((wavelengths(d, base) <= check_int("length", length, 1)).sum())


# --- Rope types ----------------------------------------------------------------------------------


def longrope_frequencies(head_dim: int, base: float, short_factor, long_factor, original_max_len: int,
                         max_len: int, seq_len: int | None = None, factor: float | None = None,
                         attention_factor: float | None = None) -> tuple[torch.Tensor, float]:
    """LongRoPE (Ding et al. 2024; Phi-3): (inv_freq, attention_factor).

    Pair i's frequency is divided by its own factor: ω_i / λ_i, with λ = ``long_factor`` past
    ``original_max_len`` (seq_len > original_max_len) and ``short_factor`` otherwise (no seq_len: short).
    q and k are each scaled by √(1 + ln s / ln L), s = factor (by default max_len / L), L = original_max_len
    (1 when s ≤ 1), unless ``attention_factor`` is given.
    """
    head_dim = check_even("head_dim", head_dim)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    chosen = long_factor if seq_len is not None and seq_len > original_max_len else short_factor
    lam = torch.tensor([float(v) for v in chosen], dtype=torch.float64)
    if lam.shape != (head_dim // 2,):
        raise ValueError(f"short_factor and long_factor need head_dim/2 = {head_dim // 2} values, got {lam.numel()}")
    scale = max_len / original_max_len if factor is None else float(factor)
    if attention_factor is None:
        attention_factor = 1.0 if scale <= 1 else math.sqrt(1 + math.log(scale) / math.log(original_max_len))
    return frequencies(head_dim, check_base(base), torch.float64) / lam, float(attention_factor)


ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3")


def rope_type_frequencies(params: dict, head_dim: int, max_position_embeddings: int | None = None,
                          seq_len: int | None = None) -> tuple[torch.Tensor, float]:
    """(inv_freq, attention_factor) for a configuration's ``rope_parameters`` (transformers 5's keys:
    rope_type, rope_theta, factor, original_max_position_embeddings, …), computed by the course's code.

    The rotated width is head_dim·partial_rotary_factor. "dynamic" stretches from max_position_embeddings
    at length seq_len (never below it); "yarn" and "longrope" take factor, when missing, as
    max_position_embeddings / original_max_position_embeddings.
    """
    kind = params.get("rope_type", "default")
    if kind not in ROPE_TYPES:
        raise ValueError(f"rope_type must be one of {ROPE_TYPES}, got {kind!r}")
    base = float(params["rope_theta"])
    dim = int(head_dim * params.get("partial_rotary_factor", 1.0))
    original = params.get("original_max_position_embeddings")
    factor = params.get("factor")
    if factor is None and original is not None and max_position_embeddings is not None:
        factor = max_position_embeddings / original
    if kind == "default":
        return frequencies(dim, base, torch.float64), 1.0
    if kind == "linear":
        return scaled_frequencies(dim, base, "linear", factor)
    if kind == "dynamic":
        n = max(seq_len or max_position_embeddings, max_position_embeddings)
        return scaled_frequencies(dim, base, "dynamic", factor, max_position_embeddings, seq_len=n)
    if kind == "llama3":
        return scaled_frequencies(dim, base, "llama3", factor, original, low_freq_factor=params["low_freq_factor"],
                                  high_freq_factor=params["high_freq_factor"])
    if kind == "longrope":
        return longrope_frequencies(dim, base, params["short_factor"], params["long_factor"], original,
                                    max_position_embeddings, seq_len, params.get("factor"),
                                    params.get("attention_factor"))
    mscale, mscale_all_dim = params.get("mscale"), params.get("mscale_all_dim")
    both = bool(mscale) and bool(mscale_all_dim)  # transformers uses the ratio only when both are set
    inv_freq, attention = scaled_frequencies(
        dim, base, "yarn", factor, original, beta_fast=params.get("beta_fast") or 32.0,
        beta_slow=params.get("beta_slow") or 1.0, mscale=mscale if both else None,
        mscale_all_dim=mscale_all_dim if both else None, truncate=params.get("truncate", True))
    return inv_freq, float(params.get("attention_factor") or attention)


class PublishedRope(NamedTuple):
    """A released model's RoPE settings, copied from the file named in ``source`` (nothing downloaded)."""

    model: str
    head_dim: int  # the rotated width (DeepSeek-V3: qk_rope_head_dim)
    max_position_embeddings: int
    rope_parameters: dict  # transformers 5's keys
    source: str  # the published file the values come from
    seq_len: int | None = None  # the length the frequencies are computed at, where the type depends on it


# Phi-3.5-mini-instruct's config.json, rope_scaling: one factor per pair of its 96-feature heads.
_PHI35_SHORT = (
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684,
    1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
    1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
    1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756,
    2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328,
    2.749999523162842, 2.8399994373321533,
)
_PHI35_LONG = (
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
    1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
    4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
    17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
    50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
    63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062,
)
_PHI35 = {"rope_type": "longrope", "rope_theta": 10000.0, "original_max_position_embeddings": 4096,
          "short_factor": list(_PHI35_SHORT), "long_factor": list(_PHI35_LONG)}

PUBLISHED = (
    PublishedRope("Llama 2 7B", 128, 4096, {"rope_type": "default", "rope_theta": 10000.0},
                  "meta-llama/Llama-2-7b-hf config.json"),
    PublishedRope("Gemma 3 4B, global layers", 256, 131072,
                  {"rope_type": "linear", "rope_theta": 1_000_000.0, "factor": 8.0},
                  "google/gemma-3-4b-it config.json"),
    PublishedRope("dynamic NTK, ×2 at 16 384", 128, 4096,
                  {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0},
                  "an example on Llama 2's shape (no released config)", 16384),
    PublishedRope("Llama 3.1 8B", 128, 131072,
                  {"rope_type": "llama3", "rope_theta": 500_000.0, "factor": 8.0, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
                  "meta-llama/Llama-3.1-8B config.json"),
    PublishedRope("Qwen2.5 7B + YaRN", 128, 131072,
                  {"rope_type": "yarn", "rope_theta": 1_000_000.0, "factor": 4.0,
                   "original_max_position_embeddings": 32768},
                  "Qwen/Qwen2.5-7B-Instruct README (rope_scaling to add)"),
    PublishedRope("DeepSeek-V3", 64, 163840,
                  {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 40.0, "original_max_position_embeddings": 4096,
                   "beta_fast": 32.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0},
                  "deepseek-ai/DeepSeek-V3 config.json"),
    PublishedRope("gpt-oss", 64, 131072,
                  {"rope_type": "yarn", "rope_theta": 150_000.0, "factor": 32.0,
                   "original_max_position_embeddings": 4096, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False},
                  "openai/gpt-oss-20b config.json"),
    PublishedRope("Phi-3.5-mini, short", 96, 131072, _PHI35, "microsoft/Phi-3.5-mini-instruct config.json", 4096),
    PublishedRope("Phi-3.5-mini, long", 96, 131072, _PHI35, "microsoft/Phi-3.5-mini-instruct config.json", 8192),
)
