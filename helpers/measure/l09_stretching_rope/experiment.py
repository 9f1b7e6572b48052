"""Lesson 09: the whole toy experiment for one seed (train, stretch, fine-tune, evaluate) and its claims."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from ..._checks import check_choice, check_finite, check_int
from ...model import TinyLM
from ...tasks import LetterDigitCopy, Task
from ...training import SHORT_CONTEXT, ShortContext, loss_by_position, train
from ..common import BandMeans, band_means
from .on_model import FieldLosses, TemperatureEffect, field_losses, fine_tuned, losses_by_method

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
