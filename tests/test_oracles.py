"""Oracle tests: the helpers against code written elsewhere (Hugging Face transformers and
the PyTorch tutorial's sinusoidal formula). transformers is a test-only dependency; the
configs are made by hand, so nothing is downloaded."""

import math

import pytest
import torch
from transformers import LlamaConfig
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb, rotate_half
from transformers.models.t5.modeling_t5 import T5Attention

import helpers as H

pytestmark = pytest.mark.oracle


def hf_cos_sin(head_dim, base, positions):
    config = LlamaConfig(hidden_size=head_dim * 2, num_attention_heads=2, head_dim=head_dim,
                         rope_parameters={"rope_type": "default", "rope_theta": base})
    rotary = LlamaRotaryEmbedding(config)
    dummy = torch.zeros(1, dtype=torch.float32)
    return rotary(dummy, positions)


@pytest.mark.parametrize("head_dim,base", [(8, 10000.0), (64, 10000.0), (128, 500000.0), (32, 100.0)])
def test_half_layout_matches_hugging_face(head_dim, base):
    torch.manual_seed(0)
    q, k = torch.randn(2, 4, 40, head_dim), torch.randn(2, 4, 40, head_dim)
    positions = torch.arange(40)[None].expand(2, -1)
    cos, sin = hf_cos_sin(head_dim, base, positions)
    hq, hk = apply_rotary_pos_emb(q, k, cos, sin)
    assert torch.allclose(H.rope(q, base=base, layout="half"), hq, atol=2e-5)
    assert torch.allclose(H.rope(k, base=base, layout="half"), hk, atol=2e-5)


def test_half_layout_matches_hugging_face_at_custom_positions():
    torch.manual_seed(1)
    q = torch.randn(2, 3, 6, 16)
    positions = torch.tensor([[5, 6, 7, 8, 9, 10], [100, 200, 300, 400, 500, 4000]])
    cos, sin = hf_cos_sin(16, 10000.0, positions)
    hq, _ = apply_rotary_pos_emb(q, q, cos, sin)
    assert torch.allclose(H.rope(q, positions[:, None, :], layout="half"), hq, atol=1e-4)


def test_half_layout_is_x_cos_plus_rotate_half_sin():
    torch.manual_seed(2)
    x = torch.randn(3, 10, 12)
    theta = H.angles(torch.arange(10), 12)
    cos = torch.cat((theta.cos(), theta.cos()), -1).float()
    sin = torch.cat((theta.sin(), theta.sin()), -1).float()
    assert torch.allclose(H.rope(x, layout="half"), x * cos + rotate_half(x) * sin, atol=1e-6)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize("num_buckets,max_distance", [(32, 128), (8, 20), (64, 256)])
def test_t5_bucket_matches_hugging_face(bidirectional, num_buckets, max_distance):
    rel = torch.arange(-600, 601)[None, :] - torch.arange(0, 3)[:, None]
    ours = H.t5_bucket(rel, bidirectional, num_buckets, max_distance)
    theirs = T5Attention._relative_position_bucket(rel, bidirectional, num_buckets, max_distance)
    assert torch.equal(ours, theirs)


@pytest.mark.parametrize("n_heads", [1, 2, 3, 5, 6, 8, 12, 16, 20, 32, 40, 64, 100])
def test_alibi_slopes_match_bloom(n_heads):
    # Bloom's bias for one key row is slope_h · key_position, so at position 1 it is the slope.
    mask = torch.ones(1, 2)
    alibi = build_alibi_tensor(mask, n_heads, torch.float32).reshape(n_heads, 1, 2)
    assert torch.allclose(H.alibi_slopes(n_heads), alibi[:, 0, 1], rtol=1e-6)


def tutorial_positional_encoding(max_len, d_model):
    """The formula as the PyTorch 'Language Modeling with nn.Transformer' tutorial writes it."""
    position = torch.arange(max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


@pytest.mark.parametrize("d_model", [2, 16, 128, 512])
def test_sinusoidal_matches_pytorch_tutorial(d_model):
    # The tutorial computes in float32, so its angles drift at large positions; compare where
    # both are accurate to float32.
    assert torch.allclose(H.sinusoidal(200, d_model), tutorial_positional_encoding(200, d_model), atol=2e-5)
