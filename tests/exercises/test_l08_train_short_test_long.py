"""Lesson 08's exercises: 08.text_past_l and 08.flat_past_l (predicts) and 08.loss_by_position (implement) against
independent answers, its catalogued mistakes, and the right answer of the prediction against the
lesson's own claims."""

import math
import re

import pytest
import torch
import torch.nn.functional as F

import helpers as H
from helpers.exercises.core import get

from .kit import assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

PREDICT = "08.flat_past_l"
ID = "08.loss_by_position"


def test_every_choice_of_the_prediction_gets_its_verdict():
    choices = get(PREDICT).choices
    assert set(choices) == {"all", "relative", "biases", "alibi, t5 and none", "alibi only", "no one"}
    for choice in choices:
        result = H.check(PREDICT, choice)
        assert result.passed == (choice == "alibi only"), (choice, result.message)
    assert H.check(PREDICT, " Alibi only ").passed
    assert H.check(PREDICT, "alibi").status == "failed"
    assert H.check(PREDICT, None).status == "not attempted"


def test_every_choice_of_the_text_prediction_gets_its_verdict():
    choices = get("08.text_past_l").choices
    assert set(choices) == {"all six", "relative", "biases", "alibi and no positions", "alibi only", "none of them"}
    for choice in choices:
        result = H.check("08.text_past_l", choice)
        assert result.passed == (choice == "alibi and no positions"), (choice, result.message)
    assert H.check("08.text_past_l", "alibi and none").status == "failed"   # the old, ambiguous name
    assert H.check("08.text_past_l", None).status == "not attempted"


def test_the_question_uses_the_lessons_tolerance_and_bands():
    from helpers.measure import l08_train_short_test_long as M

    question = get(PREDICT).question
    assert f"within {M.RISE} nats" in question and f"positions {M.BAND_START} … L−1" in question
    assert all(band in question for band in M.BAND_NAMES[1:])


def test_the_right_answer_is_what_every_seed_measured():
    """The schemes whose rise stayed within ±RISE in every band past L, for every seed of the stored
    summary, are exactly the ones the right answer names."""
    from helpers.measure import l08_train_short_test_long as M

    rises = M.SEED_SPREAD["rises"]
    assert set(rises) == set(M.TRAINED_SCHEMES)
    flat = {name for name, bands in rises.items() if all(-M.RISE <= lo and hi <= M.RISE for lo, hi in bands.values())}
    assert flat == {"alibi"}


def loop_loss(logits, targets):
    """Independent: float64, one position and one sequence at a time, log-sum-exp by hand."""
    batch, n, _ = logits.shape
    out = torch.zeros(n, dtype=torch.float64)
    for t in range(n):
        for b in range(batch):
            row = logits[b, t].double()
            top = row.max()
            out[t] += top + (row - top).exp().sum().log() - row[targets[b, t]]
    return out / batch


@pytest.mark.parametrize("answer", [
    loop_loss,
    lambda logits, targets: -F.log_softmax(logits, -1).gather(-1, targets[..., None]).squeeze(-1).mean(0),
    lambda logits, targets: F.nll_loss(F.log_softmax(logits.double(), -1).transpose(1, 2), targets,
                                       reduction="none").mean(0).float(),
], ids=["loop", "gather", "nll float64"])
def test_correct_answers_pass(answer):
    assert_passes(ID, answer)


def test_the_solution_passes():
    assert_passes(ID, solved_function(ID))


@pytest.mark.parametrize("mistake, answer", [
    ("averaged over the positions instead of over the sequences",
     lambda lg, tg: loop_loss(lg.transpose(0, 1), tg.transpose(0, 1))),
    ("softmax over the positions instead of the vocabulary",
     lambda lg, tg: -(lg - lg.logsumexp(1, keepdim=True)).gather(-1, tg[..., None])[..., 0].mean(0)),
    ("bits instead of nats", lambda lg, tg: loop_loss(lg, tg) / math.log(2)),
    ("summed over the sequences instead of averaged", lambda lg, tg: loop_loss(lg, tg) * lg.shape[0]),
    ("the minus sign is missing", lambda lg, tg: -loop_loss(lg, tg)),
])
def test_catalogued_mistakes_are_named(mistake, answer):
    assert_diagnosed(ID, answer, mistake)


def test_log_of_softmax_fails_on_confident_logits_and_random_answers_fail():
    def log_of_softmax(logits, targets):
        return -logits.softmax(-1).log().gather(-1, targets[..., None])[..., 0].mean(0)

    message = assert_diagnosed(ID, log_of_softmax, "log of the softmax: the target's probability underflows to 0")
    assert "confident logits" in message and "got inf" in message and "softmax underflow" in message
    assert "F.log_softmax(logits, dim=-1)" in message
    assert_fails_undiagnosed(ID, lambda lg, tg: torch.rand(tg.shape[1], generator=torch.Generator().manual_seed(0)))
    shape = H.check(ID, lambda lg, tg: loop_loss(lg, tg)[None])
    assert shape.status == "failed" and "shape" in shape.message

    def stub(logits, targets):
        raise NotImplementedError  # your code here

    assert H.check(ID, stub).status == "not attempted"


def test_softmax_by_hand_overflow_and_other_infinite_losses_are_named():
    def by_hand(logits, targets):
        p = logits.exp() / logits.exp().sum(-1, keepdim=True)
        return torch.stack([-p[b, range(p.shape[1]), targets[b]].log() for b in range(p.shape[0])]).mean(0)

    message = assert_diagnosed(ID, by_hand, "softmax by hand: e^logit overflows")
    assert "got nan" in message and "e^200 is inf in float32" in message

    def underflow_once(logits, targets):  # the log of the softmax only where the logits are confident
        out = -F.log_softmax(logits, -1).gather(-1, targets[..., None])[..., 0].mean(0)
        return torch.where((torch.arange(out.shape[0]) == 1) & bool(logits.abs().max() > 100), math.inf, out)

    other = assert_fails_undiagnosed(ID, underflow_once)
    assert "What your output does: your loss is inf, a softmax underflow" in other, other


def test_cross_entropy_with_the_classes_last_is_explained():
    message = assert_fails_undiagnosed(ID, lambda lg, tg: F.cross_entropy(lg, tg, reduction="none").mean(0))
    assert "raised RuntimeError: Expected target size" in message
    assert "What it means: F.cross_entropy wants the classes on dim 1: it read your logits (32, 64, 16) as 64 " \
        "classes at 16 places. Pass logits.transpose(1, 2)" in message, message


@pytest.mark.parametrize(("exercise_id", "right", "holding"), [
    ("08.text_past_l", "alibi and no positions", ("alibi", "no positions")),
    ("08.flat_past_l", "alibi only", ("alibi",)),
])
def test_a_wrong_choice_explains_its_misconception_without_naming_the_right_set(exercise_id, right, holding):
    """A second try must take thought: no wrong choice's message says which models hold (the set is left to
    H.solution), though it may say why a model it names fails."""
    for choice in get(exercise_id).choices:
        if choice == right:
            continue
        message = H.check(exercise_id, choice).message.lower()
        assert right not in message and "only alibi" not in message, (choice, message)
        assert not re.search(r"(alibi|no positions)[^.:;]* (holds|stays flat)", message) or choice == "alibi only", \
            (choice, message)
        assert "no positions holds" not in message and "with no positions" not in message, (choice, message)
