"""The attention toolkit, checked against PyTorch's own attention."""

import pytest
import torch
import torch.nn.functional as F

import helpers as H


@pytest.mark.parametrize("causal", [False, True])
def test_matches_torch_sdpa(causal):
    torch.manual_seed(0)
    q, k, v = torch.randn(2, 3, 5, 8), torch.randn(2, 3, 5, 8), torch.randn(2, 3, 5, 4)
    out, w = H.scaled_dot_product_attention(q, k, v, causal=causal)
    assert torch.allclose(out, F.scaled_dot_product_attention(q, k, v, is_causal=causal), atol=1e-6)
    assert torch.allclose(w.sum(-1), torch.ones(2, 3, 5))
    if causal:
        assert float(w[..., 0, 1:].abs().max()) == 0.0


def test_bias_is_added_to_scores():
    torch.manual_seed(1)
    q, k, v = torch.randn(1, 4, 6), torch.randn(1, 4, 6), torch.randn(1, 4, 6)
    bias = torch.randn(4, 4)
    out, _ = H.scaled_dot_product_attention(q, k, v, bias=bias)
    assert torch.allclose(out, F.scaled_dot_product_attention(q, k, v, attn_mask=bias), atol=1e-6)


def run_block(block, scheme, x, return_weights=False):
    mask = scheme.attention_mask(None, x.shape[1], x.dtype, x.device)
    return block(scheme.embed(x), scheme, None, mask, return_weights)


def position_scheme(name, n_heads=2, head_dim=8):
    scheme = H.scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=32 if name == "learned" else None)
    with torch.no_grad():  # T5 and Shaw start at zero
        for p in scheme.parameters():
            p.normal_()
    return scheme


@pytest.mark.parametrize("name", H.SCHEMES)
def test_only_no_position_ignores_the_order_of_earlier_tokens(name):
    # Under a causal mask the last token sees all the others; with no position signal it sees
    # them as a set, so shuffling them leaves its output unchanged.
    torch.manual_seed(0)
    block, scheme = H.CausalSelfAttention(16, 2), position_scheme(name)
    x = torch.randn(1, 5, 16)
    shuffled = x[:, [2, 0, 3, 1, 4]]
    with torch.no_grad():
        gap = float((run_block(block, scheme, x)[0, -1] - run_block(block, scheme, shuffled)[0, -1]).abs().max())
    if name == "none":
        assert gap < 1e-5
    else:
        assert gap > 1e-3


@pytest.mark.parametrize("name", H.SCHEMES)
def test_block_matches_explicit_attention(name):
    torch.manual_seed(1)
    block, scheme = H.CausalSelfAttention(24, 3), position_scheme(name, n_heads=3)
    x = torch.randn(2, 7, 24)
    with torch.no_grad():
        y = run_block(block, scheme, x)
        y_w, weights = run_block(block, scheme, x, return_weights=True)
        # by hand: project, let the scheme turn q and k, add its bias, mask the future
        h = scheme.embed(x)
        q, k, v = (h @ block.qkv.weight.T).view(2, 7, 3, 3, 8).permute(2, 0, 3, 1, 4)
        q, k = scheme.rotate(q, k)
        scores = q @ k.transpose(-1, -2) / 8**0.5
        bias = scheme.bias(torch.arange(7), torch.arange(7))
        if bias is not None:
            scores = scores + bias
        scores = scores.masked_fill(torch.ones(7, 7, dtype=torch.bool).triu(1), float("-inf"))
        want = (scores.softmax(-1) @ v).transpose(1, 2).reshape(2, 7, 24) @ block.out.weight.T
    assert y.shape == (2, 7, 24) and weights.shape == (2, 3, 7, 7)
    assert torch.allclose(y, want, atol=1e-5) and torch.allclose(y_w, want, atol=1e-5)
    assert torch.allclose(weights, scores.softmax(-1), atol=1e-6)


def test_block_bad_arguments():
    with pytest.raises(ValueError, match="d_model must be divisible by n_heads = 3"):
        H.CausalSelfAttention(10, 3)
