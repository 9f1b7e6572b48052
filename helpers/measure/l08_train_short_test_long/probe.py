"""Lesson 08: a linear probe that reads the position back from a model's hidden states."""

from __future__ import annotations

from typing import NamedTuple

import torch

from ..._checks import check_int
from ...model import TinyLM
from ...tasks import Task
from ..common import _fit_linear_map, band_means
from .runs import readable_length

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
