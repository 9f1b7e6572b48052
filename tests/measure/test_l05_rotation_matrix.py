"""Lesson 05's measurement: a code before and after the shift matrix, pair by pair."""

import math

import pytest
import torch

import helpers as H


def test_shift_snapshot_by_hand():
    # d = 4, base 100: ω = (1, 0.1). PE(2) = (sin 2, cos 2, sin 0.2, cos 0.2); k = 3 moves it to PE(5).
    s = H.shift_snapshot(3, 2, d_model=4, base=100.0)
    assert s.start.tolist() == pytest.approx([math.sin(2), math.cos(2), math.sin(0.2), math.cos(0.2)], abs=1e-6)
    assert s.moved.tolist() == pytest.approx([math.sin(5), math.cos(5), math.sin(0.5), math.cos(0.5)], abs=1e-6)
    assert s.omega.tolist() == pytest.approx([1.0, 0.1])
    assert s.turns.tolist() == pytest.approx([3 / (2 * math.pi), 0.3 / (2 * math.pi)])


def test_shift_snapshot_backwards_and_against_the_table():
    table = H.sinusoidal(60, 16)
    for k, position in ((-7, 20), (0, 5), (39, 20)):
        s = H.shift_snapshot(k, position, d_model=16)
        assert torch.allclose(s.start, table[position]) and torch.allclose(s.moved, table[position + k], atol=1e-6)
        assert bool((s.turns * k >= 0).all())  # a negative offset turns every hand back


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="k must be an integer"):
        H.shift_snapshot(1.5, 0, 8)
    with pytest.raises(ValueError, match="position"):
        H.shift_snapshot(1, -1, 8)
    with pytest.raises(ValueError, match="d_model"):
        H.shift_snapshot(1, 0, 7)
