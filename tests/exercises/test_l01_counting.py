"""Lesson 01's exercises: 01.attention_entropy against independent answers and its catalogued mistakes."""

import math

import numpy as np
import pytest
import torch

import helpers as H
from helpers.exercises import core

from .kit import assert_diagnosed, assert_passes, solved_function

ID = "01.attention_entropy"


def loop_entropy(weights):
    """Independent: numpy, one row at a time, skipping the zero weights."""
    w = np.asarray(weights, dtype=np.float64)
    rows = w.reshape(-1, w.shape[-1])
    out = np.array([-sum(a * math.log(a) for a in row if a > 0) for row in rows])
    return out.reshape(w.shape[:-1])


@pytest.mark.parametrize("answer", [
    H.attention_entropy,
    lambda w: torch.special.entr(w).sum(-1),
    lambda w: torch.special.entr(w.double()).sum(-1).to(w.dtype),
    lambda w: torch.stack([-sum(a * torch.log(a) for a in row if a > 0) if bool((row > 0).any()) else row.sum() * 0
                           for row in w.reshape(-1, w.shape[-1])]).reshape(w.shape[:-1]),
], ids=["helper", "entr", "float64 inside, cast back", "python loops over tensors"])
def test_correct_answers_pass(answer):
    assert_passes(ID, answer)


@pytest.mark.parametrize("answer", [
    lambda w: torch.from_numpy(loop_entropy(w.detach()).astype(np.asarray(w.detach()).dtype)),
    lambda w: loop_entropy(w).astype(np.asarray(w).dtype),
    lambda w: torch.tensor([-sum(a * math.log(a) for a in row if a > 0) for row in w.reshape(-1, w.shape[-1]).tolist()],
                           dtype=w.dtype).reshape(w.shape[:-1]),
    lambda w: torch.special.entr(w).sum(-1).detach(),
], ids=["numpy round trip", "numpy array returned", "python floats rebuilt into a tensor", "detached"])
def test_right_numbers_that_left_pytorch_fail_naming_it(answer):
    """The numbers are right on every case, but the result carries no gradient (and on a GPU a numpy round trip
    would come back on the CPU): the message says the function left PyTorch."""
    result = H.check(ID, answer)
    assert result.status == "failed" and "requiring gradients (requires_grad=True, as in training)" in \
        result.message and "Somewhere your function leaves PyTorch" in result.message, result.message


@pytest.mark.parametrize("answer", [
    lambda w: torch.special.entr(w.double()).sum(-1),           # computed and returned in float64
    loop_entropy,                                              # numpy float64 whatever the input
    lambda w: torch.special.entr(w).sum(-1).float(),           # float32 for a float64 input
], ids=["float64 returned", "numpy float64", "float32 returned"])
def test_the_dtype_of_weights_is_enforced(answer):
    result = H.check(ID, answer)
    assert result.status == "failed" and "dtype: the task asks for" in result.message and \
        "(the dtype of weights, as the docstring says" in result.message, result.message


def test_the_solution_passes():
    assert_passes(ID, solved_function(ID))


def _nats(w):
    return torch.where(w > 0, w * torch.where(w > 0, w, 1.0).log(), 0.0)


@pytest.mark.parametrize("mistake, answer", [
    ("logarithm in base 2", lambda w: -torch.where(w > 0, w * torch.where(w > 0, w, 1.0).log2(), 0.0).sum(-1)),
    ("logarithm in base 2", lambda w: loop_entropy(w) / math.log(2)),
    ("minus sign missing", lambda w: torch.xlogy(w, w).sum(-1)),
    ("summed over the wrong axis", lambda w: torch.special.entr(w).sum(0)),
    ("summed over every axis", lambda w: torch.special.entr(w).sum()),
    ("mean over the keys instead of the sum", lambda w: -_nats(w).mean(-1)),
])
def test_catalogued_mistakes_are_named(mistake, answer):
    assert_diagnosed(ID, answer, mistake)


@pytest.mark.parametrize("answer", [
    lambda w: -(w * w.log()).sum(-1),
    lambda w: -(w * torch.log(w)).sum(dim=-1),
    lambda w: -torch.einsum("...l,...l->...", w, w.log()),
])
def test_forgetting_zero_log_zero_is_named_and_points_at_the_nan(answer):
    result = H.check(ID, answer)
    assert result.status == "failed" and result.mistake == "0·ln 0 computed as nan"
    assert "got nan at the row weights[0, :] (its 4 keys) where 0.693147 was expected" in \
        result.message and "weights exactly 0" in result.message


def test_wrong_shape_random_answer_and_stub():
    keepdim = H.check(ID, lambda w: torch.special.entr(w).sum(-1, keepdim=True))
    assert keepdim.status == "failed" and "shape: expected (), got (1,)" in keepdim.message
    assert keepdim.mistake == "the summed axis kept (keepdim=True)"
    noise = H.check(ID, lambda w: torch.rand(w.shape[:-1], generator=torch.Generator().manual_seed(0)))
    assert noise.status == "failed" and noise.mistake is None

    def stub(weights):
        raise NotImplementedError  # your code here

    assert H.check(ID, stub).status == "not attempted"
    assert H.check(ID, None).status == "not attempted"


def test_the_cases_hold_the_lesson_row_with_exact_zeros():
    cases, expected, _ = core.get(ID).prepared()
    (counted,) = next(c.args for c in cases if "L = 256" in c.label)
    assert counted.shape == (256,) and int((counted == 0).sum()) > 200
    uniform = next(e for c, e in zip(cases, expected, strict=True) if "uniform" in c.label)
    assert math.isclose(float(uniform), math.log(4), rel_tol=1e-6)


@pytest.mark.parametrize("answer, verdict", [
    ("itself", "passed"), ("  Itself ", "passed"), ("spread", "failed"), ("first", "failed"), ("unchanged", "failed"),
])
def test_collapse_verdicts(answer, verdict):
    assert H.check("01.collapse", answer).status == verdict


def test_collapse_answer_matches_the_lesson():
    snap = H.counting_snapshot(1000, mode="feature")
    assert int(snap.weights.argmax()) == 999 and snap.weight_on_last > 0.9999


def test_xlogy_has_the_right_values_but_a_nan_gradient_at_zero_weights():
    """torch.xlogy(w, w) is 0 at w = 0, but its backward there is ln 0 + 0/0 = nan: the check says so (entr's +inf,
    the true slope of −a·ln a at 0, passes)."""
    weights = torch.tensor([0.5, 0.5, 0.0], requires_grad=True)
    (-torch.xlogy(weights, weights)).sum().backward()
    assert math.isnan(float(weights.grad[2]))
    result = H.check(ID, lambda w: -torch.xlogy(w, w).sum(dim=-1))
    assert result.status == "failed" and "the log of 0 is still computed" in result.message, result.message
