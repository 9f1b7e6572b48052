"""Lesson 09: what each method does to each frequency pair, for the model shapes the lesson draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import torch

from ..._checks import check_choice
from ...encodings import frequencies
from ...rope_scaling import (
    PAIR_KINDS,
    SCALING_METHODS,
    classify_pairs,
    pair_scales,
    relative_wavelengths,
)
from ...training import SHORT_CONTEXT
from .methods import stretched_frequencies

# ---------------------------------------------------------------------------------------------
# The per-pair picture


class ModelShape(NamedTuple):
    """What the per-pair picture needs to know about a model: its RoPE shape and training length."""

    name: str
    head_dim: int
    base: float
    original_max_len: int


# Published shapes (Llama 2 7B: Touvron et al. 2023; Llama 3.1 8B: its released config), and this
# lesson's small model.
MODEL_SHAPES = (
    ModelShape("Llama 2: d 128, base 10⁴, L 4096", 128, 10000.0, 4096),
    ModelShape("Llama 3.1: d 128, base 5·10⁵, L 8192", 128, 500000.0, 8192),
    ModelShape(f"the TinyLM of lessons 08–09: d 16, base 10⁴, L {SHORT_CONTEXT.length}", 16, 10000.0,
               SHORT_CONTEXT.length),
)


@dataclass(frozen=True)
class PairPicture:
    """What one method does to every frequency pair of one model shape."""

    method: str
    factor: float  # the scale of a fully interpolated pair
    relative_wavelength: torch.Tensor  # (d/2,) float64: 2π / (ω_i·L), the original wavelength in units of L
    scale: torch.Tensor  # (d/2,) float64: s_i = ω_i / ω'_i, 1 = kept, factor = fully interpolated
    kinds: tuple[str, ...]  # one of PAIR_KINDS per pair
    attention_scale: float  # per-vector factor on q and k (logits grow by its square)

    def count(self, kind: str) -> int:
        """How many pairs are of ``kind`` (one of PAIR_KINDS)."""
        return self.kinds.count(check_choice("kind", kind, PAIR_KINDS))

    def pairs(self, kind: str) -> list[int]:
        """The indices of the pairs of ``kind``."""
        kind = check_choice("kind", kind, PAIR_KINDS)
        return [i for i, k in enumerate(self.kinds) if k == kind]


def pair_picture(
    method: str, factor: float, *, head_dim: int, base: float, original_max_len: int
) -> PairPicture:
    """The per-pair picture of ``method`` (one of :data:`STRETCHES`) at ``factor`` for a model of
    ``head_dim`` and ``base`` trained at ``original_max_len``: wavelength / L, scale and kind per pair."""
    inv_freq, attention_scale, full = stretched_frequencies(head_dim, base, method, factor, original_max_len)
    original = frequencies(head_dim, base, torch.float64)
    scale = pair_scales(original, inv_freq)
    return PairPicture(method, full, relative_wavelengths(original, original_max_len), scale,
                       classify_pairs(scale, full), attention_scale)


def shape_pictures(
    shape: ModelShape, factor: float, methods: Sequence[str] = SCALING_METHODS
) -> dict[str, PairPicture]:
    """method → :class:`PairPicture` for one model shape at one factor (what the explorer draws)."""
    if not isinstance(shape, ModelShape):
        raise TypeError(f"shape must be a ModelShape, such as one of MODEL_SHAPES, got {type(shape).__name__}")
    return {method: pair_picture(method, factor, head_dim=shape.head_dim, base=shape.base,
                                 original_max_len=shape.original_max_len) for method in methods}
