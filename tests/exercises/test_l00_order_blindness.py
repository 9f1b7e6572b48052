"""Lesson 00's exercise: 00.causal_mask's verdicts, and its answer checked on a real layer."""

import itertools

import pytest
import torch
from torch import nn

import helpers as H


@pytest.mark.parametrize("answer, verdict", [("no", "passed"), (" No", "passed"), ("yes", "failed"),
                                             ("some", "failed"), ("maybe", "failed")])
def test_causal_mask_verdicts(answer, verdict):
    assert H.check("00.causal_mask", answer).status == verdict


def test_causal_mask_answer_holds_for_random_layers():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    for seed in range(5):
        torch.manual_seed(seed)
        mha = nn.MultiheadAttention(16, 2, batch_first=True).eval()
        x = torch.randn(1, 3, 16)
        with torch.no_grad():
            out = mha(x, x, x, attn_mask=mask)[0][0]
            for order in itertools.permutations(range(3)):
                p = torch.tensor(order)
                gap = float((mha(x[:, p], x[:, p], x[:, p], attn_mask=mask)[0][0] - out[p]).abs().max())
                assert (gap < 1e-6) == (order == (0, 1, 2))
