"""Lesson 06's measurements (helpers.measure.l06_rope): scores by offset, RoFormer's decay bound
and the pair view, against values worked by hand and Python's cmath."""

import cmath
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H
from helpers.measure import l06_rope as A

layouts = st.sampled_from(H.ROPE_LAYOUTS)


def pair_indices(d, layout):
    return [(2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2) for i in range(d // 2)]


def complex_score(q, k, delta, base, layout):
    """Re Σ_i q̃_i · conj(k̃_i) · e^{i·δ·ω_i}, pair by pair with Python's cmath."""
    d = len(q)
    total = 0j
    for i, (a, b) in enumerate(pair_indices(d, layout)):
        omega = base ** (-2 * i / d)
        total += complex(q[a], q[b]) * complex(k[a], k[b]).conjugate() * cmath.exp(1j * delta * omega)
    return total.real


# --- scores by offset, the decay bound --------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), base=st.floats(2.0, 1e5), layout=layouts, seed=st.integers(0, 2**31))
def test_scores_by_offset_match_complex_sum(n, base, layout, seed):
    d = 2 * n
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(d, generator=g, dtype=torch.float64), torch.randn(d, generator=g, dtype=torch.float64)
    offsets = [-300, -1, 0, 1, 2, 17, 4000]
    got = A.scores_by_offset(q, k, offsets, base, layout)
    want = [complex_score(q.tolist(), k.tolist(), delta, base, layout) for delta in offsets]
    assert got.tolist() == pytest.approx(want, abs=1e-8)


def test_scores_by_offset_batch_shape():
    q, k = torch.randn(5, 8, dtype=torch.float64), torch.randn(8, dtype=torch.float64)
    out = A.scores_by_offset(q, k, range(10))
    assert out.shape == (5, 10)
    assert torch.allclose(out[3], A.scores_by_offset(q[3], k, range(10)))


def test_relative_bound_by_hand():
    # δ = 0: |S_j| = j, so the mean over j = 1 … N is (N + 1)/2.
    assert A.relative_decay_bound([0], 128).item() == pytest.approx(32.5)
    # d = 2: one pair, |S_1| = 1 at every distance.
    assert A.relative_decay_bound([0, 3, 1000], 2).tolist() == pytest.approx([1.0, 1.0, 1.0])
    # d = 4, base 100: ω = (1, 0.1), |S_2| = 2|cos(δ·0.9/2)|.
    for delta in (1, 7, 50):
        want = (1 + 2 * abs(math.cos(delta * 0.9 / 2))) / 2
        assert A.relative_decay_bound([delta], 4, base=100.0).item() == pytest.approx(want)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 32), base=st.floats(2.0, 1e5), seed=st.integers(0, 2**31))
def test_decay_bound_holds(n, base, seed):
    d = 2 * n
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(d, generator=g, dtype=torch.float64), torch.randn(d, generator=g, dtype=torch.float64)
    distances = torch.randint(0, 100000, (50,), generator=g)
    bound = A.decay_bound(q, k, distances, base)
    score = A.scores_by_offset(q, k, distances, base)
    assert (score.abs() <= bound + 1e-9).all()


def test_decay_bound_by_hand():
    # d = 2: h_0 = q̃ conj(k̃), bound = |h_0|·|S_1| = |q||k|, met at δ = 0 for q = k.
    q = torch.tensor([3.0, 4.0], dtype=torch.float64)
    assert A.decay_bound(q, q, [0, 5]).tolist() == pytest.approx([25.0, 25.0])
    # d = 4 with q = k = ones: h = (2, 2), steps |h_1 − h_0| = 0 and |0 − h_1| = 2; Σ|S_j| = 1 + 2 at δ = 0.
    ones = torch.ones(4, dtype=torch.float64)
    assert A.decay_bound(ones, ones, [0]).item() == pytest.approx(6.0)


# --- the pair view ----------------------------------------------------------------------------


def test_pair_view_by_hand():
    q = torch.tensor([1.0, 0.0, 0.0, 0.0])
    k = torch.tensor([0.0, 0.0, 2.0, 0.0])
    view = A.rope_pair_view(q, k, 1, 0, pair=0, base=100.0)
    assert view.q_xy == pytest.approx((math.cos(1), math.sin(1)))
    assert view.k_xy == pytest.approx((0.0, 0.0))
    assert view.offset == 1 and view.pair_score == pytest.approx(0.0) and view.score == pytest.approx(0.0)
    view = A.rope_pair_view(k, k, 30, 10, pair=1, base=100.0)  # pair 1 turns at ω = 0.1
    assert view.pair_score == pytest.approx(4 * math.cos(2.0)) and view.score == pytest.approx(4 * math.cos(2.0))


def test_pair_view_parts_sum_to_score_and_depend_on_offset_only():
    g = torch.Generator().manual_seed(3)
    q, k = torch.randn(16, generator=g), torch.randn(16, generator=g)
    views = [A.rope_pair_view(q, k, 40, 25, pair=i) for i in range(8)]
    assert sum(v.pair_score for v in views) == pytest.approx(views[0].score)
    assert A.rope_pair_view(q, k, 140, 125).score == pytest.approx(views[0].score)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="pair"):
        A.rope_pair_view(torch.zeros(4), torch.zeros(4), 0, 0, pair=2)
    with pytest.raises(ValueError, match="same last dimension"):
        A.scores_by_offset(torch.zeros(4), torch.zeros(6), [0])
    with pytest.raises(TypeError, match="integers"):
        A.scores_by_offset(torch.zeros(4), torch.zeros(4), [0.5])
    with pytest.raises(TypeError, match="distances must be integers"):
        A.relative_decay_bound(torch.tensor([1 + 2j]), 8)
    with pytest.raises(ValueError, match="shape"):
        A.decay_bound(torch.zeros(2, 4), torch.zeros(2, 4), [0])
