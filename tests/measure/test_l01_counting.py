"""Lesson 01's measurements (counting), checked against values worked by hand, full attention
and finite differences."""

import itertools
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H


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
    assert s.position == 299.0 and s.length == 300
    assert math.isclose(s.uniform_entropy, math.log(300))
    e = H.random_embeddings(300, 8)
    assert math.isclose(s.embedding_rms, e.pow(2).mean().sqrt().item(), rel_tol=1e-6)
    assert math.isclose(s.ratio, 299 / s.embedding_rms, rel_tol=1e-9)
    assert s.weights.shape == (300,) and math.isclose(s.weights.sum().item(), 1.0, rel_tol=1e-5)
    assert math.isclose(s.weight_on_last, s.weights[-1].item())
    # the index term alone is (L − 1)²/√(d + 1) ≈ 29 800 at the last key: the row is one-hot
    assert s.max_logit > 299**2 / 3 - 100 and s.entropy < 1e-6 and s.weight_on_last > 0.999999
    plain = H.counting_snapshot(300, d_model=8, mode="none")
    assert plain.entropy > 0.5 * math.log(300)


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

    assert math.isclose(got.loss, loss(e), rel_tol=1e-5)
    grad = torch.zeros_like(e)
    for j, c in itertools.product(range(length), range(d)):
        step = torch.zeros_like(e)
        step[j, c] = 1e-6
        grad[j, c] = (loss(e + step) - loss(e - step)) / 2e-6
    assert torch.allclose(got.per_token.double(), grad.norm(dim=-1), rtol=1e-3, atol=1e-6)


def test_counting_gradients_only_reach_the_attended_token():
    collapsed = H.counting_gradients(64, mode="added")
    assert collapsed.reached == 1 and collapsed.median == 0.0 and collapsed.entropy == 0.0
    assert collapsed.per_token[-1] == collapsed.max > 0
    plain = H.counting_gradients(64, mode="none")
    assert plain.reached == 64 and plain.median > 0


def test_counting_gradients_keep_tiny_gradients():
    # L = 256, index as a feature: the runner-up key j = 254 trails the last key by a logit gap of
    # about 255/√17 ≈ 62, so it gets weight ≈ e^−62 ≈ 1e-27 — tiny but positive in float32. Its
    # gradient (of that order) must not be lost when squared for the norm (1e-54 underflows float32).
    g = H.counting_gradients(256, mode="feature")
    assert g.reached == 1 and g.median == 0.0
    assert 0 < g.per_token[-2] < 1e-20 * g.max


@pytest.mark.parametrize("mode", H.COUNTING_MODES)
def test_linear_gradients_by_hand(mode):
    # ∂/∂W of mean_j x_j·W·r is x̄ rᵀ with ‖r‖ = 1, so its norm is ‖x̄‖; ∂/∂e_j = W_content·r / L.
    length, d = 40, 6
    got = H.linear_gradients(length, d_model=d, mode=mode, seed=5)
    x = H.with_index(H.random_embeddings(length, d, seed=5).double(), mode)
    assert math.isclose(got.grad_weight, x.mean(0).norm().item(), rel_tol=1e-5)
    g = torch.Generator().manual_seed(8)
    r = torch.randn(d, generator=g)
    w = torch.randn(d, d, generator=g) / math.sqrt(d)
    assert math.isclose(got.grad_embedding, (w @ (r / r.norm())).norm().item() / length, rel_tol=1e-5)
    if mode == "feature":  # x̄ ends in the mean index (L − 1)/2
        assert got.grad_weight > (length - 1) / 2
    # split by rows: the content rows get ē rᵀ (ē = mean embedding), the index row (L − 1)/2 · rᵀ
    e_mean = H.random_embeddings(length, d, seed=5).double().mean(0)
    content = e_mean.norm().item() if mode != "added" else x.mean(0).norm().item()
    assert math.isclose(got.grad_content, content, rel_tol=1e-5)
    assert math.isclose(got.weight_content, w.norm().item(), rel_tol=1e-5)
    if mode == "feature":
        w_index = torch.randn(1, d, generator=g) / math.sqrt(d)
        assert math.isclose(got.grad_index, (length - 1) / 2, rel_tol=1e-6)
        assert math.isclose(got.weight_index, w_index.norm().item(), rel_tol=1e-5)
    else:
        assert got.grad_index == got.weight_index == 0.0


@pytest.mark.parametrize("mode", H.COUNTING_MODES)
def test_linear_gradients_return_the_weight_and_its_gradient(mode):
    # ∂loss/∂W = x̄ rᵀ, an outer product built here from the inputs and the seeded r and W.
    length, d = 30, 5
    got = H.linear_gradients(length, d_model=d, mode=mode, seed=2)
    x = H.with_index(H.random_embeddings(length, d, seed=2).double(), mode)
    g = torch.Generator().manual_seed(5)
    r = torch.randn(d, generator=g)
    r = r / r.norm()
    w = torch.randn(d, d, generator=g)
    if mode == "feature":
        w = torch.cat((w, torch.randn(1, d, generator=g)))
    w = w / math.sqrt(d)
    assert got.weight.shape == got.grad.shape == (x.shape[1], d)
    assert torch.allclose(got.weight, w)
    assert torch.allclose(got.grad.double(), torch.outer(x.mean(0), r.double()), rtol=1e-5, atol=1e-6)
    assert math.isclose(got.grad.norm().item(), got.grad_weight, rel_tol=1e-6)
    if mode == "feature":  # the index row's gradient is (L − 1)/2 · r
        assert torch.allclose(got.grad[-1], (length - 1) / 2 * r, rtol=1e-5)


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
    ],
)
def test_bad_input_names_the_parameter(call, error, words):
    with pytest.raises(error, match=words):
        call()
