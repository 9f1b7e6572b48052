"""Lesson 08's exercises (notebooks/08_train_short_test_long.ipynb), in the order the notebook asks them."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from .core import Case, explore, implement, predict  # noqa: F401

# --- 08.flat_past_l: which schemes stay flat past the training length? ------------------------

predict(
    "08.flat_past_l",
    title="which schemes stay flat past L",
    question="Which models' mean loss moves by less than 0.15 nats from the band within L to the band 2L–4L?",
    choices={
        "all": "All six: the rule of the task is the same at every position, so no model has a reason to get "
             "worse. The rule is stationary, but the position signals are not: a sinusoidal code or a learned "
             "row past L is one the model never saw, and those two break at once.",
        "relative": "The three relative ones, rope, alibi and t5: their scores depend only on offsets. RoPE's do, "
             "but offsets past L turn its slow pairs to angles no training offset produced, and it rises.",
        "biases": "alibi and t5: both add a bias that depends on the offset alone, and what they give far keys "
             "was trained, T5's last bucket (offsets 59 and up) and ALiBi's ever lower weight on them.",
        "no one": "None of them: every model gets worse on positions it never saw. Two do not: the biases of "
             "alibi and t5 give offsets past L nothing new.",
    },
    answer="biases",
    hints=(
        "Ask of each scheme: past L, does the attention layer meet a signal it never met in training?",
        "An absolute code (sinusoidal, learned) is new at every position past L. RoPE sees only offsets, "
        "but offsets longer than L are new angles. A bias whose far values were already trained is not new.",
    ),
    solution='answer = "biases"  # one of: "all", "relative", "biases", "no one"\nH.check("08.flat_past_l", answer)\n',
)


# --- 08.loss_by_position: the measurement behind every curve ---------------------------------


def _reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.transpose(1, 2), targets, reduction="none").mean(0)


def _over_positions(logits, targets):
    return F.cross_entropy(logits.transpose(1, 2), targets, reduction="none").mean(1)


def _softmax_over_positions(logits, targets):
    return -F.log_softmax(logits, dim=1).gather(-1, targets[..., None])[..., 0].mean(0)


def _bits(logits, targets):
    return _reference(logits, targets) / math.log(2)


def _summed(logits, targets):
    return F.cross_entropy(logits.transpose(1, 2), targets, reduction="none").sum(0)


def _no_minus(logits, targets):
    return F.log_softmax(logits, dim=-1).gather(-1, targets[..., None])[..., 0].mean(0)


def _cases() -> list[Case]:
    g = torch.Generator().manual_seed(8)
    cases = []
    for label, batch, n, vocab, scale in (("the lesson's size: 32 sequences of 64 tokens, 16 tokens", 32, 64, 16, 3.0),
                                          ("one sequence of one token", 1, 1, 16, 3.0),
                                          ("5 sequences of 7 tokens, a vocabulary of 3", 5, 7, 3, 1.0),
                                          ("confident logits, up to ±200", 4, 9, 16, 200.0)):
        logits = scale * torch.randn(batch, n, vocab, generator=g)
        targets = torch.randint(0, vocab, (batch, n), generator=g)
        cases.append(Case(label, (logits, targets)))
    return cases


implement(
    "08.loss_by_position",
    title="loss by position",
    reference=_reference,
    cases=_cases,
    mistakes={
        "averaged over the positions instead of over the sequences": (
            _over_positions, "average the per-token losses over dimension 0 (the batch), keep one value per position."),
        "softmax over the positions instead of the vocabulary": (
            _softmax_over_positions, "normalise the logits over their last dimension (the vocabulary): "
                                     "F.log_softmax(logits, dim=-1)."),
        "bits instead of nats": (
            _bits, "use the natural logarithm (torch.log, F.log_softmax): the course measures loss in nats."),
        "summed over the sequences instead of averaged": (
            _summed, "divide by the number of sequences: .mean(0), not .sum(0), so that the loss does not "
                     "depend on the batch size."),
        "the minus sign is missing": (
            _no_minus, "the loss is −log p(target): negate the log-probability."),
    },
    hints=(
        "For every sequence b and position t the loss is −log softmax(logits[b, t])[targets[b, t]]; "
        "then average over b.",
        "F.cross_entropy wants the classes in dimension 1: F.cross_entropy(logits.transpose(1, 2), targets, "
        "reduction=\"none\") gives (batch, n).",
        "Keep the (batch, n) losses and take .mean(0).",
    ),
    solution='''import torch
import torch.nn.functional as F


def my_loss_by_position(logits, targets):
    """logits (batch, n, vocab), targets (batch, n) token ids → (n,) mean loss in nats at each position."""
    per_token = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")  # (batch, n)
    return per_token.mean(0)


H.check("08.loss_by_position", my_loss_by_position)
''',
)
