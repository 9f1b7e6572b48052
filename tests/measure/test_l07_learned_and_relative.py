"""Lesson 07's measurements (helpers.measure.l07_learned_and_relative): similarity of table rows,
the offset test for score biases, T5's and ALiBi's views, what a scheme stores, the map of
schemes and a short training run, against values worked by hand and independent
implementations (PyTorch's cosine similarity, Hugging Face's BERT and Llama). ALiBi in BLOOM's
form and T5's bucket ranges are core functions of helpers.relative, tested in test_relative.py."""

import dataclasses
import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

import helpers as H
from helpers.measure import l07_learned_and_relative as A

# --- similarity of rows ----------------------------------------------------------------------


def test_cosine_similarity_by_hand_and_against_torch():
    table = torch.tensor([[1.0, 0.0], [1.0, 1.0], [0.0, -2.0], [0.0, 0.0]])
    s = A.cosine_similarity(table)
    r = 1 / math.sqrt(2)
    assert torch.allclose(s[:3, :3], torch.tensor([[1, r, 0], [r, 1, -r], [0, -r, 1]], dtype=torch.float64))
    assert s[3].tolist() == [0.0] * 4  # a zero row is similar to nothing
    x = torch.randn(20, 7, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    want = F.cosine_similarity(x[:, None, :], x[None, :, :], dim=-1)
    assert torch.allclose(A.cosine_similarity(x), want, atol=1e-12)


def test_similarity_by_offset_by_hand():
    alternating = torch.tensor([[1.0, 0.0], [0.0, 1.0]] * 3)
    assert A.similarity_by_offset(alternating, 3).tolist() == pytest.approx([1, 0, 1, 0])
    # the sinusoidal code has norm √(d/2) and PE(p)·PE(p+k) = Σ_i cos(k·ω_i): similarity (2/d)·Σ_i cos(k·ω_i)
    profile = A.similarity_by_offset(H.sinusoidal(64, 32), 8)
    omega = [10000 ** (-2 * i / 32) for i in range(16)]
    assert profile.tolist() == pytest.approx([sum(math.cos(k * w) for w in omega) / 16 for k in range(9)], abs=1e-6)


def test_similarity_by_offset_rejects_bad_input():
    with pytest.raises(ValueError, match="max_offset must be at most rows − 1 = 3"):
        A.similarity_by_offset(torch.zeros(4, 2), 4)
    with pytest.raises(ValueError, match="table must be a 2-D tensor"):
        A.similarity_by_offset(torch.zeros(4), 1)
    with pytest.raises(ValueError, match="finite"):
        A.cosine_similarity(torch.tensor([[math.nan, 1.0]]))


# --- what makes a bias relative --------------------------------------------------------------


def test_offset_spread_by_hand():
    assert A.offset_spread(torch.tensor([[0.0, 1.0], [2.0, 3.0]])) == 3.0  # main diagonal 0 vs 3
    assert A.offset_spread(torch.tensor([[5.0, 1.0], [2.0, 5.0]])) == 0.0
    c = torch.randn(15, dtype=torch.float64)
    i = torch.arange(8)
    toeplitz = c[(i[None, :] - i[:, None]) + 7]  # entry [i, j] = c[j − i + 7]
    assert A.offset_spread(torch.stack([toeplitz, 2 * toeplitz])) == 0.0
    toeplitz[3, 5] += 0.25
    assert A.offset_spread(toeplitz) == pytest.approx(0.25)


@pytest.mark.parametrize("name", ["alibi", "t5", "shaw"])
def test_every_score_bias_depends_on_the_offset_only(name):
    s = H.scheme(name, n_heads=3, head_dim=4, max_len=64)
    with torch.no_grad():
        for p in s.parameters():  # tables start at zero, which would pass trivially
            p.copy_(torch.randn(p.shape, generator=torch.Generator().manual_seed(1)))
    pos = torch.arange(40)
    assert A.offset_spread(s.bias(pos, pos)) < 1e-6
    assert torch.equal(s.bias(pos + 17, pos + 17), s.bias(pos, pos))


def test_a_learned_table_is_not_relative():
    table = torch.randn(30, 16, generator=torch.Generator().manual_seed(2))
    assert A.offset_spread(table @ table.T) > 1.0


def test_offset_spread_rejects_bad_input():
    with pytest.raises(ValueError, match=r"bias must be a tensor of shape \(..., L, L\)"):
        A.offset_spread(torch.zeros(3, 4))
    with pytest.raises(ValueError, match="leave the causal mask out"):
        A.offset_spread(torch.tensor([[0.0, -math.inf], [0.0, 0.0]]))


# --- T5's buckets ----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(num_buckets=st.sampled_from([4, 8, 16, 32, 64]), extra=st.integers(1, 300), bidirectional=st.booleans())
def test_t5_bucket_starts_follow_the_geometric_edges(num_buckets, extra, bidirectional):
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    exact = per_direction // 2
    max_distance = exact + extra
    v = A.t5_bucket_view(num_buckets, max_distance, bidirectional, span=max_distance + 5)
    for b in range(per_direction):
        if b < exact:
            assert v.starts[b] == b
            continue
        # by hand: bucket b begins at exact·(max/exact)^((b − exact)/(n − exact)), rounded up
        edge = exact * (max_distance / exact) ** ((b - exact) / (per_direction - exact))
        assert v.edges[b].item() == pytest.approx(edge)
        first = math.ceil(edge - 1e-9)
        nxt = exact * (max_distance / exact) ** ((b + 1 - exact) / (per_direction - exact))
        if first < nxt - 1e-9:
            assert v.starts[b] == first
        elif first > nxt + 1e-9:
            assert math.isnan(v.starts[b])
    assert int(v.widths.sum()) == v.offsets.numel()


def test_t5_view_rejects_settings_t5_rejects():
    with pytest.raises(ValueError, match="max_distance must be greater than num_buckets // 2 = 16"):
        A.t5_bucket_view(32, 16)
    with pytest.raises(ValueError, match="span must be ≥ max_distance = 128"):
        A.t5_bucket_view(32, 128, span=100)
    with pytest.raises(TypeError, match="bidirectional must be True or False"):
        A.t5_bucket_view(32, 128, bidirectional="yes")


# --- ALiBi's heads ---------------------------------------------------------------------------


def test_alibi_view_by_hand():
    v = A.alibi_view(n_heads=2, length=4, head=1)  # slopes 2^-4, 2^-8
    assert v.slopes.tolist() == [2.0**-4, 2.0**-8] and v.power_of_two
    m = 2.0**-4
    assert v.bias[3].tolist() == pytest.approx([-3 * m, -2 * m, -m, 0.0])
    assert math.isnan(v.bias[0, 1]) and not torch.isnan(v.bias.tril()).any()
    e = [math.exp(-m * d) for d in (3, 2, 1, 0)]
    assert v.weights.tolist() == pytest.approx([x / sum(e) for x in e])
    assert v.half_distance == pytest.approx(math.log(2) * 16)
    assert not A.alibi_view(12, 8, 9).power_of_two
    assert A.alibi_view(12, 8, 9).bias[1, 0].item() == pytest.approx(-(2.0**-0.5))  # head 9: 2^-0.5


def test_alibi_view_rejects_a_head_that_does_not_exist():
    with pytest.raises(ValueError, match="head must be an integer from 1 to n_heads = 8, got 9"):
        A.alibi_view(8, 16, 9)
    with pytest.raises(ValueError, match="head must be an integer ≥ 1"):
        A.alibi_view(8, 16, 0)


# --- what is stored, what is built per forward pass -------------------------------------------


def test_bias_memory_counts_the_tensors_the_schemes_make():
    heads, length = 4, 24
    counts = A.bias_memory(heads, length, num_buckets=32)
    t5 = H.scheme("t5", n_heads=heads, head_dim=8)
    alibi = H.scheme("alibi", n_heads=heads, head_dim=8)
    pos = torch.arange(length)
    assert counts.t5_stored == sum(p.numel() for p in t5.parameters()) == 128
    assert counts.alibi_stored == alibi.slopes.numel() and list(alibi.parameters()) == []
    assert counts.full_bias == t5.bias(pos, pos).numel() == alibi.bias(pos, pos).numel() == heads * length**2
    assert counts.key_bias == H.alibi_key_bias(heads, length).numel() == heads * length
    assert not hasattr(counts, "scores")  # a fused kernel forms no score matrix to compare with


def test_position_storage_finds_tables_and_frequencies():
    class Toy(nn.Module):
        def __init__(self):
            super().__init__()
            self.tokens = nn.Embedding(10, 4)
            self.positions = nn.Embedding(6, 4)
            self.positions.weight.requires_grad_(False)
            self.rotary = nn.Module()
            self.rotary.register_buffer("inv_freq", torch.ones(2))

    tables, freqs = A.position_storage(Toy())
    assert tables == [A.StoredTable("tokens", 10, 4, True), A.StoredTable("positions", 6, 4, False)]
    assert freqs == [A.StoredFrequencies("rotary.inv_freq", 2)]
    with pytest.raises(TypeError, match="model must be a torch.nn.Module"):
        A.position_storage("bert")


def test_position_storage_of_bert_and_llama():
    from transformers import BertConfig, BertModel, LlamaConfig, LlamaModel

    bert = BertModel(BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                intermediate_size=32, max_position_embeddings=40))
    tables, freqs = A.position_storage(bert)
    assert A.StoredTable("embeddings.position_embeddings", 40, 16, True) in tables and freqs == []
    llama = LlamaModel(LlamaConfig(vocab_size=50, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                   num_attention_heads=2, num_key_value_heads=2))
    tables, freqs = A.position_storage(llama)
    assert [t.rows for t in tables] == [50] and [f.size for f in freqs if f.name == "rotary_emb.inv_freq"] == [4]


# --- the map of every scheme -----------------------------------------------------------------


def test_scheme_map_by_hand():
    entries = {e.name: e for e in A.scheme_map(n_heads=8, head_dim=64, max_len=1024)}
    assert list(entries) == list(H.SCHEMES)
    assert all(e.hook == e.enters for e in entries.values())
    expected = {"none": 0, "sinusoidal": 0, "learned": 1024 * 512, "rope": 0, "alibi": 0, "t5": 32 * 8,
                "shaw": 8 * (2 * 16 + 1)}
    assert {n: e.parameters for n, e in entries.items()} == expected
    assert {n for n, e in entries.items() if e.relative} == {"rope", "alibi", "t5", "shaw"}
    assert {n for n, e in entries.items() if e.learned} == {"learned", "t5", "shaw"}
    assert entries["rope"].hook == "rotates q, k" and entries["none"].hook == "nothing"
    assert {n: e.position for n, e in entries.items()} == {
        "none": "none", "sinusoidal": "absolute", "learned": "absolute", "rope": "relative", "alibi": "relative",
        "t5": "relative", "shaw": "relative"}


def test_position_kind_decides_from_the_scores():
    from helpers.position_scheme import PositionScheme

    class Absolute(PositionScheme):  # a bias that depends on the key's own position: absolute
        def bias(self, q_positions, k_positions):
            return k_positions.double()[None, None, :].expand(self.n_heads, len(q_positions), -1)

    class Squared(PositionScheme):  # depends on (i − j)²: relative
        def bias(self, q_positions, k_positions):
            return (q_positions[:, None] - k_positions[None, :]).double().pow(2)[None].expand(self.n_heads, -1, -1)

    assert A.position_kind(Absolute(2, 4)) == "absolute"
    assert A.position_kind(Squared(2, 4)) == "relative"
    assert A.position_kind(PositionScheme(2, 4)) == "none"
    # T5 and Shaw start at zero (no position signal); the probe fills their tables first
    assert A.position_kind(H.scheme("t5", n_heads=2, head_dim=4)) == "relative"
    with pytest.raises(TypeError, match="position_scheme must be a helpers scheme"):
        A.position_kind("rope")


def test_scheme_scores_match_the_attention_block():
    torch.manual_seed(1)
    block, length = H.CausalSelfAttention(d_model=8, n_heads=2), 6
    x, pos = torch.randn(1, length, 8), torch.arange(length)
    w_q, w_k, _ = block.qkv.weight.detach().T.split(8, dim=1)
    future = torch.ones(length, length, dtype=torch.bool).triu(1)
    for name in ("learned", "rope", "alibi"):
        s = H.scheme(name, n_heads=2, head_dim=4, max_len=length)
        with torch.no_grad():
            _, weights = block(s.embed(x, pos), s, pos, mask=s.attention_mask(None, length, x.dtype, x.device),
                               return_weights=True)
            mine = A.scheme_scores(s, x, w_q, w_k, pos).masked_fill(future, float("-inf")).softmax(-1)
        assert torch.allclose(mine, weights[0], atol=1e-6)


# --- a short training run --------------------------------------------------------------------


def test_train_position_table_leaves_unreached_rows_untouched():
    run = A.train_position_table("learned", length=8, max_len=12, steps=4, seed=3, d_model=16, eval_batches=1,
                                 progress=False)
    change = run.row_change()
    assert change.shape == (12,) and (change[:8] > 0).all() and (change[8:] == 0).all()
    assert torch.equal(run.table[8:], run.initial[8:])
    assert run.loss.shape == run.floor.shape == run.entropy.shape == (12,)
    assert ((run.entropy >= 0) & (run.entropy <= math.log(16) + 1e-9)).all()
    assert torch.allclose(run.floor, H.LetterDigitCopy().floor_by_position(12))
    assert run.excess(0, 12) == pytest.approx(float((run.loss - run.floor).mean()))
    with pytest.raises(IndexError, match="max_len = 12"):
        run.model(torch.zeros(1, 13, dtype=torch.long))


def test_train_position_table_is_seeded_and_a_fixed_table_does_not_move():
    kwargs = {"length": 6, "max_len": 6, "steps": 2, "d_model": 16, "eval_batches": 1, "progress": False}
    a, b = A.train_position_table(seed=5, **kwargs), A.train_position_table(seed=5, **kwargs)
    assert torch.equal(a.initial, b.initial) and torch.equal(a.loss, b.loss)
    fixed = A.train_position_table("sinusoidal", seed=5, **kwargs)
    assert torch.equal(fixed.update, torch.zeros(6, 16))
    assert torch.allclose(fixed.table, H.sinusoidal(6, 16))


def test_train_position_table_rejects_bad_input():
    with pytest.raises(ValueError, match="scheme_name must be one of 'learned', 'sinusoidal'"):
        A.train_position_table("rope", progress=False)
    with pytest.raises(ValueError, match="max_len must be ≥ length = 32"):
        A.train_position_table(length=32, max_len=16, progress=False)
    with pytest.raises(TypeError, match="task must be a helpers.Task"):
        A.train_position_table(task="copy", progress=False)


def test_entropy_by_position_of_a_uniform_model_is_ln_vocab():
    class Uniform(nn.Module):
        def forward(self, tokens):
            return torch.zeros(*tokens.shape, 16)

    entropy = A.entropy_by_position(Uniform(), H.LetterDigitCopy(), length=5, batches=1)
    assert torch.allclose(entropy, torch.full((5,), math.log(16), dtype=torch.float64))


def test_table_claims_hold_and_fail_where_they_should():
    run = A.train_position_table("learned", length=8, max_len=12, steps=4, seed=3, d_model=16, eval_batches=1,
                                 progress=False)
    claims = A.table_claims(run)
    assert len(claims) == 7 and all(isinstance(c.holds, bool) for c in claims)
    assert claims[4].holds  # rows past the training length untouched, however short the run
    assert not claims[0].holds  # 4 steps are far from the floor
    # a run whose predictions past the length are uniform (entropy ln 16) fails the confidence claim
    uniform = dataclasses.replace(run, entropy=torch.full((12,), math.log(16), dtype=torch.float64))
    assert not A.table_claims(uniform)[6].holds
    confident = dataclasses.replace(run, entropy=torch.zeros(12, dtype=torch.float64),
                                    loss=torch.full((12,), 5.0, dtype=torch.float64))
    assert A.table_claims(confident)[5].holds and A.table_claims(confident)[6].holds
    with pytest.raises(TypeError, match="run must be a TableRun"):
        A.table_claims("run")
