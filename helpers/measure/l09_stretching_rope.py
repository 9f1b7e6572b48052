"""Lesson 09, stretching RoPE past its training length: what each scaling method does to each
frequency pair, why plain extrapolation and plain interpolation each fail, the dynamic-NTK cache
pitfall, and the methods applied to a small trained model, with and without a short fine-tune.

Notation: L is the training (original) length, n the length asked for, d the head dimension,
ω_i = base^(−2i/d) the frequency of pair i, ω'_i the stretched one, s_i = ω_i / ω'_i its scale.
Scaled frequencies come from :func:`helpers.scaled_frequencies`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import torch

from .._checks import check_base, check_choice, check_even, check_finite, check_int
from ..encodings import frequencies
from ..model import TinyLM
from ..rope_scaling import (
    PAIR_KINDS,
    SCALING_METHODS,
    _check_factor,
    classify_pairs,
    dynamic_ntk_factor,
    pair_scales,
    relative_wavelengths,
    scaled_frequencies,
)
from ..schemes import RoPE
from ..tasks import LetterDigitCopy, Task
from ..training import SHORT_CONTEXT, ShortContext, loss_by_position, train
from .common import BandMeans, band_means

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


# ---------------------------------------------------------------------------------------------
# The whole experiment for one seed


@dataclass(frozen=True)
class FineTuning:
    """The short fine-tune at the longer length: a few dozen steps of ``batch`` sequences."""

    steps: int = 40
    batch: int = 8
    lr: float = 3e-3
    seed_offset: int = 1000  # fine-tuning batches come from seed + seed_offset: data the model has not seen


@dataclass(frozen=True)
class StretchRun:
    """One seed of the lesson's experiment: losses by position (4L,) for each stretch, no training
    and after fine-tuning at 4L, with the task's floor. ``base`` is the pre-trained model."""

    seed: int
    original_max_len: int
    factor: float
    floor: torch.Tensor  # (n,) the task's entropy floor at each position
    training_free: dict[str, torch.Tensor]  # stretch → (n,) loss by position, no training
    tuned: dict[str, torch.Tensor]  # stretch → (n,) loss by position after fine-tuning at n
    base: torch.nn.Module
    tuned_fields: dict[str, FieldLosses] | None = None  # for a LetterDigitCopy task: the fields after fine-tuning

    def excess(self, which: str, method: str) -> BandMeans:
        """Band means of loss − floor for ``which`` ("training_free" or "tuned") and ``method``."""
        curves = {"training_free": self.training_free, "tuned": self.tuned}[check_choice(
            "which", which, ("training_free", "tuned"))]
        return band_means(curves[method] - self.floor, self.original_max_len)


def stretch_run(
    task: Task, seed: int, *, factor: float = 4.0, settings: ShortContext | None = None,
    fine_tuning: FineTuning | None = None, tune: Sequence[str] = ("plain", "linear", "yarn"),
    model_options: dict | None = None, eval_batches: int = 2, progress: bool = True,
) -> StretchRun:
    """Lesson 08's RoPE model retrained and stretched. A RoPE ``TinyLM`` is trained on ``task`` as
    lesson 08 trains it (``settings``, by default ``SHORT_CONTEXT``: weights drawn after
    ``torch.manual_seed(seed)``, then ``train`` at L = settings.length with batches from ``seed``). It is
    evaluated at n = factor·L with each of :data:`STRETCHES` applied and no training; then a copy
    is fine-tuned at n for each stretch in ``tune`` and evaluated again. Every evaluation uses the
    same ``eval_batches`` batches of 32 (seed 1). ``model_options`` (for tests) change the model's size.
    """
    settings = settings or SHORT_CONTEXT
    fine_tuning = fine_tuning or FineTuning()
    seed = check_int("seed", seed, 0)
    L = settings.length
    n = round(factor * L)
    with torch.random.fork_rng(devices=[]):  # the global generator is left as it was
        torch.manual_seed(seed)
        model = TinyLM(task.vocab_size, "rope", **{**settings.model_options("rope"), **(model_options or {})})
    train(model, task, **{**settings.train_kwargs(), "seed": seed}, progress=progress,
          description=f"seed {seed}: training at {L}")
    free = losses_by_method(model, task, original_max_len=L, factor=factor, length=n, batches=eval_batches)
    tuned, fields = {}, {}
    for method in tune:
        copy_, _ = fine_tuned(model, task, method, factor=factor, original_max_len=L, steps=fine_tuning.steps,
                              length=n, batch=fine_tuning.batch, lr=fine_tuning.lr,
                              seed=seed + fine_tuning.seed_offset, progress=progress)
        tuned[method] = loss_by_position(copy_, task, length=n, batches=eval_batches)
        if isinstance(task, LetterDigitCopy):
            fields[method] = field_losses(copy_, task, length=n, batches=eval_batches)
    return StretchRun(seed, L, float(factor), task.floor_by_position(n), free, tuned, model, fields or None)


# Two band means are called different only when they differ by more than this (nats), as in lesson 08.
STRETCH_MARGIN = 0.02


def stretch_margins(run: StretchRun, effect: TemperatureEffect | None = None) -> dict[str, float]:
    """Each of the lesson's claims about one seed's run, with by how much it holds (nats; negative:
    it fails). "a below b" holds by b − a; "more than x" by value − x. The claims about the
    fine-tune need "plain" and "linear" among the tuned stretches; the one about the digit needs
    the run's field losses; the ones about YaRN's attention factor need ``effect``
    (:func:`yarn_temperature_effect` of ``run.base``).
    """
    free = {m: run.excess("training_free", m) for m in run.training_free}
    tuned = {m: run.excess("tuned", m) for m in run.tuned}
    changed = [m for m in free if m != "plain"]
    result = {
        "no training, within L: plain RoPE lowest":
            min(free[m].within for m in changed) - free["plain"].within,
        "no training, within L: PI highest":
            free["linear"].within - max(free[m].within for m in free if m != "linear"),
        "no training, within L: NTK-aware lowest of the methods that change frequencies":
            min(free[m].within for m in changed if m != "ntk") - free["ntk"].within,
        "no training, L–2L: plain RoPE below PI, YaRN and Llama 3":
            min(free[m].to_2l for m in ("linear", "yarn", "llama3")) - free["plain"].to_2l,
        "no training, 2L–4L: NTK-aware below plain RoPE": free["plain"].to_4l - free["ntk"].to_4l,
        "no training, every band: PI above NTK-aware":
            min(a - b for a, b in zip(free["linear"], free["ntk"], strict=True)),
        "no training, 2L–4L: every method more than 0.5 nats above plain RoPE within L":
            min(free[m].to_4l for m in free) - free["plain"].within - 0.5,
    }
    if {"plain", "linear"} <= set(tuned):
        others = [m for m in tuned if m != "linear"]
        result["fine-tuned, every band: PI above " + " and ".join(others)] = min(
            tuned["linear"][band] - tuned[m][band] for m in others for band in range(3))
        result["fine-tuned, PI more than 1 nat above the floor in every band"] = min(tuned["linear"]) - 1.0
        if run.tuned_fields and "linear" in run.tuned_fields:
            f = run.tuned_fields["linear"]
            digit = f.digit[2 * run.original_max_len:].mean().item()
            result["fine-tuned, PI's digit past 2L closer to chance than to its floor"] = (
                (digit - f.digit_floor) - (f.digit_chance - digit))
        result["fine-tuning plain RoPE at 4L lowers its loss past 2L"] = free["plain"].to_4l - tuned["plain"].to_4l
    if effect is not None:
        result["YaRN's attention factor lowers the attention entropy past 2L"] = effect.entropy_off - effect.entropy_on
        if not math.isnan(effect.entropy_logits_once):
            result["put once on the logits, it lowers the entropy by less"] = min(
                effect.entropy_logits_once - effect.entropy_on, effect.entropy_off - effect.entropy_logits_once)
    return result


def stretch_claims(
    run: StretchRun, effect: TemperatureEffect | None = None, margin: float = STRETCH_MARGIN
) -> dict[str, bool]:
    """The lesson's claims about one seed's run: claim → True where it holds by more than ``margin``
    nats (:func:`stretch_margins` lists the claims and how each is measured)."""
    margin = check_finite("margin", margin)
    return {claim: by > margin for claim, by in stretch_margins(run, effect).items()}
