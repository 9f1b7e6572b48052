"""07.alibi_slopes and 07.t5_bucket: independent correct answers pass; each catalogued mistake, written
out here, is named."""

import math

import numpy as np
import pytest
import torch

import helpers as H
from helpers.exercises import core
from helpers.relative import alibi_slopes, t5_bucket

from .kit import assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

# --- 07.alibi_slopes: Press et al.'s own construction (a start and a ratio), recursive ----------------


def press_slopes(n_heads):
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return np.array(power_of_2(n_heads))
    closest = 2 ** math.floor(math.log2(n_heads))
    return np.array(power_of_2(closest) + list(press_slopes(2 * closest))[0::2][: n_heads - closest])


def exponents_float64(n_heads):
    n0 = 1 << (n_heads.bit_length() - 1)
    h = torch.arange(1, n0 + 1, dtype=torch.float64)
    extra = 2 * torch.arange(n_heads - n0, dtype=torch.float64) + 1  # the 1st, 3rd, … of 2·n0 heads
    return torch.cat((2 ** (-8 * h / n0), 2 ** (-8 * extra / (2 * n0))))


@pytest.mark.parametrize("fn", [alibi_slopes, press_slopes, exponents_float64, solved_function("07.alibi_slopes")],
                         ids=["reference", "press", "exponents_float64", "solution"])
def test_alibi_correct_answers_pass(fn):
    assert_passes("07.alibi_slopes", fn)


def _geometric(n, first=1):
    return [2 ** (-8 * h / n) for h in range(first, first + n)]


def _largest_power(n):
    return 2 ** math.floor(math.log2(n))


ALIBI_MISTAKES = {
    "the power-of-two formula for every head count": lambda n: np.array(_geometric(n)),
    "slopes of the next power of two, cut short": lambda n: np.array(_geometric(2 ** math.ceil(math.log2(n)))[:n]),
    "heads counted from 0": lambda n: np.array(
        _geometric(_largest_power(n), 0) + _geometric(2 * _largest_power(n), 0)[0::2][: n - _largest_power(n)]),
    "the extra heads take the 2nd, 4th, … slopes of 2·n0 heads": lambda n: np.array(
        _geometric(_largest_power(n)) + _geometric(2 * _largest_power(n))[1::2][: n - _largest_power(n)]),
}


@pytest.mark.parametrize("name", list(ALIBI_MISTAKES))
def test_alibi_mistakes_are_named(name):
    assert_diagnosed("07.alibi_slopes", ALIBI_MISTAKES[name], name)


def test_alibi_sorted_slopes_are_named_at_the_first_head_in_its_terms():
    message = assert_diagnosed("07.alibi_slopes", lambda n: alibi_slopes(n).sort(descending=True).values,
                               "slopes sorted from steepest to gentlest")
    assert 'on case "n_heads=12 (not a power of two)": at head 0 of 12 (counted from 0; slope 1 of the 8-head ' \
           "sequence): expected 0.5, got 0.707107 " in message


def test_t5_a_difference_is_named_by_its_offset_and_mode():
    def one_off_at_minus_90(rel, bidirectional, num_buckets, max_distance):
        out = t5_bucket(rel, bidirectional, num_buckets, max_distance).clone()
        if not bidirectional and num_buckets == 32:
            out[rel == -90] += 1
        return out
    message = assert_fails_undiagnosed("07.t5_bucket", one_off_at_minus_90)
    assert 'max_distance=128": at offset −90 (key − query) with bidirectional=False: expected ' in message
    grid = assert_fails_undiagnosed("07.t5_bucket", lambda r, b, n, m: t5_bucket(r, b, n, m) + (r.dim() == 2))
    assert "at offset 0 (key − query) with bidirectional=False, query 0 and key 0: expected 0, got 1" in grid


def test_alibi_a_list_is_refused_with_its_own_message():
    message = assert_fails_undiagnosed("07.alibi_slopes", lambda n: alibi_slopes(n).tolist())
    assert "your function returned a list of 8 items; it should return a torch.Tensor" in message


# --- 07.t5_bucket: a plain-Python transcription of T5's rule, and Mesh TensorFlow's float32 form ----------


def python_loops(relative_position, bidirectional, num_buckets, max_distance):
    out = []
    for r in relative_position.flatten().tolist():
        n, bucket = num_buckets, 0
        if bidirectional:
            n //= 2
            bucket = n if r > 0 else 0
            distance = abs(r)
        else:
            distance = max(-r, 0)
        exact = n // 2
        if distance < exact:
            out.append(bucket + distance)
        else:
            far = exact + int(math.log(distance / exact) / math.log(max_distance / exact) * (n - exact))
            out.append(bucket + min(far, n - 1))
    return torch.tensor(out).reshape(relative_position.shape)


def numpy_int32(relative_position, bidirectional, num_buckets, max_distance, log_dtype=np.float32):
    n = -relative_position.numpy().astype(np.int64)  # Mesh TensorFlow works with query − key
    ret = np.zeros_like(n)
    if bidirectional:
        num_buckets //= 2
        ret += (n < 0).astype(np.int64) * num_buckets
        n = np.abs(n)
    else:
        n = np.maximum(n, 0)
    max_exact = num_buckets // 2
    large = max_exact + (np.log(np.maximum(n, 1).astype(log_dtype) / max_exact) / math.log(max_distance / max_exact)
                         * (num_buckets - max_exact)).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return (ret + np.where(n < max_exact, n, large)).astype(np.int32)


@pytest.mark.parametrize("fn", [t5_bucket, python_loops, numpy_int32, solved_function("07.t5_bucket")],
                         ids=["reference", "python_loops", "numpy_int32", "solution"])
def test_t5_correct_answers_pass(fn):
    assert_passes("07.t5_bucket", fn)


def _variant(rel, bidirectional, num_buckets, max_distance, halve=True, absolute=False, cap=True):
    out = []
    for r in rel.flatten().tolist():
        n, bucket = num_buckets, 0
        if bidirectional:
            n = n // 2 if halve else n
            bucket = n if r > 0 else 0
            distance = abs(r)
        else:
            distance = abs(r) if absolute else max(-r, 0)
        exact = n // 2
        far = exact + int(math.log(max(distance, 1) / exact) / math.log(max_distance / exact) * (n - exact))
        out.append(bucket + (distance if distance < exact else (min(far, n - 1) if cap else far)))
    return torch.tensor(out).reshape(rel.shape)


T5_MISTAKES = {
    "offset sign flipped (query − key)": lambda r, b, n, m: python_loops(-r, b, n, m),
    "causal and bidirectional swapped": lambda r, b, n, m: python_loops(r, not b, n, m),
    "buckets not halved when bidirectional": lambda r, b, n, m: _variant(r, b, n, m, halve=False),
    "causal distance taken as |offset|": lambda r, b, n, m: _variant(r, b, n, m, absolute=True),
    "far buckets not capped at the last bucket": lambda r, b, n, m: _variant(r, b, n, m, cap=False),
    "the log computed in half precision": lambda r, b, n, m: numpy_int32(r, b, n, m, log_dtype=np.float16),
}


def test_t5_is_checked_at_sizes_where_half_precision_moves_a_bucket():
    """At the lesson's (32 buckets, max_distance 128) a float16 log happens to give T5's buckets up to distance
    5000; at (32, 1000) it moves some distances into another bucket (worked out against plain Python in float64,
    where a float32 log gives the same buckets)."""
    far = torch.arange(-5000, 5001)
    half = numpy_int32(far, False, 32, 1000, log_dtype=np.float16)
    exact = python_loops(far, False, 32, 1000)
    assert 0 < int((torch.as_tensor(half) != exact).sum()) < 10
    assert torch.equal(torch.as_tensor(numpy_int32(far, False, 32, 128, log_dtype=np.float16)).long(),
                       python_loops(far, False, 32, 128))
    labels = [c.label for c in core.get("07.t5_bucket").prepared()[0]]
    assert any("num_buckets=32, max_distance=1000" in label for label in labels)
    assert any("num_buckets=128, max_distance=4096" in label for label in labels)


@pytest.mark.parametrize("name", list(T5_MISTAKES))
def test_t5_mistakes_are_named(name):
    assert_diagnosed("07.t5_bucket", T5_MISTAKES[name], name)


def test_t5_float_buckets_get_the_dtype_message():
    message = assert_fails_undiagnosed("07.t5_bucket", lambda r, b, n, m: t5_bucket(r, b, n, m).float())
    assert "dtype: expected a integer tensor" not in message
    assert "dtype: expected an integer tensor, got torch.float32 (convert with .long())" in message


# --- 07.alibi_slopes is found from five properties: a proposal that lacks one is told which ------------


def _by_rule(n, extras):
    """The slopes of the largest power of two n0 ≤ n, then ``extras(n0)`` for the other heads."""
    n0 = _largest_power(n)
    return torch.tensor(_geometric(n0) + list(extras(n0))[: n - n0], dtype=torch.float64)


def test_alibi_each_property_a_proposal_lacks_is_named():
    gentlest_first = H.check("07.alibi_slopes", lambda n: _by_rule(n, lambda n0: _geometric(2 * n0)[0::2][::-1]))
    assert gentlest_first.mistake is None and "(properties 3 and 4 hold), but not steepest first (property 5)" in \
        gentlest_first.message and "head 8 should have 2^(−8/16) = 0.7071, yours has 0.005524" in \
        gentlest_first.message, gentlest_first.message
    off_ladder = H.check("07.alibi_slopes",
                         lambda n: _by_rule(n, lambda n0: [s * 0.9 for s in _geometric(2 * n0)[0::2]]))
    assert "head 8's slope 0.6364 is not one of the 16-head slopes 2^(−8h/16) (property 3)" in off_ladder.message
    shared = H.check("07.alibi_slopes", lambda n: _by_rule(n, lambda n0: _geometric(2 * n0)[0::2][:1] * n))
    assert "heads 8 and 9 share the slope 0.7071: two heads with one slope attend alike (property 4)" in \
        shared.message, shared.message
    spread = H.check("07.alibi_slopes", lambda n: torch.logspace(-8 / n, -8, n, base=2) if n != 12 else
                     torch.logspace(-0.5, -8, n, base=2))
    assert "heads 0–7 must keep the slopes of 8 heads (property 2): head 0 should keep 2^(−8/8) = 0.5, yours has " \
           "0.7071" in spread.message, spread.message
    power = H.check("07.alibi_slopes", lambda n: alibi_slopes(n) * (1.01 if n == 8 else 1.0))
    assert "8 is a power of two, where the rule must be 2^(−8h/n) itself (property 1)" in power.message


def test_alibi_the_task_states_the_properties_not_the_rule():
    from helpers.exercises.core import get
    exercise = get("07.alibi_slopes")
    assert "property" in exercise.mistakes["the extra heads take the first slopes of 2·n0 heads"][1]
    assert "[0::2]" not in exercise.hints[0] and "[0::2]" not in exercise.hints[1]
