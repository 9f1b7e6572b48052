"""Lesson 08's exercises (notebooks/08_train_short_test_long.ipynb), in the order the notebook asks them.

08.text_past_l (predict, in the core, before the text models' curves): which of the six text models keep
their mean loss within 0.3 nats of their level within L in every band past L? ALiBi and no positions.
08.loss_by_position (implement): my_loss_by_position(logits, targets) → (n,), the mean over the batch of
−ln softmax(logits[b, t])[targets[b, t]]. The stub computes log_p = F.log_softmax(logits, dim=-1) and picks
each target's ln p, shape (batch, n); the learner writes batch_mean_loss, the loss and its average over the
batch (the check tests the whole function, so an answer written from scratch is checked the same way).
08.flat_past_l (predict, in Going deeper, before the toy's curves): which toy models stay within 0.2 nats of
their level within L in every band past L? ALiBi only.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from .core import Case, explore, implement, predict  # noqa: F401

# --- 08.text_past_l: which text models hold past the training length? --------------------------

predict(
    "08.text_past_l",
    title="which text models hold past L",
    question="The six models read English bytes at every position up to 8L. Which of them keep their mean loss "
             "within 0.3 nats of their own level within L (positions 8 … L−1) in every band past L: L–2L, "
             "2L–4L and 4L–8L?",
    choices={
        "all six": "No: text is much the same at every position, but the position signals are not. Past L some "
                   "models meet a code, a learned row or an angle they never saw in training, and nothing taught "
                   "them what to do with it.",
        "relative": "No: seeing only offsets is not enough, because offsets past L can be new too: RoPE's slow pairs "
                    "turn to angles no training offset produced (most likely why it breaks; measured on the "
                    "toy, not on these models), and T5 gives every far key its last bucket's one "
                    "bias, shared by more keys at every position. Being relative is not what decides it; ask of "
                    "each model what it meets past L that it never met in training.",
        "biases": "No: a bias on the scores is not enough by itself. T5's last bucket gives one trained bias to every "
                  "far key, and past L more and more keys share it at every position, which training never showed. "
                  "Ask of each model, bias or not, what it meets past L that it never met in training.",
        "alibi and no positions": "Only these two. ALiBi gives each key further back a smaller weight, so the "
                                  "far keys' share of attention levels off; the model with no positions has no "
                                  "explicit code, and the rough sense of position the causal mask gives it drifts "
                                  "only a little past L (it starts worst and stays near there). The absolute codes "
                                  "meet rows or codes they never saw, RoPE breaks after about L/4 past L (most likely "
                                  "at its new angles, the mechanism measured on the toy), "
                                  "and T5's last bucket is given to more keys at every position.",
        "alibi only": "No: ALiBi does hold, but it is not alone. Ask of each of the other models whether, past L, "
                      "it meets a position signal it never met in training; a model can hold because it has little "
                      "or nothing that could turn new.",
        "none of them": "No: some hold. Ask of each model whether, past L, it meets a position signal it never met in "
                        "training, and what a scheme that gives far keys ever smaller weights does to their share of "
                        "attention.",
    },
    answer="alibi and no positions",
    hints=(
        "Ask of each scheme: past L, does the model meet a position signal it never met in training?",
        "A model with no positions has no explicit code, only the rough sense of position a causal mask gives. "
        "A sinusoidal code or a learned row past L is new; "
        "so are RoPE's angles at long offsets; T5 gives every long offset one bias. ALiBi gives each further "
        "key a smaller weight.",
    ),
    solution='answer = "alibi and no positions"  # one of: "all six", "relative", "biases", '
             '"alibi and no positions", "alibi only", "none of them"\nH.check("08.text_past_l", answer)\n',
)


# --- 08.flat_past_l: which schemes stay flat past the training length? ------------------------

predict(
    "08.flat_past_l",
    title="which schemes stay flat past L",
    question="Which models' mean loss stays within 0.2 nats of its level within L (positions 8 … L−1) in every "
             "band past L: L–2L, 2L–4L and, where the curve reaches it, 4L–5L?",
    choices={
        "all": "No: the rule of the task is the same at every position, but the position signals are not. Past L "
               "some models meet a code, a learned row or an angle they never saw in training.",
        "relative": "No: depending on offsets alone is not enough, because offsets past L can be new too: RoPE's "
                    "slow pairs turn to angles no training offset produced, and its loss rises. Ask of each model "
                    "what it meets past L that it never met in training, or meets in amounts it never met.",
        "biases": "No: a bias that depends on the offset alone can still fail past L. Where many far keys share one "
                  "trained bias, as in T5's last bucket, their number grows with the position, past anything "
                  "training showed, and together they draw attention away from the near keys.",
        "alibi, t5 and none": "No: not all three stay flat. For each, ask whether past L the attention layer meets "
                              "a signal it never met in training, or the same signal in amounts it never met (more "
                              "keys sharing one bias, more keys to average over).",
        "alibi only": "Only ALiBi: each key further back gets a smaller weight, e^(−m·δ), so the attention on "
                      "keys beyond the training length levels off instead of growing with their number. T5 gives "
                      "them all the bias "
                      "of its last bucket, trained on at most 5 keys, and climbs as their number grows; the others "
                      "meet codes or angles they never saw, or (no positions) averages over more keys than ever.",
        "no one": "No: not every model gets worse past L. Ask of each whether past L it meets a signal it never met "
                  "in training, or the same signal in amounts it never met, and what ever smaller weights on far "
                  "keys do to their share of attention.",
    },
    answer="alibi only",
    hints=(
        "Ask of each scheme: past L, does the attention layer meet a signal it never met in training, or the "
        "same signal in amounts it never met?",
        "Absolute codes past L and RoPE's long offsets are new. T5 gives every offset from 59 on the bias of its "
        "last bucket: how many keys share it at position 63, and at position 300? ALiBi gives each further key a "
        "smaller weight, e^(−m·δ).",
    ),
    solution='answer = "alibi only"  # one of: "all", "relative", "biases", "alibi, t5 and none", "alibi only", '
             '"no one"\nH.check("08.flat_past_l", answer)\n',
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


def _probability(logits, targets):
    return -F.softmax(logits, dim=-1).gather(-1, targets[..., None])[..., 0].mean(0)


def _raw_logit(logits, targets):
    return -logits.gather(-1, targets[..., None])[..., 0].mean(0)


def _targets_shifted(logits, targets):
    return _reference(logits[:, :-1], targets[:, 1:])


def _over_sequences_axis(logits, targets):
    return -F.log_softmax(logits, dim=0).gather(-1, targets[..., None])[..., 0].mean(0)


def _log_of_softmax(logits, targets):
    return -F.softmax(logits, dim=-1).log().gather(-1, targets[..., None])[..., 0].mean(0)


def _softmax_by_hand(logits, targets):
    e = logits.exp()
    return -(e / e.sum(-1, keepdim=True)).log().gather(-1, targets[..., None])[..., 0].mean(0)


def _log_p_next(logits, targets):
    return F.log_softmax(logits, dim=-1).gather(-1, targets[..., None])[..., 0]


def _perplexity_of_each(logits, targets):
    return (-_log_p_next(logits, targets)).exp().mean(0)


def _perplexity_of_mean(logits, targets):
    return (-_log_p_next(logits, targets).mean(0)).exp()


def _median(logits, targets):
    return (-_log_p_next(logits, targets)).median(0).values


def _middle_quantile(logits, targets):
    return (-_log_p_next(logits, targets)).quantile(0.5, dim=0)


def _median_negated(logits, targets):
    return -_log_p_next(logits, targets).median(0).values


def _batch_fixed(size):
    def loss(logits, targets):
        return -_log_p_next(logits, targets).sum(0) / size
    return loss


def _capped(cap):
    def loss(logits, targets):
        return (-_log_p_next(logits, targets).clamp(min=-cap)).mean(0)
    return loss


def _first_sequence(logits, targets):
    return -_log_p_next(logits, targets)[0]


def _log_of_mean_probability(logits, targets):
    return -_log_p_next(logits, targets).exp().mean(0).log()


_UNDERFLOW = ("softmax underflow: with confident logits, a target 200 below the largest logit has the probability "
              "e^(−200) ≈ 10⁻⁸⁷, which float32 (smallest number about 10⁻⁴⁵) stores as 0, and −log 0 = inf. "
              "Never form the probability: F.log_softmax(logits, dim=-1) computes logit − logsumexp(logits) "
              "directly, and F.cross_entropy does the same inside.")
_OVERFLOW = ("e^logit overflows for confident logits (e^200 is inf in float32, whose largest number is about "
             "3·10³⁸), and inf / inf is nan. Subtract the row's largest logit first, or better use "
             "F.log_softmax(logits, dim=-1), which does it for you.")


def _explain(args, output) -> str | None:
    """A non-finite loss where the reference is finite: the probability underflowed or e^logit overflowed."""
    if bool(output.isnan().any()):
        return "your loss is nan, and the usual cause here is that " + _OVERFLOW
    if bool(output.isinf().any()):
        return "your loss is inf, a " + _UNDERFLOW
    return None


def _explain_error(args, err) -> str | None:
    logits = args[0]
    if isinstance(err, RuntimeError | ValueError) and "Expected target size" in str(err):
        return (f"F.cross_entropy wants the classes on dim 1: it read your logits {tuple(logits.shape)} as "
                f"{logits.shape[1]} classes at {logits.shape[2]} places. Pass logits.transpose(1, 2), shape "
                f"(batch, vocab, n), with targets (batch, n), and reduction=\"none\" to keep one loss per token.")
    return None


def _in(dtype):
    def losses(logits, targets):
        return -F.log_softmax(logits.to(dtype), dim=-1).gather(-1, targets[..., None])[..., 0].float().mean(0)
    return losses


def _where(args, index) -> str:
    logits = args[0]
    t = index[0]
    return f"position {t} of {logits.shape[1]} (the mean over the {logits.shape[0]} sequences' tokens at {t})"


def _cases() -> list[Case]:
    g = torch.Generator().manual_seed(8)
    cases = []
    for label, batch, n, vocab, scale in (("the toy's size (Going deeper): 32 sequences of 64 tokens, 16 tokens",
                                           32, 64, 16, 3.0),
                                          ("one sequence of one token", 1, 1, 16, 3.0),
                                          ("5 sequences of 7 tokens, a vocabulary of 3", 5, 7, 3, 1.0),
                                          ("confident logits, up to ±200", 4, 9, 16, 200.0),
                                          ("the text models' size: 32 inputs of 128 bytes, 256 byte values",
                                           32, 128, 256, 3.0)):
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
        "−probability instead of −log probability": (
            _probability, "the loss is −log p(target): take the log of the softmax (F.log_softmax), not the "
                          "probability itself."),
        "the target's raw logit instead of its log-probability": (
            _raw_logit, "normalise first: log p(target) = logit[target] − logsumexp(logits), which "
                        "F.log_softmax(logits, dim=-1) gives."),
        "targets shifted by one position": (
            _targets_shifted, "logits[b, t] already scores targets[b, t] (the loader aligned them): do not shift "
                              "either, so that every one of the n positions keeps its loss."),
        "log of the softmax: the target's probability underflows to 0": (
            _log_of_softmax, "a " + _UNDERFLOW),
        "softmax by hand: e^logit overflows": (
            _softmax_by_hand, _OVERFLOW),
        "log-softmax over the sequences (dim 0)": (
            _over_sequences_axis, "the softmax runs over the vocabulary, the last dimension: "
                                  "F.log_softmax(logits, dim=-1)."),
        "perplexity instead of the loss": (
            (_perplexity_of_each, _perplexity_of_mean),
            "the loss is −ln p in nats, averaged over the batch: -log_p_next.mean(0). Its exponential is the "
            "perplexity, which the lesson computes from the loss where it needs one; the curves are drawn in nats."),
        "median over the sequences instead of the mean": (
            (_median, _middle_quantile, _median_negated),
            "average the losses over the batch, .mean(0): the loss is a mean, and a few badly predicted tokens "
            "must count, which the median ignores."),
        "the batch size written in (sum divided by a fixed number)": (
            tuple(_batch_fixed(size) for size in (4, 8, 16, 32, 64)),
            "divide by the batch this call is given, log_p_next.shape[0], or simply take -log_p_next.mean(0): "
            "the cases use batches of 1, 4, 5 and 32 sequences."),
        "the loss capped (clamp) before the mean": (
            tuple(_capped(cap) for cap in (1, 2, 3, 5, 10, 20, 50, 100)),
            "average the losses as they are: a clamp on ln p caps every loss above the floor, so badly predicted "
            "tokens, which are what the lesson's curves show, stop counting in full. -log_p_next.mean(0)."),
        "the first sequence only": (
            _first_sequence,
            "average over every sequence of the batch, -log_p_next.mean(0): log_p_next[0] is the first sequence's "
            "losses alone, one text's noise instead of the mean."),
        "−ln of the mean probability instead of the mean of −ln p": (
            _log_of_mean_probability,
            "average the losses, not the probabilities: −ln p for each token first, then the mean over the batch. "
            "−ln(mean p) is smaller (a log of a mean is at least the mean of the logs) and lets one confident token "
            "hide another's bad one."),
    },
    hints=(
        "The loss of one token is −ln p(the byte that came next), and log_p_next already holds ln p: negate it.",
        "log_p_next has shape (batch, n): average it over dimension 0, the batch, to keep one value per "
        "position: -log_p_next.mean(0).",
    ),
    solution='''import torch.nn.functional as F


def my_loss_by_position(logits, targets):
    """logits (batch, n, vocab), targets (batch, n) token ids → (n,) mean loss in nats at each position."""
    log_p = F.log_softmax(logits, dim=-1)  # (batch, n, vocab): ln p of every byte (never log of softmax)
    log_p_next = log_p.gather(-1, targets[..., None])[..., 0]  # (batch, n): ln p of the byte that came next
    return batch_mean_loss(log_p_next)


def batch_mean_loss(log_p_next):
    """(batch, n) → (n,): the loss −ln p at each position, averaged over the batch."""
    return -log_p_next.mean(0)


H.check("08.loss_by_position", my_loss_by_position)
''',
    where=_where,
    axes=("positions",),
    explain=_explain,
    explain_error=_explain_error,
    half_why="The lesson reads differences of a few hundredths of a nat between positions, and float16 rounds a "
             "loss of 3 by up to 10⁻³ and its exponentials overflow from logits of 11 on (e^11.1 > 65504); "
             "bfloat16 rounds a loss of 3 by up to 8·10⁻³.",
    half=(_in(torch.float16), _in(torch.bfloat16)),
    autograd=True,
)
