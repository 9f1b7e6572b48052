"""06.rope: independent correct answers pass; each catalogued mistake, written out here, is named."""

import math

import pytest
import torch

import helpers as H
from helpers.rotary import rope

from .kit import assert_diagnosed, assert_passes, solved_function

ID = "06.rope"


def _omega(d, base, step=2):
    return base ** (-step * torch.arange(d // 2, dtype=torch.float64) / d)


def complex_numbers(x, positions, base=10000.0, layout="interleaved"):
    d = x.shape[-1]
    z = torch.polar(torch.ones(len(positions), d // 2, dtype=torch.float64),
                    positions.double()[:, None] * _omega(d, base))
    xd = x.double()
    if layout == "interleaved":
        pairs = torch.complex(xd[..., 0::2], xd[..., 1::2]) * z
        out = torch.stack((pairs.real, pairs.imag), -1).flatten(-2)
    else:
        pairs = torch.complex(xd[..., : d // 2], xd[..., d // 2:]) * z
        out = torch.cat((pairs.real, pairs.imag), -1)
    return out.to(x.dtype)


def rotation_matrices_float32(x, positions, base=10000.0, layout="interleaved"):
    # one d × d matrix per position, built with Python loops, applied in float32, returned in x's dtype
    d = x.shape[-1]
    out = torch.empty(x.shape, dtype=torch.float32)
    for row, p in enumerate(positions.tolist()):
        r = torch.zeros(d, d)
        for i in range(d // 2):
            a = p * base ** (-2 * i / d)
            u, v = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            r[u, u], r[u, v], r[v, u], r[v, v] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
        out[..., row, :] = x[..., row, :].float() @ r.T
    return out.to(x.dtype)


def textbook_rotate_half(x, positions, base=10000.0, layout="interleaved"):
    # Hugging Face's form: x·cos + rotate_half(x)·sin, with the interleaved layout reached by permuting
    d = x.shape[-1]
    perm = torch.cat((torch.arange(0, d, 2), torch.arange(1, d, 2)))
    xh = x[..., perm] if layout == "interleaved" else x
    theta = positions.double()[:, None] * _omega(d, base)
    cos, sin = torch.cat((theta.cos(), theta.cos()), -1), torch.cat((theta.sin(), theta.sin()), -1)
    rotated = torch.cat((-xh[..., d // 2:], xh[..., : d // 2]), -1)
    out = (xh.double() * cos + rotated.double() * sin).to(x.dtype)
    return out[..., torch.argsort(perm)] if layout == "interleaved" else out


@pytest.mark.parametrize("fn", [lambda x, p, base=10000.0, layout="interleaved": rope(x, p, base, layout),
                                complex_numbers, rotation_matrices_float32, textbook_rotate_half,
                                solved_function(ID)],
                         ids=["reference", "complex", "matrices_float32", "rotate_half", "solution"])
def test_correct_answers_pass(fn):
    assert_passes(ID, fn)


def _turn(x, positions, base, layout, sign=1, step=2, shift=0):
    """A plain-loop rotation with the mistakes' knobs (independent of the module's)."""
    d = x.shape[-1]
    out = x.double().clone()
    for row, p in enumerate(positions.tolist()):
        for i in range(d // 2):
            a = sign * (p + shift) * base ** (-step * i / d)
            u, v = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            xu, xv = x[..., row, u].double(), x[..., row, v].double()
            c, s = math.cos(a), math.sin(a)
            out[..., row, u], out[..., row, v] = xu * c - xv * s, xu * s + xv * c
    return out


MISTAKES = {
    "rotation by −θ": lambda x, p, base=10000.0, layout="interleaved": _turn(x, p, base, layout, sign=-1),
    "half layout used for both layouts": lambda x, p, base=10000.0, layout="interleaved": _turn(x, p, base, "half"),
    "interleaved layout used for both layouts": lambda x, p, base=10000.0, layout="interleaved": _turn(
        x, p, base, "interleaved"),
    "ω_i = base^(−i/d) instead of base^(−2i/d)": lambda x, p, base=10000.0, layout="interleaved": _turn(
        x, p, base, layout, step=1),
    "positions counted from 1": lambda x, p, base=10000.0, layout="interleaved": _turn(x, p, base, layout, shift=1),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_catalogued_mistake_is_named(name):
    assert_diagnosed(ID, MISTAKES[name], name)


def test_an_unrotated_x_is_named_at_the_first_moved_entry():
    message = assert_diagnosed(ID, lambda x, p, base=10000.0, layout="interleaved": x, "x returned unrotated")
    assert 'on case "x (4, 8) float32, positions 0…3, interleaved": at position 1 (row 1), feature 0: pair 0 = ' \
           "features 0, 1 (interleaved layout): expected " in message and "of 32 entries differ." in message


def test_the_output_keeps_x_dtype():
    result = H.check(ID, lambda x, p, base=10000.0, layout="interleaved": rope(x, p, base, layout).float())
    assert result.status == "failed" and result.mistake is None
    assert 'x (2, 3, 6, 16) float64 (batch, heads, L, d), positions 0…5, half": dtype: the task asks for float64 ' \
           "(the input's dtype), got float32." in result.message


def test_a_rope_that_changes_x_in_place_fails_naming_x():
    """The right rotation, written back into the caller's x: the output is right, the input is not."""
    def in_place(x, positions, base=10000.0, layout="interleaved"):
        x.copy_(rope(x, positions, base, layout))
        return x

    result = H.check(ID, in_place)
    assert result.status == "failed" and "your function changed its input `x` in place" in result.message
    assert "work on a copy (x.clone())" in result.message, result.message


def test_a_rope_that_leaves_pytorch_fails_naming_it():
    def through_numpy(x, positions, base=10000.0, layout="interleaved"):
        return torch.from_numpy(rope(x, positions, base, layout).detach().numpy())

    result = H.check(ID, through_numpy)
    assert result.status == "failed" and "your function's result does not carry gradients: called with `x` " \
        "requiring gradients" in result.message, result.message


def test_no_hint_hands_over_the_two_lines_of_turned_pairs():
    """The hints lead to the solution; H.solution gives it. No hint holds the rotation's return line."""
    from helpers.exercises import core
    hints = core.get(ID).hints
    assert len(hints) == 3
    assert not any("a * theta.cos()" in hint or "a * theta.sin()" in hint for hint in hints)


def test_one_angle_for_every_pair_passes_rotate_after_and_is_told_ropes_choice():
    """06.rotate_after checks offset-only, position-aware (offsets 0 … 8) and content-keeping: turning every
    pair by the same angle p passes it, and the message names RoPE's per-pair angles p·ω_i."""
    def turn_all_pairs_by_p(v, p):
        return H.rotate(v.double(), torch.full((len(v) // 2,), float(p), dtype=torch.float64))

    result = H.check("06.rotate_after", turn_all_pairs_by_p)
    assert result.passed, result.message
    assert "one angle p for every pair, passes too; RoPE gives pair i its own angle, p·ω_i" in result.message
