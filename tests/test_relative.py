"""ALiBi slopes and bias, T5 buckets, the learned table: hand-derived values."""

import torch

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
