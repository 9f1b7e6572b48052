"""Lesson 04's predictions (04.fastest_pair, 04.dot_sign): every choice gets its verdict, and the
right answer is what the encoding computes."""

import pytest
import torch

import helpers as H

from .kit import assert_choices, assert_solution_passes


@pytest.mark.parametrize(("exercise_id", "right"), [("04.fastest_pair", "first"), ("04.dot_sign", "same")])
def test_every_choice_gets_its_verdict(exercise_id, right):
    assert_choices(exercise_id, right)


def test_pair_zero_changes_fastest():
    # independent of helpers.frequencies: sign changes of each sine column of a hand-built table
    d, n = 64, 200
    p = torch.arange(n, dtype=torch.float64)[:, None]
    omega = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    sines = torch.sin(p * omega)
    flips = (torch.sign(sines[1:]) != torch.sign(sines[:-1])).sum(dim=0)
    assert int(flips.argmax()) == 0 and flips[0] > flips[-1] and omega.argmax() == 0


def test_the_dot_product_is_the_same_for_plus_and_minus_k():
    pe = H.sinusoidal(300, 32).double()
    p = 150
    for k in (1, 5, 37, 120):
        assert torch.isclose(pe[p] @ pe[p + k], pe[p] @ pe[p - k], atol=1e-9)


def test_solutions_pass():
    for exercise_id in ("04.fastest_pair", "04.dot_sign"):
        assert_solution_passes(exercise_id)
