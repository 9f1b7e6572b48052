"""Lesson 05's predictions (05.sine_only, 05.projected): every choice gets its verdict, and the right
answer is what an independent computation (numpy, not the course's helpers) gives."""

import numpy as np
import pytest

from .kit import assert_choices, assert_solution_passes

PREDICTIONS = [("05.sine_only", "no"), ("05.projected", "spread")]


def _codes(positions, d):
    # interleaved sinusoidal codes in float64: column 2i = sin(p·ω_i), 2i + 1 = cos(p·ω_i)
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.asarray(positions, dtype=np.float64)[:, None] * omega
    return np.stack((np.sin(angle), np.cos(angle)), axis=2).reshape(len(angle), d)


@pytest.mark.parametrize(("exercise_id", "right"), PREDICTIONS)
def test_every_choice_gets_its_verdict(exercise_id, right):
    assert_choices(exercise_id, right)


@pytest.mark.parametrize(("exercise_id", "right"), PREDICTIONS)
def test_solutions_pass(exercise_id, right):
    assert_solution_passes(exercise_id, right)


def test_sines_alone_leave_a_residual_and_sines_with_cosines_do_not():
    d, k = 16, 5
    p = np.random.default_rng(0).integers(0, 100_000, 2048)
    x, y = _codes(p, d), _codes(p + k, d)
    residual = {}
    for name, cols in (("sine", slice(0, d, 2)), ("both", slice(None))):
        m, *_ = np.linalg.lstsq(x[:, cols], y[:, cols], rcond=None)
        residual[name] = np.linalg.norm(x[:, cols] @ m - y[:, cols]) / np.linalg.norm(y[:, cols])
    assert residual["sine"] > 0.2 and residual["both"] < 1e-8


def test_random_projections_spread_the_scores_of_one_offset():
    d, length = 64, 128
    rng = np.random.default_rng(1)
    w_q, w_k = rng.standard_normal((2, d, d)) / np.sqrt(d)
    pe = _codes(np.arange(length), d)
    raw, projected = pe @ pe.T, (pe @ w_q.T) @ (pe @ w_k.T).T
    for offset in (0, 3, 17):
        assert np.ptp(np.diagonal(raw, offset)) < 1e-9
        assert np.ptp(np.diagonal(projected, offset)) > 1
