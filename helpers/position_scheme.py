"""The interface every position scheme of the course implements (:mod:`helpers.schemes` holds
the schemes themselves).

A scheme is an ``nn.Module`` with three hooks; each is the identity for schemes that do not
use it, so a model calls all three and never asks which scheme it has:

    embed(x, positions)                  added to the input x (batch, L, d_model): sinusoidal, learned
    rotate(q, k, positions)              turns q, k (batch, heads, L, head_dim): rope
    bias(q_positions, k_positions)       an additive score bias (heads, Lq, Lk): alibi, t5, shaw

``positions`` is ``None`` (meaning 0 … L−1) or an integer tensor of shape (L,) or (batch, L).
With (batch, L) positions a bias has shape (batch, heads, Lq, Lk).

The base class also merges the causal mask with the bias into the one additive mask that
``F.scaled_dot_product_attention`` takes, and describes the scheme for the map of lesson 07.
"""

from __future__ import annotations

import torch
from torch import nn

from ._checks import check_int, check_positions

_MASK_CACHE_SIZE = 8


def check_scheme_positions(positions, batch: int, length: int) -> torch.Tensor | None:
    """Return ``positions`` if it is None or an integer tensor ≥ 0 of shape (L,) or (batch, L)."""
    if positions is None:
        return None
    positions = check_positions(positions)
    if tuple(positions.shape) not in ((length,), (batch, length)):
        raise ValueError(
            f"positions must have shape (length,) = ({length},) or (batch, length) = ({batch}, {length}), "
            f"got shape {tuple(positions.shape)}"
        )
    return positions


def check_position_pair(q_positions, k_positions) -> tuple[torch.Tensor, torch.Tensor]:
    """Both position tensors of a bias checked: integer tensors ≥ 0, named in the error."""
    return check_positions(q_positions, "q_positions"), check_positions(k_positions, "k_positions")


def default_positions(positions, length: int, device) -> torch.Tensor:
    """``positions``, or 0 … length − 1 when it is None."""
    if positions is None:
        return torch.arange(length, device=device)
    return positions


class PositionScheme(nn.Module):
    """The base of every scheme: all three hooks are the identity (the "none" scheme).

    Subclasses override the hooks they use. ``attention_mask`` merges the causal mask with
    ``bias`` into the one additive mask that ``F.scaled_dot_product_attention`` takes.
    """

    name = "none"
    enters = "nothing"
    learned = False
    relative = False

    def __init__(self, n_heads: int, head_dim: int, max_len: int | None = None):
        super().__init__()
        self.n_heads = check_int("n_heads", n_heads, 1)
        self.head_dim = check_int("head_dim", head_dim, 1)
        self.d_model = self.n_heads * self.head_dim
        self.max_len = None if max_len is None else check_int("max_len", max_len, 1)
        self._masks: dict[tuple, torch.Tensor] = {}

    # --- the three hooks -------------------------------------------------------------
    def embed(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """x (batch, L, d_model) with the position signal added; here x itself."""
        return x

    def rotate(
        self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """q, k (batch, heads, L, head_dim) turned by their positions; here unchanged."""
        return q, k

    def bias(self, q_positions: torch.Tensor, k_positions: torch.Tensor) -> torch.Tensor | None:
        """Additive score bias (heads, Lq, Lk), or (batch, heads, Lq, Lk); here ``None``."""
        return None

    # --- shared machinery ------------------------------------------------------------
    @property
    def has_bias(self) -> bool:
        return type(self).bias is not PositionScheme.bias

    def _cacheable_bias(self) -> bool:
        """True when the bias has no trainable parameters, so a mask can be kept per length."""
        return not any(True for _ in self.parameters())

    def attention_mask(
        self, positions: torch.Tensor | None, length: int, dtype: torch.dtype, device
    ) -> torch.Tensor | None:
        """The causal mask plus the bias, as one additive float mask (1 or batch, heads, L, L);
        ``None`` if the scheme has no bias (then attention uses its built-in causal mask).

        Entry [i, j] is bias[i, j] for j ≤ i and −inf for j > i: causality follows the order of
        the tokens, whatever their position labels. Without trainable parameters the mask for
        the default positions is built once per (length, dtype, device) and cached.
        """
        if not self.has_bias:
            return None
        key = (length, dtype, torch.device(device))
        cacheable = positions is None and self._cacheable_bias()
        if cacheable and key in self._masks:
            return self._masks[key]
        pos = default_positions(positions, length, device)
        future = torch.ones(length, length, dtype=torch.bool, device=device).triu(1)
        bias = self.bias(pos, pos)
        if bias.dim() == 3:
            bias = bias[None]  # (1, heads, L, L): SDPA's CPU kernel is much slower with a 3-d mask
        mask = bias.to(dtype).masked_fill(future, float("-inf"))
        if cacheable:
            if len(self._masks) >= _MASK_CACHE_SIZE:
                self._masks.pop(next(iter(self._masks)))
            self._masks[key] = mask
        return mask

    def _apply(self, fn, *args, **kwargs):
        self._masks.clear()  # .to(device) / .double(): cached masks are rebuilt on demand
        return super()._apply(fn, *args, **kwargs)

    def describe(self) -> dict:
        """Name, where it enters attention, learned or fixed, relative or absolute, parameter count."""
        return {
            "name": self.name,
            "enters": self.enters,
            "learned": self.learned,
            "relative": self.relative,
            "parameters": sum(p.numel() for p in self.parameters()),
        }

    def extra_repr(self) -> str:
        max_len = "" if self.max_len is None else f", max_len={self.max_len}"
        return f"n_heads={self.n_heads}, head_dim={self.head_dim}{max_len}"
