"""TinyLM: against a plain re-implementation, causality, shift (in)variance, weights, hidden
states, and bad input."""

import math

import pytest
import torch
import torch.nn.functional as F

import helpers as H

ALL = list(H.SCHEMES)
SHIFT_INVARIANT = {"none", "rope", "alibi", "t5", "shaw"}


def build(name, seed=0, **kwargs):
    torch.manual_seed(seed)
    kwargs.setdefault("max_len", 256 if name == "learned" else None)
    model = H.TinyLM(16, name, **kwargs)
    with torch.no_grad():  # T5 and Shaw tables start at zero; give them values
        for p in model.scheme.parameters():
            p.normal_()
    return model.eval()


def tokens(batch=2, length=12, seed=1):
    return torch.randint(0, 16, (batch, length), generator=torch.Generator().manual_seed(seed))


def reference_logits(model, x, positions=None):
    """TinyLM written out plainly: explicit scores, bias by hand, softmax, masks with tril."""
    scheme, name = model.scheme, model.scheme.name
    batch, length = x.shape
    heads, d = model.config.n_heads, model.config.d_model // model.config.n_heads
    pos = torch.arange(length).expand(batch, length) if positions is None else positions.expand(batch, length)
    h = model.token_embedding.weight[x]
    if name == "sinusoidal":
        h = h + H.sinusoidal(int(pos.max()) + 1, model.config.d_model)[pos]
    elif name == "learned":
        h = h + scheme.table.table.weight[pos]
    offset = pos[:, None, :] - pos[:, :, None]  # key − query, (batch, Lq, Lk)
    if name == "alibi":
        bias = -H.alibi_slopes(heads)[None, :, None, None] * offset.abs()[:, None].float()
    elif name == "t5":
        bias = scheme.table.weight[H.t5_bucket(offset, bidirectional=False)].permute(0, 3, 1, 2)
    elif name == "shaw":
        k = scheme.max_offset
        bias = scheme.table[:, offset.clamp(-k, k) + k].permute(1, 0, 2, 3)
    else:
        bias = torch.zeros(1, 1, length, length)
    allowed = torch.tril(torch.ones(length, length, dtype=torch.bool))
    for block in model.blocks:
        a = F.layer_norm(h, (h.shape[-1],), block.norm1.weight, block.norm1.bias)
        q, k, v = (a @ block.attention.qkv.weight.T).split(model.config.d_model, dim=-1)
        q, k, v = (t.reshape(batch, length, heads, d).transpose(1, 2) for t in (q, k, v))
        if name == "rope":
            q, k = H.rope(q, pos[:, None, :]), H.rope(k, pos[:, None, :])
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + bias
        scores = scores.masked_fill(~allowed, float("-inf"))
        mixed = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, -1)
        h = h + mixed @ block.attention.out.weight.T
        m = F.layer_norm(h, (h.shape[-1],), block.norm2.weight, block.norm2.bias)
        up, down = block.mlp[0], block.mlp[2]
        h = h + F.gelu(m @ up.weight.T + up.bias) @ down.weight.T + down.bias
    h = F.layer_norm(h, (h.shape[-1],), model.norm.weight, model.norm.bias)
    return h @ model.head.weight.T + model.head.bias


@pytest.mark.parametrize("name", ALL)
def test_matches_a_plain_implementation(name):
    model, x = build(name), tokens()
    with torch.no_grad():
        assert torch.allclose(model(x), reference_logits(model, x), atol=1e-4)
        pos = torch.tensor([[5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]])
        assert torch.allclose(model(x, pos), reference_logits(model, x, pos), atol=1e-4)
        single = torch.arange(12) + 30
        assert torch.allclose(model(x, single), reference_logits(model, x, single), atol=1e-4)


@pytest.mark.parametrize("name", ALL)
def test_causal(name):
    model, x = build(name), tokens(length=16)
    with torch.no_grad():
        before = model(x)
        for t in (0, 5, 14):
            changed = x.clone()
            changed[:, t + 1:] = (changed[:, t + 1:] + 1 + torch.arange(15 - t)) % 16
            after = model(changed)
            assert torch.equal(after[:, : t + 1], before[:, : t + 1])
            assert not torch.allclose(after[:, t + 1:], before[:, t + 1:])


@pytest.mark.parametrize("name", ALL)
def test_shift_changes_logits_only_for_absolute_schemes(name):
    model, x = build(name), tokens(length=20)
    with torch.no_grad():
        plain = model(x)
        shifted = model(x, torch.arange(20) + 37)
    gap = float((plain - shifted).abs().max())
    if name in SHIFT_INVARIANT:
        assert gap < 1e-4
    else:
        assert gap > 1e-2


@pytest.mark.parametrize("name", ALL)
def test_weights_and_hidden_states(name):
    model, x = build(name), tokens(batch=3, length=10)
    with torch.no_grad():
        logits, weights = model(x, return_weights=True)
        assert torch.allclose(logits, model(x), atol=1e-5)
        assert len(weights) == 2
        for w in weights:
            assert w.shape == (3, 4, 10, 10)
            assert torch.allclose(w.sum(-1), torch.ones(3, 4, 10), atol=1e-5)
            assert float(w.triu(1).abs().max()) == 0.0
        hidden = model.hidden_states(x)
        assert hidden.shape == (3, 3, 10, 64)
        assert torch.allclose(model.head(model.norm(hidden[-1])), logits, atol=1e-5)
        assert torch.allclose(hidden[0], model.scheme.embed(model.token_embedding(x)))


@pytest.mark.parametrize("name", ALL)
def test_batched_positions_are_per_sequence(name):
    model, x = build(name), tokens(batch=2, length=8)
    pos = torch.stack((torch.arange(8) + 3, torch.arange(8) * 2))
    with torch.no_grad():
        together = model(x, pos)
        for b in range(2):
            assert torch.allclose(together[b], model(x[b : b + 1], pos[b])[0], atol=1e-5)
        assert torch.equal(model(x, torch.arange(8)), model(x))


def test_size_and_config():
    model = H.TinyLM(16)
    assert 90_000 < sum(p.numel() for p in model.parameters()) < 110_000
    assert model.config == H.TinyLMConfig(vocab_size=16)
    shaw = H.TinyLM(16, "shaw", d_model=32, n_heads=2, n_layers=3, max_offset=5)
    again = H.TinyLM.from_config(shaw.config)
    assert again.config == shaw.config and again.scheme.max_offset == 5
    again.load_state_dict(shaw.state_dict())


def test_scheme_object_is_shared_by_all_layers():
    scheme = H.scheme("t5", n_heads=4, head_dim=16)
    model = H.TinyLM(16, scheme, n_layers=3)
    assert model.scheme is scheme
    separate = H.TinyLM(16, "t5", n_layers=3)
    assert sum(p.numel() for p in model.parameters()) == sum(p.numel() for p in separate.parameters())


def test_rope_frequencies_swap_on_a_model():
    model, x = build("rope"), tokens()
    with torch.no_grad():
        before = model(x)
        model.scheme.set_frequencies(model.scheme.inv_freq.clone())
        assert torch.equal(model(x), before)
        model.scheme.set_frequencies(model.scheme.inv_freq / 4)
        assert not torch.allclose(model(x), before, atol=1e-3)
        model.scheme.set_frequencies(model.scheme.inv_freq * 4, attention_scale=1.5)
        assert not torch.allclose(model(x), before, atol=1e-3)


def test_learned_beyond_max_len():
    model = H.TinyLM(16, "learned", max_len=32)
    model(tokens(length=32))
    with pytest.raises(IndexError, match=r"max_len = 32 .*length 40"):
        model(tokens(length=40))
    with pytest.raises(IndexError, match=r"max_len = 32 .*position 35"):
        model(tokens(length=10), torch.arange(10) + 26)


def test_bad_input():
    with pytest.raises(ValueError, match=r"d_model must be divisible by n_heads = 3"):
        H.TinyLM(16, d_model=64, n_heads=3)
    with pytest.raises(ValueError, match="scheme must be one of 'none', 'sinusoidal'"):
        H.TinyLM(16, "xpos")
    with pytest.raises(ValueError, match="head_dim must be even"):
        H.TinyLM(16, "rope", d_model=12, n_heads=4)
    with pytest.raises(ValueError, match="vocab_size must be an integer ≥ 1"):
        H.TinyLM(0)
    with pytest.raises(ValueError, match="scheme must be built for n_heads = 4, head_dim = 16"):
        H.TinyLM(16, H.scheme("alibi", n_heads=2, head_dim=32))
    model = H.TinyLM(16, "alibi")
    with pytest.raises(ValueError, match=r"length \(tokens.shape\[1\]\) must be an integer ≥ 1, got 0"):
        model(torch.zeros(2, 0, dtype=torch.long))
    with pytest.raises(ValueError, match=r"tokens must have shape \(batch, length\)"):
        model(torch.zeros(5, dtype=torch.long))
    with pytest.raises(TypeError, match="tokens must be an integer tensor"):
        model(torch.zeros(2, 5))
    with pytest.raises(ValueError, match=r"tokens must lie in 0 … vocab_size − 1 = 15, got values in 0 … 16"):
        model(torch.tensor([[0, 16]]))
    with pytest.raises(ValueError, match=r"\(length,\) = \(5,\) or \(batch, length\) = \(2, 5\), got shape \(6,\)"):
        model(tokens(length=5), torch.arange(6))
    with pytest.raises(ValueError, match="positions must have shape"):
        model(tokens(length=5), torch.arange(5)[None, None])
    with pytest.raises(TypeError, match="positions must be an integer tensor"):
        model(tokens(length=5), torch.arange(5.0))
    with pytest.raises(ValueError, match="positions must be an integer tensor of values ≥ 0"):
        model(tokens(length=5), torch.arange(5) - 2)


cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@cuda
@pytest.mark.cuda
@pytest.mark.parametrize("name", ALL)
def test_cuda_matches_cpu(name):
    model, x = build(name), tokens(length=24)
    pos = torch.arange(24) + 5
    with torch.no_grad():
        want, want_w = model(x, pos, return_weights=True)
        model.cuda()
        got = model(x.cuda(), pos.cuda())
        got_w = model(x.cuda(), pos.cuda(), return_weights=True)[1]
    assert got.device.type == "cuda"
    assert torch.allclose(got.cpu(), want, atol=1e-3)
    assert torch.allclose(got_w[-1].cpu(), want_w[-1], atol=1e-3)
