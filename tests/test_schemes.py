"""Position schemes: each hook against an independent formula or another project's code
(Bloom's ALiBi tensor, Hugging Face's T5 bias), the identity hooks, and bad input. The masks
the schemes share are tested with their interface, in test_position_scheme.py."""

import pytest
import torch

import helpers as H

HOOKS = {  # which hook each scheme uses, written out by hand
    "none": set(),
    "sinusoidal": {"embed"},
    "learned": {"embed"},
    "rope": {"rotate"},
    "alibi": {"bias"},
    "t5": {"bias"},
    "shaw": {"bias"},
}


def make(name, n_heads=4, head_dim=8, **options):
    max_len = options.pop("max_len", 64 if name == "learned" else None)
    return H.scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max_len, **options)


def randomise(scheme, seed=0):
    """Give learned tables random values (T5 and Shaw start at zero, which would hide bugs)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in scheme.parameters():
            p.copy_(torch.randn(p.shape, generator=generator))
    return scheme


def test_names():
    assert set(H.SCHEMES) == set(HOOKS)


@pytest.mark.parametrize("name", list(HOOKS))
def test_unused_hooks_are_identities(name):
    scheme = make(name)
    x = torch.randn(2, 5, 32)
    q, k = torch.randn(2, 4, 5, 8), torch.randn(2, 4, 5, 8)
    pos = torch.arange(5)
    if "embed" not in HOOKS[name]:
        assert torch.equal(scheme.embed(x, pos), x)
    else:
        assert not torch.allclose(scheme.embed(x, pos), x)
    rq, rk = scheme.rotate(q, k, pos)
    if "rotate" not in HOOKS[name]:
        assert torch.equal(rq, q) and torch.equal(rk, k)
    else:
        assert not torch.allclose(rq, q)
    bias = randomise(scheme).bias(pos, pos)
    if "bias" not in HOOKS[name]:
        assert bias is None
        assert scheme.attention_mask(None, 5, torch.float32, "cpu") is None
    else:
        assert bias.shape == (4, 5, 5)


def test_map_of_schemes():
    want = {  # name: (enters, learned, relative, parameters for 4 heads × 8, max_len 64)
        "none": ("nothing", False, False, 0),
        "sinusoidal": ("added to x", False, False, 0),
        "learned": ("added to x", True, False, 64 * 32),
        "rope": ("rotates q, k", False, True, 0),
        "alibi": ("bias on scores", False, True, 0),
        "t5": ("bias on scores", True, True, 32 * 4),
        "shaw": ("bias on scores", True, True, 4 * 33),
    }
    for name, (enters, learned, relative, count) in want.items():
        assert make(name).describe() == {
            "name": name, "enters": enters, "learned": learned, "relative": relative, "parameters": count
        }


# --- embed: sinusoidal and learned -------------------------------------------------------------


def test_sinusoidal_adds_the_vaswani_table():
    scheme = make("sinusoidal")
    x = torch.randn(3, 20, 32)
    assert torch.allclose(scheme.embed(x), x + H.sinusoidal(20, 32), atol=1e-6)
    # shifted positions read later rows of the same table
    assert torch.allclose(scheme.embed(x, torch.arange(20) + 7), x + H.sinusoidal(27, 32)[7:], atol=1e-5)
    # one row of positions per sequence
    pos = torch.stack((torch.arange(20), torch.arange(20) + 3, torch.arange(20).flip(0)))
    table = H.sinusoidal(40, 32)
    assert torch.allclose(scheme.embed(x, pos), x + table[pos], atol=1e-5)


def test_sinusoidal_base():
    x = torch.zeros(1, 9, 16)
    assert torch.allclose(make("sinusoidal", 2, 8, base=100.0).embed(x)[0], H.sinusoidal(9, 16, base=100.0))


def test_learned_adds_its_rows_and_stops_at_max_len():
    scheme = make("learned", max_len=10)
    x = torch.randn(2, 6, 32)
    rows = scheme.table.table.weight
    assert torch.equal(scheme.embed(x), x + rows[:6])
    pos = torch.tensor([[4, 5, 6, 7, 8, 9], [0, 0, 1, 1, 2, 2]])
    assert torch.equal(scheme.embed(x, pos), x + rows[pos])
    with pytest.raises(IndexError, match=r"max_len = 10.*length 11"):
        scheme.embed(torch.zeros(1, 11, 32))
    with pytest.raises(IndexError, match=r"max_len = 10.*position 12"):
        scheme.embed(x, torch.arange(6) + 7)


def test_learned_rows_start_at_the_token_scale():
    torch.manual_seed(0)
    rows = make("learned", max_len=512).table.table.weight
    assert 0.95 < float(rows.detach().std()) < 1.05
    assert float(make("learned", init_std=0.02, max_len=512).table.table.weight.detach().std()) < 0.03


# --- rotate: RoPE ------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_rope_hook_equals_helpers_rope(layout):
    scheme = make("rope", head_dim=16, layout=layout)
    q, k = torch.randn(2, 4, 9, 16), torch.randn(2, 4, 9, 16)
    rq, rk = scheme.rotate(q, k)
    assert torch.allclose(rq, H.rope(q, layout=layout), atol=1e-6)
    assert torch.allclose(rk, H.rope(k, layout=layout), atol=1e-6)
    pos = torch.tensor([3, 8, 9, 20, 21, 22, 100, 101, 500])
    rq, _ = scheme.rotate(q, k, pos)
    assert torch.allclose(rq, H.rope(q, pos, layout=layout), atol=1e-5)
    batched = torch.stack((pos, pos + 1000))
    rq, _ = scheme.rotate(q, k, batched)
    assert torch.allclose(rq[0], H.rope(q[0], pos, layout=layout), atol=1e-5)
    assert torch.allclose(rq[1], H.rope(q[1], pos + 1000, layout=layout), atol=1e-4)


def test_rope_base_option():
    q = torch.randn(1, 2, 7, 8)
    rq, _ = make("rope", 2, 8, base=50.0).rotate(q, q)
    assert torch.allclose(rq, H.rope(q, base=50.0), atol=1e-6)


def test_rope_custom_frequencies_and_attention_scale():
    torch.manual_seed(3)
    q, k = torch.randn(1, 2, 12, 8), torch.randn(1, 2, 12, 8)
    freqs = torch.tensor([1.0, 0.3, 0.05, 0.001], dtype=torch.float64)
    # by hand: pair i of the position-p row turns by p·freqs[i] (interleaved layout)
    theta = torch.arange(12, dtype=torch.float64)[:, None] * freqs
    pairs = torch.view_as_complex(q.double().unflatten(-1, (4, 2)).contiguous())
    by_hand = torch.view_as_real(pairs * torch.polar(torch.ones_like(theta), theta)).flatten(-2)

    scheme = make("rope", 2, 8, freqs=freqs)
    assert torch.allclose(scheme.rotate(q, k)[0].double(), by_hand, atol=1e-5)

    trained = make("rope", 2, 8)
    before = trained.rotate(q, k)
    trained.set_frequencies(freqs, attention_scale=1.7)
    rq, rk = trained.rotate(q, k)
    assert torch.allclose(rq.double() / 1.7, by_hand, atol=1e-5)
    plain_q, plain_k = scheme.rotate(q, k)  # logits grow by the square of the factor on q and k
    assert torch.allclose(rq @ rk.transpose(-1, -2), 1.7**2 * (plain_q @ plain_k.transpose(-1, -2)), atol=1e-4)
    trained.set_frequencies(H.frequencies(8, dtype=torch.float64))
    assert all(torch.allclose(a, b) for a, b in zip(trained.rotate(q, k), before, strict=True))


def test_rope_frequencies_are_float64_state():
    scheme = make("rope", 2, 8)
    assert scheme.inv_freq.dtype == torch.float64
    assert torch.equal(scheme.inv_freq, 10000.0 ** (-torch.arange(0, 8, 2, dtype=torch.float64) / 8))
    assert "inv_freq" in scheme.state_dict()


# --- bias: ALiBi, T5, Shaw ---------------------------------------------------------------------


@pytest.mark.oracle
@pytest.mark.parametrize("n_heads", [1, 3, 4, 6, 8, 12])
def test_alibi_bias_matches_bloom(n_heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    length = 11
    bloom = build_alibi_tensor(torch.ones(1, length), n_heads, torch.float32).reshape(n_heads, length)
    # Bloom adds slope·j to the row of query i; softmax ignores a constant per row, so under the
    # causal mask it equals Press et al.'s −slope·(i − j) = bloom[j] − bloom[i].
    want = bloom[:, None, :] - bloom[:, :, None]
    ours = make("alibi", n_heads=n_heads).bias(torch.arange(length), torch.arange(length))
    causal = torch.ones(length, length, dtype=torch.bool).tril()
    assert torch.allclose(ours[:, causal], want[:, causal], atol=1e-5)


def test_alibi_bias_by_hand():
    # two heads: slopes 2^-4 and 2^-8; positions need not start at 0
    bias = make("alibi", n_heads=2).bias(torch.tensor([5, 6, 7]), torch.tensor([5, 6, 7]))
    distance = torch.tensor([[0.0, 1, 2], [1, 0, 1], [2, 1, 0]])
    assert torch.allclose(bias, -torch.tensor([2.0**-4, 2.0**-8])[:, None, None] * distance)


@pytest.mark.oracle
@pytest.mark.parametrize("decoder", [True, False])
@pytest.mark.parametrize("num_buckets,max_distance", [(32, 128), (16, 20)])
def test_t5_bias_matches_hugging_face(decoder, num_buckets, max_distance):
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Attention

    config = T5Config(d_model=32, d_kv=8, num_heads=4, relative_attention_num_buckets=num_buckets,
                      relative_attention_max_distance=max_distance, is_decoder=decoder)
    theirs = T5Attention(config, has_relative_attention_bias=True, layer_idx=0)
    ours = randomise(make("t5", num_buckets=num_buckets, max_distance=max_distance, bidirectional=not decoder))
    with torch.no_grad():
        theirs.relative_attention_bias.weight.copy_(ours.table.weight)
    want = theirs.compute_bias(150, 150)[0]
    assert torch.equal(ours.bias(torch.arange(150), torch.arange(150)), want)
    # queries later in the sequence (Hugging Face's past_seen_tokens): the keys stay at 0 …
    want = theirs.compute_bias(5, 200, past_seen_tokens=195)[0]
    assert torch.equal(ours.bias(torch.arange(195, 200), torch.arange(200)), want)


def test_shaw_clip_by_hand():
    assert H.shaw_clip(torch.tensor([-9, -3, -2, 0, 1, 2, 50]), 2).tolist() == [-2, -2, -2, 0, 1, 2, 2]
    assert H.shaw_clip(torch.tensor([[4, -4]]), 0).tolist() == [[0, 0]]


def test_shaw_bias_by_hand():
    scheme = randomise(make("shaw", n_heads=2, max_offset=3))
    table = scheme.table.detach()  # (heads, 7): column c is offset c − 3
    q_pos, k_pos = torch.tensor([0, 2, 10]), torch.tensor([0, 1, 2, 9, 10])
    bias = scheme.bias(q_pos, k_pos)
    for h in range(2):
        for i, qp in enumerate(q_pos.tolist()):
            for j, kp in enumerate(k_pos.tolist()):
                offset = max(-3, min(3, kp - qp))
                assert bias[h, i, j] == table[h, offset + 3]


@pytest.mark.parametrize("name", ["alibi", "t5", "shaw"])
def test_batched_bias_is_one_bias_per_sequence(name):
    scheme = randomise(make(name))
    pos = torch.stack((torch.arange(6), torch.arange(6) * 3 + 2))
    bias = scheme.bias(pos, pos)
    assert bias.shape == (2, 4, 6, 6)
    for b in range(2):
        assert torch.equal(bias[b], scheme.bias(pos[b], pos[b]))


# --- the merged mask ---------------------------------------------------------------------------


# --- bad input ---------------------------------------------------------------------------------


def test_unknown_scheme_lists_the_names():
    with pytest.raises(ValueError, match=r"scheme must be one of 'none', 'sinusoidal', 'learned', 'rope'.*'shaw'"):
        H.scheme("xpos", n_heads=2, head_dim=8)


def test_unknown_option_lists_the_allowed_ones():
    with pytest.raises(TypeError, match=r"'alibi' got unknown option\(s\) base; it accepts no options"):
        make("alibi", base=10.0)
    with pytest.raises(TypeError, match=r"unknown option\(s\) buckets; it accepts num_buckets, max_distance"):
        make("t5", buckets=8)


def test_bad_construction():
    with pytest.raises(ValueError, match="head_dim must be even"):
        make("rope", head_dim=7)
    with pytest.raises(ValueError, match="max_len must be given for the learned scheme"):
        H.scheme("learned", n_heads=2, head_dim=8)
    with pytest.raises(ValueError, match="n_heads must be an integer ≥ 1"):
        make("none", n_heads=0)
    with pytest.raises(ValueError, match="layout must be one of"):
        make("rope", layout="complex")
    with pytest.raises(ValueError, match="max_distance must be greater than"):
        make("t5", num_buckets=32, max_distance=4)
    with pytest.raises(ValueError, match="max_offset must be an integer ≥ 0"):
        make("shaw", max_offset=-1)
    with pytest.raises(ValueError, match=r"d_model \(n_heads × head_dim\) must be even"):
        make("sinusoidal", n_heads=3, head_dim=3)


def test_bad_frequencies():
    scheme = make("rope", 2, 8)
    with pytest.raises(ValueError, match=r"inv_freq must be .* \(4,\), got shape \(8,\)"):
        scheme.set_frequencies(torch.ones(8, dtype=torch.float64))
    with pytest.raises(TypeError, match="inv_freq must be"):
        scheme.set_frequencies([1.0, 0.1, 0.01, 0.001])
    with pytest.raises(ValueError, match="non-finite"):
        scheme.set_frequencies(torch.tensor([1.0, float("nan"), 0.1, 0.1]))
    with pytest.raises(ValueError, match="attention_scale must be a finite number > 0"):
        scheme.set_frequencies(torch.ones(4), attention_scale=0.0)


def test_bad_positions():
    scheme = make("sinusoidal")
    with pytest.raises(ValueError, match=r"positions must have shape \(length,\) = \(5,\) or \(batch, length\)"):
        scheme.embed(torch.zeros(2, 5, 32), torch.arange(4))
    with pytest.raises(TypeError, match="positions must be an integer tensor"):
        scheme.embed(torch.zeros(2, 5, 32), torch.arange(5.0))
    with pytest.raises(ValueError, match="positions must be an integer tensor of values ≥ 0"):
        make("rope").rotate(torch.zeros(1, 4, 3, 8), torch.zeros(1, 4, 3, 8), torch.tensor([-1, 0, 1]))
    with pytest.raises(TypeError, match="q_positions must be an integer tensor"):
        make("alibi").bias(torch.arange(3.0), torch.arange(3))
    with pytest.raises(TypeError, match="offsets must be an integer tensor"):
        H.shaw_clip(torch.tensor([0.5]), 2)
    with pytest.raises(ValueError, match="max_offset must be an integer ≥ 0"):
        H.shaw_clip(torch.tensor([1]), -2)
