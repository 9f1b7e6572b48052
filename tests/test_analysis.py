"""The measurements of lessons 04–05 (helpers.analysis) and their widgets, checked against values
worked by hand and against plain-loop reference implementations."""

import math

import matplotlib

matplotlib.use("Agg")

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


# --- distances ----------------------------------------------------------------------------


def test_min_pairwise_distance_by_hand():
    codes = torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0], [3.0, 5.5]])
    distance, i, j = H.min_pairwise_distance(codes)
    assert (i, j) == (0, 2) and distance == pytest.approx(1.0)
    assert H.min_pairwise_distance(torch.tensor([[1.0], [1.0]])) == (0.0, 0, 1)


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 30), cols=st.integers(1, 6), chunk=st.integers(1, 8), seed=seeds)
def test_min_pairwise_distance_matches_a_loop(rows, cols, chunk, seed):
    x = randn(rows, cols, seed=seed)
    best = min((float((x[a] - x[b]).norm()), a, b) for a in range(rows) for b in range(a + 1, rows))
    distance, i, j = H.min_pairwise_distance(x, chunk=chunk)
    assert distance == pytest.approx(best[0], abs=1e-9)
    assert float((x[i] - x[j]).norm()) == pytest.approx(best[0], abs=1e-9) and i < j


def test_min_pairwise_distance_rejects_bad_input():
    with pytest.raises(ValueError, match="codes must have at least 2 rows"):
        H.min_pairwise_distance(torch.ones(1, 4))
    with pytest.raises(ValueError, match="chunk"):
        H.min_pairwise_distance(torch.ones(3, 4), chunk=0)


def test_shift_distance_by_hand():
    # d = 2, ω = 1: the pair moves along the unit circle by angle k, chord = 2|sin(k/2)|.
    ks = torch.tensor([0, 1, 2, -3])
    expected = [2 * abs(math.sin(k / 2)) for k in ks.tolist()]
    assert torch.allclose(H.shift_distance(ks, 2), torch.tensor(expected, dtype=torch.float64))


@settings(max_examples=30, deadline=None)
@given(d=even_d, p=st.integers(0, 300), k=st.integers(-300, 300), base=st.floats(2.0, 1e5))
def test_shift_distance_matches_the_table(d, p, k, base):
    pe = H.sinusoidal(max(p, p + k) + 1, d, base).double()
    direct = float((pe[p + k] - pe[p]).norm()) if p + k >= 0 else None
    if direct is not None:
        assert float(H.shift_distance(k, d, base)) == pytest.approx(direct, abs=1e-5)


def test_shift_distance_rejects_bad_input():
    with pytest.raises(TypeError, match="offsets"):
        H.shift_distance(torch.tensor([1.5]), 8)
    with pytest.raises(ValueError, match="d_model"):
        H.shift_distance(1, 7)


# --- dot products by offset ---------------------------------------------------------------


def test_dot_by_offset_by_hand():
    a = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    # scores a[p]·a[q]: [[1,0,1],[0,1,1],[1,1,2]]
    prof = H.dot_by_offset(a)
    assert prof.offsets.tolist() == [-2, -1, 0, 1, 2]
    assert prof.mean.tolist() == [1.0, 0.5, 4 / 3, 0.5, 1.0]
    assert prof.low.tolist() == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert prof.spread.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), d=st.integers(1, 5), seed=seeds)
def test_dot_by_offset_matches_a_loop(n, d, seed):
    a, b = randn(n, d, seed=seed), randn(n, d, seed=seed + 1)
    prof = H.dot_by_offset(a, b)
    for idx, k in enumerate(prof.offsets.tolist()):
        values = [float(a[p] @ b[p + k]) for p in range(n) if 0 <= p + k < n]
        assert prof.mean[idx].item() == pytest.approx(sum(values) / len(values))
        assert prof.high[idx].item() == pytest.approx(max(values))
        assert prof.low[idx].item() == pytest.approx(min(values))


@settings(max_examples=20, deadline=None)
@given(d=even_d, base=st.floats(2.0, 1e5))
def test_sinusoidal_dot_depends_only_on_offset(d, base):
    # PE(p)·PE(p+k) = Σ_i sin(pω)sin((p+k)ω) + cos(pω)cos((p+k)ω) = Σ_i cos(kω_i)
    prof = H.dot_by_offset(H.sinusoidal(40, d, base), max_offset=10)
    omega = H.frequencies(d, base, torch.float64)
    expected = torch.cos(prof.offsets.double()[:, None] * omega).sum(-1)
    assert torch.allclose(prof.mean, expected, atol=1e-4)
    assert prof.spread.max() < 1e-4


def test_dot_by_offset_rejects_bad_input():
    with pytest.raises(ValueError, match="same shape"):
        H.dot_by_offset(torch.ones(3, 2), torch.ones(4, 2))
    with pytest.raises(ValueError, match="max_offset"):
        H.dot_by_offset(torch.ones(3, 2), max_offset=3)
    with pytest.raises(TypeError, match="b must"):
        H.dot_by_offset(torch.ones(3, 2), [[1.0]])


# --- least squares and probes -------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(n=st.integers(8, 40), d_in=st.integers(1, 6), d_out=st.integers(1, 6), seed=seeds)
def test_fit_linear_map_recovers_a_known_map(n, d_in, d_out, seed):
    x, m = randn(n, d_in, seed=seed), randn(d_out, d_in, seed=seed + 1)
    fitted, residual = H.fit_linear_map(x, x @ m.T)
    assert fitted.shape == (d_out, d_in)
    assert torch.allclose(fitted, m, atol=1e-8) and residual < 1e-10


def test_fit_linear_map_by_hand():
    # y is orthogonal to everything x can produce: the best map is 0 and nothing is explained.
    fitted, residual = H.fit_linear_map(torch.tensor([[1.0], [0.0]]), torch.tensor([[0.0], [2.0]]))
    assert fitted.tolist() == [[0.0]] and residual == pytest.approx(1.0)
    # y = 2x + (−0.5, 0.5), the noise orthogonal to x: slope 2, residual ‖noise‖/‖y‖ = √0.5/√(1.5² + 2.5²).
    fitted, residual = H.fit_linear_map(torch.tensor([[1.0], [1.0]]), torch.tensor([[1.5], [2.5]]))
    assert fitted.item() == pytest.approx(2.0) and residual == pytest.approx(math.sqrt(0.5 / 8.5))


def test_fitted_shift_is_the_shift_matrix():
    d, k = 8, 3
    p = torch.randint(0, 5000, (400,), generator=torch.Generator().manual_seed(0))
    pe = H.sinusoidal(5000 + k, d, base=100.0)
    fitted, residual = H.fit_linear_map(pe[p], pe[p + k])
    assert residual < 1e-6
    assert torch.allclose(fitted, H.shift_matrix(k, d, base=100.0).double(), atol=1e-4)


def test_fit_linear_map_rejects_bad_input():
    with pytest.raises(ValueError, match="same number of rows"):
        H.fit_linear_map(torch.ones(3, 2), torch.ones(4, 2))
    with pytest.raises(ValueError, match="x must be a 2-D"):
        H.fit_linear_map(torch.ones(3), torch.ones(3, 1))


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


# --- widgets ------------------------------------------------------------------------------


def test_explorer_builds_and_a_step_changes_the_picture():
    from helpers import widgets

    live = widgets.sinusoidal_explorer(d_model=64, position=5, length=32)
    assert set(live.controls) == {"d_model", "position", "length", "base"}
    d = live.controls["d_model"]
    assert (d.min, d.max, d.step) == (2, 1024, 2)
    before = live.step_png()
    live.set(position=20)
    after_position = live.step_png()
    live.set(d_model=2, base=100.0, length=16)
    after_width = live.step_png()
    assert before != after_position != after_width
    assert live.controls["position"].max == 15  # follows the length slider
    assert live.controls["position"].value == 15


def test_explorer_rejects_bad_input():
    from helpers import widgets

    with pytest.raises(ValueError, match="d_model"):
        widgets.sinusoidal_explorer(d_model=7)
    with pytest.raises(ValueError, match="d_model"):
        widgets.sinusoidal_explorer(d_model=2048)
    with pytest.raises(ValueError, match="position"):
        widgets.sinusoidal_explorer(position=128, length=128)


def test_clock_hands_builds_and_a_step_changes_the_picture():
    from helpers import widgets

    live = widgets.clock_hands(d_model=16, k=0)
    before = live.step_png()
    live.set(k=25)
    assert live.step_png() != before
    with pytest.raises(ValueError, match="k must"):
        widgets.clock_hands(k=500, max_k=200)
