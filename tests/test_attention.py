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


def permute_equivariance_gap(block, x):
    perm = torch.tensor([3, 0, 4, 1, 2])
    y, _ = block(x)
    y_perm, _ = block(x[:, perm])
    return float((y[:, perm] - y_perm).abs().max().detach())


@pytest.mark.parametrize("encoding", H.ENCODINGS)
def test_only_no_encoding_is_permutation_equivariant(encoding):
    torch.manual_seed(0)
    block = H.TinyAttention(16, 2, encoding=encoding)
    x = torch.randn(1, 5, 16)
    gap = permute_equivariance_gap(block, x)
    if encoding == "none":
        assert gap < 1e-5
    else:
        assert gap > 1e-3


def test_weights_shape():
    y, w = H.TinyAttention(12, 3, encoding="alibi", causal=True)(torch.randn(2, 7, 12))
    assert y.shape == (2, 7, 12) and w.shape == (2, 3, 7, 7)
