"""Lesson 04's measurements (helpers.measure.l04_sinusoidal), checked against values worked by hand
and plain-loop reference implementations."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H

even_d = st.integers(1, 32).map(lambda n: 2 * n)
seeds = st.integers(0, 2**31)


def randn(*shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


# --- sign_changes -------------------------------------------------------------------------


def test_sign_changes_by_hand():
    x = torch.tensor([[1.0, -1.0], [-2.0, -1.0], [3.0, 0.0], [0.5, 2.0]])
    # column 0: + − + + → 2 changes; column 1: − − 0 + with 0 counted as positive → 1 change
    assert H.sign_changes(x).tolist() == [2, 1]
    assert H.sign_changes(torch.ones(1, 3)).tolist() == [0, 0, 0]


def test_sign_changes_of_sin_and_cos_by_hand():
    # sin(p), p = 0 … 99, changes sign once per multiple of π in (0, 99]: floor(99/π) = 31.
    # cos(p) changes sign at π/2 + mπ ≤ 99, m = 0 … 31: 32 times.
    pe = H.sinusoidal(100, 2)
    assert H.sign_changes(pe).tolist() == [31, 32]


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 12), cols=st.integers(1, 5), seed=seeds)
def test_sign_changes_matches_a_loop(rows, cols, seed):
    x = randn(rows, cols, seed=seed).round()  # rounding makes exact zeros common
    expected = []
    for j in range(cols):
        signs = ["+" if x[p, j] >= 0 else "-" for p in range(rows)]
        expected.append(sum(a != b for a, b in zip(signs, signs[1:], strict=False)))
    assert H.sign_changes(x).tolist() == expected


@pytest.mark.parametrize(
    "bad, error",
    [([[1.0, 2.0]], TypeError), (torch.ones(3), ValueError), (torch.ones(2, 2, dtype=torch.complex64), TypeError),
     (torch.tensor([[float("nan")], [1.0]]), ValueError), (torch.ones(0, 2), ValueError)],
)
def test_sign_changes_rejects_bad_input(bad, error):
    with pytest.raises(error, match="codes"):
        H.sign_changes(bad)


# --- shift distance ----------------------------------------------------------------------


def test_shift_distance_by_hand():
    # d = 2, ω = 1: the pair moves along the unit circle by angle k, chord = 2|sin(k/2)|.
    ks = torch.tensor([0, 1, 2, -3])
    expected = [2 * abs(math.sin(k / 2)) for k in ks.tolist()]
    assert torch.allclose(H.shift_distance(ks, 2), torch.tensor(expected, dtype=torch.float64))


@settings(max_examples=30, deadline=None)
@given(d=even_d, p=st.integers(0, 300), k=st.integers(-300, 300), base=st.floats(2.0, 1e5))
def test_shift_distance_matches_the_table(d, p, k, base):
    p = max(p, -k)  # both positions in the table: p ≥ 0 and p + k ≥ 0
    pe = H.sinusoidal(max(p, p + k) + 1, d, base).double()
    direct = float((pe[p + k] - pe[p]).norm())
    assert float(H.shift_distance(k, d, base)) == pytest.approx(direct, abs=1e-5)


def test_shift_distance_rejects_bad_input():
    with pytest.raises(TypeError, match="offsets"):
        H.shift_distance(torch.tensor([1.5]), 8)
    with pytest.raises(TypeError, match="offsets"):
        H.shift_distance(torch.tensor([1j]), 8)
    with pytest.raises(ValueError, match="d_model"):
        H.shift_distance(1, 7)


# --- linear probe ------------------------------------------------------------------------


def test_linear_probe_by_hand():
    # features are the one-hot labels themselves: a perfect read-out exists
    labels = torch.tensor([0, 1, 2, 0, 1, 2])
    train = torch.tensor([True, True, True, False, False, False])
    x = torch.nn.functional.one_hot(labels).double()
    assert H.linear_probe_accuracy(x, labels, train) == 1.0
    # features carry nothing: the fit is the bias, the mean one-hot [2/3, 1/3] of the training
    # labels, so it always answers 0 — right on one of the two test rows
    x = torch.zeros(5, 2)
    assert H.linear_probe_accuracy(x, [0, 0, 1, 0, 1], torch.tensor([True, True, True, False, False])) == 0.5


def test_linear_probe_rejects_bad_input():
    x, train = torch.ones(4, 2), torch.tensor([True, True, False, False])
    with pytest.raises(TypeError, match="labels"):
        H.linear_probe_accuracy(x, torch.tensor([0.0, 1.0, 0.0, 1.0]), train)
    with pytest.raises(ValueError, match="labels"):
        H.linear_probe_accuracy(x, [0, 1, 2], train)
    with pytest.raises(ValueError, match="train"):
        H.linear_probe_accuracy(x, [0, 1, 0, 1], torch.tensor([1, 1, 0, 0]))
    with pytest.raises(ValueError, match="train"):
        H.linear_probe_accuracy(x, [0, 1, 0, 1], torch.ones(4, dtype=torch.bool))


# --- what the explorer shows ---------------------------------------------------------------


def test_sinusoidal_snapshot():
    s = H.sinusoidal_snapshot(d_model=8, position=3, length=10, base=100.0)
    assert torch.equal(s.table, H.sinusoidal(10, 8, 100.0))
    # ω = 100^(−2i/8) = 1, 1/√10, 1/10, 1/√1000: wavelengths 2π/ω
    expected = [2 * math.pi * 10 ** (i / 2) for i in range(4)]
    assert s.wavelengths.tolist() == pytest.approx(expected)
    assert s.norm == pytest.approx(2.0)  # √(d/2)
    with pytest.raises(ValueError, match="position"):
        H.sinusoidal_snapshot(8, 10, 10)
    with pytest.raises(ValueError, match="d_model"):
        H.sinusoidal_snapshot(7, 0, 10)
