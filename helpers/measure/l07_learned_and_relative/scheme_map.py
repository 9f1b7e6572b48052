"""Lesson 07: the test that a score depends on k − q alone, and one map of every scheme of the course."""

from __future__ import annotations

import copy
import math
from typing import NamedTuple

import torch

from ..._checks import check_int
from ...position_scheme import PositionScheme
from ...schemes import SCHEMES, scheme

# ---------------------------------------------------------------------------------------------
# One map of every scheme.


_HOOKS = {"embed": "added to x", "rotate": "rotates q, k", "bias": "bias on scores"}


def scheme_scores(position_scheme: PositionScheme, x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor,
                  positions: torch.Tensor) -> torch.Tensor:
    """The attention scores (heads, L, L) that ``helpers.CausalSelfAttention`` forms with a scheme,
    before the causal mask and the softmax, calling the scheme's three hooks in the model's order.

    x (1, L, d_model) token vectors; w_q, w_k (d_model, d_model) projections; positions (L,).
    """
    h = position_scheme.embed(x, positions)  # hook 1: added to x
    heads, head_dim = position_scheme.n_heads, position_scheme.head_dim
    q = (h @ w_q).view(1, -1, heads, head_dim).transpose(1, 2)  # (1, heads, L, head_dim)
    k = (h @ w_k).view(1, -1, heads, head_dim).transpose(1, 2)
    q, k = position_scheme.rotate(q, k, positions)  # hook 2: rotates q and k
    scores = (q @ k.transpose(-2, -1))[0] / math.sqrt(head_dim)
    bias = position_scheme.bias(positions, positions)  # hook 3: a bias on the scores
    return scores if bias is None else scores + bias


def position_kind(position_scheme: PositionScheme, length: int = 12, shift: int = 100, seed: int = 0) -> str:
    """What attention sees of position with this scheme, decided from the scores it produces.

    Random token vectors and projections (and random values in the scheme's own parameters: T5's
    and Shaw's tables start at zero) are scored at positions 0 … L−1, at the same positions
    shifted by ``shift``, and at the positions stretched (0, 2, 4, …). Scores that change under
    the shift: "absolute". Unchanged under the shift but changed by the stretch, so they depend
    on the offsets: "relative". Unchanged by both: "none" (attention does not see position).
    """
    if not isinstance(position_scheme, PositionScheme):
        raise TypeError(f"position_scheme must be a helpers scheme, got {type(position_scheme).__name__}")
    length, shift, seed = check_int("length", length, 2), check_int("shift", shift, 1), check_int("seed", seed, 0)
    generator = torch.Generator().manual_seed(seed)
    probe = copy.deepcopy(position_scheme).double()
    with torch.no_grad():
        for p in probe.parameters():
            p.copy_(torch.randn(p.shape, generator=generator, dtype=p.dtype))
    d = probe.d_model
    x = torch.randn(1, length, d, generator=generator, dtype=torch.float64)
    w_q, w_k = torch.randn(2, d, d, generator=generator, dtype=torch.float64) / math.sqrt(d)
    pos = torch.arange(length)

    def scores(positions):
        with torch.no_grad():
            return scheme_scores(probe, x, w_q, w_k, positions)

    base = scores(pos)
    same_shifted = torch.allclose(scores(pos + shift), base, rtol=1e-6, atol=1e-6)
    same_stretched = torch.allclose(scores(2 * pos), base, rtol=1e-6, atol=1e-6)
    if not same_shifted:
        return "absolute"
    return "none" if same_stretched else "relative"


class SchemeEntry(NamedTuple):
    """One scheme, described by its object: every column but ``enters`` is computed."""

    name: str
    enters: str  # the scheme's own statement of where it enters attention
    hook: str  # where it does enter: the hook it overrides, in the words of ``enters``
    learned: bool  # it has trainable parameters
    relative: bool  # position == "relative"
    parameters: int  # trainable numbers at the size asked for
    position: str  # "absolute", "relative" or "none": from ``position_kind``, the scores under shifts


def scheme_map(n_heads: int = 8, head_dim: int = 64, max_len: int = 1024) -> list[SchemeEntry]:
    """Every scheme of ``helpers.SCHEMES`` built at one size (d_model = n_heads · head_dim, a
    learned table of max_len rows, other options at their defaults), each described by its
    object. Where it enters: the hook its class overrides (``embed``, ``rotate`` or ``bias``).
    Learned: whether it has trainable parameters. Absolute, relative or none: ``position_kind``
    (run on 2 heads of 8: enough to tell, and quick)."""
    n_heads, head_dim = check_int("n_heads", n_heads, 1), check_int("head_dim", head_dim, 1)
    max_len = check_int("max_len", max_len, 1)
    entries = []
    for name in SCHEMES:
        s = scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max_len)
        overridden = [_HOOKS[h] for h in _HOOKS if getattr(type(s), h) is not getattr(PositionScheme, h)]
        trainable = sum(p.numel() for p in s.parameters() if p.requires_grad)
        kind = position_kind(scheme(name, n_heads=2, head_dim=8, max_len=200))
        entries.append(SchemeEntry(name, s.enters, overridden[0] if overridden else "nothing", trainable > 0,
                                   kind == "relative", trainable, kind))
    return entries
