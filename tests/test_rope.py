"""RoPE (helpers.rotary): its identities, both layouts, dtypes, the table cache, devices, the
textbook form and rotation by explicit angles."""

import cmath
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H

even_d = st.integers(1, 32).map(lambda n: 2 * n)
bases = st.floats(2.0, 1e5)
layouts = st.sampled_from(H.ROPE_LAYOUTS)


def reference_rope(x, positions, base, layout):
    """Rotation written pair by pair with explicit 2×2 matrices, in float64."""
    x = x.double()
    d = x.shape[-1]
    out = torch.empty_like(x)
    omega = H.frequencies(d, base, torch.float64)
    pairs = [(2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2) for i in range(d // 2)]
    for i, (a, b) in enumerate(pairs):
        t = positions.double() * omega[i]
        c, s = torch.cos(t), torch.sin(t)
        out[..., a] = c * x[..., a] - s * x[..., b]
        out[..., b] = s * x[..., a] + c * x[..., b]
    return out


@settings(max_examples=40, deadline=None)
@given(d=even_d, length=st.integers(1, 20), base=bases, layout=layouts, seed=st.integers(0, 2**31))
def test_matches_pairwise_reference(d, length, base, layout, seed):
    x = torch.randn(2, length, d, generator=torch.Generator().manual_seed(seed))
    expected = reference_rope(x, torch.arange(length), base, layout)
    assert torch.allclose(H.rope(x, base=base, layout=layout).double(), expected, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(d=even_d, base=bases, layout=layouts, seed=st.integers(0, 2**31))
def test_keeps_norms(d, base, layout, seed):
    x = torch.randn(3, 50, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    assert torch.allclose(H.rope(x, base=base, layout=layout).norm(dim=-1), x.norm(dim=-1))


@settings(max_examples=60, deadline=None)
@given(m=st.integers(0, 5000), n=st.integers(0, 5000), shift=st.integers(0, 5000), d=even_d, base=bases,
       layout=layouts, seed=st.integers(0, 2**31))
def test_score_depends_only_on_offset(m, n, shift, d, base, layout, seed):
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(1, d, generator=g, dtype=torch.float64), torch.randn(1, d, generator=g, dtype=torch.float64)

    def score(a, b):
        return (H.rope(q, torch.tensor([a]), base, layout) * H.rope(k, torch.tensor([b]), base, layout)).sum()

    # ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩ when n ≥ m, and = ⟨R_{m−n} q, k⟩ otherwise.
    expected = score(0, n - m) if n >= m else score(m - n, 0)
    assert torch.allclose(score(m, n), expected, atol=1e-8)
    assert torch.allclose(score(m + shift, n + shift), score(m, n), atol=1e-8)


@settings(max_examples=30, deadline=None)
@given(d=even_d, length=st.integers(2, 40), shift=st.integers(1, 10000), base=bases, layout=layouts,
       seed=st.integers(0, 2**31))
def test_shifting_all_positions_keeps_every_score(d, length, shift, base, layout, seed):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(2, length, d, generator=g, dtype=torch.float64)
    k = torch.randn(2, length, d, generator=g, dtype=torch.float64)
    pos = torch.arange(length)
    scores = H.rope(q, pos, base, layout) @ H.rope(k, pos, base, layout).transpose(-1, -2)
    shifted = H.rope(q, pos + shift, base, layout) @ H.rope(k, pos + shift, base, layout).transpose(-1, -2)
    assert torch.allclose(scores, shifted, atol=1e-7)


@settings(max_examples=40, deadline=None)
@given(d=even_d, length=st.integers(1, 30), base=bases, seed=st.integers(0, 2**31))
def test_layouts_agree_under_permutation(d, length, base, seed):
    x = torch.randn(2, length, d, generator=torch.Generator().manual_seed(seed))
    p = H.rope_permutation(d)
    assert torch.allclose(H.rope(x[..., p], base=base, layout="half"), H.rope(x, base=base)[..., p], atol=1e-6)


def test_permutation_by_hand():
    assert H.rope_permutation(6).tolist() == [0, 2, 4, 1, 3, 5]


def test_by_hand_one_radian():
    # d = 2: pair 0 turns at ω = 1 whatever the base, so position 1 turns (1, 0) to (cos 1, sin 1).
    out = H.rope(torch.tensor([[1.0, 0.0], [1.0, 0.0]]))
    assert torch.allclose(out, torch.tensor([[1.0, 0.0], [math.cos(1.0), math.sin(1.0)]]), atol=1e-7)


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_by_hand_quarter_turn(layout):
    # Frequencies (π/2, π): position 1 turns pair 0 a quarter and pair 1 a half, position 2 a half and a full turn.
    x = torch.tensor([1.0, 0.0, 0.0, 2.0], dtype=torch.float64)
    if layout == "half":  # pairs (0, 2) and (1, 3): the same two pairs, stored apart
        x = x[[0, 2, 1, 3]]
    out = H.rope(x.expand(3, 4), layout=layout, freqs=torch.tensor([math.pi / 2, math.pi], dtype=torch.float64))
    expected = [[1.0, 0.0, 0.0, 2.0], [0.0, 1.0, 0.0, -2.0], [-1.0, 0.0, 0.0, 2.0]]
    if layout == "half":
        out = out[:, [0, 2, 1, 3]]
    assert torch.allclose(out, torch.tensor(expected, dtype=torch.float64), atol=1e-12)


def test_rotation_matrix_matches_rope():
    x = torch.randn(10, 8, dtype=torch.float64)
    out = H.rope(x)
    for p in range(10):
        assert torch.allclose(H.rotation_matrix(p, 8).double() @ x[p], out[p], atol=1e-6)


def test_rotation_matrix_turns_counter_clockwise_and_is_the_shift_matrix_transposed():
    # d = 2, one pair with ω = 1: by hand, R_p = [[cos p, −sin p], [sin p, cos p]], a turn by +p radians
    for p in (1, 2, -3):
        by_hand = torch.tensor([[math.cos(p), -math.sin(p)], [math.sin(p), math.cos(p)]])
        assert torch.allclose(H.rotation_matrix(p, 2), by_hand, atol=1e-7)
        assert torch.allclose(H.rotation_matrix(p, 8), H.shift_matrix(p, 8).T) and \
            torch.allclose(H.rotation_matrix(p, 8), H.shift_matrix(-p, 8), atol=1e-7)
    # on a sinusoidal code it moves back: R_3 @ PE(10) = PE(7), while M_3 @ PE(10) = PE(13)
    pe = H.sinusoidal(20, 16)
    assert torch.allclose(H.rotation_matrix(3, 16) @ pe[10], pe[7], atol=1e-6)
    assert torch.allclose(H.shift_matrix(3, 16) @ pe[10], pe[13], atol=1e-6)


def test_broadcast_positions_per_batch():
    x = torch.randn(2, 3, 5, 8)
    pos = torch.tensor([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])[:, None, :]
    out = H.rope(x, pos)
    assert torch.allclose(out[0], H.rope(x[0]), atol=1e-6)
    assert torch.allclose(out[1], H.rope(x[1], torch.arange(10, 15)), atol=1e-6)


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_low_precision_uses_float32_angles(layout, dtype):
    # At position 3000, angles in float16 would be off by whole radians; the result must match
    # the float64 rotation to within the storage precision of the output.
    x = torch.randn(4, 3001, 16)
    xl = x.to(dtype)
    out = H.rope(xl, layout=layout)
    assert out.dtype == dtype and out.shape == x.shape
    expected = reference_rope(xl.double()[:, -3:], torch.arange(2998, 3001), 10000.0, layout)
    tol = 1e-2 if dtype == torch.float16 else 4e-2
    assert torch.allclose(out[:, -3:].double(), expected, atol=tol * 4, rtol=tol)


def test_output_is_a_new_tensor():
    x = torch.randn(4, 8)
    before = x.clone()
    H.rope(x, layout="half")
    H.rope(x)
    assert torch.equal(x, before)


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_cache_follows_every_key(layout):
    from helpers import rotary as rope_module

    rope_module.clear_cache()
    x = torch.randn(6, 8, dtype=torch.float64)
    first = H.rope(x, layout=layout)
    # Same call again uses the cache and gives the same answer.
    assert torch.equal(H.rope(x, layout=layout), first)
    # Change each key in turn: the result must equal a fresh computation.
    for kwargs, xx in [
        ({}, x[:4]),  # length
        ({}, torch.randn(6, 12, dtype=torch.float64)),  # dimension
        ({"base": 100.0}, x),  # base
        ({}, x.float()),  # dtype
    ]:
        got = H.rope(xx, layout=layout, **kwargs)
        rope_module.clear_cache()
        fresh = H.rope(xx, layout=layout, **kwargs)
        assert got.dtype == xx.dtype
        assert torch.equal(got, fresh)
        expected = reference_rope(xx, torch.arange(xx.shape[-2]), kwargs.get("base", 1e4), layout)
        assert torch.allclose(got.double(), expected, atol=1e-5)


def test_non_contiguous_input():
    x = torch.randn(8, 6, 16).transpose(0, 1)  # (6, 8, 16), not contiguous
    assert torch.allclose(H.rope(x), H.rope(x.contiguous()))
    assert torch.allclose(H.rope(x, layout="half"), H.rope(x.contiguous(), layout="half"))


def complex_score(q, k, delta, base, layout):
    """Re Σ_i q̃_i · conj(k̃_i) · e^{i·δ·ω_i}, pair by pair with Python's cmath."""
    d = len(q)
    total = 0j
    for i in range(d // 2):
        a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
        omega = base ** (-2 * i / d)
        total += complex(q[a], q[b]) * complex(k[a], k[b]).conjugate() * cmath.exp(1j * delta * omega)
    return total.real


# ---------------------------------------------------------------------------------------------
# The textbook form, and rotation by explicit angles


def test_rotate_half_by_hand():
    assert H.rotate_half(torch.tensor([1.0, 2.0, 3.0, 4.0])).tolist() == [-3.0, -4.0, 1.0, 2.0]


def test_cos_sin_by_hand():
    cos, sin = H.rope_cos_sin(3, 4, base=100.0, dtype=torch.float64)
    # ω = (1, 0.1); position 2 → angles (2, 0.2) repeated for both halves.
    assert torch.allclose(cos[2], torch.tensor([math.cos(2), math.cos(0.2)] * 2, dtype=torch.float64))
    assert torch.allclose(sin[2], torch.tensor([math.sin(2), math.sin(0.2)] * 2, dtype=torch.float64))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 16), length=st.integers(1, 30), base=st.floats(2.0, 1e5), seed=st.integers(0, 2**31))
def test_textbook_is_the_half_layout(n, length, base, seed):
    d = 2 * n
    x = torch.randn(3, length, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    cos, sin = H.rope_cos_sin(length, d, base, torch.float64)
    out = H.rope_textbook(x, cos, sin)
    assert torch.allclose(out, H.rope(x, base=base, layout="half"), atol=1e-10)
    q = x[1, -1].tolist()
    k = [0.0] * d
    k[0] = 1.0
    # Independent check of one entry: ⟨R_p q, e_0⟩ = Re Σ q̃ conj(k̃) e^{i p ω} with k at position 0.
    assert out[1, -1, 0].item() == pytest.approx(complex_score(q, k, length - 1, base, "half"), abs=1e-9)


def test_rotate_quarter_turn_by_hand():
    x = torch.tensor([1.0, 0.0, 0.0, 2.0], dtype=torch.float64)
    theta = torch.tensor([math.pi / 2, math.pi / 2], dtype=torch.float64)
    assert torch.allclose(H.rotate(x, theta), torch.tensor([0.0, 1.0, -2.0, 0.0], dtype=torch.float64), atol=1e-12)
    # half layout pairs (0, 2) and (1, 3): (1, 0) ↦ (0, 1), (0, 2) ↦ (−2, 0)
    assert torch.allclose(H.rotate(x, theta, "half"), torch.tensor([0.0, -2.0, 1.0, 0.0], dtype=torch.float64),
                          atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 16), layout=layouts, seed=st.integers(0, 2**31))
def test_rotate_by_exact_angles_is_rope(n, layout, seed):
    d = 2 * n
    x = torch.randn(7, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    pos = torch.tensor([0, 1, 5, 99, 1000, 40000, 123456])
    assert torch.allclose(H.rotate(x, H.angles(pos, d), layout), H.rope(x, pos, layout=layout), atol=1e-9)


def test_textbook_allocates_four_and_a_half_copies_rope_one():
    x = torch.randn(2, 3, 16, 8)
    cos, sin = H.rope_cos_sin(16, 8)
    nbytes = x.numel() * x.element_size()
    assert H.allocated_bytes(lambda: H.rope_textbook(x, cos, sin))[0] == 4.5 * nbytes
    for layout in H.ROPE_LAYOUTS:
        H.rope(x, layout=layout)  # fill the table cache first
        assert H.allocated_bytes(lambda layout=layout: H.rope(x, layout=layout))[0] == nbytes


cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@cuda
@pytest.mark.cuda
@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_cuda_matches_cpu(layout, dtype):
    x = torch.randn(2, 4, 300, 64).to(dtype)
    pos = torch.randint(0, 5000, (2, 1, 300))
    out = H.rope(x.cuda(), pos.cuda(), layout=layout)
    assert out.device.type == "cuda" and out.dtype == dtype
    assert torch.allclose(out.cpu().float(), H.rope(x, pos, layout=layout).float(), atol=2e-2)
    assert torch.allclose(H.rope(x.cuda(), layout=layout).cpu().float(), H.rope(x, layout=layout).float(), atol=2e-2)


@cuda
@pytest.mark.cuda
def test_cuda_rope_scheme_follows_device():
    scheme = H.scheme("rope", n_heads=2, head_dim=8).cuda()
    block = H.CausalSelfAttention(16, 2).cuda()
    y, w = block(torch.randn(1, 7, 16, device="cuda"), scheme, torch.arange(7, device="cuda") + 3,
                 return_weights=True)
    assert y.device.type == "cuda" and w.shape == (1, 2, 7, 7)
