"""Measurements several lessons share (helpers.measure.common), against values worked by hand
and plain-loop reference implementations."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H

seeds = st.integers(0, 2**31)


def randn(*shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


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
    with pytest.raises(TypeError, match="codes must hold real numbers"):
        H.min_pairwise_distance(torch.ones(3, 4, dtype=torch.complex64))


# --- dot products by offset ---------------------------------------------------------------


def test_dot_by_offset_by_hand():
    a = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    # scores a[p]·a[q]: [[1,0,1],[0,1,1],[1,1,2]]
    prof = H.dot_by_offset(a)
    assert prof.offsets.tolist() == [-2, -1, 0, 1, 2]
    assert prof.mean.tolist() == [1.0, 0.5, 4 / 3, 0.5, 1.0]
    assert prof.low.tolist() == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert prof.spread.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]


def test_dot_by_offset_reports_query_minus_key_by_hand():
    # queries a = rows 0, 1, 2; keys b: s[p, q] = a[p]·b[q] = [[1, 2, 3], [10, 20, 30], [100, 200, 300]]
    a = torch.tensor([[1.0], [10.0], [100.0]])
    b = torch.tensor([[1.0], [2.0], [3.0]])
    prof = H.dot_by_offset(a, b)
    assert prof.offsets.tolist() == [-2, -1, 0, 1, 2]  # δ = query − key
    # δ = +2: query 2, key 0 → 100; δ = +1: (1, 0) → 10 and (2, 1) → 200; δ = −2: query 0, key 2 → 3
    assert prof.mean.tolist() == [3.0, (2.0 + 30.0) / 2, (1.0 + 20.0 + 300.0) / 3, (10.0 + 200.0) / 2, 100.0]
    assert prof.low.tolist() == [3.0, 2.0, 1.0, 10.0, 100.0]
    assert prof.high.tolist() == [3.0, 30.0, 300.0, 200.0, 100.0]


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), d=st.integers(1, 5), seed=seeds)
def test_dot_by_offset_matches_a_loop(n, d, seed):
    a, b = randn(n, d, seed=seed), randn(n, d, seed=seed + 1)
    prof = H.dot_by_offset(a, b)
    for idx, k in enumerate(prof.offsets.tolist()):
        values = [float(a[p] @ b[p - k]) for p in range(n) if 0 <= p - k < n]  # δ = k = query p − key p − k
        assert prof.mean[idx].item() == pytest.approx(sum(values) / len(values))
        assert prof.high[idx].item() == pytest.approx(max(values))
        assert prof.low[idx].item() == pytest.approx(min(values))


@settings(max_examples=20, deadline=None)
@given(d=st.integers(1, 32).map(lambda n: 2 * n), base=st.floats(2.0, 1e5))
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


# --- least squares ------------------------------------------------------------------------


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


# --- timing -------------------------------------------------------------------------------


def test_round_robin_calls_everyone_in_rotating_order():
    calls = []
    fns = {name: (lambda name=name: calls.append(name)) for name in "abc"}
    times = H.round_robin_times(fns, repeats=4, warmup=1)
    assert {name: len(t) for name, t in times.items()} == {"a": 4, "b": 4, "c": 4}
    assert "".join(calls) == "abc" "bca" "cab" "abc" "bca"
    with pytest.raises(ValueError, match="fns"):
        H.round_robin_times({}, repeats=1)
    with pytest.raises(ValueError, match="repeats"):
        H.round_robin_times(fns, repeats=0)


def test_allocated_bytes_counts_new_tensors_only():
    x = torch.zeros(10)
    assert H.allocated_bytes(lambda: x.clone())[0] == 40
    assert H.allocated_bytes(lambda: x.view(2, 5).t())[0] == 0
    assert H.allocated_bytes(lambda: x.add_(1))[0] == 0
    nbytes, ops = H.allocated_bytes(lambda: x * 2 + 1)
    assert nbytes == 80 and len(ops) == 2
    with pytest.raises(TypeError, match="fn"):
        H.allocated_bytes(x)


def test_band_means_by_hand():
    curve = torch.arange(320, dtype=torch.float64)  # the loss at position t is t
    assert tuple(H.band_means(curve, 64)) == (31.5, 95.5, 191.5)  # means of 0…63, 64…127, 128…255
    short = H.band_means(curve[:200], 64)  # the last band needs 256 positions
    assert short[:2] == (31.5, 95.5) and math.isnan(short.to_4l)
    with pytest.raises(ValueError, match="curve"):
        H.band_means(curve[None], 64)


# --- orderings ------------------------------------------------------------------------------------


def test_orderings_respect_the_margin_and_skip_nan():
    values = {"a": 1.0, "b": 1.01, "c": 2.0, "d": math.nan}
    assert H.orderings(values) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert H.orderings(values, margin=0.02) == [("a", "c"), ("b", "c")]
    with pytest.raises(ValueError, match="margin"):
        H.orderings(values, margin=-1)


def test_held_for_every_keeps_the_pairs_of_every_list():
    per_seed = [[("a", "b"), ("a", "c"), ("b", "c")], [("a", "c"), ("b", "c")], [("b", "c"), ("a", "c"), ("c", "d")]]
    assert H.held_for_every(per_seed) == [("a", "c"), ("b", "c")]
    with pytest.raises(ValueError, match="per_seed"):
        H.held_for_every([])


def test_compare_orderings_sorts_each_pair_once():
    # published, margin 0.05: a < b < c, b < d, a < d; c and d tie (3.0 vs 3.01)
    published = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 3.01}
    toy = {"a": 1.0, "b": 0.5, "c": 1.005, "d": 2.0, "e": 0.0}  # e is not published: left out
    result = H.compare_orderings(toy, published, margin=0.01, published_margin=0.05)
    assert set(result.reproduced) == {("a", "d"), ("b", "c"), ("b", "d")}
    assert result.reversed == [("a", "b")]  # the toy has b below a
    assert result.unresolved == [("a", "c")]  # the toy's 1.0 and 1.005 lie within 0.01
    assert result.toy_only == [("c", "d")]  # published tie, ordered by the toy


def test_compare_orderings_leaves_out_nan():
    result = H.compare_orderings({"a": 1.0, "b": math.nan}, {"a": 1.0, "b": 2.0})
    assert result == H.OrderingComparison([], [], [], [])
