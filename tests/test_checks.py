"""The shared input checks (helpers._checks), and that every public function taking integer
tensors refuses the same dtypes through the one checker."""

import pytest
import torch

import helpers as H
from helpers import _checks


def test_integer_tensor_converts_lists_and_keeps_tensors():
    t = torch.tensor([3, -1])
    assert _checks.check_integer_tensor("x", t) is t
    assert _checks.check_integer_tensor("x", [0, 2]).tolist() == [0, 2]
    assert _checks.check_integer_tensor("x", 5).item() == 5


@pytest.mark.parametrize("value", [torch.tensor([1.0]), torch.tensor([1 + 1j]), torch.tensor([True]), [0.5]])
def test_integer_tensor_refuses_other_dtypes(value):
    with pytest.raises(TypeError, match=r"^offsets must be whole numbers, got dtype"):
        _checks.check_integer_tensor("offsets", value, "whole numbers")


def test_integer_tensor_minimum_and_unconvertible():
    with pytest.raises(ValueError, match=r"^p must be ≥ 0, got a minimum of -2$"):
        _checks.check_integer_tensor("p", [0, -2, 1], "≥ 0", minimum=0)
    assert _checks.check_integer_tensor("p", torch.zeros(0, dtype=torch.long), minimum=0).numel() == 0
    with pytest.raises(TypeError, match=r"^p must be an integer tensor, got 'abc'"):
        _checks.check_integer_tensor("p", "abc")


def test_check_int():
    assert _checks.check_int("n", 3, 1) == 3 and _checks.check_int("n", torch.tensor(4), 1) == 4
    assert _checks.check_int("k", -7, None) == -7
    with pytest.raises(ValueError, match=r"^n must be an integer ≥ 1, got 0$"):
        _checks.check_int("n", 0, 1)
    with pytest.raises(TypeError, match=r"^k must be an integer \(negative allowed\), got 1.5"):
        _checks.check_int("k", 1.5, None)
    for bad in (True, torch.tensor(2.0), torch.tensor(1j)):
        with pytest.raises(TypeError, match="n must be an integer ≥ 1"):
            _checks.check_int("n", bad, 1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.complex64, torch.bool])
@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda t: H.rope(torch.zeros(2, 4), t), "positions"),
        (lambda t: H.LearnedPositionalEmbedding(4, 2)(t), "positions"),
        (lambda t: H.angle_error(t, 4), "positions"),
        (lambda t: H.t5_bucket(t), "relative_position"),
        (lambda t: H.shift_distance(t, 4), "offsets"),
        (lambda t: H.scores_by_offset(torch.zeros(4), torch.zeros(4), t), "offsets"),
        (lambda t: H.relative_decay_bound(t, 4), "distances"),
        (lambda t: H.linear_probe_accuracy(torch.zeros(2, 1), t, torch.tensor([True, False])), "labels"),
        (lambda t: H.shift_matrix(t[0], 4), "k"),
    ],
)
def test_every_integer_input_refuses_float_complex_and_bool(call, name, dtype):
    with pytest.raises(TypeError, match=rf"^{name} must be .*dtype {dtype}"):
        call(torch.ones(2, dtype=dtype))
