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

from .._checks import check_base, check_choice, check_even, check_int
from ..encodings import frequencies
from ..model import TinyLM
from ..rope_scaling import (
    PAIR_KINDS,
    SCALING_METHODS,
    _check_factor,
    _check_frequencies,
    classify_pairs,
    dynamic_ntk_factor,
    pair_scales,
    relative_wavelengths,
    scaled_frequencies,
)
from ..rotary import rope
from ..schemes import RoPE
from ..training import (
    SHORT_CONTEXT,
    LetterDigitCopy,
    ShortContext,
    Task,
    _field_entropy,
    loss_by_position,
    train,
)

# What the lesson applies to its trained model: no scaling at all ("plain": the positions past L
# simply extrapolate), then each method of helpers.SCALING_METHODS.
STRETCHES = ("plain", *SCALING_METHODS)
# Llama 3.1's published ramp ends, used for the toy model too (they are counts of turns within L).
LLAMA3_PARAMS = {"low_freq_factor": 1.0, "high_freq_factor": 4.0}


def method_parameters(method: str, factor: float, original_max_len: int) -> dict:
    """The extra keywords ``scaled_frequencies`` needs for ``method`` in this lesson: Llama 3.1's
    ramp ends for "llama3", and for "dynamic" the length n = factor·L it is asked to reach, with
    a configured factor of 1 (so its effective factor at n is exactly n / L = factor)."""
    if method == "llama3":
        return dict(LLAMA3_PARAMS)
    if method == "dynamic":
        return {"seq_len": round(factor * original_max_len)}
    return {}


def stretched_frequencies(
    head_dim: int, base: float, method: str, factor: float, original_max_len: int
) -> tuple[torch.Tensor, float, float]:
    """(inv_freq, attention_scale, full_factor) for one of :data:`STRETCHES` as this lesson uses it.

    "plain" keeps base^(−2i/d); "dynamic" is configured with factor 1 and asked for n = factor·L
    (see :func:`method_parameters`); ``full_factor`` is the scale of a fully interpolated pair
    (``factor``, or dynamic NTK's effective factor at n).
    """
    method = check_choice("method", method, STRETCHES)
    if method == "plain":
        factor = _check_factor(factor)
        return frequencies(check_even("head_dim", head_dim), check_base(base), torch.float64), 1.0, factor
    configured = 1.0 if method == "dynamic" else factor
    params = method_parameters(method, factor, original_max_len)
    inv_freq, attention_scale = scaled_frequencies(head_dim, base, method, configured, original_max_len, **params)
    full = dynamic_ntk_factor(1.0, params["seq_len"], original_max_len) if method == "dynamic" else float(factor)
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
# Why plain extrapolation fails, and why plain interpolation blurs neighbours


class UnseenAngles(NamedTuple):
    """Per pair: which angles a key at offset δ in L … n−1 gets that no offset below L gave it."""

    turns_within_l: torch.Tensor  # (d/2,) float64: (L−1)·ω_i / 2π, how far pair i turned over training offsets
    largest_gap: torch.Tensor  # (d/2,) float64: max over δ ∈ [L, n) of the distance (rad) to the nearest
    #                            angle δ'·ω_i (mod 2π) with δ' < L; 0 = nothing new


def unseen_angles(inv_freq: torch.Tensor, original_max_len: int, length: int) -> UnseenAngles:
    """For offsets δ = L … n−1 (n = ``length`` > L), how far each pair's angle δ·ω_i lies from every
    angle δ'·ω_i (mod 2π) the training offsets δ' = 0 … L−1 produced. ``inv_freq``: (d/2,) ω_i.

    A pair that turned less than once within L meets angles up to (n−1)·ω_i that no training
    offset showed it; a fast pair only revisits angles it has seen (gaps below ω_i / 2).
    """
    omega = _check_frequencies("inv_freq", inv_freq)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    length = check_int("length", length, original_max_len + 1)
    tau = 2 * math.pi
    seen = torch.remainder(torch.arange(original_max_len, dtype=torch.float64)[:, None] * omega, tau)
    seen = seen.sort(dim=0).values.T.contiguous()  # (d/2, L), ascending per pair
    circle = torch.cat([seen[:, -1:] - tau, seen, seen[:, :1] + tau], dim=1)  # wrap-around neighbours
    new = torch.remainder(torch.arange(original_max_len, length, dtype=torch.float64)[:, None] * omega, tau)
    new = new.T.contiguous()  # (d/2, n − L)
    right = torch.searchsorted(circle, new).clamp(1, circle.shape[1] - 1)
    gap = torch.minimum(circle.gather(1, right) - new, new - circle.gather(1, right - 1)).clamp(min=0.0)
    return UnseenAngles((original_max_len - 1) * omega / tau, gap.amax(1))


class NeighbourBlur(NamedTuple):
    """What interpolation does to nearby offsets."""

    fastest_step: float  # ω'_0: the angle between neighbouring positions in the fastest pair (rad)
    original_step: float  # ω_0 before scaling
    looks_like: float  # the (fractional) trained offset whose rotation the offset asked about now gets


def neighbour_blur(inv_freq: torch.Tensor, original: torch.Tensor, offset: int) -> NeighbourBlur:
    """The fastest pair's step before and after scaling, and, when every pair is scaled alike
    (position interpolation), the trained offset that ``offset`` now looks like: offset·ω'_0/ω_0."""
    scale = pair_scales(original, inv_freq)
    offset = check_int("offset", offset, 0)
    return NeighbourBlur(float(inv_freq[0]), float(original[0]), offset / float(scale[0]))


# ---------------------------------------------------------------------------------------------
# The dynamic-NTK cache pitfall


class CacheMismatch(NamedTuple):
    """Scores of the newest query against every key, computed three ways. Errors are the largest
    |difference| from ``fresh``, relative to the largest fresh score."""

    fresh: torch.Tensor  # (n,) every key rotated now, with the frequencies of the current length n
    rotated_cache: torch.Tensor  # (n,) keys cached after rotation, each with the frequencies of its time
    unrotated_cache: torch.Tensor  # (n,) keys cached before rotation and rotated now
    rotated_cache_error: float
    unrotated_cache_error: float


def dynamic_cache_mismatch(
    q: torch.Tensor, keys: torch.Tensor, *, base: float, original_max_len: int, prompt_len: int,
    factor: float = 1.0,
) -> CacheMismatch:
    """Dynamic NTK in a decoder with a key cache. A prompt of c = ``prompt_len`` tokens is processed
    at once (its keys rotated with the frequencies for length c), then one token at a time up to
    n = len(keys): the key at position j ≥ c is rotated with the frequencies for length j + 1.
    The query q (d,) of the last token sits at n − 1 and uses the frequencies for length n.

    Dynamic NTK changes the frequencies whenever the length passes L, so keys rotated at an
    earlier length and kept in the cache no longer match the query's frequencies. Caching keys
    before the rotation (rotating them when attending) gives the fresh scores again.
    keys: (n, d); returns the three score vectors (n,) and the two relative errors.
    """
    q = q.detach().to(torch.float64)
    keys = keys.detach().to(torch.float64)
    if keys.dim() != 2 or q.shape != keys.shape[-1:]:
        raise ValueError(f"q must have shape (d,) and keys (n, d), got {tuple(q.shape)} and {tuple(keys.shape)}")
    d = check_even("q.shape[-1] (d)", q.shape[-1])
    n = keys.shape[0]
    prompt_len = check_int("prompt_len", prompt_len, 1)
    if prompt_len > n:
        raise ValueError(f"prompt_len must be at most the number of keys, {n}, got {prompt_len}")

    def freqs_at(length: int) -> torch.Tensor:
        return scaled_frequencies(d, base, "dynamic", factor, original_max_len, seq_len=length)[0]

    now = freqs_at(n)
    q_rot = rope(q[None], torch.tensor([n - 1]), freqs=now)[0]
    fresh = rope(keys, freqs=now) @ q_rot
    prompt = rope(keys[:prompt_len], freqs=freqs_at(prompt_len))
    later = [rope(keys[j : j + 1], torch.tensor([j]), freqs=freqs_at(j + 1)) for j in range(prompt_len, n)]
    rotated_cache = torch.cat([prompt, *later]) @ q_rot
    unrotated_cache = rope(keys, torch.arange(n), freqs=now) @ q_rot  # the stored raw keys, rotated now
    top = fresh.abs().max().item()
    return CacheMismatch(fresh, rotated_cache, unrotated_cache, (rotated_cache - fresh).abs().max().item() / top,
                         (unrotated_cache - fresh).abs().max().item() / top)


# ---------------------------------------------------------------------------------------------
# The methods on a trained model


class Bands(NamedTuple):
    """Mean loss (nats) in three position bands of a loss-by-position curve."""

    within: float  # positions 0 … L−1
    to_2l: float  # L … 2L−1
    to_4l: float  # 2L … 4L−1 (nan if the curve is shorter)


def loss_bands(loss: torch.Tensor, original_max_len: int) -> Bands:
    """Band means of a (n,) loss-by-position curve, n ≥ 2L; the last band is nan when n < 4L."""
    L = check_int("original_max_len", original_max_len, 1)
    n = loss.shape[-1]
    if loss.dim() != 1 or n < 2 * L:
        raise ValueError(f"loss must be a (n,) curve with n ≥ 2L = {2 * L}, got shape {tuple(loss.shape)}")
    last = loss[2 * L : 4 * L].mean().item() if n >= 4 * L else float("nan")
    return Bands(loss[:L].mean().item(), loss[L : 2 * L].mean().item(), last)


def _rope_scheme(model: torch.nn.Module) -> RoPE:
    scheme = getattr(model, "scheme", None)
    if not isinstance(scheme, RoPE):
        raise TypeError(f"model must be a TinyLM with the rope scheme, got scheme {type(scheme).__name__}")
    return scheme


def apply_stretch(model: torch.nn.Module, method: str, factor: float, original_max_len: int) -> float:
    """Give a RoPE model's scheme the frequencies and attention scale of ``method`` at ``factor``
    (no training); returns the attention scale. "plain" restores base^(−2i/d)."""
    scheme = _rope_scheme(model)
    inv_freq, attention_scale, _ = stretched_frequencies(scheme.head_dim, scheme.base, method, factor,
                                                         original_max_len)
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
    return FieldLosses(letter / batches, digit / batches, _field_entropy(task.letters, task.noise),
                       _field_entropy(task.digits, task.noise), math.log(task.letters), math.log(task.digits))


class TemperatureEffect(NamedTuple):
    """YaRN's frequencies on a trained model with and without its attention factor: the mean
    attention entropy and the mean excess loss over the floor, at positions 2L … n−1."""

    entropy_on: float
    entropy_off: float
    loss_on: float
    loss_off: float


def yarn_temperature_effect(
    model: torch.nn.Module, task: Task, *, factor: float, original_max_len: int, length: int
) -> TemperatureEffect:
    """Apply YaRN at ``factor`` (no training) with its attention scale and with scale 1, and measure
    the attention entropy (8 sequences) and the loss (2 batches of 32) past 2L each time. The
    model's frequencies are restored after."""
    scheme = _rope_scheme(model)
    saved = scheme.inv_freq.clone(), scheme.attention_scale
    inv_freq, scale, _ = stretched_frequencies(scheme.head_dim, scheme.base, "yarn", factor, original_max_len)
    floor = task.floor_by_position(length)[2 * original_max_len:]
    values = []
    try:
        for s in (scale, 1.0):
            scheme.set_frequencies(inv_freq, s)
            entropy = attention_entropy_by_position(model, task, length=length, batch=8)
            loss = loss_by_position(model, task, length=length, batches=2)
            values += [entropy[2 * original_max_len:].mean().item(),
                       (loss[2 * original_max_len:] - floor).mean().item()]
    finally:
        scheme.set_frequencies(*saved)
    return TemperatureEffect(values[0], values[2], values[1], values[3])


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

    def excess(self, which: str, method: str) -> Bands:
        """Band means of loss − floor for ``which`` ("training_free" or "tuned") and ``method``."""
        curves = {"training_free": self.training_free, "tuned": self.tuned}[check_choice(
            "which", which, ("training_free", "tuned"))]
        return loss_bands(curves[method] - self.floor, self.original_max_len)


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


def stretch_claims(run: StretchRun) -> dict[str, bool]:
    """The orderings the lesson asserts, checked on one seed's run (each True or False).

    Losses are compared as band means (``StretchRun.excess``); "beyond L" is both bands past L.
    """
    free = {m: run.excess("training_free", m) for m in run.training_free}
    tuned = {m: run.excess("tuned", m) for m in run.tuned}
    result = {
        "no training, within L: plain RoPE lowest, PI highest":
            min(free, key=lambda m: free[m].within) == "plain" and max(free, key=lambda m: free[m].within) == "linear",
        "no training, L–2L: plain RoPE below PI, YaRN and Llama 3":
            all(free["plain"].to_2l < free[m].to_2l for m in ("linear", "yarn", "llama3")),
        "no training, 2L–4L: NTK below plain RoPE": free["ntk"].to_4l < free["plain"].to_4l,
        "no training, every band: PI above NTK":
            all(a > b for a, b in zip(free["linear"], free["ntk"], strict=True)),
    }
    if {"plain", "linear"} <= set(tuned):
        others = [m for m in tuned if m != "linear"]
        result["fine-tuned, every band: PI above " + " and ".join(others)] = all(
            tuned["linear"][band] > tuned[m][band] for m in others for band in range(3))
        result["fine-tuned, PI more than 1 nat above the floor in every band"] = min(tuned["linear"]) > 1.0
        if run.tuned_fields and "linear" in run.tuned_fields:
            f = run.tuned_fields["linear"]
            digit = f.digit[2 * run.original_max_len:].mean().item()
            result["fine-tuned, PI's digit past 2L closer to chance than to its floor"] = (
                digit - f.digit_floor > f.digit_chance - digit)
        result["fine-tuning plain RoPE at 4L lowers its loss past 2L, raises it within L"] = (
            tuned["plain"].to_4l < free["plain"].to_4l and tuned["plain"].within > free["plain"].within)
    return result
