"""Lesson 08's exercises: 08.flat_past_l (predict) and 08.loss_by_position (implement) against
independent answers, its catalogued mistakes, and the right answer of the prediction against the
lesson's own claims."""

import math

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

    message = assert_fails_undiagnosed(ID, log_of_softmax)
    assert "confident logits" in message and "inf" in message
    assert_fails_undiagnosed(ID, lambda lg, tg: torch.rand(tg.shape[1], generator=torch.Generator().manual_seed(0)))
    shape = H.check(ID, lambda lg, tg: loop_loss(lg, tg)[None])
    assert shape.status == "failed" and "shape" in shape.message

    def stub(logits, targets):
        raise NotImplementedError  # your code here

    assert H.check(ID, stub).status == "not attempted"
