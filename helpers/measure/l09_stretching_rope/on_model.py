"""Lesson 09: the methods applied to a trained model: stretch, evaluate, fine-tune, the YaRN temperature,
and dynamic NTK read as a decoder with a key cache reads it."""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import NamedTuple

import torch
import torch.nn.functional as F

from ..._checks import check_choice, check_int
from ...encodings import frequencies
from ...rope_scaling import scaled_frequencies
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


# ---------------------------------------------------------------------------------------------
# Dynamic NTK in a decoder that writes token by token: its key cache
#
# A decoder reads a prompt of c tokens in one pass, then runs each new token once, at its own step,
# and keeps every layer's keys and values in a cache. Dynamic NTK sets its frequencies from the length
# of the sequence so far, so the token at position p is processed with the frequencies for length
# max(c, p + 1); transformers' ``dynamic_rope_update`` does this. Transformers stores each key *after*
# its rotation, so a cached key keeps the frequencies of its own step ("rotated" cache); a decoder that
# stores keys before the rotation turns every cached key again at each step, with that step's
# frequencies ("unrotated" cache). One forward pass over a whole input of n tokens, what a loss by
# input length measures, uses the frequencies for length n at every position: a caching decoder never
# computes that.
#
# With the text known in advance (the validation text read as if the model were writing it, each
# step scored on the true next byte), the steps need not be run one by one: every position's hidden
# states are fixed at its own step, so one pass per layer over all positions gives the same numbers,
# provided each query and each key is turned as it was at its step.

CACHES = ("rotated", "unrotated")


def dynamic_step_frequencies(
    head_dim: int, base: float, factor: float, original_max_len: int, length: int, prompt_len: int | None = None
) -> torch.Tensor:
    """(length, head_dim/2) float64: row p holds dynamic NTK's frequencies (configured with
    ``factor``, trained at L = ``original_max_len``) when position p is processed: those for length
    max(c, p + 1), c = ``prompt_len``. By default c = min(L, length); every prompt of at most L gives
    the same rows, since up to L dynamic NTK keeps the trained frequencies."""
    length = check_int("length", length, 1)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    prompt_len = min(original_max_len, length) if prompt_len is None else check_int("prompt_len", prompt_len, 1)
    if prompt_len > length:
        raise ValueError(f"prompt_len must be at most length = {length}, got {prompt_len}")
    rows = {n: scaled_frequencies(head_dim, base, "dynamic", factor, original_max_len, seq_len=n)[0]
            for n in range(prompt_len, length + 1)}
    return torch.stack([rows[max(prompt_len, p + 1)] for p in range(length)])


def _pairs(x: torch.Tensor, layout: str) -> torch.Tensor:
    """(..., d) real → (..., d/2) complex: RoPE's pairs as numbers x + iy, in the model's layout."""
    x = x if x.dtype == torch.float64 else x.float()
    if layout == "interleaved":
        return torch.view_as_complex(x.contiguous().unflatten(-1, (x.shape[-1] // 2, 2)))
    half = x.shape[-1] // 2
    return torch.complex(x[..., :half], x[..., half:])


def _unpairs(z: torch.Tensor, layout: str, dtype: torch.dtype) -> torch.Tensor:
    """The inverse of :func:`_pairs`, in ``dtype``."""
    x = torch.view_as_real(z).flatten(-2) if layout == "interleaved" else torch.cat([z.real, z.imag], dim=-1)
    return x.to(dtype)


def _turns(step_freqs: torch.Tensor, cache: str, ctype: torch.dtype) -> tuple[int, torch.Tensor, torch.Tensor]:
    """What every layer turns, worked out once: (s, first, later).

    The first s rows of ``step_freqs`` are equal (the prompt's frequencies): first[p] =
    exp(i·p·ω(step 0)) (s, d/2) turns the queries and keys of those positions, which meet only each
    other. "rotated": later[p − s] = exp(i·p·ω(step p)) (n − s, d/2), each later position turned
    once. "unrotated": later[i − s, j] = exp(i·j·ω(step i)) (n − s, n, d/2), key j as the query of
    step i turns it."""
    n = step_freqs.shape[0]
    positions = torch.arange(n, dtype=torch.float64)
    same = (step_freqs == step_freqs[0]).all(-1)
    start = n if bool(same.all()) else int((~same).nonzero()[0, 0])

    def polar(angles):
        return torch.polar(torch.ones_like(angles), angles).to(ctype)

    first = polar(positions[:start, None] * step_freqs[0])
    if cache == "rotated":
        return start, first, polar(positions[start:, None] * step_freqs[start:])
    return start, first, polar(positions[None, :, None] * step_freqs[start:, None, :])


def _attend(q, k, v, cache, turns, layout, scale):
    """Causal attention of one layer, q, k, v (batch, heads, n, head_dim), each position turned as
    a caching decoder turns it (see :func:`_turns`); q and k multiplied by ``scale``."""
    batch, heads, n, head_dim = q.shape
    start, first, later = turns
    qc, kc = _pairs(q, layout), _pairs(k, layout)
    if cache == "rotated":  # query and key of position p turned by p·ω(step p), the key stored turned
        table = torch.cat([first, later])
        q, k = _unpairs(qc * table, layout, v.dtype) * scale, _unpairs(kc * table, layout, v.dtype) * scale
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out = torch.empty(batch, heads, n, head_dim, dtype=v.dtype, device=v.device)
    out[:, :, :start] = F.scaled_dot_product_attention(  # the prompt: one set of frequencies for all
        _unpairs(qc[:, :, :start] * first, layout, v.dtype) * scale,
        _unpairs(kc[:, :, :start] * first, layout, v.dtype) * scale, v[:, :, :start], is_causal=True)
    # keys stored unturned: the query of step i ≥ start turns itself and every key j ≤ i with ω(step i)
    qf, kf, vf = qc.flatten(0, 1), kc.flatten(0, 1), v.reshape(batch * heads, n, head_dim)
    flat = out.view(batch * heads, n, head_dim)
    norm = scale * scale / math.sqrt(head_dim)
    for i in range(start, n):
        turned = later[i - start, : i + 1]  # (i + 1, d/2)
        keys = _unpairs(kf[:, : i + 1] * turned, layout, v.dtype)  # (batch·heads, i + 1, head_dim)
        query = _unpairs(qf[:, i] * turned[i], layout, v.dtype)  # (batch·heads, head_dim)
        weights = (torch.bmm(keys, query[:, :, None])[..., 0] * norm).softmax(-1)
        flat[:, i] = torch.bmm(weights[:, None, :], vf[:, : i + 1])[:, 0]
    return out


@torch.no_grad()
def cached_generation_logits(
    model: torch.nn.Module, tokens: torch.Tensor, step_freqs: torch.Tensor, cache: str = "rotated",
    attention_scale: float = 1.0,
) -> torch.Tensor:
    """The logits (batch, n, vocab) a RoPE TinyLM gives when it reads ``tokens`` (batch, n) one
    token at a time with a key cache, position p processed with the frequencies ``step_freqs[p]``
    ((n, head_dim/2); see :func:`dynamic_step_frequencies`), q and k multiplied by ``attention_scale``.

    ``cache="rotated"``: each key is stored turned with the frequencies of its own step, as
    transformers stores it; ``"unrotated"``: keys are stored as projected and turned again at every
    step with that step's frequencies, so the newest query meets every key at its own frequencies.
    With every row of ``step_freqs`` equal, both are one forward pass with those frequencies.
    The model's own frequencies are neither used nor changed; it is run in eval mode."""
    scheme = _rope_scheme(model)
    cache = check_choice("cache", cache, CACHES)
    if not isinstance(tokens, torch.Tensor) or tokens.dim() != 2 or tokens.is_floating_point():
        raise ValueError(f"tokens must be an integer tensor of shape (batch, n), got {tokens!r:.60}")
    n, pairs = tokens.shape[1], scheme.head_dim // 2
    if not isinstance(step_freqs, torch.Tensor) or tuple(step_freqs.shape) != (n, pairs):
        got = tuple(step_freqs.shape) if isinstance(step_freqs, torch.Tensor) else type(step_freqs).__name__
        raise ValueError(f"step_freqs must have shape (n, head_dim/2) = ({n}, {pairs}), got {got}")
    dtype = model.head.weight.dtype
    turns = _turns(step_freqs.to(torch.float64), cache,
                   torch.complex128 if dtype == torch.float64 else torch.complex64)
    was_training = model.training
    model.eval()
    try:
        h = scheme.embed(model.token_embedding(tokens))
        for block in model.blocks:
            attention = block.attention
            batch = h.shape[0]
            q, k, v = attention.qkv(block.norm1(h)).view(batch, n, 3, attention.n_heads,
                                                          attention.head_dim).permute(2, 0, 3, 1, 4)
            y = _attend(q, k, v, cache, turns, scheme.layout, attention_scale)
            h = h + attention.out(y.transpose(1, 2).reshape(batch, n, attention.d_model))
            h = h + block.mlp(block.norm2(h))
        return model.head(model.norm(h))
    finally:
        model.train(was_training)


WAYS = ("whole", "rotated", "unrotated", "plain")


class DynamicCacheLosses(NamedTuple):
    """Next-token loss (nats) by position, (n,) float64 each, averaged over the inputs, of a RoPE
    model with dynamic NTK read in each of the ways of :data:`WAYS` (None: not asked for)."""

    whole: torch.Tensor | None  # one pass over each whole input, the frequencies for length n everywhere
    rotated: torch.Tensor | None  # token by token, keys cached after their rotation (transformers' way)
    unrotated: torch.Tensor | None  # token by token, keys cached before it and turned again at every step
    plain: torch.Tensor | None  # the trained frequencies, no stretch (one pass)


def dynamic_cache_losses(
    model: torch.nn.Module, inputs: torch.Tensor, targets: torch.Tensor, *, factor: float, original_max_len: int,
    prompt_len: int | None = None, ways: tuple[str, ...] = WAYS,
) -> DynamicCacheLosses:
    """Dynamic NTK configured with ``factor`` on a RoPE TinyLM trained at L = ``original_max_len``
    (its frequencies computed from the model's base), scored on ``inputs`` and ``targets``
    (batch, n): "whole", one pass over each whole input; "rotated" and "unrotated", as a decoder
    writing them token by token after a prompt of ``prompt_len`` tokens (by default L), with each
    kind of key cache (:func:`cached_generation_logits`); "plain", the trained frequencies base^(−2i/d)
    without any stretch. The model's own frequencies are not changed."""
    scheme = _rope_scheme(model)
    if (not isinstance(inputs, torch.Tensor) or not isinstance(targets, torch.Tensor) or inputs.dim() != 2
            or inputs.shape != targets.shape):
        raise ValueError("inputs and targets must be integer tensors of the same shape (batch, n)")
    ways = [check_choice("way", way, WAYS) for way in ways]
    n = inputs.shape[-1]
    steps = dynamic_step_frequencies(scheme.head_dim, scheme.base, factor, original_max_len, n, prompt_len)
    rows = {"whole": (steps[-1:].expand(n, -1), "rotated"), "rotated": (steps, "rotated"),
            "unrotated": (steps, "unrotated"),
            "plain": (frequencies(scheme.head_dim, scheme.base, torch.float64).expand(n, -1), "rotated")}
    losses = {}
    for way in ways:
        logits = cached_generation_logits(model, inputs, *rows[way])
        losses[way] = F.cross_entropy(logits.float().transpose(1, 2), targets, reduction="none").double().mean(0)
    return DynamicCacheLosses(*(losses.get(way) for way in WAYS))
