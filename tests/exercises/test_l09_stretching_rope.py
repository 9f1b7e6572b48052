"""09.ntk_inv_freq and 09.llama3_inv_freq: independent correct answers pass; each catalogued mistake,
written out here, is named."""

import math

import numpy as np
import pytest
import torch

import helpers as H

from .kit import assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

NTK, LLAMA3 = "09.ntk_inv_freq", "09.llama3_inv_freq"


def _omega(head_dim, base):
    return np.array([base ** (-2 * i / head_dim) for i in range(head_dim // 2)])


# --- 09.ntk_inv_freq -------------------------------------------------------------------------------


def ntk_per_pair_float32(head_dim, base, factor):
    # ω'_i = ω_i · factor^(−2i/(d−2)): the slowest pair divided by the factor, the fastest kept
    i = torch.arange(head_dim // 2, dtype=torch.float32)
    return base ** (-2 * i / head_dim) * factor ** (-2 * i / (head_dim - 2))


def ntk_loops(head_dim, base, factor):
    new_base = base * factor ** (head_dim / (head_dim - 2))
    return np.array([1.0 / new_base ** (2 * i / head_dim) for i in range(head_dim // 2)])


@pytest.mark.parametrize("fn", [ntk_per_pair_float32, ntk_loops, solved_function(NTK)],
                         ids=["per_pair_float32", "loops", "solution"])
def test_ntk_correct_answers_pass(fn):
    assert_passes(NTK, fn)


NTK_MISTAKES = {
    "exponent d/(d−2) missing (base·factor, or d // (d − 2), which is 1)": lambda d, base, f: _omega(d, base * f),
    "every frequency divided by the factor (position interpolation)": lambda d, base, f: _omega(d, base) / f,
    "exponent (d−2)/d instead of d/(d−2)": lambda d, base, f: _omega(d, base * f ** ((d - 2) / d)),
    "base divided instead of multiplied": lambda d, base, f: _omega(d, base / f ** (d / (d - 2))),
}


@pytest.mark.parametrize("name", list(NTK_MISTAKES))
def test_ntk_mistakes_are_named(name):
    assert_diagnosed(NTK, NTK_MISTAKES[name], name)


def test_ntk_all_frequencies_returned_fails_on_shape():
    message = assert_fails_undiagnosed(NTK, lambda d, base, f: torch.ones(d))
    assert 'on case "head_dim=64, base=10000.0, factor=4.0": shape: expected (32,), got (64,).' in message


# --- 09.llama3_inv_freq ----------------------------------------------------------------------------


def llama3_hugging_face(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    # transcribed from the wavelength form of transformers' _compute_llama3_parameters
    inv_freq = torch.tensor(_omega(head_dim, base))
    low_freq_wavelen = original_max_len / low_freq_factor
    high_freq_wavelen = original_max_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium, smoothed, inv_freq_llama)


def llama3_branches(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len, two_pi=2 * math.pi):
    out = []
    for w in _omega(head_dim, base):
        turns = original_max_len * w / two_pi
        if turns >= high_freq_factor:
            out.append(w)
        elif turns <= low_freq_factor:
            out.append(w / factor)
        else:
            s = (turns - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append(s * w + (1 - s) * w / factor)
    return np.array(out, dtype=np.float32)


@pytest.mark.parametrize("fn", [llama3_hugging_face, llama3_branches, solved_function(LLAMA3)],
                         ids=["hugging_face", "branches_float32", "solution"])
def test_llama3_correct_answers_pass(fn):
    assert_passes(LLAMA3, fn)


def _thresholds_multiplied(d, base, f, low, high, length):
    out = []
    for w in _omega(d, base):
        wavelength = 2 * math.pi / w
        if wavelength < length * low:
            out.append(w)
        elif wavelength > length * high:
            out.append(w / f)
        else:
            s = (length / wavelength - low) / (high - low)
            out.append(s * w + (1 - s) * w / f)
    return np.array(out)


def _unclamped_ramp(d, base, f, low, high, length):
    omega = _omega(d, base)
    kept = (length * omega / (2 * math.pi) - low) / (high - low)
    return kept * omega + (1 - kept) * omega / f


def _clamped_ramp(d, base, f, low, high, length):
    omega = _omega(d, base)
    kept = np.clip((length * omega / (2 * math.pi) - low) / (high - low), 0, 1)
    return kept * omega + (1 - kept) * omega / f


# (name, answer): the branches with low and high swapped keep every pair above low (a step at r = low, no blend);
# the clamped ramp with them swapped blends the wrong way round
LLAMA3_MISTAKES = [
    ("the middle pairs not blended (one hard threshold)",
     lambda d, base, f, low, high, length: llama3_branches(d, base, f, high, low, length)),
    ("the blend reversed (s and 1 − s swapped, or low and high)",
     lambda d, base, f, low, high, length: _clamped_ramp(d, base, f, high, low, length)),
    ("wavelength taken as 1/ω instead of 2π/ω", lambda d, base, f, low, high, length: llama3_branches(
        d, base, f, low, high, length, two_pi=1.0)),
    ("every frequency divided by the factor (position interpolation)", lambda d, base, f, *rest: _omega(d, base) / f),
    ("wavelength thresholds L·factor instead of L/factor", _thresholds_multiplied),
    ("the blend weight s not clamped to [0, 1]", lambda d, base, f, low, high, length: _unclamped_ramp(
        d, base, f, low, high, length)),
]


@pytest.mark.parametrize(("name", "answer"), LLAMA3_MISTAKES, ids=["swapped_branches", "swapped_ramp", "no_two_pi",
                                                                   "linear", "thresholds_multiplied", "unclamped"])
def test_llama3_mistakes_are_named(name, answer):
    assert_diagnosed(LLAMA3, answer, name)


def test_the_clamped_ramp_is_a_correct_answer():
    assert_passes(LLAMA3, _clamped_ramp)


def test_ntk_a_wrong_answer_is_told_which_of_the_three_properties_it_has():
    kept_all = H.check(NTK, lambda d, base, f: _omega_by_hand(d, base))
    assert "What your output does: the fastest pair turns at 1 (it must stay at 1" in kept_all.message
    assert "the slowest pair is divided by 1 (it must be divided by exactly the factor, 4)" in kept_all.message
    assert "the same ratio throughout" in kept_all.message
    bent = H.check(NTK, lambda d, base, f: _omega_by_hand(d, base) / torch.linspace(1, f, d // 2, dtype=torch.float64))
    assert "the slowest pair is divided by 4 (it must be divided by exactly the factor, 4)" in bent.message
    assert "changes along the pairs" in bent.message


def _omega_by_hand(d, base):
    return torch.tensor([base ** (-2 * i / d) for i in range(d // 2)], dtype=torch.float64)


def test_the_unclamped_blend_weight_is_named_with_the_clamp():
    message = assert_diagnosed(LLAMA3, _unclamped_ramp, "the blend weight s not clamped to [0, 1]")
    assert "Clamp it: s.clamp(0, 1)" in message and "at pair 0 of 64 (ω_0 = 1, r_0 = 1304 turns" in message


def test_ntk_the_task_gives_the_properties_and_the_hints_lead_to_base_prime():
    from helpers.exercises.core import get
    exercise = get(NTK)
    first, second = exercise.hints
    assert "base'^(−(d−2)/d) = base^(−(d−2)/d) / factor" in first and "d/(d−2))" not in first
    assert "base' = base · factor^(d/(d−2))" in second
    # the equation of hint 1, solved numerically for base', gives the reference's base
    d, base, factor = 64, 10000.0, 4.0
    lo, hi = math.log(base), math.log(base) + 10
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.exp(mid) ** (-(d - 2) / d) > base ** (-(d - 2) / d) / factor else (lo, mid)
    solved = math.exp(lo)
    assert math.isclose(solved, base * factor ** (d / (d - 2)), rel_tol=1e-9)
    assert_passes(NTK, lambda d_, b, f: torch.tensor(_omega(d_, b * f ** (d_ / (d_ - 2)))))
