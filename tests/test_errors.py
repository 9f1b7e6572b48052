"""Bad input to the public helpers gets a clear error that names the parameter."""

import math

import pytest
import torch

import helpers as H


def raises(exc, *names):
    """pytest.raises whose message must mention every one of ``names``."""
    return pytest.raises(exc, match=".*".join(map(__import__("re").escape, names)))


@pytest.mark.parametrize("call", [
    lambda: H.sinusoidal(4, 7),
    lambda: H.shift_matrix(1, 5),
    lambda: H.rope(torch.randn(3, 5)),
    lambda: H.rope_permutation(3),
])
def test_odd_width_where_pairs_are_needed(call):
    with pytest.raises(ValueError, match="must be even"):
        call()


@pytest.mark.parametrize("call,name", [
    (lambda: H.frequencies(0), "d_model"),
    (lambda: H.frequencies(-2), "d_model"),
    (lambda: H.sinusoidal(4, 0), "d_model"),
    (lambda: H.shift_matrix(1, -4), "d_model"),
    (lambda: H.LearnedPositionalEmbedding(4, 0), "d_model"),
])
def test_non_positive_d_model(call, name):
    with raises(ValueError, name, "≥ 1"):
        call()


@pytest.mark.parametrize("fn", [H.counting, H.normalised, H.single_sine, lambda n: H.sinusoidal(n, 4),
                                lambda n: H.alibi_bias(2, n)])
def test_length_below_one(fn):
    with raises(ValueError, "length", "≥ 1"):
        fn(0)
    with raises(ValueError, "length", "≥ 1"):
        fn(-3)


@pytest.mark.parametrize("fn", [H.counting, H.normalised, H.single_sine, lambda n: H.sinusoidal(n, 4)])
@pytest.mark.parametrize("bad", [2.5, 3.0, "4", None, True])
def test_non_integer_length(fn, bad):
    with raises(TypeError, "length", "integer"):
        fn(bad)


def test_non_integer_d_model():
    with raises(TypeError, "d_model", "integer"):
        H.sinusoidal(4, 8.0)


@pytest.mark.parametrize("positions", [torch.tensor([0.0, 1.0, 2.0]), torch.tensor([True, False, True])])
def test_non_integer_positions(positions):
    with raises(TypeError, "positions", "integer"):
        H.rope(torch.randn(3, 4), positions)


def test_negative_positions():
    with raises(ValueError, "positions", "≥ 0"):
        H.rope(torch.randn(3, 4), torch.tensor([0, -1, 2]))
    with raises(ValueError, "positions", "≥ 0"):
        H.LearnedPositionalEmbedding(8, 4)(torch.tensor([-1]))


@pytest.mark.parametrize("call", [
    lambda: H.sinusoidal(4, 4, layout="half"),
    lambda: H.rope(torch.randn(3, 4), layout="concatenated"),
    lambda: H.rope(torch.randn(3, 4), layout="Interleaved"),
])
def test_unknown_layout(call):
    with raises(ValueError, "layout", "'interleaved'"):
        call()


@pytest.mark.parametrize("base", [1.0, 0.5, 0.0, -10.0, math.inf, math.nan, -math.inf])
@pytest.mark.parametrize("fn", [
    lambda b: H.frequencies(8, b),
    lambda b: H.sinusoidal(4, 8, b),
    lambda b: H.shift_matrix(1, 8, b),
    lambda b: H.rope(torch.randn(3, 8), base=b),
])
def test_bad_base(fn, base):
    with raises(ValueError, "base", "finite", "> 1"):
        fn(base)


def test_non_numeric_base():
    with raises(TypeError, "base"):
        H.sinusoidal(4, 8, base="10000")


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool, torch.uint8])
def test_non_floating_x_in_rope(dtype):
    with raises(TypeError, "x", "floating"):
        H.rope(torch.ones(3, 4, dtype=dtype))


def test_rope_needs_length_and_width():
    with raises(ValueError, "x", "(..., length, d)"):
        H.rope(torch.randn(8))
    with raises(TypeError, "x"):
        H.rope([[1.0, 2.0]])


@pytest.mark.parametrize("shape", [(4,), (2, 3), (3, 1, 5), (7, 5)])
def test_positions_that_do_not_broadcast(shape):
    x = torch.randn(2, 5, 8)  # x.shape[:-1] = (2, 5)
    with raises(ValueError, "positions", "broadcast", "(2, 5)"):
        H.rope(x, torch.zeros(shape, dtype=torch.long))


@pytest.mark.parametrize("n", [0, -1])
def test_n_heads_below_one(n):
    with raises(ValueError, "n_heads", "≥ 1"):
        H.alibi_slopes(n)
    with raises(ValueError, "n_heads", "≥ 1"):
        H.alibi_bias(n, 4)


@pytest.mark.parametrize("omega", [math.nan, math.inf, -math.inf])
def test_non_finite_omega(omega):
    with raises(ValueError, "omega", "finite"):
        H.single_sine(10, omega)


def test_shift_matrix_needs_integer_offset():
    with raises(TypeError, "k", "integer"):
        H.shift_matrix(1.5, 4)


def test_learned_table_has_no_row_past_max_len():
    table = H.LearnedPositionalEmbedding(16, 4)
    assert table(16).shape == (16, 4)
    with raises(IndexError, "max_len = 16", "position 16"):
        table(17)
    with raises(IndexError, "max_len = 16", "position 40"):
        table(torch.tensor([3, 40]))


def test_t5_bucket_bad_arguments():
    with raises(TypeError, "relative_position", "integer"):
        H.t5_bucket(torch.tensor([0.5]))
    with raises(ValueError, "num_buckets"):
        H.t5_bucket(torch.tensor([1]), num_buckets=2)
    with raises(ValueError, "max_distance"):
        H.t5_bucket(torch.tensor([1]), num_buckets=32, max_distance=4)


def test_attention_block_bad_arguments():
    with raises(ValueError, "scheme", "'rope'", "'shaw'"):
        H.scheme("xpos", n_heads=2, head_dim=4)
    with raises(ValueError, "d_model", "n_heads"):
        H.CausalSelfAttention(10, 3)
