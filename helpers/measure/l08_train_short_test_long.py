"""Lesson 08, train short, test long: one TinyLM per position scheme, trained at length L on a
stationary task and evaluated position by position far beyond L.

What the lesson computes from the trained models:

* the loss at every position, and its mean over four bands of positions (:class:`LossBands`):
  within L from position 8 on (8 … L−1, where the task's entropy floor is already constant, so
  that a change between bands is a change in distance from the floor), L … 2L−1, 2L … 4L−1 and
  4L … 5L−1;
* the toy counterpart of Press et al. (2021), Table 2: the perplexity exp(mean loss) over the
  first n tokens of a sequence, for n = L·512/512, L·1012/512, L·1512/512 and L·2512/512, the same
  ratios to the training length as the paper's evaluation lengths (:func:`toy_lengths`);
* how the perplexity grows from L to the longest length (:func:`perplexity_growth`), set beside
  the paper's, whose orderings the lesson compares with the toy's using
  :func:`helpers.measure.common.compare_orderings`;
* a linear probe that reads the position back from a model's hidden states
  (:func:`position_probe`);
* where attention goes past L: the weight on keys beyond a given offset (:func:`far_attention`),
  the keys L or more back for RoPE and the keys in T5's last bucket (:func:`t5_last_bucket_start`).

What the lesson asserts is :func:`short_context_claims` and :func:`probe_claims`, each claim with a
margin that held for five training seeds (``benchmarks/seed_spread.py``, whose summary the lesson
prints from :data:`SEED_SPREAD`).

The experiment's settings (task, model size, lengths, steps, batch, learning rate, seed) are
:data:`helpers.SHORT_CONTEXT`; lesson 09 retrains the RoPE model with the same ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import torch
import torch.nn.functional as F

from .._checks import check_choice, check_int
from ..model import TinyLM
from ..relative import t5_bucket
from ..schemes import Learned, T5Bias
from ..tasks import Task
from ..training import SHORT_CONTEXT, ShortContext, train_many
from .common import _fit_linear_map, band_means, mean_over
from .l08_seed_spread import SEED_SPREAD  # noqa: F401  (the lesson prints it as l08.SEED_SPREAD)

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


# ---------------------------------------------------------------------------------------------
# Reading the position back from hidden states


class PositionProbe(NamedTuple):
    """What a linear read-out of the position finds in a model's hidden states.

    The probe is fitted on positions 0 … L−1 of one half of the sequences and read on the other
    half, at every position (also past L, where it was never fitted).
    """

    r2_within: float  # R² of its reading on held-out tokens at positions 0 … L−1 (1: exact, 0: a constant)
    reading: torch.Tensor  # (n,) float64: its mean reading at each position, over the held-out sequences


@torch.no_grad()
def position_probe(
    model: TinyLM, task: Task, *, train_length: int, length: int, sequences: int = 128, layer: int = -1,
    seed: int = 7,
) -> PositionProbe:
    """Fit a linear probe p̂ = h·w + c to the position p from the hidden state h (d_model,) of
    ``layer`` (``TinyLM.hidden_states``: 0 is the input to the first layer, −1 the last layer's
    output) and read it everywhere.

    ``sequences`` sequences of ``length`` tokens are drawn from ``task`` with ``seed``; w and c are
    fitted by least squares on the first half of them at positions 0 … L−1 (L = ``train_length``)
    and applied to the second half at all positions.
    """
    if not isinstance(model, TinyLM):
        raise TypeError(f"model must be a TinyLM, got {type(model).__name__}")
    L = check_int("train_length", train_length, 2)
    length = check_int("length", length, L)
    sequences = check_int("sequences", sequences, 2)
    layer = check_int("layer", layer, None)
    if not -model.config.n_layers - 1 <= layer <= model.config.n_layers:
        raise ValueError(f"layer must be an integer from {-model.config.n_layers - 1} to {model.config.n_layers}, "
                         f"got {layer}")
    length = readable_length(model, length)
    inputs, _ = task.sample(sequences, length, torch.Generator().manual_seed(check_int("seed", seed, 0)))
    was_training = model.training
    model.eval()
    try:
        hidden = model.hidden_states(inputs)[layer].double()  # (sequences, length, d_model)
    finally:
        model.train(was_training)
    hidden = torch.cat([hidden, torch.ones(*hidden.shape[:2], 1, dtype=hidden.dtype)], dim=-1)  # the constant c
    half = sequences // 2
    positions = torch.arange(length, dtype=torch.float64)
    fit = hidden[:half, :L].reshape(-1, hidden.shape[-1])
    weights, _ = _fit_linear_map(fit, positions[:L].repeat(half)[:, None])
    reading = (hidden[half:] @ weights.T)[..., 0]  # (sequences − half, length)
    within = reading[:, :L]
    residual = ((within - positions[:L]) ** 2).sum()
    spread = ((positions[:L] - positions[:L].mean()) ** 2).sum() * within.shape[0]
    return PositionProbe(float(1 - residual / spread), reading.mean(0))


def probe_claims(none: PositionProbe, sinusoidal: PositionProbe, untrained_none: PositionProbe,
                 train_length: int) -> dict[str, bool]:
    """The lesson's findings about the probes of a trained model with no positions, the sinusoidal
    model and an untrained model with no positions (curves at least 4L long), each True or False."""
    L = check_int("train_length", train_length, 4)
    for name, probe in (("none", none), ("sinusoidal", sinusoidal), ("untrained_none", untrained_none)):
        if not isinstance(probe, PositionProbe) or probe.reading.shape[0] < 4 * L:
            raise ValueError(f"{name} must be a PositionProbe read to at least 4L = {4 * L} positions")
    rises, falls = band_means(none.reading, L), band_means(sinusoidal.reading, L)
    return {
        "sinusoidal reads the position within L: R² > 0.9": sinusoidal.r2_within > 0.9,
        "none reads it only roughly: R² < 0.25": none.r2_within < 0.25,
        "none's mean reading rises: 2L–4L > L–2L > ≤ L": rises.to_4l > rises.to_2l > rises.within,
        "untrained none's mean reading rises within L: last quarter > first quarter":
            float(untrained_none.reading[3 * L // 4 : L].mean()) > float(untrained_none.reading[: L // 4].mean()),
        "sinusoidal's mean reading over 2L–4L is below L and below its mean over L–2L":
            falls.to_4l < min(L, falls.to_2l),
    }


# ---------------------------------------------------------------------------------------------
# The lesson's findings, each True or False for one run: what the lesson asserts and the seed
# benchmark checks for every seed. Each threshold sits well inside what five seeds measured
# (benchmarks/seed_spread.py, summarised in SEED_SPREAD). Every band within L starts at position 8,
# where the floor is constant: a rise is then also a rise in distance from the floor.

MARGIN = 0.02  # nats: a smaller gap between two mean losses is not called an ordering
# nats (about 22 % in perplexity): a band mean this far above the one within L is a rise; within ±RISE is flat
RISE = 0.2
NEAR_FLOOR = 0.35  # nats: "close to the floor" within L
ALIBI_ABOVE_FLOOR = 0.9  # nats: how far ALiBi stays above the floor in every band
ABSOLUTE_RISE = 2.0  # nats: the least rise of sinusoidal and learned from within L to 2L–4L
ROPE_RISE = 1.0  # nats: the least rise of RoPE from within L to 2L–4L
T5_NEAR_FLOOR = 0.3  # nats: T5 over L–2L and 2L–4L
LEARNED_NO_DIP = 1.0  # nats: past L, the learned curve stays this far above its level within L at every position
SINUSOIDAL_DIPS = 0.5  # nats: how much lower the sinusoidal curve dips past L than the learned one ever comes
LEVELS_OFF = 0.1  # nats: from 2L–4L to 4L–5L, ALiBi's mean loss moves by less, T5's climbs by more
CLAIM_PARTS = ("within L", "past L", "table 2")


def _lower(values: Mapping[str, float], a: str, b: str, margin: float = MARGIN) -> bool:
    """values[a] + margin < values[b]: a is lower than b by more than the margin."""
    return float(values[a]) + margin < float(values[b])


def short_context_claims(run: ShortContextRun, part: str | None = None) -> dict[str, bool]:
    """The lesson's findings about one run of the experiment (all six schemes), each True or False:
    ``part`` one of :data:`CLAIM_PARTS` (the band means within L, past L, and the toy Table 2
    beside Press et al.'s), or None for all of them. Curves must reach 5L (the learned one 4L)."""
    if not isinstance(run, ShortContextRun):
        raise TypeError(f"run must be a ShortContextRun (from evaluate_models), got {type(run).__name__}")
    missing = [name for name in TRAINED_SCHEMES if name not in run.schemes]
    if missing or run.length < CURVE_FACTOR * run.train_length:
        raise ValueError(f"run must hold all of {TRAINED_SCHEMES} with curves {CURVE_FACTOR}L long; "
                         f"missing {missing}, curves {run.length} long for L = {run.train_length}")
    if part is not None:
        part = check_choice("part", part, CLAIM_PARTS)
    L = run.train_length
    bands, floor = run.bands(), run.floor_bands()
    within = {name: b.within for name, b in bands.items()}
    to_2l = {name: b.to_2l for name, b in bands.items()}
    to_4l = {name: b.to_4l for name, b in bands.items()}
    to_5l = {name: b.to_5l for name, b in bands.items()}
    rise = {name: b.to_4l - b.within for name, b in bands.items()}
    claims: dict[str, dict[str, bool]] = {}
    claims["within L"] = {
        f"sinusoidal, learned, rope and t5 come within {NEAR_FLOOR} nats of the floor":
            all(within[n] < floor.within + NEAR_FLOOR for n in ("sinusoidal", "learned", "rope", "t5")),
        f"alibi stays more than {ALIBI_ABOVE_FLOOR} nats above the floor in every band":
            all(b > f + ALIBI_ABOVE_FLOOR for b, f in zip(bands["alibi"], floor, strict=True)),
        "none is the worst of the six": all(_lower(within, n, "none") for n in TRAINED_SCHEMES if n != "none"),
    }
    lowest_past = {name: float(run.curve(name)[L:].min()) for name in ("sinusoidal", "learned")}
    claims["past L"] = {
        "sinusoidal and learned are worse than none from L to 2L":
            _lower(to_2l, "none", "sinusoidal") and _lower(to_2l, "none", "learned"),
        f"sinusoidal and learned rise by more than {ABSOLUTE_RISE} nats from within L to 2L–4L":
            min(rise["sinusoidal"], rise["learned"]) > ABSOLUTE_RISE,
        f"past L the learned curve stays more than {LEARNED_NO_DIP} nat above its level within L at every position":
            lowest_past["learned"] > within["learned"] + LEARNED_NO_DIP,
        f"past L the sinusoidal curve dips more than {SINUSOIDAL_DIPS} nats lower than the learned one ever comes":
            lowest_past["sinusoidal"] + SINUSOIDAL_DIPS < lowest_past["learned"],
        f"rope rises by more than {RISE} nats already from within L to L–2L": to_2l["rope"] - within["rope"] > RISE,
        f"rope rises by more than {ROPE_RISE} nat from within L to 2L–4L": rise["rope"] > ROPE_RISE,
        f"none rises by more than {RISE} nats from within L to 2L–4L": rise["none"] > RISE,
        f"alibi stays within ±{RISE} nats of its level within L in every band up to 5L":
            all(abs(b - within["alibi"]) <= RISE for b in (to_2l["alibi"], to_4l["alibi"], to_5l["alibi"])),
        f"alibi levels off: from 2L–4L to 4L–5L its mean loss moves by less than {LEVELS_OFF} nats":
            abs(to_5l["alibi"] - to_4l["alibi"]) < LEVELS_OFF,
        "t5 climbs band after band: L–2L < 2L–4L < 4L–5L":
            to_2l["t5"] + MARGIN < to_4l["t5"] and to_4l["t5"] + MARGIN < to_5l["t5"],
        f"t5 keeps climbing: from 2L–4L to 4L–5L its mean loss rises by more than {LEVELS_OFF} nats":
            to_5l["t5"] - to_4l["t5"] > LEVELS_OFF,
        f"t5 rises by more than {RISE} nats from within L to 4L–5L": to_5l["t5"] - within["t5"] > RISE,
        f"t5 stays within {T5_NEAR_FLOOR} nats of the floor over L–2L and 2L–4L":
            to_2l["t5"] < floor.to_2l + T5_NEAR_FLOOR and to_4l["t5"] < floor.to_4l + T5_NEAR_FLOOR,
        "t5 is the best of the six in every band past L (4L–5L: of those that reach it)":
            all(_lower(band, "t5", n) for band in (to_2l, to_4l, to_5l) for n in TRAINED_SCHEMES
                if n != "t5" and not math.isnan(band[n])),
    }
    # the toy Table 2, as mean losses (log-perplexities) so that the margin in nats applies
    lengths = toy_lengths(run.train_length)
    toy = {name: [run.prefix_losses(n, (name,))[name] for n in lengths] for name in TRAINED_SCHEMES}
    column = [{name: row[j] for name, row in toy.items()} for j in range(len(lengths))]
    growth = {name: row[-1] - row[0] for name, row in toy.items()}
    longer = range(1, len(lengths))
    claims["table 2"] = {
        "as published: t5 < rope at every length past L": all(_lower(column[j], "t5", "rope") for j in longer),
        f"as published: alibi < sinusoidal at {lengths[2]} and {lengths[3]} tokens":
            all(_lower(column[j], "alibi", "sinusoidal") for j in (2, 3)),
        f"as published: t5 < rope < sinusoidal at {lengths[1]} and {lengths[2]} tokens":
            all(_lower(column[j], "t5", "rope") and _lower(column[j], "rope", "sinusoidal") for j in (1, 2)),
        "as published: alibi and t5 grow less than rope and sinusoidal":
            all(_lower(growth, a, b) for a in ("alibi", "t5") for b in ("rope", "sinusoidal")),
        "unlike the paper: alibi is far behind at the training length (perplexity × 1.5 or more)":
            all(column[0]["alibi"] > column[0][n] + math.log(1.5) for n in ("sinusoidal", "rope", "t5")),
        "unlike the paper: t5 < alibi at every length": all(_lower(c, "t5", "alibi") for c in column),
        f"unlike the paper: rope < alibi at {lengths[1]} tokens": _lower(column[1], "rope", "alibi"),
    }
    if part is not None:
        return claims[part]
    return {claim: holds for group in claims.values() for claim, holds in group.items()}


@torch.no_grad()
def far_attention(model: TinyLM, settings: ShortContext = SHORT_CONTEXT, *, seed: int | None = None,
                  length: int | None = None, batches: int = 2, min_offset: int | None = None) -> torch.Tensor:
    """(n,) float64: at each query position, the attention weight on keys ``min_offset`` or more
    back (default: offsets ≥ L = ``settings.length``, none of which training showed the model),
    summed over those keys and averaged over heads, layers and ``batches`` of the evaluation
    batches of :func:`evaluate_models` (the same data for the same ``seed``). 0 at every position
    below ``min_offset``."""
    if not isinstance(model, TinyLM):
        raise TypeError(f"model must be a TinyLM, got {type(model).__name__}")
    settings = _check_settings(settings)
    seed = settings.seed if seed is None else check_int("seed", seed, 0)
    length = CURVE_FACTOR * settings.length if length is None else check_int("length", length, 2)
    length = readable_length(model, length)
    batches = check_int("batches", batches, 1)
    task = settings.task()
    min_offset = settings.length if min_offset is None else check_int("min_offset", min_offset, 1)
    offsets = torch.arange(length)[:, None] - torch.arange(length)[None, :]
    far = (offsets >= min_offset).double()
    total = torch.zeros(length, dtype=torch.float64)
    was_training = model.training
    model.eval()
    try:
        for data_seed in evaluation_seeds(seed, settings.eval_batches)[:batches]:
            inputs, _ = task.sample(settings.batch, length, torch.Generator().manual_seed(data_seed))
            _, weights = model(inputs, return_weights=True)
            for w in weights:  # (batch, heads, n, n) per layer
                total += (w.double() * far).sum(-1).mean((0, 1))
    finally:
        model.train(was_training)
    return total / (batches * len(weights))


# the least correlation, past L, of T5's loss above the floor with its attention on its last bucket
T5_CORRELATION = 0.4
T5_DILUTION = 0.5  # how much more attention T5's last bucket draws over 4L–5L than within L
# from 2L–4L to 4L–5L, ALiBi's far attention grows by less than the first, T5's by more than the second
FAR_GROWTH = (0.07, 0.1)


def attention_claims(run: ShortContextRun, far: Mapping[str, torch.Tensor]) -> dict[str, bool]:
    """The lesson's findings about where attention goes past L, each True or False. ``far`` maps
    "rope" and "alibi" to :func:`far_attention` of those models (keys L or more back) and "t5" to
    its attention on the keys of its last bucket (``min_offset=t5_last_bucket_start(model)``)."""
    if not isinstance(run, ShortContextRun):
        raise TypeError(f"run must be a ShortContextRun (from evaluate_models), got {type(run).__name__}")
    if not isinstance(far, Mapping) or set(far) != {"rope", "t5", "alibi"}:
        raise ValueError("far must map 'rope', 't5' and 'alibi' to far_attention curves")
    L = run.train_length
    t5 = loss_bands(far["t5"], L)
    alibi = loss_bands(far["alibi"], L)
    return {
        f"past L, rope's loss above the floor follows its attention on keys ≥ L back (correlation > {FAR_CORRELATION})":
            far_attention_correlation(run, far["rope"], "rope") > FAR_CORRELATION,
        f"t5's last bucket draws more than {T5_DILUTION} more attention over 4L–5L than within L":
            t5.to_5l - t5.within > T5_DILUTION,
        f"past L, t5's loss above the floor follows its attention on its last bucket (correlation > {T5_CORRELATION})":
            far_attention_correlation(run, far["t5"], "t5") > T5_CORRELATION,
        f"from 2L–4L to 4L–5L, t5's attention on its last bucket grows by more than {FAR_GROWTH[1]}":
            t5.to_5l - t5.to_4l > FAR_GROWTH[1],
        f"while alibi's on keys ≥ L back grows by less than {FAR_GROWTH[0]} (it levels off)":
            abs(alibi.to_5l - alibi.to_4l) < FAR_GROWTH[0],
    }


JUMP_WINDOW = 8  # positions on each side when looking for where a loss curve steps up


def loss_jumps(curve: torch.Tensor, train_length: int, count: int = 3, window: int = JUMP_WINDOW) -> list[int]:
    """The ``count`` positions t past L where the curve steps up most: the mean over t … t+window−1
    minus the mean over t−window … t−1, largest first, each at least 2·window from a larger one.
    Sorted by position."""
    L = check_int("train_length", train_length, 1)
    count, window = check_int("count", count, 1), check_int("window", window, 1)
    if not isinstance(curve, torch.Tensor) or curve.dim() != 1:
        raise ValueError(f"curve must be a (n,) tensor of losses by position, got {curve!r:.60}")
    starts = range(max(L + 1, window), curve.shape[0] - window + 1)
    if len(starts) == 0:
        raise ValueError(f"curve must be at least L + window + 1 = {L + window + 1} long, got {curve.shape[0]}")
    rise = {t: float(curve[t:t + window].mean() - curve[t - window:t].mean()) for t in starts}
    chosen: list[int] = []
    for t in sorted(rise, key=lambda t: -rise[t]):
        if all(abs(t - c) >= 2 * window for c in chosen):
            chosen.append(t)
        if len(chosen) == count:
            break
    return sorted(chosen)


def core_lines(function, *markers: str) -> str:
    """The lines of ``function``'s source that contain one of ``markers`` (every line if none is
    given), each without its indent, under a comment naming the function: the few lines of a
    helper that a lesson shows. A marker found on no line is an error, so a renamed line cannot
    silently drop out of the lesson."""
    import inspect

    if not callable(function):
        raise TypeError(f"function must be a function or method, got {type(function).__name__}")
    lines = inspect.getsource(function).splitlines()
    missing = [m for m in markers if not any(m in line for line in lines)]
    if missing:
        raise ValueError(f"markers {missing} are not in the source of {function.__qualname__}")
    kept = [line.strip() for line in lines if not markers or any(m in line for m in markers)]
    return f"# {function.__module__}.{function.__qualname__}\n" + "\n".join(kept) + "\n"


FAR_CORRELATION = 0.8  # the least correlation, past L, of RoPE's loss above the floor with its far attention


def t5_last_bucket_start(model: TinyLM) -> int:
    """The smallest offset δ = query − key that a causal T5 model puts in its last bucket, which
    then takes every longer offset too (59 for 32 buckets and max_distance 64)."""
    if not isinstance(model, TinyLM) or not isinstance(model.scheme, T5Bias) or model.scheme.bidirectional:
        raise TypeError("model must be a causal TinyLM with the t5 scheme")
    scheme = model.scheme
    last = scheme.num_buckets - 1
    offsets = torch.arange(scheme.max_distance + 1)
    in_last = t5_bucket(-offsets, False, scheme.num_buckets, scheme.max_distance) == last
    return int(offsets[in_last][0])


def far_attention_correlation(run: ShortContextRun, far: torch.Tensor, name: str = "rope") -> float:
    """Pearson correlation, over positions L … n−1, of ``name``'s loss above the floor in ``run``
    with ``far`` (:func:`far_attention` of that model): how closely the loss follows the attention
    on keys more than L − 1 back."""
    if not isinstance(run, ShortContextRun):
        raise TypeError(f"run must be a ShortContextRun (from evaluate_models), got {type(run).__name__}")
    excess = run.curve(name) - run.floor[: run.losses[name].shape[1]]
    if not isinstance(far, torch.Tensor) or far.shape != excess.shape:
        raise ValueError(f"far must be a tensor of shape {tuple(excess.shape)} (far_attention of {name!r})")
    L = run.train_length
    return float(torch.corrcoef(torch.stack([far[L:].double(), excess[L:].double()]))[0, 1])
