"""ALiBi slopes and bias (and BLOOM's stored form), T5 buckets and the offsets each covers, the
learned table: hand-derived values, and BLOOM's and Hugging Face's code as oracles."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers as H


def test_alibi_slopes_power_of_two_by_hand():
    # 8 heads: 2^-1, 2^-2, …, 2^-8 (Press et al., section 3).
    assert H.alibi_slopes(8).tolist() == [2.0**-i for i in range(1, 9)]
    # 4 heads: ratio 2^-2.
    assert H.alibi_slopes(4).tolist() == [0.25, 0.0625, 2.0**-6, 2.0**-8]


def test_alibi_slopes_not_power_of_two_by_hand():
    # 6 heads: the 4-head slopes, then slopes 1 and 3 of the 8-head sequence (2^-0.5·2, …).
    expected = [0.25, 0.0625, 2.0**-6, 2.0**-8, 2.0**-1, 2.0**-3]
    assert torch.allclose(H.alibi_slopes(6), torch.tensor(expected))
    assert H.alibi_slopes(1).tolist() == [2.0**-8]


def test_alibi_bias_by_hand():
    b = H.alibi_bias(2, 3)
    assert b.shape == (2, 3, 3)
    assert torch.allclose(b[0], -0.0625 * torch.tensor([[0.0, 1, 2], [1, 0, 1], [2, 1, 0]]))
    assert torch.allclose(b[1], 2.0**-8 * -torch.tensor([[0.0, 1, 2], [1, 0, 1], [2, 1, 0]]))


def test_t5_bucket_by_hand():
    # bidirectional, 32 buckets: 16 per direction, 8 exact. Keys before the query (negative
    # relative position) use buckets 0–15; keys after, 16–31.
    rel = torch.tensor([0, -1, -7, 1, 7, -8, 8])
    assert H.t5_bucket(rel).tolist() == [0, 1, 7, 17, 23, 8, 24]
    # Far away: everything beyond max_distance shares the last bucket of its side.
    assert H.t5_bucket(torch.tensor([-128, -1000, 128, 1000])).tolist() == [15, 15, 31, 31]
    # Unidirectional: future keys all land in bucket 0.
    assert H.t5_bucket(torch.tensor([5, 0, -3]), bidirectional=False).tolist() == [0, 0, 3]


def test_t5_bucket_edges_by_hand():
    # Keys before the query, 16 buckets: distances 0–7 get a bucket each; the other 8 buckets
    # split 8 … 128 evenly on a log scale, so bucket 8 + j starts at 8·2^(j/2), rounded up:
    # 8, 11.3, 16, 22.6, 32, 45.3, 64, 90.5 → 8, 12, 16, 23, 32, 46, 64, 91; from 128 on, bucket 15.
    first = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91]
    expected = [max(b for b, start in enumerate(first) if start <= d) for d in range(300)]
    assert H.t5_bucket(-torch.arange(0, 300)).tolist() == expected


def test_learned_table_rows():
    torch.manual_seed(0)
    table = H.LearnedPositionalEmbedding(10, 3)
    assert torch.equal(table(torch.tensor([2, 5])), table.table.weight[[2, 5]])
    assert table(4).shape == (4, 3)


@pytest.mark.oracle
@pytest.mark.parametrize("n_heads", [3, 8, 12])
def test_alibi_key_bias_is_bloom_and_softmax_cannot_tell_it_from_alibi(n_heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    length = 13
    bloom = build_alibi_tensor(torch.ones(1, length), n_heads, torch.float32)
    ours = H.alibi_key_bias(n_heads, length)
    assert ours.shape == (n_heads, 1, length)
    assert torch.allclose(ours, bloom, atol=1e-6)
    scores = torch.randn(n_heads, length, length, generator=torch.Generator().manual_seed(3))
    future = torch.ones(length, length, dtype=torch.bool).triu(1)
    causal = torch.softmax((scores + H.alibi_bias(n_heads, length)).masked_fill(future, -math.inf), -1)
    shifted = torch.softmax((scores + ours).masked_fill(future, -math.inf), -1)
    assert torch.allclose(causal, shifted, atol=1e-6)
    # without the causal mask |i − j| is not i − j: the trick needs the mask
    assert not torch.allclose(torch.softmax(scores + H.alibi_bias(n_heads, length), -1),
                              torch.softmax(scores + ours, -1), atol=1e-3)


# --- which offsets each T5 bucket covers -------------------------------------------------------


def hf_bucket(relative, bidirectional, num_buckets, max_distance):
    from transformers.models.t5.modeling_t5 import T5Attention

    return T5Attention._relative_position_bucket(relative, bidirectional=bidirectional, num_buckets=num_buckets,
                                                 max_distance=max_distance)


def test_t5_bucket_ranges_by_hand():
    ranges = H.t5_bucket_ranges(32, 128, bidirectional=False, span=300)
    assert [r.bucket for r in ranges] == list(range(32))
    assert all(r.first == r.last == -r.bucket for r in ranges[:16])  # one distance each
    # bucket 16 starts at 16, bucket 17 at the first distance ≥ 16·8^(1/16) = 18.2
    assert (ranges[16].first, ranges[16].last, ranges[17].last) == (-18, -16, -19)
    # the last bucket starts at the first distance ≥ 16·8^(15/16) = 112.4 and never ends
    assert ranges[-1] == H.BucketRange(31, -300, -113, True)
    assert not any(r.open_ended for r in ranges[:-1])


def test_t5_bidirectional_leaves_the_first_bucket_after_the_query_unused():
    ranges = H.t5_bucket_ranges(32, 128, bidirectional=True, span=200)
    buckets = [r.bucket for r in ranges]
    assert 16 not in buckets and buckets == list(range(16)) + list(range(17, 32))
    after = {r.bucket: r for r in ranges}
    assert (after[17].first, after[17].last) == (1, 1) and after[31].last == 200 and after[31].open_ended
    assert after[15].first == -200 and after[15].open_ended


@pytest.mark.oracle
@settings(max_examples=30, deadline=None)
@given(num_buckets=st.integers(2, 40), extra=st.integers(1, 200), bidirectional=st.booleans())
def test_t5_bucket_ranges_cover_hugging_faces_buckets(num_buckets, extra, bidirectional):
    num_buckets = max(num_buckets, 4) if bidirectional else num_buckets
    max_distance = num_buckets // (4 if bidirectional else 2) + extra
    span = max_distance + 10
    offsets = torch.arange(-span, span + 1) if bidirectional else torch.arange(-span, 1)
    hf = hf_bucket(offsets, bidirectional, num_buckets, max_distance)
    for r in H.t5_bucket_ranges(num_buckets, max_distance, bidirectional, span):
        inside = (offsets >= r.first) & (offsets <= r.last)
        assert (hf[inside] == r.bucket).all() and (hf[~inside] != r.bucket).all()


def test_t5_offset_buckets_refuse_settings_t5_cannot_use():
    with pytest.raises(ValueError, match="span must be ≥ max_distance = 128"):
        H.t5_bucket_ranges(32, 128, span=100)
    with pytest.raises(ValueError, match="max_distance must be greater than num_buckets // 4 = 8"):
        H.t5_offset_buckets(32, 8, bidirectional=True)
    with pytest.raises(TypeError, match="bidirectional must be True or False"):
        H.t5_offset_buckets(32, 128, bidirectional=1)
