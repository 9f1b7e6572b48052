"""Lesson 02's measurements (normalised positions), checked against values worked by hand and
exact fractions."""

from fractions import Fraction

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H


def test_nearest_position_by_hand():
    assert H.nearest_position(0.5, 11) == 5
    assert H.nearest_position(30 / 49 - 1 / 9, 50) == 25  # 49·(30/49 − 1/9) = 24.56
    assert H.nearest_position(-0.3, 10) == 0 and H.nearest_position(1.7, 10) == 9
    assert H.nearest_position(0.25, 2) == 0 and H.nearest_position(0.75, 2) == 1


def test_growing_codes_by_hand():
    t = H.growing_codes(4)
    nan = float("nan")
    expected = torch.tensor([[0, nan, nan, nan], [0, 1, nan, nan], [0, 0.5, 1, nan], [0, 1 / 3, 2 / 3, 1]],
                            dtype=torch.float64)
    assert torch.equal(t.isnan(), expected.isnan())
    assert torch.allclose(t.nan_to_num(-1), expected.nan_to_num(-1))
    assert H.growing_codes(1).tolist() == [[0.0]]
    # the last row is the normalised helper
    assert torch.allclose(H.growing_codes(30)[-1].float(), H.normalised(30))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 60), st.integers(2, 60))
def test_compare_lengths_against_fractions(a, b):
    c = H.compare_lengths(a, b)
    brute = [(i, j) for i in range(a) for j in range(b) if Fraction(i, a - 1) == Fraction(j, b - 1)]
    assert c.shared == brute
    assert torch.allclose(c.codes_a.float(), H.normalised(a))
    assert torch.allclose(c.codes_b.float(), H.normalised(b))
    assert c.step_a == 1 / (a - 1) and c.second_b == 1 / (b - 1)
    assert torch.allclose(c.codes_a.diff(), torch.full((a - 1,), 1 / (a - 1), dtype=torch.float64))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: H.nearest_position(0.5, 1), ValueError, "length"),
        (lambda: H.nearest_position(float("nan"), 5), ValueError, "code"),
        (lambda: H.growing_codes(0), ValueError, "length"),
        (lambda: H.compare_lengths(1, 5), ValueError, "length_a"),
        (lambda: H.compare_lengths(5, "7"), TypeError, "length_b"),
    ],
)
def test_bad_input_names_the_parameter(call, error, words):
    with pytest.raises(error, match=words):
        call()
