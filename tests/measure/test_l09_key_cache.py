"""Lesson 09's dynamic NTK read as a decoder reads it (helpers.measure.l09_stretching_rope:
dynamic_step_frequencies, cached_generation_logits, dynamic_cache_losses), against a literal
decoder that runs one token at a time and keeps a key cache, built here from the model's layers and
``helpers.rope``; and what transformers' rotary embeddings do to their frequencies as a sequence grows."""

import math

import pytest
import torch
import torch.nn.functional as F

import helpers as H
from helpers.measure import l09_stretching_rope as S

L = 4  # the "training length" of the tiny models below
FACTOR = 4.0


def tiny_model(layout="interleaved", seed=0, dtype=torch.float64):
    torch.manual_seed(seed)
    model = H.TinyLM(13, "rope", d_model=16, n_heads=2, n_layers=2, layout=layout).to(dtype)
    with torch.no_grad():  # larger q, k weights than the initialisation: scores that depend on the angles
        for block in model.blocks:
            block.attention.qkv.weight.mul_(3.0)
    return model.eval()


def tokens(batch=3, n=14, seed=1):
    return torch.randint(0, 13, (batch, n), generator=torch.Generator().manual_seed(seed))


def step_frequencies_by_hand(model, n, prompt_len):
    """ω in use at each step: the prompt (read at once) at length c, then token p at length p + 1."""
    d, base = model.scheme.head_dim, model.scheme.base
    return [H.scaled_frequencies(d, base, "dynamic", FACTOR, L, seq_len=max(prompt_len, p + 1))[0] for p in range(n)]


@torch.no_grad()
def step_by_step(model, ids, freqs_by_step, cache):
    """A literal decoder: one token per step, each layer's keys and values appended to its cache,
    keys stored after their rotation ("rotated") or before it and rotated again at every step with
    that step's frequencies ("unrotated"); the query always uses the frequencies of its own step."""
    batch, n = ids.shape
    layout = model.scheme.layout
    stored = [{"k": [], "v": []} for _ in model.blocks]
    logits = []
    for t in range(n):
        freqs, here = freqs_by_step[t], torch.tensor([t])
        h = model.token_embedding(ids[:, t:t + 1])
        for block, cache_of_layer in zip(model.blocks, stored, strict=True):
            attention = block.attention
            q, k, v = attention.qkv(block.norm1(h)).view(batch, 1, 3, attention.n_heads,
                                                         attention.head_dim).permute(2, 0, 3, 1, 4)
            q = H.rope(q, here, layout=layout, freqs=freqs)
            if cache == "rotated":
                cache_of_layer["k"].append(H.rope(k, here, layout=layout, freqs=freqs))
                keys = torch.cat(cache_of_layer["k"], dim=2)
            else:
                cache_of_layer["k"].append(k)
                keys = H.rope(torch.cat(cache_of_layer["k"], dim=2), torch.arange(t + 1), layout=layout, freqs=freqs)
            cache_of_layer["v"].append(v)
            weights = (q @ keys.transpose(-2, -1) / math.sqrt(attention.head_dim)).softmax(-1)
            y = weights @ torch.cat(cache_of_layer["v"], dim=2)
            h = h + attention.out(y.transpose(1, 2).reshape(batch, 1, attention.d_model))
            h = h + block.mlp(block.norm2(h))
        logits.append(model.head(model.norm(h)))
    return torch.cat(logits, dim=1)


# --- the step frequencies --------------------------------------------------------------------------


def test_step_frequencies_follow_the_length_so_far():
    model = tiny_model()
    for prompt_len in (1, 3, L, 6):
        rows = S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, 11, prompt_len)
        assert rows.shape == (11, 4) and rows.dtype == torch.float64
        for p, expected in enumerate(step_frequencies_by_hand(model, 11, prompt_len)):
            assert torch.equal(rows[p], expected), (prompt_len, p)
    trained = H.frequencies(8, 10000.0, torch.float64)
    rows = S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, 11)
    assert all(torch.equal(rows[p], trained) for p in range(L))  # up to L: the trained frequencies
    assert not torch.equal(rows[L], trained) and not torch.equal(rows[L], rows[L + 1])  # then every step moves
    # the effective factor at length p + 1 is 4·(p + 1)/L − 3: the slowest pair divided by it
    assert (trained[-1] / rows[10, -1]).item() == pytest.approx(4 * 11 / L - 3)
    # every prompt of at most L gives the same rows; the default prompt is L (or the whole input if shorter)
    assert torch.equal(S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, 11, 1), rows)
    assert torch.equal(S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, 3), rows[:3])


# --- the emulated decoder against the literal one ---------------------------------------------------


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("cache", S.CACHES)
@pytest.mark.parametrize("prompt_len", [1, L, 7])
def test_emulated_decoder_equals_a_literal_step_by_step_decoder(layout, cache, prompt_len):
    model, ids = tiny_model(layout), tokens()
    steps = S.dynamic_step_frequencies(model.scheme.head_dim, model.scheme.base, FACTOR, L, ids.shape[1], prompt_len)
    fast = S.cached_generation_logits(model, ids, steps, cache)
    slow = step_by_step(model, ids, step_frequencies_by_hand(model, ids.shape[1], prompt_len), cache)
    assert fast.shape == (3, 14, 13) and fast.dtype == torch.float64
    torch.testing.assert_close(fast, slow, rtol=0, atol=1e-10)


def test_emulated_decoder_in_float32():
    model, ids = tiny_model(dtype=torch.float32), tokens()
    steps = S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, ids.shape[1])
    for cache in S.CACHES:
        fast = S.cached_generation_logits(model, ids, steps, cache)
        assert fast.dtype == torch.float32
        reference = step_by_step(model.double(), ids, [f for f in steps], cache)
        model.float()
        torch.testing.assert_close(fast.double(), reference, rtol=0, atol=1e-4)


def test_the_two_caches_differ_only_once_the_frequencies_have_moved():
    model, ids = tiny_model(), tokens()
    steps = S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, ids.shape[1])
    rotated, unrotated = (S.cached_generation_logits(model, ids, steps, cache) for cache in S.CACHES)
    torch.testing.assert_close(rotated[:, :L], unrotated[:, :L], rtol=0, atol=1e-12)
    # from position L on the frequencies have moved, and the keys cached before L keep the trained ones
    # in the rotated cache only
    assert (rotated[:, L:] - unrotated[:, L:]).abs().amax(-1).min() > 1e-6


def test_equal_rows_are_one_forward_pass_with_those_frequencies():
    model, ids = tiny_model(), tokens()
    n = ids.shape[1]
    saved = model.scheme.inv_freq.clone()
    stretched = H.scaled_frequencies(8, 10000.0, "dynamic", FACTOR, L, seq_len=n)[0]
    for cache in S.CACHES:
        plain = S.cached_generation_logits(model, ids, saved.expand(n, -1), cache)
        torch.testing.assert_close(plain, model(ids), rtol=0, atol=1e-10)
        whole = S.cached_generation_logits(model, ids, stretched.expand(n, -1), cache)
        H.apply_stretch(model, "dynamic", FACTOR, L, seq_len=n)
        torch.testing.assert_close(whole, model(ids), rtol=0, atol=1e-10)
        model.scheme.set_frequencies(saved)
    assert torch.equal(model.scheme.inv_freq, saved)


# --- the losses -----------------------------------------------------------------------------------


def test_losses_by_position_four_ways():
    model, ids = tiny_model(), tokens(n=15)
    inputs, targets = ids[:, :-1], ids[:, 1:]
    saved = model.scheme.inv_freq.clone()
    losses = S.dynamic_cache_losses(model, inputs, targets, factor=FACTOR, original_max_len=L)
    assert torch.equal(model.scheme.inv_freq, saved)
    for name in S.WAYS:
        curve = getattr(losses, name)
        assert curve.shape == (14,) and curve.dtype == torch.float64, name

    def loss_of(logits):
        return F.cross_entropy(logits.float().transpose(1, 2), targets, reduction="none").double().mean(0)

    steps = S.dynamic_step_frequencies(8, 10000.0, FACTOR, L, 14)
    torch.testing.assert_close(losses.rotated, loss_of(step_by_step(model, inputs, list(steps), "rotated")))
    torch.testing.assert_close(losses.unrotated, loss_of(step_by_step(model, inputs, list(steps), "unrotated")))
    torch.testing.assert_close(losses.plain, loss_of(model(inputs)))
    H.apply_stretch(model, "dynamic", FACTOR, L, seq_len=14)
    torch.testing.assert_close(losses.whole, loss_of(model(inputs)))
    # within L the two caches and plain RoPE read the same thing; one pass over the whole input does not
    assert torch.allclose(losses.rotated[:L], losses.unrotated[:L], rtol=0, atol=1e-12)
    assert torch.allclose(losses.rotated[:L], losses.plain[:L])
    assert not torch.allclose(losses.whole[:L], losses.plain[:L])
    assert not torch.allclose(losses.rotated[L:], losses.unrotated[L:])
    only = S.dynamic_cache_losses(model, inputs, targets, factor=FACTOR, original_max_len=L, ways=("rotated",))
    assert only.whole is None and only.unrotated is None and torch.equal(only.rotated, losses.rotated)


@pytest.mark.parametrize("call, match", [
    (lambda m, x: S.cached_generation_logits(m, x, torch.zeros(14, 3)), "step_freqs must have shape"),
    (lambda m, x: S.cached_generation_logits(m, x.float(), torch.zeros(14, 4)), "tokens must be an integer"),
    (lambda m, x: S.cached_generation_logits(m, x, torch.zeros(14, 4), cache="fresh"), "cache must be one of"),
    (lambda m, x: S.dynamic_cache_losses(m, x, x[:, 1:], factor=4.0, original_max_len=L), "same shape"),
    (lambda m, x: S.dynamic_cache_losses(m, x, x, factor=4.0, original_max_len=L, ways=("cached",)),
     "way must be one of"),
    (lambda m, x: S.dynamic_step_frequencies(8, 1e4, 4.0, L, 5, prompt_len=6), "prompt_len must be at most"),
])
def test_bad_input_gets_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call(tiny_model(), tokens())


def test_a_model_without_rope_is_refused():
    model = H.TinyLM(13, "alibi", d_model=16, n_heads=2, n_layers=1)
    with pytest.raises(TypeError, match="rope scheme"):
        S.cached_generation_logits(model, tokens(), torch.zeros(14, 4))


# --- what transformers does as the sequence grows (lesson 09's guide) ---------------------------


def test_transformers_moves_dynamic_ntk_at_every_step_and_switches_longrope_once():
    from transformers import LlamaConfig, Phi3Config
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

    x = torch.zeros(1, 1, 16)

    def frequencies_at(embedding, positions):
        seen = []
        for p in positions:
            embedding(x, torch.tensor([[p]]))
            seen.append(embedding.inv_freq.clone())
        return seen

    dynamic = LlamaRotaryEmbedding(LlamaConfig(hidden_size=64, num_attention_heads=4, max_position_embeddings=16,
                                               rope_parameters={"rope_type": "dynamic", "rope_theta": 1e4,
                                                                "factor": 4.0}))
    seen = frequencies_at(dynamic, [14, 15, 16, 17])  # lengths 15, 16 (= L), 17, 18
    assert torch.equal(seen[0], seen[1]) and not torch.equal(seen[1], seen[2]) and not torch.equal(seen[2], seen[3])
    torch.testing.assert_close(seen[3].double(), H.scaled_frequencies(16, 1e4, "dynamic", 4.0, 16, seq_len=18)[0],
                               rtol=1e-6, atol=0)
    longrope = Phi3RotaryEmbedding(Phi3Config(
        hidden_size=64, num_attention_heads=4, max_position_embeddings=64, original_max_position_embeddings=16,
        rope_parameters={"rope_type": "longrope", "rope_theta": 1e4, "short_factor": [1.0] * 8,
                         "long_factor": [4.0] * 8}))
    seen = frequencies_at(longrope, [14, 15, 16, 17, 40])
    assert torch.equal(seen[0], seen[1]) and torch.equal(seen[2], seen[3]) and torch.equal(seen[3], seen[4])
    torch.testing.assert_close(seen[1] / seen[2], torch.full((8,), 4.0))  # past 16 tokens: the long factors
    static = LlamaRotaryEmbedding(LlamaConfig(hidden_size=64, num_attention_heads=4, max_position_embeddings=64,
                                              rope_parameters={"rope_type": "yarn", "rope_theta": 1e4, "factor": 4.0,
                                                               "original_max_position_embeddings": 16}))
    seen = frequencies_at(static, [3, 15, 16, 40])
    assert all(torch.equal(seen[0], f) for f in seen)  # a static rope type: one set at every length
