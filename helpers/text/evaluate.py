"""What lessons 08–09 measure on the shipped text models, batched over the validation split.

Every measurement cuts a split into non-overlapping windows of ``length`` tokens (inputs
ids[i·length : (i+1)·length], targets one token later; (N − 1) // length windows, every position
counted) and averages the next-token loss, in nats per byte, over the windows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import torch
import torch.nn.functional as F

from .._checks import check_choice, check_int
from ..measure.l09_stretching_rope import STRETCHES, _rope_scheme, apply_stretch
from ..rope_scaling import dynamic_ntk_factor
from .corpus import SPLITS, text_corpus
from .models import (
    FINE_TUNES,
    TEXT_LENGTH,
    TEXT_MAX_LENGTH,
    TEXT_SCHEMES,
    TEXT_SEEDS,
    load_text_model,
    text_manifest,
)


def text_windows(length: int, split: str = "valid", tokens: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(inputs, targets), each (n, length) torch.long: the split (its first ``tokens`` tokens if
    given) cut into n = (N − 1) // length non-overlapping windows, targets one token ahead."""
    length = check_int("length", length, 1)
    split = check_choice("split", split, SPLITS)
    ids = text_corpus(split)
    if tokens is not None:
        ids = ids[: check_int("tokens", tokens, 2)]
    n = (ids.numel() - 1) // length
    if n < 1:
        raise ValueError(f"length must leave at least one window in {ids.numel()} tokens, got length {length}")
    return ids[: n * length].view(n, length), ids[1 : n * length + 1].view(n, length)


# no_grad, not inference_mode: RoPE caches its cos/sin tables, and a table made in inference mode could not
# be used later by a model that trains
@torch.no_grad()
def text_loss_by_position(
    model: torch.nn.Module, length: int, *, split: str = "valid", tokens: int | None = None, batch: int = 16
) -> torch.Tensor:
    """(length,) float64: the mean next-token loss (nats) at each position 0 … length − 1 over the
    windows of ``length`` tokens of ``split`` (see :func:`text_windows`), ``batch`` windows at a time.
    The model is run in eval mode and left in the mode it was in."""
    inputs, targets = text_windows(length, split, tokens)
    batch = check_int("batch", batch, 1)
    was_training = model.training
    model.eval()
    total = torch.zeros(inputs.shape[1], dtype=torch.float64)
    try:
        for x, y in zip(inputs.split(batch), targets.split(batch), strict=True):
            logits = model(x)
            loss = F.cross_entropy(logits.float().flatten(0, 1), y.flatten(), reduction="none").view_as(y)
            total += loss.double().sum(0)
    finally:
        model.train(was_training)
    return total / inputs.shape[0]


def text_valid_loss(model: torch.nn.Module, length: int, *, split: str = "valid", tokens: int | None = None) -> float:
    """The mean next-token loss (nats per byte) over every position of the windows of ``length``."""
    return float(text_loss_by_position(model, length, split=split, tokens=tokens).mean())


# ---------------------------------------------------------------------------------------------
# Loss by position and its bands (lesson 08)

# the position bands of lesson 08 on text, as (first, end) positions for L = TEXT_LENGTH: the first 8
# positions are left out (almost no context to read there, whatever the scheme)
TEXT_BAND_NAMES = ("8–L", "L–2L", "2L–4L", "4L–8L")


def text_bands(train_length: int = TEXT_LENGTH) -> tuple[tuple[int, int], ...]:
    """((8, L), (L, 2L), (2L, 4L), (4L, 8L)) for training length L."""
    L = check_int("train_length", train_length, 9)
    return ((8, L), (L, 2 * L), (2 * L, 4 * L), (4 * L, 8 * L))


def text_band_losses(curve: torch.Tensor, train_length: int = TEXT_LENGTH) -> dict[str, float]:
    """band name (TEXT_BAND_NAMES) → the mean of a loss-by-position curve over that band; nan where
    the curve stops before the band ends."""
    if not isinstance(curve, torch.Tensor) or curve.dim() != 1:
        raise ValueError(f"curve must be a (n,) tensor of losses by position, got {curve!r:.60}")
    return {name: float(curve[lo:hi].mean()) if curve.shape[0] >= hi else math.nan
            for name, (lo, hi) in zip(TEXT_BAND_NAMES, text_bands(train_length), strict=True)}


def text_loss_curves(
    schemes: Sequence[str] = TEXT_SCHEMES, seeds: Sequence[int] = TEXT_SEEDS, *, length: int = TEXT_MAX_LENGTH,
    tokens: int | None = None,
) -> dict[str, torch.Tensor]:
    """scheme → (len(seeds), length) float64: each shipped model's loss by position on the
    validation split, windows of ``length`` (8·L by default; "learned" has no row past 8·L)."""
    return {scheme: torch.stack([text_loss_by_position(load_text_model(scheme, seed), length, tokens=tokens)
                                 for seed in seeds]) for scheme in schemes}


def text_perplexity_by_length(
    model: torch.nn.Module, lengths: Sequence[int] = (TEXT_LENGTH, 2 * TEXT_LENGTH, 4 * TEXT_LENGTH, 8 * TEXT_LENGTH),
    *, tokens: int | None = None,
) -> dict[int, float]:
    """length n → whole-input perplexity exp(mean loss over every position of the windows of n):
    what a model scores when it is given inputs of n tokens, Press et al.'s Figure 1 on this corpus."""
    return {int(n): math.exp(text_valid_loss(model, n, tokens=tokens)) for n in lengths}


# ---------------------------------------------------------------------------------------------
# The validation curves recorded at training time ("why the field chose RoPE")


class TextValidationCurves(NamedTuple):
    """Validation loss within L (windows of L over the validation split) recorded while training."""

    steps: torch.Tensor  # (points,) the training steps at which it was recorded
    loss: dict[str, torch.Tensor]  # scheme → (len(seeds), points) float64
    seeds: tuple[int, ...]
    tokens_per_step: int


def text_validation_curves(
    schemes: Sequence[str] = TEXT_SCHEMES, seeds: Sequence[int] = TEXT_SEEDS
) -> TextValidationCurves:
    """The curves stored in the base models' manifests (no model is run)."""
    steps, loss, per_step = None, {}, None
    for scheme in schemes:
        rows = []
        for seed in seeds:
            manifest = text_manifest(scheme, seed)
            curve = manifest["valid_curve"]
            if steps is None:
                steps = torch.tensor(curve["steps"])
                per_step = manifest["tokens_seen"] // manifest["steps"]
            rows.append(torch.tensor(curve["loss_within_L"], dtype=torch.float64))
        loss[scheme] = torch.stack(rows)
    return TextValidationCurves(steps, loss, tuple(seeds), per_step)


def text_steps_to_reach(curves: TextValidationCurves, target: float) -> dict[str, list[float]]:
    """scheme → per seed, the first recorded step at which the validation loss is ≤ ``target``
    (nan where it never gets there)."""
    out = {}
    for scheme, rows in curves.loss.items():
        out[scheme] = []
        for row in rows:
            hit = (row <= target).nonzero()
            out[scheme].append(float(curves.steps[hit[0, 0]]) if hit.numel() else math.nan)
    return out


# ---------------------------------------------------------------------------------------------
# The RoPE model stretched by each method (lesson 09)


class TextStretchTable(NamedTuple):
    """Whole-input loss (nats per byte) of the RoPE text model at each length, per stretching method."""

    loss: dict[str, dict[int, float]]  # method (or extra fine-tune, "yarn-x8") → {length n: loss over windows of n}
    seed: int
    fine_tuned: bool  # False: the base model, stretched at factor n / L for each n; True: the fine-tunes
    # the factor each entry was stretched by; dynamic NTK: its effective one, (n/L)² − n/L + 1 untrained
    # (configured with n / L and read at n, or f² − f + 1 with a fixed factor f), 4·n/L − 3 fine-tuned
    factor: dict[str, dict[int, float]]


# the fine-tunes that are not one method at the fine-tuning length's factor: "ft-yarn-x8", YaRN configured for 8·L
EXTRA_FINE_TUNES = tuple(v for v in FINE_TUNES if v[3:] not in STRETCHES)


def text_stretch_losses(
    seed: int = 0, *, fine_tuned: bool = False, methods: Sequence[str] = STRETCHES,
    lengths: Sequence[int] = (TEXT_LENGTH, 2 * TEXT_LENGTH, 4 * TEXT_LENGTH, 8 * TEXT_LENGTH),
    tokens: int | None = None, factor: float | None = None, extra: Sequence[str] = (),
) -> TextStretchTable:
    """Each method of ``helpers.STRETCHES`` on the shipped RoPE model of ``seed``, at each length.

    Training-free (``fine_tuned=False``): the base model with its frequencies stretched at factor
    n / L (1 at n ≤ L, so every method then equals "plain"), as ``helpers.apply_stretch`` does, or
    at ``factor`` at every length if it is given (what a model configured for factor·L pays on
    shorter inputs); "plain" is the model as trained. Dynamic NTK configured with factor n / L and
    read at n stretches by its effective factor (n/L)² − n/L + 1 (3, 13, 57 at 2L, 4L, 8L).

    Fine-tuned: the shipped fine-tune of each method (stretched at factor 4, trained a few steps at
    4·L; "plain": no stretch, Chen et al.'s plain fine-tuning), run at every length with the
    frequencies it was trained with, except dynamic NTK, which is run as Hugging Face runs it: its
    frequencies follow the input's length n (configured factor 4: the trained frequencies at n ≤ L,
    effective factor 4·n/L − 3 past L, 13 at 4·L where it was fine-tuned, 29 at 8·L). ``extra``
    adds rows for fine-tunes of ``EXTRA_FINE_TUNES``, named without their "ft-" ("ft-yarn-x8" →
    "yarn-x8": YaRN configured for 8·L, fine-tuned at 4·L).

    The loss at n is the mean over every position of the validation windows of n
    (:func:`text_valid_loss`); its exp is the perplexity."""
    seeds = list(TEXT_SEEDS)
    if isinstance(seed, bool) or seed not in seeds:
        raise ValueError(f"seed must be one of {TEXT_SEEDS} (the seeds shipped), got {seed!r}")
    for method in methods:
        check_choice("method", method, STRETCHES)
    if isinstance(extra, str):
        raise ValueError(f"extra must be a sequence of fine-tune names from {EXTRA_FINE_TUNES}, "
                         f"got the string {extra!r}")
    extra = [check_choice("extra", variant, EXTRA_FINE_TUNES) for variant in extra]
    if extra and not fine_tuned:
        raise ValueError("extra applies to the fine-tuned table only (fine_tuned=True)")
    lengths = [check_int("length", n, 1) for n in lengths]
    fixed = None
    if factor is not None:
        if fine_tuned:
            raise ValueError("factor applies to the training-free table only (fine_tuned=False): each fine-tune "
                             "keeps the factor it was trained with")
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor >= 1:
            raise ValueError(f"factor must be a number ≥ 1, got {factor!r}")
        fixed = float(factor)
    loss, factor = {}, {}
    if fine_tuned:
        for variant in [f"ft-{method}" for method in methods] + extra:
            row = variant[3:]
            model = load_text_model("rope", seed, variant)
            stretch = text_manifest("rope", seed, variant)["stretch"]
            method, f = stretch["method"], float(stretch["factor"])
            loss[row], factor[row] = {}, {}
            for n in lengths:
                if method == "dynamic":  # the frequencies follow the length read
                    apply_stretch(model, method, f, TEXT_LENGTH, seq_len=n)
                    factor[row][n] = dynamic_ntk_factor(f, n, TEXT_LENGTH)
                else:
                    factor[row][n] = 1.0 if method == "plain" else f
                loss[row][n] = text_valid_loss(model, n, tokens=tokens)
        return TextStretchTable(loss, seed, True, factor)
    model = load_text_model("rope", seed)
    scheme = _rope_scheme(model)
    saved = scheme.inv_freq.clone(), scheme.attention_scale
    try:
        for method in methods:
            loss[method], factor[method] = {}, {}
            for n in lengths:
                f = max(1.0, n / TEXT_LENGTH) if fixed is None else fixed
                if method == "dynamic":  # configured with f, it reads f·L as apply_stretch sets it: f² − f + 1
                    factor[method][n] = dynamic_ntk_factor(f, round(f * TEXT_LENGTH), TEXT_LENGTH)
                else:
                    factor[method][n] = 1.0 if method == "plain" else f
                if f == 1.0 and method != "plain" and n in loss.get("plain", {}):
                    loss[method][n] = loss["plain"][n]  # factor 1: every method is the model as trained
                    continue
                apply_stretch(model, method, f, TEXT_LENGTH)
                loss[method][n] = text_valid_loss(model, n, tokens=tokens)
    finally:
        scheme.set_frequencies(*saved)
    return TextStretchTable(loss, seed, False, factor)
