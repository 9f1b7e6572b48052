"""Lesson 03's measurements (a single sine), checked against values worked by hand and brute force."""

import itertools
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H
from helpers.measure.l03_single_sine import PAIR_KINDS, pair_kind


def _brute_closest(codes):
    best = None
    for i, j in itertools.combinations(range(len(codes)), 2):
        d = math.dist(codes[i], codes[j]) if isinstance(codes[i], list) else abs(codes[i] - codes[j])
        if best is None or d < best[2]:
            best = (i, j, d)
    return best


def test_closest_pair_by_hand():
    assert H.closest_pair(torch.tensor([0.0, 5.0, 2.0, 4.5])) == (1, 3, 0.5)
    assert H.closest_pair(torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))[:2] == (0, 2)
    # sin 11 and sin 344: 333 ≈ 106π, the convergent 333/106 of π
    i, j, gap = H.closest_pair(torch.sin(torch.arange(1000, dtype=torch.float64)))
    assert (i, j) == (11, 344) and gap == pytest.approx(abs(math.sin(11) - math.sin(344)), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-10, 10), min_size=2, max_size=30, unique=True), st.booleans())
def test_closest_pair_against_brute_force(values, two_d):
    if two_d:
        codes = [[v, math.cos(3 * v)] for v in values]
    else:
        codes = values
    i, j, d = H.closest_pair(torch.tensor(codes, dtype=torch.float64))
    _, _, best = _brute_closest(codes)
    assert i < j and d == pytest.approx(best, abs=1e-7)
    pair = (codes[i], codes[j])
    assert (math.dist(*pair) if two_d else abs(pair[0] - pair[1])) == pytest.approx(best, abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(st.floats(1e-3, 3.2), st.integers(2, 40))
def test_gaps_against_brute_force(omega, length):
    values = [math.sin(omega * p) for p in range(length)]
    gap = min(abs(a - b) for a, b in itertools.combinations(values, 2))
    assert H.smallest_gap(omega, length).item() == pytest.approx(gap, abs=1e-12)
    steps = min(abs(values[p + 1] - values[p]) for p in range(length - 1))
    assert H.neighbour_gap(omega, length).item() == pytest.approx(steps, abs=1e-12)
    assert steps <= 2 * math.sin(omega / 2) + 1e-12 <= omega + 1e-12
    points = [[math.cos(omega * p), math.sin(omega * p)] for p in range(length)]
    chord = min(math.dist(a, b) for a, b in itertools.combinations(points, 2))
    assert H.circle_smallest_gap(omega, length).item() == pytest.approx(chord, abs=1e-12)
    assert torch.allclose(H.circle_code(length, omega), torch.tensor(points, dtype=torch.float64))


def test_gap_shapes_and_exact_collisions():
    omegas = torch.tensor([0.1, math.pi / 2, 1.0])
    assert H.smallest_gap(omegas, 10).shape == (3,) and H.circle_smallest_gap(omegas, 10).shape == (3,)
    # ω = π/2 has period 4: positions 0 and 4 both have sin = 0 (up to rounding) and cos = 1
    assert H.smallest_gap(math.pi / 2, 10).item() < 1e-15
    assert H.circle_smallest_gap(math.pi / 2, 10).item() < 1e-15
    # a circle that is gone round exactly once: L points, 2π/L apart
    assert H.circle_smallest_gap(2 * math.pi / 12, 12).item() == pytest.approx(2 * math.sin(math.pi / 12))
    # within one period the sine alone still repeats: sin(x) = sin(π − x), ω = 2π/12, p = 1 and 5
    assert H.smallest_gap(2 * math.pi / 12, 12).item() < 1e-15


def test_sine_snapshot():
    s = H.sine_snapshot(1.0, 50)
    assert torch.allclose(s.values.float(), H.single_sine(50, 1.0))
    assert s.wave_pair == H.closest_pair(s.values)
    assert s.circle_pair[2] == pytest.approx(H.circle_smallest_gap(1.0, 50).item(), abs=1e-9)
    assert s.neighbour_gap == pytest.approx(H.neighbour_gap(1.0, 50).item())
    assert s.turns == pytest.approx(49 / (2 * math.pi))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: H.closest_pair(torch.zeros(1)), ValueError, "codes"),
        (lambda: H.closest_pair(torch.zeros(2, 2, 2)), ValueError, "codes"),
        (lambda: H.smallest_gap(0.0, 10), ValueError, "omegas"),
        (lambda: H.smallest_gap(torch.tensor([1.0, -1.0]), 10), ValueError, "omegas"),
        (lambda: H.smallest_gap(1.0, 1), ValueError, "length"),
        (lambda: H.neighbour_gap(float("inf"), 10), ValueError, "omegas"),
        (lambda: H.circle_smallest_gap(1.0, 1), ValueError, "length"),
        (lambda: H.circle_code(5, omega=float("nan")), ValueError, "omega"),
        (lambda: H.sine_snapshot(-1.0, 10), ValueError, "omega"),
        (lambda: H.sine_snapshot(1.0, 1), ValueError, "length"),
    ],
)
def test_bad_input_names_the_parameter(call, error, words):
    with pytest.raises(error, match=words):
        call()


def _kind_by_hand(omega, i, j):
    # the two factors of sin(ωj) − sin(ωi) = 2·cos(ω(i+j)/2)·sin(ω(j−i)/2), from the sum and the offset
    mirror = abs(math.cos(omega * (i + j) / 2))
    turns = omega * (j - i) / (2 * math.pi)
    if mirror <= abs(math.sin(math.pi * turns)):
        return "mirror"
    return "step" if turns < 0.5 else "repeat"


def test_pair_kind_by_hand():
    # ω = 2π/12: 1 and 5 mirror each other about the crest at 3; 0 and 12 are exactly one turn apart
    w12 = 2 * math.pi / 12
    assert pair_kind(w12, 1, 5) == "mirror" and pair_kind(w12, 0, 12) == "repeat"
    # a slow wave: 48 and 49 on the rising slope (97·0.01/2 = 0.485 rad, far from the crest π/2)
    assert pair_kind(0.01, 48, 49) == "step"
    # neighbours either side of a crest are a mirror pair: 31.5·0.05 = 1.575 ≈ π/2
    assert pair_kind(0.05, 31, 32) == "mirror"
    # ω = 1: 333/2π = 52.9986 turns, but 11 + 344 = 355 ≈ 113π is closer still: the mirror factor is the smaller
    assert abs(math.cos(355 / 2)) < 1e-4 < 4e-3 < abs(math.sin(333 / 2)) and pair_kind(1.0, 11, 344) == "mirror"
    # ω = 0.7: 38 and 47 are 9·0.7/2π = 1.003 turns apart (factor 0.0084); (38 + 47)·0.7/π = 18.94 (factor 0.095)
    assert pair_kind(0.7, 38, 47) == "repeat"
    assert PAIR_KINDS == ("step", "mirror", "repeat")


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-3, 3.0), st.integers(2, 200))
def test_pair_kind_of_the_closest_pair_against_the_factors(omega, length):
    codes = [math.sin(omega * p) for p in range(length)]
    _, i, j = min((abs(codes[p] - codes[q]), p, q) for p in range(length) for q in range(p + 1, length))
    assert pair_kind(omega, i, j) == _kind_by_hand(omega, i, j)


@pytest.mark.parametrize(("args", "error", "words"), [
    ((0.0, 1, 2), ValueError, "omega"), ((float("nan"), 1, 2), ValueError, "omega"),
    ((1.0, 2, 2), ValueError, "j must be larger"), ((1.0, -1, 2), ValueError, "i must be"),
    ((1.0, 1, 2.5), TypeError, "j must be"),
])
def test_pair_kind_bad_input_names_the_parameter(args, error, words):
    with pytest.raises(error, match=words):
        pair_kind(*args)
