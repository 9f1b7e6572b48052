"""Exact values worked by hand, and the identities of the sinusoidal encoding."""

import math

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H

even_d = st.integers(1, 64).map(lambda n: 2 * n)
bases = st.floats(2.0, 1e5)


def test_frequencies_by_hand():
    # d = 4: ω = 10000^0 = 1 and 10000^(−2/4) = 1/100.
    assert torch.allclose(H.frequencies(4), torch.tensor([1.0, 0.01]))
    # d = 6, base 8: ω = 8^0, 8^(−1/3), 8^(−2/3) = 1, 1/2, 1/4.
    assert torch.allclose(H.frequencies(6, base=8.0), torch.tensor([1.0, 0.5, 0.25]))
    assert H.frequencies(7).shape == (3,)


def test_counting_and_normalised_by_hand():
    assert H.counting(4).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert H.counting(4).dtype == torch.float32
    assert H.normalised(5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert H.normalised(1).tolist() == [0.0]


def test_single_sine_by_hand():
    s = H.single_sine(3, omega=0.5)
    assert torch.allclose(s, torch.tensor([0.0, math.sin(0.5), math.sin(1.0)]))
    assert H.single_sine(3).tolist()[0] == 0.0


def test_sinusoidal_by_hand():
    pe = H.sinusoidal(3, 4)
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert math.isclose(pe[1, 0].item(), math.sin(1.0), rel_tol=1e-6)
    assert math.isclose(pe[1, 1].item(), math.cos(1.0), rel_tol=1e-6)
    assert math.isclose(pe[2, 2].item(), math.sin(0.02), rel_tol=1e-6)
    assert math.isclose(pe[2, 3].item(), math.cos(0.02), rel_tol=1e-6)
    assert pe.shape == (3, 4) and pe.dtype == torch.float32


def test_concatenated_layout_is_a_column_permutation():
    inter = H.sinusoidal(5, 8)
    conc = H.sinusoidal(5, 8, layout="concatenated")
    assert conc[0].tolist() == [0.0] * 4 + [1.0] * 4
    assert torch.equal(conc, inter[:, [0, 2, 4, 6, 1, 3, 5, 7]])


def test_norm_is_sqrt_half_d():
    pe = H.sinusoidal(200, 64)
    assert torch.allclose(pe.norm(dim=-1), torch.full((200,), math.sqrt(32)), atol=1e-5)


@settings(max_examples=60, deadline=None)
@given(p=st.integers(0, 500), k=st.integers(-200, 200), d=even_d, base=bases)
def test_shift_identity(p, k, d, base):
    if p + k < 0:
        p = -k
    pe = H.sinusoidal(p + max(k, 0) + 1, d, base).double()
    m = H.shift_matrix(k, d, base).double()
    assert torch.allclose(m @ pe[p], pe[p + k], atol=1e-5)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(-300, 300), b=st.integers(-300, 300), d=even_d, base=bases)
def test_shift_matrices_compose(a, b, d, base):
    lhs = H.shift_matrix(a, d, base) @ H.shift_matrix(b, d, base)
    assert torch.allclose(lhs, H.shift_matrix(a + b, d, base), atol=1e-5)


@settings(max_examples=30, deadline=None)
@given(k=st.integers(-100, 100), d=even_d, base=bases)
def test_shift_matrix_is_orthogonal(k, d, base):
    m = H.shift_matrix(k, d, base)
    assert torch.allclose(m @ m.T, torch.eye(d), atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, 100), d=even_d, base=bases)
def test_dot_product_depends_only_on_offset(k, d, base):
    pe = H.sinusoidal(300, d, base).double()
    dots = (pe[: 300 - k] * pe[k:]).sum(-1)
    # The hand-derived value: Σ_i cos(ω_i k).
    expected = torch.cos(k * H.frequencies(d, base, torch.float64)).sum()
    assert torch.allclose(dots, expected.expand_as(dots), atol=1e-4)


def test_angles_are_float64():
    assert H.angles(torch.arange(3), 8).dtype == torch.float64
