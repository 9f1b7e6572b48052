"""Lesson 02's exercises: 02.normalised against independent answers and its catalogued mistakes."""

import numpy as np
import pytest
import torch

import helpers as H

from .kit import assert_diagnosed, assert_passes, solved_function

ID = "02.normalised"


@pytest.mark.parametrize("answer", [
    H.normalised,
    lambda L: torch.linspace(0, 1, L) if L > 1 else torch.zeros(1),
    lambda L: np.array([p / (L - 1) if L > 1 else 0.0 for p in range(L)]),
    lambda L: torch.arange(L, dtype=torch.float32) / max(L - 1, 1),
], ids=["helper", "linspace", "numpy list", "float32 max"])
def test_correct_answers_pass(answer):
    assert_passes(ID, answer)


def test_the_solution_passes():
    assert_passes(ID, solved_function(ID))


@pytest.mark.parametrize("mistake, answer", [
    ("divided by L", lambda L: torch.arange(L) / L),
    ("divided by L", lambda L: np.arange(L) / L),
    ("positions counted from 1", lambda L: torch.arange(1, L + 1) / L),
    ("positions counted from 1", lambda L: torch.linspace(1 / L, 1, L)),
    ("integer division", lambda L: torch.tensor([p // max(L - 1, 1) for p in range(L)])),
])
def test_catalogued_mistakes_are_named(mistake, answer):
    assert_diagnosed(ID, answer, mistake)


@pytest.mark.parametrize("answer", [
    lambda L: torch.arange(L) / (L - 1),
    lambda L: torch.tensor([p / (L - 1) if L > 1 else float("nan") for p in range(L)]),
])
def test_one_word_without_a_special_case_is_named_and_points_at_the_nan(answer):
    result = H.check(ID, answer)
    assert result.status == "failed" and result.mistake == "a one-word sentence divided by zero"
    assert "got nan at position 0, the only word of a one-word sentence where 0 was expected" in \
        result.message and "length=1" in result.message


def test_wrong_shape_random_answer_and_stub():
    column = H.check(ID, lambda L: H.normalised(L)[:, None])
    assert column.status == "failed" and "shape" in column.message and column.mistake is None
    noise = H.check(ID, lambda L: torch.rand(L, generator=torch.Generator().manual_seed(0)))
    assert noise.status == "failed" and noise.mistake is None

    def stub(length):
        raise NotImplementedError  # your code here

    assert H.check(ID, stub).status == "not attempted"


@pytest.mark.parametrize("answer, verdict", [
    ("all but the first", "passed"), ("All but the first ", "passed"), ("none", "failed"),
    ("only the last", "failed"), ("all", "failed"),
])
def test_stale_cache_verdicts(answer, verdict):
    assert H.check("02.stale_cache", answer).status == verdict


def test_stale_cache_answer_matches_the_codes():
    before, after = H.growing_codes(6)[4, :5], H.growing_codes(6)[5, :5]
    assert (before != after).tolist() == [False, True, True, True, True]
