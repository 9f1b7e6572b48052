"""Lesson 08's findings, each True or False for one run, and where attention goes past L."""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch

from ..._checks import check_choice, check_int
from ...model import TinyLM
from ...relative import t5_bucket
from ...schemes import T5Bias
from ...training import SHORT_CONTEXT, ShortContext
from .runs import (
    CURVE_FACTOR,
    TRAINED_SCHEMES,
    ShortContextRun,
    _check_settings,
    evaluation_seeds,
    loss_bands,
    readable_length,
    toy_lengths,
)

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
