"""Lesson 06's predictions (06.shift_sentence, 06.decay): every choice gets its verdict, and the right
answer is what an independent computation (RoPE written with complex numbers) gives."""

import numpy as np
import pytest

from .kit import assert_choices, assert_solution_passes

PREDICTIONS = [("06.shift_sentence", "unchanged"), ("06.decay", "same")]


def _rope(x, positions):
    # pairs (2i, 2i+1) read as complex numbers, multiplied by exp(i·p·ω_i)
    d = x.shape[-1]
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * np.asarray(positions, dtype=np.float64)[:, None] * omega)
    return np.stack((z.real, z.imag), axis=-1).reshape(x.shape)


@pytest.mark.parametrize(("exercise_id", "right"), PREDICTIONS)
def test_every_choice_gets_its_verdict(exercise_id, right):
    assert_choices(exercise_id, right)


@pytest.mark.parametrize(("exercise_id", "right"), PREDICTIONS)
def test_solutions_pass(exercise_id, right):
    assert_solution_passes(exercise_id, right)


def test_shifting_the_sentence_leaves_rope_scores_unchanged():
    d, length = 64, 16
    rng = np.random.default_rng(1)
    x = rng.standard_normal((length, d))
    w_q, w_k = rng.standard_normal((2, d, d)) / np.sqrt(d)
    pos = np.arange(length)

    def scores(start):
        return _rope(x @ w_q.T, pos + start) @ _rope(x @ w_k.T, pos + start).T

    for shift in (1, 10, 1000):
        assert np.abs(scores(shift) - scores(0)).max() < 1e-9
    added = np.abs(scores(0) - x @ w_q.T @ (x @ w_k.T).T).max()
    assert added > 0.1  # the rotation does change scores between different positions


def test_unrelated_queries_and_keys_score_as_much_far_away():
    d, n = 128, 500
    rng = np.random.default_rng(4)
    q, k = rng.standard_normal((2, n, d))
    typical = {}
    for delta in (0, 4000):
        typical[delta] = np.abs((_rope(q, np.full(n, delta)) * k).sum(-1)).mean()  # query at δ, key at 0
    assert 0.8 < typical[4000] / typical[0] < 1.25
    aligned = {delta: (_rope(q, np.full(n, delta)) * q).sum(-1).mean() for delta in (0, 4000)}
    assert aligned[0] > 20 * abs(aligned[4000])  # correlated q and k (k = q) do fade
