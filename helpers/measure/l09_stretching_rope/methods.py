"""Lesson 09: the stretching methods the lesson applies ("plain" and each scaling method) and the
frequencies each gives."""

from __future__ import annotations

import torch

from ..._checks import check_base, check_choice, check_even, check_int
from ...encodings import frequencies
from ...rope_scaling import (
    SCALING_METHODS,
    _check_factor,
    dynamic_ntk_factor,
    scaled_frequencies,
)

# What the lesson applies to its trained model: no scaling at all ("plain": the positions past L
# simply extrapolate), then each method of helpers.SCALING_METHODS.
STRETCHES = ("plain", *SCALING_METHODS)
# Llama 3.1's published ramp ends, used for the toy model too (they are counts of turns within L).
LLAMA3_PARAMS = {"low_freq_factor": 1.0, "high_freq_factor": 4.0}


def method_parameters(method: str, factor: float, original_max_len: int, seq_len: int | None = None) -> dict:
    """The extra keywords ``scaled_frequencies`` needs for ``method`` in this lesson: Llama 3.1's
    ramp ends for "llama3", and for "dynamic" the length n it reads: ``seq_len`` if given, else
    n = factor·L, the length the factor names."""
    if method == "llama3":
        return dict(LLAMA3_PARAMS)
    if method == "dynamic":
        return {"seq_len": round(factor * original_max_len) if seq_len is None else check_int("seq_len", seq_len, 1)}
    return {}


def stretched_frequencies(
    head_dim: int, base: float, method: str, factor: float, original_max_len: int, seq_len: int | None = None
) -> tuple[torch.Tensor, float, float]:
    """(inv_freq, attention_scale, full_factor) for one of :data:`STRETCHES` as this lesson uses it.

    "plain" keeps base^(−2i/d). Every method is configured with ``factor``, as a configuration
    ``{"rope_type": method, "factor": factor}`` would be; "dynamic" reads an input of n = ``seq_len``
    tokens, by default n = factor·L (see :func:`method_parameters`), where its effective factor is
    factor·n/L − (factor − 1) = factor² − factor + 1 (13 at factor 4), not ``factor``; at n ≤ L it
    keeps the trained frequencies. ``full_factor`` is the scale of a fully interpolated pair
    (``factor``, or dynamic NTK's effective factor at n).
    """
    method = check_choice("method", method, STRETCHES)
    if method == "plain":
        factor = _check_factor(factor)
        return frequencies(check_even("head_dim", head_dim), check_base(base), torch.float64), 1.0, factor
    params = method_parameters(method, factor, original_max_len, seq_len)
    inv_freq, attention_scale = scaled_frequencies(head_dim, base, method, factor, original_max_len, **params)
    full = dynamic_ntk_factor(factor, params["seq_len"], original_max_len) if method == "dynamic" else float(factor)
    return inv_freq, attention_scale, full
