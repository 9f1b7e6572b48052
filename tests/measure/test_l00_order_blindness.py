"""Lesson 00's measurements: attention over reordered tokens, with a position signal per slot."""

import itertools

import pytest
import torch
import torch.nn.functional as F

import helpers as H


@pytest.fixture
def setup():
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    x = torch.randn(4, 8)
    position = torch.randn(4, 8)
    return mha, x, position


def reference(mha, seq):
    """Multi-head attention written out from the module's weights (one sequence, (L, d))."""
    d, heads = mha.embed_dim, mha.num_heads
    q, k, v = F.linear(seq, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1)
    split = [t.reshape(len(seq), heads, d // heads).transpose(0, 1) for t in (q, k, v)]
    weights = (split[0] @ split[1].transpose(1, 2) / (d // heads) ** 0.5).softmax(-1)
    out = (weights @ split[2]).transpose(0, 1).reshape(len(seq), d)
    return F.linear(out, mha.out_proj.weight, mha.out_proj.bias), weights.mean(0)


def test_reorder_and_attend_matches_attention_written_out(setup):
    mha, x, position = setup
    order = [2, 0, 3, 1]
    got = H.reorder_and_attend(mha, x, order, position)
    out, weights = reference(mha, x[order] + position)  # the signal stays with the slots
    assert torch.allclose(got.output, out, atol=1e-5) and torch.allclose(got.weights, weights, atol=1e-6)
    assert torch.allclose(got.pooled, out.mean(0), atol=1e-5)
    output, _, pooled = got  # still a tuple
    assert torch.equal(output, got.output) and torch.equal(pooled, got.pooled)


def test_without_positions_reordering_moves_nothing_pooled(setup):
    mha, x, position = setup
    snaps = [H.order_snapshot(mha, x, o, position) for o in itertools.permutations(range(4))]
    assert max(s.moved_plain for s in snaps) < 1e-5
    assert max(s.moved_with_position for s in snaps) > 1e-2
    identity = snaps[0]
    assert identity.moved_plain == identity.moved_with_position == 0.0


def test_order_snapshot_maps_are_reorderings(setup):
    mha, x, position = setup
    order = [3, 1, 0, 2]
    snap = H.order_snapshot(mha, x, order, position)
    plain = H.reorder_and_attend(mha, x, range(4)).weights
    assert torch.allclose(snap.weights_plain, plain[order][:, order], atol=1e-6)
    assert torch.equal(snap.weights_with_position, H.reorder_and_attend(mha, x, order, position).weights)


def test_bad_input_is_named(setup):
    mha, x, position = setup
    with pytest.raises(ValueError, match="order must be a permutation of 0 … 3"):
        H.reorder_and_attend(mha, x, [0, 1, 1, 2])
    with pytest.raises(ValueError, match="position"):
        H.reorder_and_attend(mha, x, range(4), position[:3])
    with pytest.raises(ValueError, match="mha"):
        H.order_snapshot(torch.nn.MultiheadAttention(8, 2), x, range(4), position)
    with pytest.raises(ValueError, match="x must be"):
        H.reorder_and_attend(mha, x[0], range(4))
