"""RoPE analysis helpers: textbook formulation, explicit rotations, low-precision angles,
scores by offset, RoFormer's decay bound, the pair view; and the timing helpers."""

import cmath
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H
from helpers import rope_analysis as A
from helpers.timing import allocated_bytes, round_robin_times

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


# --- textbook formulation ---------------------------------------------------------------------


def test_rotate_half_by_hand():
    assert A.rotate_half(torch.tensor([1.0, 2.0, 3.0, 4.0])).tolist() == [-3.0, -4.0, 1.0, 2.0]


def test_cos_sin_by_hand():
    cos, sin = A.rope_cos_sin(3, 4, base=100.0, dtype=torch.float64)
    # ω = (1, 0.1); position 2 → angles (2, 0.2) repeated for both halves.
    assert torch.allclose(cos[2], torch.tensor([math.cos(2), math.cos(0.2)] * 2, dtype=torch.float64))
    assert torch.allclose(sin[2], torch.tensor([math.sin(2), math.sin(0.2)] * 2, dtype=torch.float64))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 16), length=st.integers(1, 30), base=st.floats(2.0, 1e5), seed=st.integers(0, 2**31))
def test_textbook_is_the_half_layout(n, length, base, seed):
    d = 2 * n
    x = torch.randn(3, length, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    cos, sin = A.rope_cos_sin(length, d, base, torch.float64)
    out = A.rope_textbook(x, cos, sin)
    assert torch.allclose(out, H.rope(x, base=base, layout="half"), atol=1e-10)
    q = x[1, -1].tolist()
    k = [0.0] * d
    k[0] = 1.0
    # Independent check of one entry: ⟨R_p q, e_0⟩ = Re Σ q̃ conj(k̃) e^{i p ω} with k at position 0.
    assert out[1, -1, 0].item() == pytest.approx(complex_score(q, k, length - 1, base, "half"), abs=1e-9)


# --- explicit rotations and low-precision angles ---------------------------------------------


def test_rotate_quarter_turn_by_hand():
    x = torch.tensor([1.0, 0.0, 0.0, 2.0], dtype=torch.float64)
    theta = torch.tensor([math.pi / 2, math.pi / 2], dtype=torch.float64)
    assert torch.allclose(A.rotate(x, theta), torch.tensor([0.0, 1.0, -2.0, 0.0], dtype=torch.float64), atol=1e-12)
    # half layout pairs (0, 2) and (1, 3): (1, 0) ↦ (0, 1), (0, 2) ↦ (−2, 0)
    assert torch.allclose(A.rotate(x, theta, "half"), torch.tensor([0.0, -2.0, 1.0, 0.0], dtype=torch.float64),
                          atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 16), layout=layouts, seed=st.integers(0, 2**31))
def test_rotate_by_exact_angles_is_rope(n, layout, seed):
    d = 2 * n
    x = torch.randn(7, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    pos = torch.tensor([0, 1, 5, 99, 1000, 40000, 123456])
    assert torch.allclose(A.rotate(x, H.angles(pos, d), layout), H.rope(x, pos, layout=layout), atol=1e-9)


def test_bfloat16_positions_by_hand():
    # bfloat16 keeps 8 significant bits: above 256 the integers are spaced 2, above 512 spaced 4 …
    theta = A.angles_in_dtype(torch.tensor([255, 256, 257, 1001, 1003]), 2, dtype=torch.bfloat16)
    assert theta[:, 0].tolist() == [255.0, 256.0, 256.0, 1000.0, 1004.0]
    err = A.angle_error(torch.tensor([257, 1001]), 2, dtype=torch.bfloat16)
    assert err[:, 0].tolist() == pytest.approx([1.0, 1.0])


def test_float16_overflows_and_float64_is_exact():
    assert math.isinf(A.angles_in_dtype(torch.tensor([70000]), 4, dtype=torch.float16)[0, 0].item())
    assert torch.isnan(A.angle_error(torch.tensor([70000]), 4, dtype=torch.float16)[0, 0])
    assert A.angle_error(torch.arange(0, 10**6, 9973), 64, dtype=torch.float64).max().item() == 0.0


def test_angle_error_is_wrapped():
    assert A.wrap_angle(torch.tensor([1.5 * math.pi, 2 * math.pi, -math.pi, 0.25], dtype=torch.float64)).tolist() == \
        pytest.approx([-0.5 * math.pi, 0.0, -math.pi, 0.25])
    err = A.angle_error(torch.arange(0, 200000, 997), 16, dtype=torch.bfloat16)
    assert err.max().item() <= math.pi + 1e-12


def test_float32_angle_error_grows_with_position():
    err = A.angle_error(torch.tensor([10, 1000, 100000]), 128, dtype=torch.float32).amax(-1)
    assert err[0] < 1e-5 < err[1] < 1e-3 < err[2] < 0.1


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
    assert view["q_xy"] == pytest.approx((math.cos(1), math.sin(1)))
    assert view["k_xy"] == pytest.approx((0.0, 0.0))
    assert view["offset"] == 1 and view["pair_score"] == pytest.approx(0.0) and view["score"] == pytest.approx(0.0)
    view = A.rope_pair_view(k, k, 30, 10, pair=1, base=100.0)  # pair 1 turns at ω = 0.1
    assert view["pair_score"] == pytest.approx(4 * math.cos(2.0)) and view["score"] == pytest.approx(4 * math.cos(2.0))


def test_pair_view_parts_sum_to_score_and_depend_on_offset_only():
    g = torch.Generator().manual_seed(3)
    q, k = torch.randn(16, generator=g), torch.randn(16, generator=g)
    views = [A.rope_pair_view(q, k, 40, 25, pair=i) for i in range(8)]
    assert sum(v["pair_score"] for v in views) == pytest.approx(views[0]["score"])
    assert A.rope_pair_view(q, k, 140, 125)["score"] == pytest.approx(views[0]["score"])


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="even"):
        A.rotate_half(torch.zeros(3))
    with pytest.raises(ValueError, match="layout"):
        A.rotate(torch.zeros(4), torch.zeros(2), layout="sideways")
    with pytest.raises(ValueError, match="theta"):
        A.rotate(torch.zeros(4), torch.zeros(3))
    with pytest.raises(ValueError, match="pair"):
        A.rope_pair_view(torch.zeros(4), torch.zeros(4), 0, 0, pair=2)
    with pytest.raises(ValueError, match="same last dimension"):
        A.scores_by_offset(torch.zeros(4), torch.zeros(6), [0])
    with pytest.raises(TypeError, match="integers"):
        A.scores_by_offset(torch.zeros(4), torch.zeros(4), [0.5])
    with pytest.raises(ValueError, match="positions"):
        A.angle_error(torch.tensor([-1]), 4)


# --- timing helpers ---------------------------------------------------------------------------


def test_round_robin_calls_everyone_in_rotating_order():
    calls = []
    fns = {name: (lambda name=name: calls.append(name)) for name in "abc"}
    times = round_robin_times(fns, repeats=4, warmup=1)
    assert {name: len(t) for name, t in times.items()} == {"a": 4, "b": 4, "c": 4}
    assert "".join(calls) == "abc" "bca" "cab" "abc" "bca"
    with pytest.raises(ValueError):
        round_robin_times({}, repeats=1)


def test_allocated_bytes_counts_new_tensors_only():
    x = torch.zeros(10)
    assert allocated_bytes(lambda: x.clone())[0] == 40
    assert allocated_bytes(lambda: x.view(2, 5).t())[0] == 0
    assert allocated_bytes(lambda: x.add_(1))[0] == 0
    nbytes, ops = allocated_bytes(lambda: x * 2 + 1)
    assert nbytes == 80 and len(ops) == 2


def test_textbook_allocates_four_and_a_half_copies_rope_one():
    x = torch.randn(2, 3, 16, 8)
    cos, sin = A.rope_cos_sin(16, 8)
    nbytes = x.numel() * x.element_size()
    assert allocated_bytes(lambda: A.rope_textbook(x, cos, sin))[0] == 4.5 * nbytes
    for layout in H.ROPE_LAYOUTS:
        H.rope(x, layout=layout)  # fill the table cache first
        assert allocated_bytes(lambda layout=layout: H.rope(x, layout=layout))[0] == nbytes


def test_rope_explorer_score_moves_with_the_offset_only():
    import matplotlib.pyplot as plt

    from helpers import widgets

    live = widgets.rope_explorer(m=3, n=1, pair=2)
    score_title = live.fig.axes[1].title
    live.set(m=3, n=1)
    first = score_title.get_text()
    live.set(m=40, n=38)
    assert score_title.get_text() == first
    live.set(m=40, n=39)
    assert score_title.get_text() != first
    q, k = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)  # the default pair
    view = A.rope_pair_view(q, k, 40, 39, pair=2)
    assert f"{view['score']:.4f}" in score_title.get_text()
    plt.close(live.fig)
