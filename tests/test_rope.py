"""RoPE: its identities, both layouts, dtypes, the table cache, and devices."""

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


def test_by_hand_quarter_turn():
    # d = 2, base irrelevant for pair 0 (ω = 1); position π/2 is not an integer, so use the
    # rotation at position 1 and check (1, 0) ↦ (cos 1, sin 1).
    x = torch.tensor([[1.0, 0.0], [1.0, 0.0]])
    out = H.rope(x)
    assert torch.allclose(out[0], torch.tensor([1.0, 0.0]))
    assert torch.allclose(out[1], torch.tensor([torch.cos(torch.tensor(1.0)), torch.sin(torch.tensor(1.0))]))


def test_rotation_matrix_matches_rope():
    x = torch.randn(10, 8, dtype=torch.float64)
    out = H.rope(x)
    for p in range(10):
        assert torch.allclose(H.rotation_matrix(p, 8).double() @ x[p], out[p], atol=1e-6)


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
def test_cuda_encodings_follow_device():
    block = H.TinyAttention(16, 2, encoding="rope").cuda()
    y, w = block(torch.randn(1, 7, 16, device="cuda"))
    assert y.device.type == "cuda" and w.shape == (1, 2, 7, 7)
