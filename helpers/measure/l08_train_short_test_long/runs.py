"""Lesson 08's six toy models: their settings, training, evaluation position by position, the
loss bands and the toy counterpart of Press et al.'s Table 2."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import torch
import torch.nn.functional as F

from ..._checks import check_choice, check_int
from ...model import TinyLM
from ...schemes import Learned
from ...training import SHORT_CONTEXT, ShortContext, train_many
from ..common import mean_over

# The six models of the lesson, in the order tables list them.
TRAINED_SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi", "t5")
# Loss curves run to 5L: past the 2L–4L band and past L·2512/512, the longest of Press et al.'s
# evaluation lengths scaled to the toy; the learned table (4L rows) stops before.
CURVE_FACTOR = 5
# The band "within L" starts at position 8: from position 7 on both sources of the task are in view
# and its entropy floor is constant, so band means from there on differ only where the model's
# distance from the floor differs (positions 0–6, where the floor is 2.77 or 1.74 nats, would add
# their own −0.15 nats to every change). Lesson 07 starts its band at 8 too.
BAND_START = 8
BAND_NAMES = ("8–L", "L–2L", "2L–4L", "4L–5L")


class LossBands(NamedTuple):
    """Mean loss (nats) over four bands of positions of a curve trained at length L; nan where the
    curve stops before the end of a band (a learned table of 4L rows has no 4L–5L)."""

    within: float  # positions BAND_START … L−1
    to_2l: float  # L … 2L−1
    to_4l: float  # 2L … 4L−1
    to_5l: float  # 4L … 5L−1


def loss_bands(curve: torch.Tensor, train_length: int, start: int = BAND_START) -> LossBands:
    """:class:`LossBands` of a (n,) loss-by-position curve for training length L: the means over
    positions start … L−1, L … 2L−1, 2L … 4L−1 and 4L … 5L−1."""
    start = check_int("start", start, 0)
    L = check_int("train_length", train_length, start + 1)
    if not isinstance(curve, torch.Tensor) or curve.dim() != 1:
        raise ValueError(f"curve must be a (n,) tensor of losses by position, got {curve!r:.60}")
    return LossBands(*(mean_over(curve, lo, hi) for lo, hi in ((start, L), (L, 2 * L), (2 * L, 4 * L), (4 * L, 5 * L))))

# Press, Smith & Lewis (2021), "Train Short, Test Long", Table 2: WikiText-103, models trained on
# 512 tokens, perplexity at evaluation lengths 512, 1012, 1512 and 2512 tokens (lower is better).
PRESS_TRAINED_ON = 512
PRESS_LENGTHS = (512, 1012, 1512, 2512)
PRESS_TABLE_2 = {
    "sinusoidal": (20.05, 43.54, 76.23, 132.41),
    "rope": (20.07, 21.37, 25.99, 31.58),
    "t5": (19.65, 18.79, 18.91, 20.41),
    "alibi": (19.73, 18.73, 18.52, 18.41),
}
PRESS_ROW_NAMES = {"sinusoidal": "sinusoidal", "rope": "rotary", "t5": "T5 bias", "alibi": "ALiBi"}


def _check_settings(settings) -> ShortContext:
    if not isinstance(settings, ShortContext):
        raise TypeError(f"settings must be a helpers.ShortContext, such as helpers.SHORT_CONTEXT, "
                        f"got {type(settings).__name__}")
    return settings


def _check_names(schemes) -> tuple[str, ...]:
    if isinstance(schemes, str) or not isinstance(schemes, Iterable):
        raise TypeError(f"schemes must be a sequence of names from {TRAINED_SCHEMES}, got {schemes!r}")
    names = tuple(check_choice("schemes", name, TRAINED_SCHEMES) for name in schemes)
    if not names:
        raise ValueError(f"schemes must name at least one of {TRAINED_SCHEMES}")
    return names


# ---------------------------------------------------------------------------------------------
# Training and evaluating the six models


def build_model(name: str, settings: ShortContext = SHORT_CONTEXT, seed: int = 0) -> TinyLM:
    """An untrained TinyLM with scheme ``name`` and the options ``settings`` gives it, its weights
    drawn after ``torch.manual_seed(seed)`` (the global generator is left as it was)."""
    name = check_choice("name", name, TRAINED_SCHEMES)
    settings = _check_settings(settings)
    seed = check_int("seed", seed, 0)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return TinyLM(settings.task().vocab_size, name, **settings.model_options(name))


def train_models(
    settings: ShortContext = SHORT_CONTEXT, *, seed: int | None = None, schemes: Sequence[str] = TRAINED_SCHEMES,
    progress: bool = True, workers: int = 2,
) -> dict[str, TinyLM]:
    """scheme → TinyLM trained on ``settings.task()`` with ``settings.train_kwargs()``: the same
    data, length, steps, batch and learning rate for every scheme. ``seed`` (default
    ``settings.seed``) sets both the initial weights and the training batches. The models train
    ``workers`` at a time, each on one thread (:func:`helpers.train_many`); the trained weights do
    not depend on ``workers``."""
    settings = _check_settings(settings)
    seed = settings.seed if seed is None else check_int("seed", seed, 0)
    names = _check_names(schemes)
    models = {name: build_model(name, settings, seed) for name in names}
    train_many(models, settings.task(), **{**settings.train_kwargs(), "seed": seed}, workers=workers,
               progress=progress)
    return models


def readable_length(model: TinyLM, length: int) -> int:
    """How many of ``length`` positions the model can be run on: all of them, except for a learned
    table, which has no row at or beyond its ``max_len``."""
    length = check_int("length", length, 1)
    if isinstance(model.scheme, Learned):
        return min(length, model.scheme.max_len)
    return length


def evaluation_seeds(seed: int, batches: int) -> list[int]:
    """The data seed of each evaluation batch of a run trained with ``seed``: never a training seed."""
    return [10_000 + 100 * seed + b for b in range(batches)]


def toy_lengths(train_length: int) -> tuple[int, ...]:
    """Press et al.'s evaluation lengths scaled to a model trained on ``train_length`` tokens:
    round(L·n / 512) for n in 512, 1012, 1512, 2512 (64 → 64, 126, 189, 314)."""
    L = check_int("train_length", train_length, 1)
    return tuple(round(L * n / PRESS_TRAINED_ON) for n in PRESS_LENGTHS)


@dataclass(frozen=True)
class ShortContextRun:
    """One seed of the experiment: each model's loss at every position, per evaluation batch.

    ``losses[name]`` is (batches, n_name) float64, the mean next-token loss of one batch of
    sequences at each position; n_name is the curve length, shorter for a learned table.
    ``floor`` (n,) is the task's exact entropy floor at each position.
    """

    seed: int
    train_length: int
    losses: dict[str, torch.Tensor]
    floor: torch.Tensor

    @property
    def length(self) -> int:
        """The longest curve's length n."""
        return self.floor.shape[0]

    @property
    def schemes(self) -> tuple[str, ...]:
        return tuple(self.losses)

    def _name(self, name: str) -> str:
        return check_choice("name", name, self.schemes)

    def curve(self, name: str) -> torch.Tensor:
        """(n_name,) mean loss at each position over all evaluation batches."""
        return self.losses[self._name(name)].mean(0)

    def bands(self) -> dict[str, LossBands]:
        """scheme → :class:`LossBands` of its curve."""
        return {name: loss_bands(self.curve(name), self.train_length) for name in self.schemes}

    def floor_bands(self) -> LossBands:
        """The entropy floor's own band means: what a perfect model scores (the same in every band)."""
        return loss_bands(self.floor, self.train_length)

    def prefix_losses(self, n: int, schemes: Sequence[str] | None = None) -> dict[str, float]:
        """scheme → mean loss over the first n positions (nan if its curve is shorter than n), for
        ``schemes`` (default: all): a sequence of n tokens scored as a whole."""
        n = check_int("n", n, 1)
        names = self.schemes if schemes is None else tuple(self._name(name) for name in schemes)
        return {name: mean_over(self.curve(name), 0, n) for name in names}

    def perplexity(self, name: str, n: int) -> float:
        """exp(mean loss over the first n positions), as Press et al. score a sequence of n tokens;
        nan if the curve is shorter than n."""
        return math.exp(self.prefix_losses(n, (name,))[name])

    def toy_table_2(self) -> dict[str, tuple[float, ...]]:
        """scheme → perplexity at each of :func:`toy_lengths` (nan past a learned table's end)."""
        lengths = toy_lengths(self.train_length)
        return {name: tuple(self.perplexity(name, n) for n in lengths) for name in self.schemes}


@torch.no_grad()
def evaluate_models(
    models: Mapping[str, TinyLM], settings: ShortContext = SHORT_CONTEXT, *, seed: int | None = None,
    length: int | None = None,
) -> ShortContextRun:
    """Score every model at every position of the same ``settings.eval_batches`` batches of
    ``settings.batch`` fresh sequences of ``length`` tokens (default CURVE_FACTOR·L), keeping each
    batch's mean next-token loss at each position.

    A learned table is run on the first n tokens of the same sequences, n = :func:`readable_length`;
    a causal model's loss at position t depends only on tokens 0 … t, so its curve is what it would
    score on the full sequences, as far as it reaches. ``seed`` (default ``settings.seed``) names
    the run and picks the data (:func:`evaluation_seeds`).
    """
    settings = _check_settings(settings)
    seed = settings.seed if seed is None else check_int("seed", seed, 0)
    length = CURVE_FACTOR * settings.length if length is None else check_int("length", length, 2)
    if not isinstance(models, Mapping) or not models:
        raise TypeError("models must be a non-empty dict of scheme name → TinyLM")
    for name, model in models.items():
        if not isinstance(model, TinyLM):
            raise TypeError(f"models[{name!r}] must be a TinyLM, got {type(model).__name__}")
    task = settings.task()
    batches = [task.sample(settings.batch, length, torch.Generator().manual_seed(s))
               for s in evaluation_seeds(seed, settings.eval_batches)]
    losses = {}
    for name, model in models.items():
        n = readable_length(model, length)
        was_training = model.training
        model.eval()
        try:
            losses[name] = torch.stack([_loss_by_position(model, inputs[:, :n], targets[:, :n])
                                        for inputs, targets in batches])
        finally:
            model.train(was_training)
    return ShortContextRun(seed, settings.length, losses, task.floor_by_position(length))


def _loss_by_position(model: TinyLM, inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """(n,) float64: the batch's mean cross-entropy at each position."""
    device = next(model.parameters()).device
    logits = model(inputs.to(device))
    loss = F.cross_entropy(logits.transpose(1, 2), targets.to(device), reduction="none")
    return loss.double().mean(0).cpu()


# ---------------------------------------------------------------------------------------------
# The published table


def perplexity_growth(table: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """scheme → last column ÷ first column: how much the perplexity grows from the training
    length to the longest evaluation length (nan where the last column is nan)."""
    return {name: float(row[-1]) / float(row[0]) for name, row in table.items()}


def table_column(table: Mapping[str, Sequence[float]], index: int) -> dict[str, float]:
    """scheme → the table's value in column ``index``."""
    return {name: float(row[index]) for name, row in table.items()}

