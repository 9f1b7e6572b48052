"""Lesson 10's predictions (10.wrong_layout, 10.bfloat16_position): every choice gets its verdict, and
the right answer is what torch and an independent rotation compute."""

import pytest
import torch

import helpers as H

from .kit import assert_choices


@pytest.mark.parametrize(("exercise_id", "right"), [("10.wrong_layout", "b"), ("10.bfloat16_position", "1004")])
def test_every_choice_gets_its_verdict(exercise_id, right):
    assert_choices(exercise_id, right, at_least=3)


def _nearest_bfloat16(p: int) -> int:
    """By hand: bfloat16 keeps 8 significant bits, so in [2^e, 2^(e+1)) its numbers are 2^(e−7) apart; round to
    the nearest, a tie to the neighbour whose last kept bit is 0."""
    step = 2 ** max(p.bit_length() - 8, 0)
    low, high = p // step * step, (p // step + 1) * step
    if p - low != high - p:
        return low if p - low < high - p else high
    return low if (low // step) % 2 == 0 else high


def test_bfloat16_stores_1003_as_1004_without_a_tie():
    assert H.check("10.bfloat16_position", 1004).passed  # a number is matched by its text
    assert _nearest_bfloat16(1003) == 1004 and 1003 - 1000 != 1004 - 1003  # no tie: the question needs no tie rule
    for p in (255, 256, 257, 259, 1001, 1002, 1003, 4097):
        assert torch.tensor(float(p)).to(torch.bfloat16).item() == _nearest_bfloat16(p), p
    assert (_nearest_bfloat16(257), _nearest_bfloat16(259)) == (256, 260)  # the ties the lesson explains after


def _turn_pairs(x, positions, pairs, d):
    """Rotate x (length, d) by +p·ω_i on the feature pairs ``pairs`` (list of (a, b)), written out by hand."""
    out = x.clone()
    for i, (a, b) in enumerate(pairs):
        theta = positions.double() * 10000.0 ** (-2 * i / d)
        c, s = theta.cos(), theta.sin()
        out[:, a], out[:, b] = x[:, a] * c - x[:, b] * s, x[:, a] * s + x[:, b] * c
    return out


def test_wrong_layout_is_offset_only_but_a_different_function_of_the_offset():
    d, n = 8, 12
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(2, d, generator=g, dtype=torch.float64)
    pos = torch.arange(n)
    interleaved = [(2 * i, 2 * i + 1) for i in range(d // 2)]
    half = [(i, i + d // 2) for i in range(d // 2)]
    rows = {}
    for name, pairs in (("interleaved", interleaved), ("half", half)):
        qr, kr = _turn_pairs(q.expand(n, d), pos, pairs, d), _turn_pairs(k.expand(n, d), pos, pairs, d)
        scores = qr @ kr.T
        by_offset = [torch.diagonal(scores, -delta) for delta in range(n)]  # query m = key n + δ
        assert all(torch.allclose(s, s[0].expand_as(s), atol=1e-12) for s in by_offset)  # offset only: not "c"
        rows[name] = torch.stack([s[0] for s in by_offset])
    assert torch.isclose(rows["interleaved"][0], rows["half"][0])  # δ = 0 agrees
    assert (rows["interleaved"][1:] - rows["half"][1:]).abs().max() > 0.1  # but not elsewhere: not "a"
    # and H.rope's half layout is the hand-written one
    assert torch.allclose(H.rope(q.expand(n, d).contiguous(), layout="half"), _turn_pairs(q.expand(n, d), pos, half, d))


def test_every_title_is_a_lower_case_noun_phrase():
    """The stubs print "NN.name · not attempted yet: <title>.": a title reads as a phrase, not an instruction."""
    from helpers.exercises.core import get

    for exercise_id in H.EXERCISES:
        title = get(exercise_id).title
        assert title[0] == title[0].lower() and not title.endswith("."), (exercise_id, title)
    assert get("10.wrong_layout").title == "a checkpoint loaded with the wrong layout"
