"""04.sinusoidal: independent correct answers pass; each catalogued mistake, written out here, is named."""

import math

import numpy as np
import pytest
import torch

from helpers.encodings import sinusoidal

from .kit import assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

ID = "04.sinusoidal"


def loops_numpy(n_positions, d_model, base=10000.0):
    table = np.zeros((n_positions, d_model))
    for p in range(n_positions):
        for i in range(d_model // 2):
            angle = p / base ** (2 * i / d_model)
            table[p, 2 * i], table[p, 2 * i + 1] = math.sin(angle), math.cos(angle)
    return table


def complex_float32(n_positions, d_model, base=10000.0):
    # e^{i·p·ω}: imaginary part = sin, real part = cos, all in float32
    omega = torch.exp(-math.log(base) * torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    z = torch.polar(torch.ones(n_positions, d_model // 2), torch.arange(n_positions, dtype=torch.float32)[:, None]
                    * omega)
    return torch.stack((z.imag, z.real), dim=-1).reshape(n_positions, d_model)


@pytest.mark.parametrize("fn", [lambda n, d, base=10000.0: sinusoidal(n, d, base), loops_numpy, complex_float32,
                                lambda n, d, base=10000.0: sinusoidal(n, d, base).double(), solved_function(ID)],
                         ids=["reference", "loops_numpy", "complex_float32", "float64_output", "solution"])
def test_correct_answers_pass(fn):
    assert_passes(ID, fn)


def _table(n, d, base, first=0, exponent_step=2):
    p = np.arange(first, first + n, dtype=np.float64)[:, None]
    omega = base ** (-exponent_step * np.arange(d // 2) / d)
    return np.sin(p * omega), np.cos(p * omega)


def _interleave(a, b):
    out = np.empty((a.shape[0], 2 * a.shape[1]))
    out[:, 0::2], out[:, 1::2] = a, b
    return out


MISTAKES = {
    "sin and cos swapped": lambda n, d, base=10000.0: _interleave(*reversed(_table(n, d, base))),
    "ω_i = base^(−i/d) instead of base^(−2i/d)": lambda n, d, base=10000.0: _interleave(
        *_table(n, d, base, exponent_step=1)),
    "positions counted from 1": lambda n, d, base=10000.0: _interleave(*_table(n, d, base, first=1)),
    "concatenated instead of interleaved": lambda n, d, base=10000.0: np.concatenate(_table(n, d, base), axis=1),
    "each column its own frequency": lambda n, d, base=10000.0: np.array(
        [[(math.sin if j % 2 == 0 else math.cos)(p * base ** (-j / d)) for j in range(d)] for p in range(n)]),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_catalogued_mistake_is_named(name):
    assert_diagnosed(ID, MISTAKES[name], name)


def test_a_wrong_answer_gets_where_and_by_how_much():
    message = assert_fails_undiagnosed(ID, lambda n, d, base=10000.0: torch.ones(n, d))
    assert 'on case "n_positions=1, d_model=2 (position 0 only)": at position 0, column 0: the sin of pair 0 ' \
           "(ω_0 = 1): expected 0, got 1 (off by 1); 1 of 2 entries differ." in message


def test_float32_angles_at_large_positions_still_pass():
    def float32_angles(n, d, base=10000.0):
        p = torch.arange(n, dtype=torch.float32)[:, None]
        theta = p * base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
        return torch.stack((theta.sin(), theta.cos()), -1).flatten(-2)
    assert_passes(ID, float32_angles)
