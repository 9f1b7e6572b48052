"""Lesson 09: the methods applied to a trained model: stretch, evaluate, fine-tune, the YaRN temperature."""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import NamedTuple

import torch

from ..._checks import check_int
from ...schemes import RoPE
from ...tasks import LetterDigitCopy, Task
from ...training import loss_by_position, train
from .methods import STRETCHES, stretched_frequencies

# ---------------------------------------------------------------------------------------------
# The methods on a trained model


def _rope_scheme(model: torch.nn.Module) -> RoPE:
    scheme = getattr(model, "scheme", None)
    if not isinstance(scheme, RoPE):
        raise TypeError(f"model must be a TinyLM with the rope scheme, got scheme {type(scheme).__name__}")
    return scheme


def apply_stretch(
    model: torch.nn.Module, method: str, factor: float, original_max_len: int, seq_len: int | None = None
) -> float:
    """Give a RoPE model's scheme the frequencies and attention scale of ``method`` at ``factor``
    (no training); returns the attention scale. "plain" restores base^(−2i/d). ``seq_len``: for
    "dynamic", the length of the input it will read (by default factor·L), which sets its frequencies."""
    scheme = _rope_scheme(model)
    inv_freq, attention_scale, _ = stretched_frequencies(scheme.head_dim, scheme.base, method, factor,
                                                         original_max_len, seq_len)
    scheme.set_frequencies(inv_freq, attention_scale)
    return attention_scale


def losses_by_method(
    model: torch.nn.Module, task: Task, *, original_max_len: int, factor: float, length: int,
    methods: Sequence[str] = STRETCHES, batches: int = 4, batch: int = 32, seed: int = 1,
) -> dict[str, torch.Tensor]:
    """method → (length,) loss by position of ``model`` with that method applied, no training.

    Every method is evaluated on the same batches; the model's frequencies are restored after.
    """
    scheme = _rope_scheme(model)
    saved = scheme.inv_freq.clone(), scheme.attention_scale
    curves = {}
    try:
        for method in methods:
            apply_stretch(model, method, factor, original_max_len)
            curves[method] = loss_by_position(model, task, length=length, batches=batches, batch=batch, seed=seed)
    finally:
        scheme.set_frequencies(*saved)
    return curves


def fine_tuned(
    model: torch.nn.Module, task: Task, method: str, *, factor: float, original_max_len: int, steps: int,
    length: int, batch: int, lr: float, seed: int, progress: bool = True,
) -> tuple[torch.nn.Module, list[float]]:
    """A copy of ``model`` with ``method`` applied at ``factor``, then trained for ``steps`` steps at
    ``length`` (``helpers.train``); the original is untouched. Returns (copy, losses)."""
    tuned = copy.deepcopy(model)
    apply_stretch(tuned, method, factor, original_max_len)
    losses = train(tuned, task, steps=steps, batch=batch, length=length, lr=lr, seed=seed, progress=progress,
                   description=f"fine-tune, {method}")
    return tuned, losses


@torch.no_grad()
def attention_entropy_by_position(
    model: torch.nn.Module, task: Task, *, length: int, batch: int = 32, seed: int = 1
) -> torch.Tensor:
    """Mean entropy (nats) of the attention rows at each query position, averaged over layers,
    heads and ``batch`` sequences of ``task``: a (length,) float64 tensor. The row of the query at
    position t spreads over t + 1 keys, so its entropy is at most ln(t + 1)."""
    length = check_int("length", length, 1)
    inputs, _ = task.sample(check_int("batch", batch, 1), length, torch.Generator().manual_seed(seed))
    was_training = model.training
    model.eval()
    try:
        _, weights = model(inputs, return_weights=True)
    finally:
        model.train(was_training)
    rows = torch.stack(weights).double()  # (layers, batch, heads, L, L)
    entropy = -(rows * rows.clamp_min(1e-30).log()).sum(-1)
    return entropy.mean(dim=(0, 1, 2))


class FieldLosses(NamedTuple):
    """Next-token loss (nats) of a ``LetterDigitCopy`` model split into its two fields, by position."""

    letter: torch.Tensor  # (n,) −ln P(the right letter), the model's probabilities summed over digits
    digit: torch.Tensor  # (n,) −ln P(the right digit), summed over letters
    letter_floor: float  # the least expected loss of a field once its source is in view
    digit_floor: float
    letter_chance: float  # ln(letters): the loss of a uniform guess
    digit_chance: float


@torch.no_grad()
def field_losses(
    model: torch.nn.Module, task: LetterDigitCopy, *, length: int, batches: int = 2, batch: int = 32, seed: int = 1
) -> FieldLosses:
    """Which of the two fields a model predicts: the letter (copied from ``task.short`` back) and the
    digit (from ``task.long`` back), each scored on its own, averaged over ``batches`` batches."""
    if not isinstance(task, LetterDigitCopy):
        raise TypeError(f"task must be a LetterDigitCopy, got {type(task).__name__}")
    length = check_int("length", length, 1)
    generator = torch.Generator().manual_seed(check_int("seed", seed, 0))
    was_training = model.training
    model.eval()
    letter = torch.zeros(length, dtype=torch.float64)
    digit = torch.zeros(length, dtype=torch.float64)
    try:
        for _ in range(check_int("batches", batches, 1)):
            inputs, targets = task.sample(check_int("batch", batch, 1), length, generator)
            log_p = model(inputs).double().log_softmax(-1).unflatten(-1, (task.letters, task.digits))
            right_letter, right_digit = task.split(targets)
            letter -= log_p.logsumexp(-1).gather(-1, right_letter[..., None])[..., 0].mean(0)
            digit -= log_p.logsumexp(-2).gather(-1, right_digit[..., None])[..., 0].mean(0)
    finally:
        model.train(was_training)
    return FieldLosses(letter / batches, digit / batches, task.letter_floor, task.digit_floor,
                       math.log(task.letters), math.log(task.digits))


class TemperatureEffect(NamedTuple):
    """YaRN's frequencies on a trained model with its attention factor m = 0.1·ln(factor) + 1 on q
    and on k (logits × m², the paper's convention), without it (logits × 1), and with m put on the
    logits once (logits × m, the mistaken reading): the mean attention entropy and the mean excess
    loss over the floor, at positions 2L … n−1."""

    entropy_on: float
    entropy_off: float
    loss_on: float
    loss_off: float
    entropy_logits_once: float = float("nan")
    loss_logits_once: float = float("nan")


def yarn_temperature_effect(
    model: torch.nn.Module, task: Task, *, factor: float, original_max_len: int, length: int
) -> TemperatureEffect:
    """Apply YaRN at ``factor`` (no training) with its attention scale m on q and k, with scale 1,
    and with √m on q and k (so the logits grow by m, not m²), and measure the attention entropy
    (8 sequences) and the loss (2 batches of 32) past 2L each time. The model's frequencies are
    restored after."""
    scheme = _rope_scheme(model)
    saved = scheme.inv_freq.clone(), scheme.attention_scale
    inv_freq, scale, _ = stretched_frequencies(scheme.head_dim, scheme.base, "yarn", factor, original_max_len)
    floor = task.floor_by_position(length)[2 * original_max_len:]
    values = []
    try:
        for s in (scale, 1.0, math.sqrt(scale)):
            scheme.set_frequencies(inv_freq, s)
            entropy = attention_entropy_by_position(model, task, length=length, batch=8)
            loss = loss_by_position(model, task, length=length, batches=2)
            values += [entropy[2 * original_max_len:].mean().item(),
                       (loss[2 * original_max_len:] - floor).mean().item()]
    finally:
        scheme.set_frequencies(*saved)
    return TemperatureEffect(values[0], values[2], values[1], values[3], values[4], values[5])
