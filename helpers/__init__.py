"""Helpers for the positional-encoding course: the math (pure functions over torch tensors),
plus plots (``helpers.plots``) and slider widgets (``helpers.widgets``), imported on demand."""

from .analysis import (
    OffsetProfile,
    dot_by_offset,
    fit_linear_map,
    linear_probe_accuracy,
    min_pairwise_distance,
    shift_distance,
    sign_changes,
)
from .attention import ENCODINGS, TinyAttention, attend, reorder_and_attend, scaled_dot_product_attention
from .encodings import (
    SINUSOIDAL_LAYOUTS,
    angles,
    counting,
    frequencies,
    normalised,
    shift_matrix,
    single_sine,
    sinusoidal,
)
from .learned import LearnedPositionalEmbedding
from .relative import alibi_bias, alibi_slopes, t5_bucket
from .rotary import ROPE_LAYOUTS, rope, rope_permutation, rotation_matrix

__all__ = [
    "ENCODINGS",
    "ROPE_LAYOUTS",
    "SINUSOIDAL_LAYOUTS",
    "LearnedPositionalEmbedding",
    "OffsetProfile",
    "TinyAttention",
    "alibi_bias",
    "alibi_slopes",
    "angles",
    "attend",
    "counting",
    "dot_by_offset",
    "fit_linear_map",
    "frequencies",
    "linear_probe_accuracy",
    "min_pairwise_distance",
    "normalised",
    "reorder_and_attend",
    "rope",
    "rope_permutation",
    "rotation_matrix",
    "scaled_dot_product_attention",
    "shift_distance",
    "shift_matrix",
    "sign_changes",
    "single_sine",
    "sinusoidal",
    "t5_bucket",
]
