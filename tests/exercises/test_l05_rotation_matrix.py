"""05.shift_matrix: independent correct answers pass; each catalogued mistake, written out here, is named."""

import math

import numpy as np
import pytest
import torch

from helpers.encodings import shift_matrix, sinusoidal

from .kit import assert_diagnosed, assert_passes, solved_function

ID = "05.shift_matrix"


def _blocks_numpy(k, d, base, step=2, transpose=False):
    m = np.zeros((d, d))
    for i in range(d // 2):
        a = k * base ** (-step * i / d)
        block = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = block.T if transpose else block
    return m


def rotation_of_the_opposite_angle(k, d_model, base=10000.0):
    # a (sin, cos) pair turned by +kω reads, in (x, y) = (sin, cos) coordinates, as the rotation by −kω
    omega = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    blocks = []
    for a in (-k * omega).tolist():
        blocks.append(torch.tensor([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], dtype=torch.float64))
    return torch.block_diag(*blocks)


@pytest.mark.parametrize("fn", [lambda k, d, base=10000.0: shift_matrix(k, d, base),
                                lambda k, d, base=10000.0: _blocks_numpy(k, d, base),
                                rotation_of_the_opposite_angle, solved_function(ID)],
                         ids=["reference", "numpy_blocks", "rotation_by_minus_k_omega", "solution"])
def test_correct_answers_pass(fn):
    assert_passes(ID, fn)


def test_the_numpy_blocks_move_the_encoding_on():
    # the independent answer is itself right: PE[p + k] = M_k · PE[p] on the table
    pe = sinusoidal(60, 16).double().numpy()
    for k in (1, 10, -9):
        m = _blocks_numpy(k, 16, 10000.0)
        assert np.allclose(pe[20:40] @ m.T, pe[20 + k:40 + k], atol=1e-6)


def _concatenated(k, d, base=10000.0):
    m, h = np.zeros((d, d)), d // 2
    for i in range(h):
        a = k * base ** (-2 * i / d)
        m[i, i], m[i, i + h], m[i + h, i], m[i + h, i + h] = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    return m


MISTAKES = {
    "M_k transposed": lambda k, d, base=10000.0: _blocks_numpy(k, d, base, transpose=True),
    "ω_i = base^(−i/d) instead of base^(−2i/d)": lambda k, d, base=10000.0: _blocks_numpy(k, d, base, step=1),
    "blocks on the concatenated layout": _concatenated,
    "angle ω_i instead of k·ω_i": lambda k, d, base=10000.0: _blocks_numpy(1, d, base),
    "frequencies in reverse order (slowest pair first)": lambda k, d, base=10000.0: _slowest_first(k, d, base),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_catalogued_mistake_is_named(name):
    assert_diagnosed(ID, MISTAKES[name], name)


def test_the_identity_for_every_k_fails_on_the_second_case():
    message = assert_diagnosed(ID, lambda k, d, base=10000.0: torch.eye(d), "the identity for every block")
    assert 'on case "k=1, d_model=16": at row 0, column 0: block 0 (pair 0, ω_0 = 1), its sin row and sin column: ' \
           "expected 0.540302, got 1 (off by 0.459698)" in message


def _slowest_first(k, d, base=10000.0):
    """ω_i ordered slowest first: block i turns at ω_(d/2 − 1 − i)."""
    m = np.zeros((d, d))
    for i in range(d // 2):
        a = k * base ** (-2 * (d // 2 - 1 - i) / d)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]
    return m


def test_frequencies_slowest_first_are_named_with_the_order():
    message = assert_diagnosed(ID, _slowest_first, "frequencies in reverse order (slowest pair first)")
    assert "pair 0 is the fastest (ω_0 = 1)" in message
