"""Lessons 01–03 helpers, checked against values worked by hand and brute-force implementations."""

import itertools
import math
from fractions import Fraction

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H

# ---------------------------------------------------------------------------------------------
# Lesson 01: counting
# ---------------------------------------------------------------------------------------------


def test_with_index_by_hand():
    e = torch.tensor([[1.0, -1.0], [0.5, 2.0], [0.0, 0.0]])
    assert H.with_index(e, "none").tolist() == e.tolist()
    assert H.with_index(e, "feature").tolist() == [[1.0, -1.0, 0.0], [0.5, 2.0, 1.0], [0.0, 0.0, 2.0]]
    assert H.with_index(e, "added").tolist() == [[1.0, -1.0], [1.5, 3.0], [2.0, 2.0]]


def test_random_embeddings_are_seeded_standard_normal_and_extend():
    a = H.random_embeddings(50, 8, seed=3)
    b = H.random_embeddings(5000, 8, seed=3)
    assert a.shape == (50, 8) and a.dtype == torch.float32
    assert torch.equal(a, b[:50])
    assert not torch.equal(a, H.random_embeddings(50, 8, seed=4))
    assert abs(b.mean().item()) < 0.03 and abs(b.std().item() - 1.0) < 0.03


def test_attention_entropy_by_hand():
    assert math.isclose(H.attention_entropy(torch.full((7,), 1 / 7)).item(), math.log(7), rel_tol=1e-6)
    assert H.attention_entropy(torch.tensor([0.0, 1.0, 0.0])).item() == 0.0
    assert math.isclose(H.attention_entropy(torch.tensor([0.5, 0.5])).item(), math.log(2), rel_tol=1e-6)
    # −(0.25 log 0.25 + 0.75 log 0.75), and rows along dim 0
    rows = torch.tensor([[0.25, 0.5], [0.75, 0.5]])
    expected = [-(0.25 * math.log(0.25) + 0.75 * math.log(0.75)), math.log(2)]
    assert torch.allclose(H.attention_entropy(rows, dim=0), torch.tensor(expected))
    assert str(H.attention_entropy(torch.tensor([1.0]))) == "tensor(0.)"  # no −0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-30, 30), min_size=1, max_size=40))
def test_attention_entropy_matches_python(logits):
    a = torch.tensor(logits, dtype=torch.float64).softmax(-1)
    expected = -sum(p * math.log(p) for p in a.tolist() if p > 0)
    assert math.isclose(H.attention_entropy(a).item(), max(expected, 0.0), abs_tol=1e-12)
    assert -1e-12 <= H.attention_entropy(a).item() <= math.log(len(logits)) + 1e-12


@pytest.mark.parametrize("mode", H.COUNTING_MODES)
@pytest.mark.parametrize("length", [1, 2, 7, 40])
def test_counting_attention_matches_full_attention(mode, length):
    """Against every row of the course's scaled_dot_product_attention on q, k, v built in full."""
    e = H.random_embeddings(length, 6, seed=1).double()
    w_q, w_k, w_v = (w.double() for w in H.projections(6, seed=1))
    q, k, v = (H.with_index(e @ w, mode) for w in (w_q, w_k, w_v))
    full_out, full_w = H.scaled_dot_product_attention(q, k, v)
    logits, weights, out = H.counting_attention(e, w_q, w_k, w_v, mode=mode)
    assert torch.allclose(weights, full_w[-1], atol=1e-12)
    assert torch.allclose(out, full_out[-1], atol=1e-9)
    assert torch.allclose(logits, q[-1] @ k.T / math.sqrt(q.shape[-1]), atol=1e-9)


def test_index_term_of_the_logits_grows_with_the_square_of_the_index():
    # With zero embeddings only the index is left: logit_j = (L − 1)·j / √(d + 1) for "feature"
    # and (L − 1)·j·d / √d for "added".
    e = torch.zeros(11, 4, dtype=torch.float64)
    w = [torch.eye(4, dtype=torch.float64)] * 3
    logits, _, _ = H.counting_attention(e, *w, mode="feature")
    assert torch.allclose(logits, torch.arange(11.0, dtype=torch.float64) * 10 / math.sqrt(5))
    logits, _, _ = H.counting_attention(e, *w, mode="added")
    assert torch.allclose(logits, torch.arange(11.0, dtype=torch.float64) * 10 * 4 / 2)


def test_counting_snapshot():
    s = H.counting_snapshot(300, d_model=8, mode="feature")
    assert s["position"] == 299.0 and s["length"] == 300
    assert math.isclose(s["uniform_entropy"], math.log(300))
    e = H.random_embeddings(300, 8)
    assert math.isclose(s["embedding_rms"], e.pow(2).mean().sqrt().item(), rel_tol=1e-6)
    assert math.isclose(s["ratio"], 299 / s["embedding_rms"], rel_tol=1e-9)
    assert s["weights"].shape == (300,) and math.isclose(s["weights"].sum().item(), 1.0, rel_tol=1e-5)
    assert math.isclose(s["weight_on_last"], s["weights"][-1].item())
    # the index term alone is (L − 1)²/√(d + 1) ≈ 29 800 at the last key: the row is one-hot
    assert s["max_logit"] > 299**2 / 3 - 100 and s["entropy"] < 1e-6 and s["weight_on_last"] > 0.999999
    plain = H.counting_snapshot(300, d_model=8, mode="none")
    assert plain["entropy"] > 0.5 * math.log(300)


def test_counting_gradients_match_finite_differences():
    """Autograd through the helper vs central differences of the same loss in float64."""
    length, d = 5, 4
    got = H.counting_gradients(length, d_model=d, mode="none", seed=2)
    w = [m.double() for m in H.projections(d, seed=2)]
    e = H.random_embeddings(length, d, seed=2).double()
    _, _, out = H.counting_attention(e, *w, mode="none")
    r = torch.randn(out.shape[-1], generator=torch.Generator().manual_seed(4)).double() / math.sqrt(d)

    def loss(emb):
        return float(H.counting_attention(emb, *w, mode="none")[2] @ r)

    assert math.isclose(got["loss"], loss(e), rel_tol=1e-5)
    grad = torch.zeros_like(e)
    for j, c in itertools.product(range(length), range(d)):
        step = torch.zeros_like(e)
        step[j, c] = 1e-6
        grad[j, c] = (loss(e + step) - loss(e - step)) / 2e-6
    assert torch.allclose(got["per_token"].double(), grad.norm(dim=-1), rtol=1e-3, atol=1e-6)


def test_counting_gradients_only_reach_the_attended_token():
    collapsed = H.counting_gradients(64, mode="added")
    assert collapsed["reached"] == 1 and collapsed["median"] == 0.0 and collapsed["entropy"] == 0.0
    assert collapsed["per_token"][-1] == collapsed["max"] > 0
    plain = H.counting_gradients(64, mode="none")
    assert plain["reached"] == 64 and plain["median"] > 0


def test_counting_gradients_keep_tiny_gradients():
    # L = 256, index as a feature: the runner-up key j = 254 trails the last key by a logit gap of
    # about 255/√17 ≈ 62, so it gets weight ≈ e^−62 ≈ 1e-27 — tiny but positive in float32. Its
    # gradient (of that order) must not be lost when squared for the norm (1e-54 underflows float32).
    g = H.counting_gradients(256, mode="feature")
    assert g["reached"] == 1 and g["median"] == 0.0
    assert 0 < g["per_token"][-2] < 1e-20 * g["max"]


@pytest.mark.parametrize("mode", H.COUNTING_MODES)
def test_linear_gradients_by_hand(mode):
    # ∂/∂W of mean_j x_j·W·r is x̄ rᵀ with ‖r‖ = 1, so its norm is ‖x̄‖; ∂/∂e_j = W_content·r / L.
    length, d = 40, 6
    got = H.linear_gradients(length, d_model=d, mode=mode, seed=5)
    x = H.with_index(H.random_embeddings(length, d, seed=5).double(), mode)
    assert math.isclose(got["grad_weight"], x.mean(0).norm().item(), rel_tol=1e-5)
    g = torch.Generator().manual_seed(8)
    r = torch.randn(d, generator=g)
    w = torch.randn(d, d, generator=g) / math.sqrt(d)
    assert math.isclose(got["grad_embedding"], (w @ (r / r.norm())).norm().item() / length, rel_tol=1e-5)
    if mode == "feature":  # x̄ ends in the mean index (L − 1)/2
        assert got["grad_weight"] > (length - 1) / 2
    # split by rows: the content rows get ē rᵀ (ē = mean embedding), the index row (L − 1)/2 · rᵀ
    e_mean = H.random_embeddings(length, d, seed=5).double().mean(0)
    content = e_mean.norm().item() if mode != "added" else x.mean(0).norm().item()
    assert math.isclose(got["grad_content"], content, rel_tol=1e-5)
    assert math.isclose(got["weight_content"], w.norm().item(), rel_tol=1e-5)
    if mode == "feature":
        w_index = torch.randn(1, d, generator=g) / math.sqrt(d)
        assert math.isclose(got["grad_index"], (length - 1) / 2, rel_tol=1e-6)
        assert math.isclose(got["weight_index"], w_index.norm().item(), rel_tol=1e-5)
    else:
        assert got["grad_index"] == got["weight_index"] == 0.0


# ---------------------------------------------------------------------------------------------
# Lesson 02: normalised positions
# ---------------------------------------------------------------------------------------------


def test_nearest_position_by_hand():
    assert H.nearest_position(0.5, 11) == 5
    assert H.nearest_position(30 / 49 - 1 / 9, 50) == 25  # 49·(30/49 − 1/9) = 24.56
    assert H.nearest_position(-0.3, 10) == 0 and H.nearest_position(1.7, 10) == 9
    assert H.nearest_position(0.25, 2) == 0 and H.nearest_position(0.75, 2) == 1


def test_growing_codes_by_hand():
    t = H.growing_codes(4)
    nan = float("nan")
    expected = torch.tensor([[0, nan, nan, nan], [0, 1, nan, nan], [0, 0.5, 1, nan], [0, 1 / 3, 2 / 3, 1]],
                            dtype=torch.float64)
    assert torch.equal(t.isnan(), expected.isnan())
    assert torch.allclose(t.nan_to_num(-1), expected.nan_to_num(-1))
    assert H.growing_codes(1).tolist() == [[0.0]]
    # the last row is the normalised helper
    assert torch.allclose(H.growing_codes(30)[-1].float(), H.normalised(30))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 60), st.integers(2, 60))
def test_compare_lengths_against_fractions(a, b):
    c = H.compare_lengths(a, b)
    brute = [(i, j) for i in range(a) for j in range(b) if Fraction(i, a - 1) == Fraction(j, b - 1)]
    assert c["shared"] == brute
    assert torch.allclose(c["codes_a"].float(), H.normalised(a))
    assert torch.allclose(c["codes_b"].float(), H.normalised(b))
    assert c["step_a"] == 1 / (a - 1) and c["second_b"] == 1 / (b - 1)
    assert torch.allclose(c["codes_a"].diff(), torch.full((a - 1,), 1 / (a - 1), dtype=torch.float64))


# ---------------------------------------------------------------------------------------------
# Lesson 03: a single sine
# ---------------------------------------------------------------------------------------------


def _brute_closest(codes):
    best = None
    for i, j in itertools.combinations(range(len(codes)), 2):
        d = math.dist(codes[i], codes[j]) if isinstance(codes[i], list) else abs(codes[i] - codes[j])
        if best is None or d < best[2]:
            best = (i, j, d)
    return best


def test_closest_pair_by_hand():
    assert H.closest_pair(torch.tensor([0.0, 5.0, 2.0, 4.5])) == (1, 3, 0.5)
    assert H.closest_pair(torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))[:2] == (0, 2)
    # sin 11 and sin 344: 333 ≈ 106π, the convergent 333/106 of π
    i, j, gap = H.closest_pair(torch.sin(torch.arange(1000, dtype=torch.float64)))
    assert (i, j) == (11, 344) and gap == pytest.approx(abs(math.sin(11) - math.sin(344)), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-10, 10), min_size=2, max_size=30, unique=True), st.booleans())
def test_closest_pair_against_brute_force(values, two_d):
    if two_d:
        codes = [[v, math.cos(3 * v)] for v in values]
    else:
        codes = values
    i, j, d = H.closest_pair(torch.tensor(codes, dtype=torch.float64))
    _, _, best = _brute_closest(codes)
    assert i < j and d == pytest.approx(best, abs=1e-7)
    pair = (codes[i], codes[j])
    assert (math.dist(*pair) if two_d else abs(pair[0] - pair[1])) == pytest.approx(best, abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(st.floats(1e-3, 3.2), st.integers(2, 40))
def test_gaps_against_brute_force(omega, length):
    values = [math.sin(omega * p) for p in range(length)]
    gap = min(abs(a - b) for a, b in itertools.combinations(values, 2))
    assert H.smallest_gap(omega, length).item() == pytest.approx(gap, abs=1e-12)
    steps = min(abs(values[p + 1] - values[p]) for p in range(length - 1))
    assert H.neighbour_gap(omega, length).item() == pytest.approx(steps, abs=1e-12)
    assert steps <= 2 * math.sin(omega / 2) + 1e-12 <= omega + 1e-12
    points = [[math.cos(omega * p), math.sin(omega * p)] for p in range(length)]
    chord = min(math.dist(a, b) for a, b in itertools.combinations(points, 2))
    assert H.circle_smallest_gap(omega, length).item() == pytest.approx(chord, abs=1e-12)
    assert torch.allclose(H.circle_code(length, omega), torch.tensor(points, dtype=torch.float64))


def test_gap_shapes_and_exact_collisions():
    omegas = torch.tensor([0.1, math.pi / 2, 1.0])
    assert H.smallest_gap(omegas, 10).shape == (3,) and H.circle_smallest_gap(omegas, 10).shape == (3,)
    # ω = π/2 has period 4: positions 0 and 4 both have sin = 0 (up to rounding) and cos = 1
    assert H.smallest_gap(math.pi / 2, 10).item() < 1e-15
    assert H.circle_smallest_gap(math.pi / 2, 10).item() < 1e-15
    # a circle that is gone round exactly once: L points, 2π/L apart
    assert H.circle_smallest_gap(2 * math.pi / 12, 12).item() == pytest.approx(2 * math.sin(math.pi / 12))
    # within one period the sine alone still repeats: sin(x) = sin(π − x), ω = 2π/12, p = 1 and 5
    assert H.smallest_gap(2 * math.pi / 12, 12).item() < 1e-15


def test_sine_snapshot():
    s = H.sine_snapshot(1.0, 50)
    assert torch.allclose(s["values"].float(), H.single_sine(50, 1.0))
    assert s["wave_pair"] == H.closest_pair(s["values"])
    assert s["circle_pair"][2] == pytest.approx(H.circle_smallest_gap(1.0, 50).item(), abs=1e-9)
    assert s["neighbour_gap"] == pytest.approx(H.neighbour_gap(1.0, 50).item())
    assert s["turns"] == pytest.approx(49 / (2 * math.pi))


# ---------------------------------------------------------------------------------------------
# Bad input: errors that name the parameter
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: H.with_index(torch.zeros(3, 2), "concat"), ValueError, "mode"),
        (lambda: H.with_index(torch.zeros(3), "added"), ValueError, "embeddings"),
        (lambda: H.with_index(torch.zeros(3, 2, dtype=torch.long)), ValueError, "embeddings"),
        (lambda: H.random_embeddings(0), ValueError, "length"),
        (lambda: H.random_embeddings(4, d_model=2.5), TypeError, "d_model"),
        (lambda: H.random_embeddings(4, seed=-1), ValueError, "seed"),
        (lambda: H.attention_entropy(torch.tensor([0.5, -0.1])), ValueError, "weights"),
        (lambda: H.attention_entropy(torch.tensor([1, 0])), TypeError, "weights"),
        (lambda: H.counting_attention(torch.zeros(3, 2), *H.projections(3)), ValueError, "w_q"),
        (lambda: H.counting_attention(torch.zeros(3, 3), *H.projections(3), mode="x"), ValueError, "mode"),
        (lambda: H.counting_snapshot(0), ValueError, "length"),
        (lambda: H.counting_gradients(4, mode="sum"), ValueError, "mode"),
        (lambda: H.linear_gradients(4, d_model=0), ValueError, "d_model"),
        (lambda: H.nearest_position(0.5, 1), ValueError, "length"),
        (lambda: H.nearest_position(float("nan"), 5), ValueError, "code"),
        (lambda: H.growing_codes(0), ValueError, "length"),
        (lambda: H.compare_lengths(1, 5), ValueError, "length_a"),
        (lambda: H.compare_lengths(5, "7"), TypeError, "length_b"),
        (lambda: H.closest_pair(torch.zeros(1)), ValueError, "codes"),
        (lambda: H.closest_pair(torch.zeros(2, 2, 2)), ValueError, "codes"),
        (lambda: H.smallest_gap(0.0, 10), ValueError, "omegas"),
        (lambda: H.smallest_gap(torch.tensor([1.0, -1.0]), 10), ValueError, "omegas"),
        (lambda: H.smallest_gap(1.0, 1), ValueError, "length"),
        (lambda: H.neighbour_gap(float("inf"), 10), ValueError, "omegas"),
        (lambda: H.circle_smallest_gap(1.0, 1), ValueError, "length"),
        (lambda: H.circle_code(5, omega=float("nan")), ValueError, "omega"),
        (lambda: H.sine_snapshot(-1.0, 10), ValueError, "omega"),
        (lambda: H.sine_snapshot(1.0, 1), ValueError, "length"),
    ],
)
def test_bad_input_names_the_parameter(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------------------------------------
# The lessons' explorers: built once, updated in place
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("counting_explorer", [{"length": 100_000}, {"length": 4}, {"length": 20}]),
        ("normalised_explorer", [{"length_a": 40}, {"length_b": 2}, {"length_a": 9, "length_b": 5}]),
        ("sine_explorer", [{"omega": 0.001}, {"omega": 3.0}, {"length": 2}, {"length": 200}]),
    ],
)
def test_explorers_update_in_place(name, moves):
    import matplotlib

    matplotlib.use("Agg")
    from helpers import widgets

    def drawn(fig):  # what update() may change but must never add or remove (ticks are matplotlib's own)
        return [len(group) for ax in fig.axes for group in (ax.lines, ax.collections, ax.texts, ax.patches, ax.images)]

    live = getattr(widgets, name)()
    artists = drawn(live.fig)
    seen = {live.png}
    for values in moves:
        live.set(**values)
        assert live.png.startswith(b"\x89PNG")
        seen.add(live.png)
        assert drawn(live.fig) == artists
    assert len(seen) == len(moves) + 1  # every step changed the picture


def test_counting_explorer_snaps_to_its_lengths():
    from helpers import widgets

    assert widgets.counting_explorer(length=128).controls["length"].value == 100
    assert widgets.counting_explorer(length=7).controls["length"].value == 5
    assert widgets.counting_explorer(length=10**7).controls["length"].value == 100_000


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda w: w.counting_explorer(length=0), "length"),
        (lambda w: w.counting_explorer(shown_keys=1), "shown_keys"),
        (lambda w: w.normalised_explorer(length_a=50), "length_a"),
        (lambda w: w.normalised_explorer(length_b=1), "length_b"),
        (lambda w: w.sine_explorer(omega=5.0), "omega"),
        (lambda w: w.sine_explorer(length=500), "length"),
    ],
)
def test_explorers_reject_bad_input(call, words):
    from helpers import widgets

    with pytest.raises((ValueError, TypeError), match=words):
        call(widgets)
