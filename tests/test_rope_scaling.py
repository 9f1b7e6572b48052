"""Stretched RoPE frequencies: Hugging Face's own rope initialisation as the oracle, NTK-aware
worked by hand, properties every method must have, the published cut-offs, RoPE with custom
frequencies, the errors bad input gets, and what stretching does to the angles (unseen angles,
the interpolation blur, a rotated key cache under dynamic NTK), worked by hand. Configs are made
by hand; nothing is downloaded."""

import math
import re

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

import helpers as H

TAU = 2 * math.pi


def hf_frequencies(rope_type, head_dim, base, max_position_embeddings, seq_len=None, **rope_parameters):
    """Hugging Face's inverse frequencies (as float64) and attention factor for a hand-made config."""
    config = LlamaConfig(
        hidden_size=2 * head_dim, num_attention_heads=2, head_dim=head_dim,
        max_position_embeddings=max_position_embeddings,
        rope_parameters={"rope_type": rope_type, "rope_theta": base, **rope_parameters},
    )
    inv_freq, attention_factor = ROPE_INIT_FUNCTIONS[rope_type](config, "cpu", seq_len=seq_len)
    return inv_freq.double(), attention_factor


def assert_matches_hf(ours, theirs):
    (inv_freq, scale), (hf_inv_freq, hf_scale) = ours, theirs
    assert inv_freq.dtype == torch.float64 and inv_freq.shape == hf_inv_freq.shape
    # Hugging Face computes in float32: agreement to float32 precision, relative per pair.
    torch.testing.assert_close(inv_freq, hf_inv_freq, rtol=1e-6, atol=0.0)
    assert math.isclose(scale, hf_scale, rel_tol=1e-12)


def hand_rotations(head_dim, base, original_max_len):
    """r_i = L·base^(−2i/d) / 2π, pair by pair in Python floats."""
    return [original_max_len * base ** (-2 * i / head_dim) / TAU for i in range(head_dim // 2)]


# ---------------------------------------------------------------- the oracle: Hugging Face

@pytest.mark.oracle
@pytest.mark.parametrize("head_dim,base,factor", [
    (8, 10000.0, 2.0), (64, 10000.0, 4.0), (128, 500000.0, 8.0), (32, 100.0, 1.5), (64, 10000.0, 1.0),
])
def test_linear_matches_hugging_face(head_dim, base, factor):
    assert_matches_hf(H.scaled_frequencies(head_dim, base, "linear", factor),
                      hf_frequencies("linear", head_dim, base, 2048, factor=factor))


@pytest.mark.oracle
@pytest.mark.parametrize("head_dim,base,factor,original_max_len,seq_len", [
    (64, 10000.0, 2.0, 1024, 100),
    (64, 10000.0, 2.0, 1024, 1024),
    (64, 10000.0, 2.0, 1024, 1025),
    (64, 10000.0, 2.0, 1024, 3000),
    (64, 10000.0, 2.0, 1024, 8192),
    (128, 500000.0, 4.0, 8192, 40000),
    (16, 100.0, 1.0, 64, 256),
])
def test_dynamic_matches_hugging_face(head_dim, base, factor, original_max_len, seq_len):
    # Hugging Face's dynamic NTK takes the original length from max_position_embeddings.
    assert_matches_hf(
        H.scaled_frequencies(head_dim, base, "dynamic", factor, original_max_len, seq_len=seq_len),
        hf_frequencies("dynamic", head_dim, base, original_max_len, seq_len=seq_len, factor=factor),
    )


YARN_CASES = {
    "Llama 2, 4k → 64k": (128, 10000.0, 16.0, 4096, {}),
    "Llama 2, 4k → 16k": (128, 10000.0, 4.0, 4096, {}),
    "Qwen2.5-shaped, 32k → 128k": (128, 1e6, 4.0, 32768, {}),
    "DeepSeek-V3-shaped (mscale 1, 1)": (64, 10000.0, 40.0, 4096,
                                         {"beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}),
    "DeepSeek-V2-shaped (mscale 0.707, 0.707)": (64, 10000.0, 40.0, 4096,
                                                 {"mscale": 0.707, "mscale_all_dim": 0.707}),
    "unequal mscales": (64, 10000.0, 8.0, 2048, {"mscale": 1.0, "mscale_all_dim": 0.5}),
    "gpt-oss-shaped, untruncated ramp": (64, 150000.0, 32.0, 4096,
                                         {"beta_fast": 32, "beta_slow": 1, "truncate": False}),
    "other betas": (32, 10000.0, 6.0, 1024, {"beta_fast": 16.0, "beta_slow": 2.0}),
    "lesson-sized, trained at 64": (16, 10000.0, 4.0, 64, {}),
    "factor 1": (64, 10000.0, 1.0, 2048, {}),
}


@pytest.mark.oracle
@pytest.mark.parametrize("case", YARN_CASES)
def test_yarn_matches_hugging_face(case):
    head_dim, base, factor, original, extra = YARN_CASES[case]
    assert_matches_hf(
        H.scaled_frequencies(head_dim, base, "yarn", factor, original, **extra),
        hf_frequencies("yarn", head_dim, base, math.ceil(original * factor), factor=factor,
                       original_max_position_embeddings=original, **extra),
    )


LLAMA3_CASES = {
    "Llama 3.1": (128, 500000.0, 8.0, 8192, 1.0, 4.0),
    "Llama 3.2-shaped (head_dim 64, factor 32)": (64, 500000.0, 32.0, 8192, 1.0, 4.0),
    "lesson-sized, trained at 64": (16, 10000.0, 4.0, 64, 1.0, 4.0),
    "other band": (32, 10000.0, 2.0, 256, 2.0, 8.0),
    "factor 1": (128, 500000.0, 1.0, 8192, 1.0, 4.0),
}


@pytest.mark.oracle
@pytest.mark.parametrize("case", LLAMA3_CASES)
def test_llama3_matches_hugging_face(case):
    head_dim, base, factor, original, low, high = LLAMA3_CASES[case]
    assert_matches_hf(
        H.scaled_frequencies(head_dim, base, "llama3", factor, original, low_freq_factor=low, high_freq_factor=high),
        hf_frequencies("llama3", head_dim, base, math.ceil(original * factor), factor=factor,
                       original_max_position_embeddings=original, low_freq_factor=low, high_freq_factor=high),
    )


# ---------------------------------------------------------------- NTK-aware by its defining formula

@pytest.mark.parametrize("head_dim,base,factor", [
    (128, 10000.0, 8.0), (64, 10000.0, 2.0), (4, 10.0, 3.0), (128, 500000.0, 4.5), (32, 10000.0, 1.0),
])
def test_ntk_is_a_larger_base(head_dim, base, factor):
    new_base = base * factor ** (head_dim / (head_dim - 2))
    by_hand = torch.tensor([new_base ** (-2 * i / head_dim) for i in range(head_dim // 2)], dtype=torch.float64)
    inv_freq, scale = H.scaled_frequencies(head_dim, base, "ntk", factor)
    torch.testing.assert_close(inv_freq, by_hand, rtol=1e-12, atol=0.0)
    assert scale == 1.0
    # The slowest pair is divided by exactly the factor.
    slowest = base ** (-(head_dim - 2) / head_dim)
    assert math.isclose(slowest / inv_freq[-1].item(), factor, rel_tol=1e-12)


@pytest.mark.oracle
def test_dynamic_configured_with_factor_four_divides_by_thirteen_at_four_l():
    # What {"rope_type": "dynamic", "factor": 4} gives at n = 4L (lesson 09): the slowest pair divided by
    # 4·4 − 3 = 13, not 4; with factor 1 it is divided by n/L = 4.
    omega = H.frequencies(128, 10000.0, torch.float64)
    for factor, slowest in ((4.0, 13.0), (1.0, 4.0)):
        ours = H.scaled_frequencies(128, 10000.0, "dynamic", factor, 4096, seq_len=4 * 4096)
        theirs = hf_frequencies("dynamic", 128, 10000.0, 4096, seq_len=4 * 4096, factor=factor)
        assert_matches_hf(ours, theirs)
        assert (omega[-1] / theirs[0][-1]).item() == pytest.approx(slowest, rel=1e-5)
        assert (omega[-1] / ours[0][-1]).item() == pytest.approx(slowest, rel=1e-12)


@pytest.mark.parametrize("factor,seq_len", [(2.0, 3000), (1.0, 4096), (4.0, 1500), (8.0, 20000)])
def test_dynamic_is_ntk_at_the_current_stretch(factor, seq_len):
    head_dim, base, original = 64, 10000.0, 1024
    stretch = factor * seq_len / original - (factor - 1)
    assert math.isclose(H.dynamic_ntk_factor(factor, seq_len, original), stretch, rel_tol=1e-15)
    new_base = base * stretch ** (head_dim / (head_dim - 2))
    by_hand = torch.tensor([new_base ** (-2 * i / head_dim) for i in range(head_dim // 2)], dtype=torch.float64)
    inv_freq, _ = H.scaled_frequencies(head_dim, base, "dynamic", factor, original, seq_len=seq_len)
    torch.testing.assert_close(inv_freq, by_hand, rtol=1e-12, atol=0.0)


def test_dynamic_at_factor_one_stretches_exactly_to_the_length():
    # factor 1 is not the identity for dynamic NTK past L: it stretches by n / L.
    inv_freq, _ = H.scaled_frequencies(64, 10000.0, "dynamic", 1.0, 1000, seq_len=3000)
    torch.testing.assert_close(inv_freq, H.scaled_frequencies(64, 10000.0, "ntk", 3.0)[0], rtol=1e-12, atol=0.0)


# ---------------------------------------------------------------- properties

heads = st.integers(2, 64).map(lambda n: 2 * n)
bases = st.floats(10.0, 1e6)
factors = st.floats(1.0, 64.0)
lengths = st.integers(8, 100_000)
yarn_params = st.fixed_dictionaries({"beta_fast": st.floats(4.0, 64.0), "beta_slow": st.floats(0.25, 2.0)},
                                    optional={"truncate": st.booleans()})
llama3_params = st.tuples(st.floats(0.5, 4.0), st.floats(1.5, 8.0)).filter(lambda lh: lh[1] > lh[0] + 0.1).map(
    lambda lh: {"low_freq_factor": lh[0], "high_freq_factor": lh[1]})


def method_calls(factor):
    """One strategy per method: (head_dim, base, method, original_max_len, params) at the given factor."""
    return st.one_of(
        st.tuples(heads, bases, st.just("linear"), st.none() | lengths, st.just({})),
        st.tuples(heads, bases, st.just("ntk"), st.none() | lengths, st.just({})),
        st.tuples(heads, bases, st.just("yarn"), lengths, yarn_params),
        st.tuples(heads, bases, st.just("llama3"), lengths, llama3_params),
    ).map(lambda c: (c[0], c[1], c[2], factor, c[3], c[4]))


@settings(max_examples=80, deadline=None)
@given(call=method_calls(1.0))
def test_factor_one_is_the_identity(call):
    head_dim, base, method, factor, original, params = call
    inv_freq, scale = H.scaled_frequencies(head_dim, base, method, factor, original, **params)
    torch.testing.assert_close(inv_freq, H.frequencies(head_dim, base, torch.float64), rtol=1e-14, atol=0.0)
    assert scale == 1.0


@settings(max_examples=40, deadline=None)
@given(head_dim=heads, base=bases, factor=factors, original=lengths, fraction=st.floats(0.0, 1.0))
def test_dynamic_changes_nothing_up_to_the_original_length(head_dim, base, factor, original, fraction):
    seq_len = max(1, round(fraction * original))
    inv_freq, scale = H.scaled_frequencies(head_dim, base, "dynamic", factor, original, seq_len=seq_len)
    assert torch.equal(inv_freq, H.frequencies(head_dim, base, torch.float64)) and scale == 1.0


@settings(max_examples=40, deadline=None)
@given(head_dim=heads, base=bases, factor=st.integers(1, 8), positions=st.lists(st.integers(0, 5000), min_size=1,
       max_size=12), layout=st.sampled_from(H.ROPE_LAYOUTS), seed=st.integers(0, 2**31))
def test_linear_is_dividing_the_positions(head_dim, base, factor, positions, layout, seed):
    x = torch.randn(len(positions), head_dim, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    m = torch.tensor(positions)
    inv_freq, _ = H.scaled_frequencies(head_dim, base, "linear", factor)
    stretched = H.rope(x, factor * m, layout=layout, freqs=inv_freq)
    torch.testing.assert_close(stretched, H.rope(x, m, base, layout), rtol=0.0, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(head_dim=heads, base=bases, factor=factors, position=st.floats(0.0, 1e5))
def test_linear_angles_are_those_of_divided_positions(head_dim, base, factor, position):
    inv_freq, _ = H.scaled_frequencies(head_dim, base, "linear", factor)
    omega = H.frequencies(head_dim, base, torch.float64)
    torch.testing.assert_close(position * inv_freq, (position / factor) * omega, rtol=1e-13, atol=1e-13)


@settings(max_examples=80, deadline=None)
@given(call=factors.flatmap(method_calls))
def test_scales_rise_from_one_to_at_most_the_factor(call):
    head_dim, base, method, factor, original, params = call
    inv_freq, _ = H.scaled_frequencies(head_dim, base, method, factor, original, **params)
    scales = H.pair_scales(H.frequencies(head_dim, base, torch.float64), inv_freq)
    assert (scales >= 1 - 1e-12).all() and (scales <= factor * (1 + 1e-12)).all()
    assert (scales.diff() >= -1e-12 * factor).all()


@settings(max_examples=80, deadline=None)
@given(call=factors.flatmap(method_calls), seq_len=st.integers(1, 10**6))
def test_the_fastest_pair_is_untouched(call, seq_len):
    head_dim, base, method, factor, original, params = call
    if method == "linear":
        method, params = "dynamic", {"seq_len": seq_len}
        original = original or 1000
    if method == "llama3":  # kept only when it turns at least high_freq_factor times within L
        assume(original / TAU > params["high_freq_factor"] * (1 + 1e-9))
    inv_freq, _ = H.scaled_frequencies(head_dim, base, method, factor, original, **params)
    assert inv_freq[0].item() == 1.0


@settings(max_examples=60, deadline=None)
@given(head_dim=heads, base=bases, factor=st.floats(1.5, 64.0), original=lengths, params=yarn_params)
def test_yarn_keeps_fast_pairs_and_interpolates_slow_ones_by_rotations(head_dim, base, factor, original, params):
    """Kept ⇔ r ≥ β_fast (or the fastest pair); fully interpolated ⇔ r ≤ β_slow; blended between."""
    params = {**params, "truncate": True}
    rotations = hand_rotations(head_dim, base, original)
    beta_fast, beta_slow = params["beta_fast"], params["beta_slow"]
    assume(all(abs(r - b) > 1e-6 * b for r in rotations for b in (beta_fast, beta_slow)))
    inv_freq, _ = H.scaled_frequencies(head_dim, base, "yarn", factor, original, **params)
    kinds = H.classify_pairs(H.pair_scales(H.frequencies(head_dim, base, torch.float64), inv_freq), factor)
    for i, (r, kind) in enumerate(zip(rotations, kinds, strict=True)):
        expected = "extrapolated" if r > beta_fast or i == 0 else "interpolated" if r < beta_slow else "blended"
        assert kind == expected, (i, r, kind)


@settings(max_examples=60, deadline=None)
@given(head_dim=heads, base=bases, factor=st.floats(1.5, 64.0), original=lengths, params=llama3_params)
def test_llama3_sorts_pairs_by_wavelength(head_dim, base, factor, original, params):
    """Kept if λ < L/high_freq_factor, divided if λ > L/low_freq_factor, blended between (Meta's rule)."""
    low, high = params["low_freq_factor"], params["high_freq_factor"]
    wavelengths = [TAU * base ** (2 * i / head_dim) for i in range(head_dim // 2)]
    assume(all(abs(w - edge) > 1e-6 * edge for w in wavelengths for edge in (original / low, original / high)))
    inv_freq, _ = H.scaled_frequencies(head_dim, base, "llama3", factor, original, **params)
    kinds = H.classify_pairs(H.pair_scales(H.frequencies(head_dim, base, torch.float64), inv_freq), factor)
    for w, kind in zip(wavelengths, kinds, strict=True):
        expected = "extrapolated" if w < original / high else "interpolated" if w > original / low else "blended"
        assert kind == expected


@pytest.mark.parametrize("factor", [1.5, 4.0, 40.0])
def test_yarn_attention_scale(factor):
    yarn = {"method": "yarn", "factor": factor, "original_max_len": 4096}
    assert H.scaled_frequencies(64, **yarn)[1] == pytest.approx(0.1 * math.log(factor) + 1, rel=1e-15)
    assert H.scaled_frequencies(64, **yarn, mscale=0.7, mscale_all_dim=0.7)[1] == 1.0
    ratio = H.scaled_frequencies(64, **yarn, mscale=2.0, mscale_all_dim=1.0)
    assert ratio[1] == pytest.approx((0.2 * math.log(factor) + 1) / (0.1 * math.log(factor) + 1), rel=1e-15)


@pytest.mark.parametrize("method,params", [("linear", {}), ("ntk", {}), ("dynamic", {"seq_len": 5000}),
                                           ("llama3", {"low_freq_factor": 1, "high_freq_factor": 4})])
def test_only_yarn_scales_attention(method, params):
    assert H.scaled_frequencies(64, 10000.0, method, 8.0, 1024, **params)[1] == 1.0


# ---------------------------------------------------------------- the published cut-offs

def test_llama31_keeps_29_pairs_divides_29_and_blends_6():
    inv_freq, _ = H.scaled_frequencies(128, 500000.0, "llama3", 8.0, 8192, low_freq_factor=1.0, high_freq_factor=4.0)
    kinds = H.classify_pairs(H.pair_scales(H.frequencies(128, 500000.0, torch.float64), inv_freq), 8.0)
    assert kinds == ("extrapolated",) * 29 + ("blended",) * 6 + ("interpolated",) * 29
    # By hand: pair i is kept while its wavelength 2π·500000^(2i/128) is under 8192/4, divided past 8192/1.
    wavelengths = [TAU * 500000.0 ** (2 * i / 128) for i in range(64)]
    assert sum(w < 8192 / 4 for w in wavelengths) == 29 and sum(w > 8192 / 1 for w in wavelengths) == 29


@pytest.mark.oracle
def test_llama31_cut_offs_hold_in_hugging_face():
    hf_inv_freq, _ = hf_frequencies("llama3", 128, 500000.0, 131072, factor=8.0, original_max_position_embeddings=8192,
                                    low_freq_factor=1.0, high_freq_factor=4.0)
    scales = H.pair_scales(H.frequencies(128, 500000.0, torch.float64), hf_inv_freq)
    kinds = H.classify_pairs(scales, 8.0, rel_tol=1e-6)  # float32 frequencies
    assert [kinds.count(k) for k in H.PAIR_KINDS] == [29, 6, 29]


@pytest.mark.parametrize("factor", [2.0, 4.0, 8.0, 16.0, 32.0, 64.0])
def test_yarn_on_llama2_keeps_pairs_0_to_20_and_interpolates_46_to_63(factor):
    inv_freq, _ = H.scaled_frequencies(128, 10000.0, "yarn", factor, 4096)
    kinds = H.classify_pairs(H.pair_scales(H.frequencies(128, 10000.0, torch.float64), inv_freq), factor)
    assert kinds == ("extrapolated",) * 21 + ("blended",) * 25 + ("interpolated",) * 18
    # By hand: the blended pairs are exactly those turning between 1 and 32 times within 4096 positions.
    rotations = hand_rotations(128, 10000.0, 4096)
    assert [i for i, r in enumerate(rotations) if 1 < r < 32] == list(range(21, 46))


@pytest.mark.oracle
@pytest.mark.parametrize("factor", [2.0, 16.0])
def test_yarn_cut_offs_hold_in_hugging_face(factor):
    hf_inv_freq, _ = hf_frequencies("yarn", 128, 10000.0, int(4096 * factor), factor=factor,
                                    original_max_position_embeddings=4096)
    kinds = H.classify_pairs(H.pair_scales(H.frequencies(128, 10000.0, torch.float64), hf_inv_freq), factor,
                             rel_tol=1e-6)
    assert set(kinds[:21]) == {"extrapolated"} and set(kinds[46:]) == {"interpolated"}
    assert set(kinds[21:46]) == {"blended"}


# ---------------------------------------------------------------- per-pair helpers

def test_relative_wavelengths_by_hand():
    inv_freq = H.frequencies(16, 10000.0, torch.float64)
    by_hand = torch.tensor([TAU * 10000.0 ** (2 * i / 16) / 512 for i in range(8)], dtype=torch.float64)
    torch.testing.assert_close(H.relative_wavelengths(inv_freq, 512), by_hand, rtol=1e-14, atol=0.0)


def test_pair_scales_by_hand():
    omega = H.frequencies(32, 10000.0, torch.float64)
    torch.testing.assert_close(H.pair_scales(omega, omega / 3), torch.full((16,), 3.0, dtype=torch.float64))
    ntk, _ = H.scaled_frequencies(32, 10000.0, "ntk", 5.0)
    by_hand = torch.tensor([5.0 ** (2 * i / 30) for i in range(16)], dtype=torch.float64)
    torch.testing.assert_close(H.pair_scales(omega, ntk), by_hand, rtol=1e-12, atol=0.0)


def test_classify_pairs_by_hand():
    scales = torch.tensor([1.0, 1.0 + 1e-12, 1.5, 3.999, 4.0, 4.0 * (1 + 1e-12)], dtype=torch.float64)
    assert H.classify_pairs(scales, 4.0) == (
        "extrapolated", "extrapolated", "blended", "blended", "interpolated", "interpolated")
    assert H.classify_pairs(scales[:2], 1.0) == ("extrapolated", "extrapolated")
    assert set(H.classify_pairs(scales, 4.0)) <= set(H.PAIR_KINDS)


def test_dynamic_ntk_factor_by_hand():
    assert H.dynamic_ntk_factor(2.0, 1024, 1024) == 1.0
    assert H.dynamic_ntk_factor(2.0, 500, 1024) == 1.0
    assert H.dynamic_ntk_factor(2.0, 3072, 1024) == pytest.approx(5.0)
    assert H.dynamic_ntk_factor(1.0, 3072, 1024) == pytest.approx(3.0)


def test_dynamic_moves_the_frequencies_as_the_sequence_grows():
    """Keys rotated at one length no longer match the frequencies at a longer one."""
    short, _ = H.scaled_frequencies(64, 10000.0, "dynamic", 2.0, 1024, seq_len=2000)
    long, _ = H.scaled_frequencies(64, 10000.0, "dynamic", 2.0, 1024, seq_len=2001)
    assert short[0] == long[0] and (long[1:] < short[1:]).all()


# ---------------------------------------------------------------- RoPE with custom frequencies

def reference_rope(x, positions, freqs, layout):
    """Pair-by-pair 2×2 rotations with the given frequencies, in float64."""
    x = x.double()
    d = x.shape[-1]
    out = torch.empty_like(x)
    pairs = [(2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2) for i in range(d // 2)]
    for i, (a, b) in enumerate(pairs):
        t = positions.double() * freqs[i].double()
        c, s = torch.cos(t), torch.sin(t)
        out[..., a] = c * x[..., a] - s * x[..., b]
        out[..., b] = s * x[..., a] + c * x[..., b]
    return out


@settings(max_examples=40, deadline=None)
@given(half=st.integers(1, 16), length=st.integers(1, 20), layout=st.sampled_from(H.ROPE_LAYOUTS),
       default_positions=st.booleans(), seed=st.integers(0, 2**31))
def test_rope_with_freqs_matches_pairwise_reference(half, length, layout, default_positions, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(2, length, 2 * half, generator=g, dtype=torch.float64)
    freqs = torch.rand(half, generator=g, dtype=torch.float64) * 3
    positions = torch.arange(length) if default_positions else torch.randint(0, 100_000, (length,), generator=g)
    out = H.rope(x, None if default_positions else positions, layout=layout, freqs=freqs)
    torch.testing.assert_close(out, reference_rope(x, positions, freqs, layout), rtol=0.0, atol=1e-9)


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_rope_with_the_usual_freqs_is_the_usual_rope(layout):
    x = torch.randn(3, 40, 32, generator=torch.Generator().manual_seed(0))
    freqs = H.frequencies(32, 500.0, torch.float64)
    assert torch.equal(H.rope(x, base=500.0, layout=layout, freqs=freqs), H.rope(x, base=500.0, layout=layout))
    pos = torch.arange(7, 47)
    assert torch.equal(H.rope(x, pos, 500.0, layout, freqs=freqs), H.rope(x, pos, 500.0, layout))


@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_rope_table_cache_tells_frequencies_apart(layout):
    x = torch.randn(1, 30, 16, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    usual = H.frequencies(16, 10000.0, torch.float64)
    stretched, _ = H.scaled_frequencies(16, method="linear", factor=4.0)
    for freqs in (usual, stretched, usual, stretched):
        out = H.rope(x, layout=layout, freqs=freqs)
        torch.testing.assert_close(out, reference_rope(x, torch.arange(30), freqs, layout), rtol=0.0, atol=1e-12)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_rope_with_freqs_keeps_dtype(dtype):
    x = torch.randn(2, 10, 8).to(dtype)
    out = H.rope(x, freqs=torch.tensor([1.0, 0.1, 0.01, 0.001], dtype=torch.float32))
    assert out.dtype == dtype and out.shape == x.shape


@settings(max_examples=30, deadline=None)
@given(m=st.integers(0, 5000), n=st.integers(0, 5000), shift=st.integers(0, 5000), seed=st.integers(0, 2**31),
       method=st.sampled_from(["linear", "ntk", "yarn"]))
def test_scaled_rope_scores_still_depend_only_on_offset(m, n, shift, seed, method):
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(1, 32, generator=g, dtype=torch.float64), torch.randn(1, 32, generator=g, dtype=torch.float64)
    freqs, _ = H.scaled_frequencies(32, 10000.0, method, 6.0, 512)

    def score(a, b):
        return (H.rope(q, torch.tensor([a]), freqs=freqs) * H.rope(k, torch.tensor([b]), freqs=freqs)).sum()

    torch.testing.assert_close(score(m + shift, n + shift), score(m, n), rtol=0.0, atol=1e-8)


cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@cuda
@pytest.mark.cuda
@pytest.mark.parametrize("layout", H.ROPE_LAYOUTS)
def test_rope_with_freqs_on_cuda_matches_cpu(layout):
    x = torch.randn(2, 4, 300, 64)
    pos = torch.randint(0, 50000, (2, 1, 300))
    freqs, _ = H.scaled_frequencies(64, 10000.0, "yarn", 8.0, 4096)
    out = H.rope(x.cuda(), pos.cuda(), layout=layout, freqs=freqs)
    assert out.device.type == "cuda"
    torch.testing.assert_close(out.cpu(), H.rope(x, pos, layout=layout, freqs=freqs), rtol=0.0, atol=1e-4)
    torch.testing.assert_close(H.rope(x.cuda(), layout=layout, freqs=freqs.cuda()).cpu(),
                               H.rope(x, layout=layout, freqs=freqs), rtol=0.0, atol=1e-4)


# ---------------------------------------------------------------- bad input

def raises(exc, *fragments):
    """pytest.raises whose message must contain every fragment, in order."""
    return pytest.raises(exc, match=".*".join(map(re.escape, fragments)))


SF = H.scaled_frequencies
YARN = {"method": "yarn", "factor": 4.0, "original_max_len": 1024}
LLAMA3 = {"method": "llama3", "factor": 8.0, "original_max_len": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0}

BAD_CALLS = {
    "factor below 1": (lambda: SF(64, factor=0.5), ValueError, ("factor", "≥ 1", "0.5")),
    "factor 0": (lambda: SF(64, method="ntk", factor=0), ValueError, ("factor", "≥ 1")),
    "negative factor": (lambda: SF(64, **{**YARN, "factor": -2.0}), ValueError, ("factor", "≥ 1")),
    "factor nan": (lambda: SF(64, factor=math.nan), ValueError, ("factor", "finite")),
    "factor inf": (lambda: SF(64, **{**LLAMA3, "factor": math.inf}), ValueError, ("factor", "finite")),
    "factor not a number": (lambda: SF(64, factor="2"), TypeError, ("factor",)),
    "factor a bool": (lambda: SF(64, factor=True), TypeError, ("factor",)),
    "base inf": (lambda: SF(64, base=math.inf, factor=2.0), ValueError, ("base", "finite")),
    "base nan": (lambda: SF(64, base=math.nan, method="ntk", factor=2.0), ValueError, ("base", "finite")),
    "unknown method": (lambda: SF(64, method="ntk-aware", factor=2.0), ValueError,
                       ("method", "'linear', 'ntk', 'dynamic', 'yarn', 'llama3'", "'ntk-aware'")),
    "method in capitals": (lambda: SF(64, method="YaRN", factor=2.0), ValueError, ("method", "'yarn'")),
    "dynamic without seq_len": (lambda: SF(64, method="dynamic", factor=2.0, original_max_len=1024), TypeError,
                                ("'dynamic'", "seq_len")),
    "dynamic without original_max_len": (lambda: SF(64, method="dynamic", factor=2.0, seq_len=4096), TypeError,
                                         ("'dynamic'", "original_max_len")),
    "yarn without original_max_len": (lambda: SF(64, method="yarn", factor=2.0), TypeError,
                                      ("'yarn'", "original_max_len")),
    "llama3 without low_freq_factor": (lambda: SF(64, method="llama3", factor=8.0, original_max_len=8192,
                                                  high_freq_factor=4.0), TypeError, ("'llama3'", "low_freq_factor")),
    "llama3 without high_freq_factor": (lambda: SF(64, method="llama3", factor=8.0, original_max_len=8192,
                                                   low_freq_factor=1.0), TypeError, ("'llama3'", "high_freq_factor")),
    "llama3 without original_max_len": (lambda: SF(64, method="llama3", factor=8.0, low_freq_factor=1.0,
                                                   high_freq_factor=4.0), TypeError, ("'llama3'", "original_max_len")),
    "a parameter another method takes": (lambda: SF(64, method="linear", factor=2.0, beta_fast=32), TypeError,
                                         ("'linear'", "'beta_fast'")),
    "a misspelt parameter": (lambda: SF(64, **YARN, beta_fats=32), TypeError,
                             ("'yarn'", "'beta_fats'", "beta_fast, beta_slow, mscale, mscale_all_dim, truncate")),
    "high equal to low": (lambda: SF(64, **{**LLAMA3, "high_freq_factor": 1.0}), ValueError,
                          ("high_freq_factor", "greater than low_freq_factor")),
    "high below low": (lambda: SF(64, **{**LLAMA3, "low_freq_factor": 4.0, "high_freq_factor": 1.0}), ValueError,
                       ("high_freq_factor", "greater than low_freq_factor")),
    "low_freq_factor zero": (lambda: SF(64, **{**LLAMA3, "low_freq_factor": 0.0}), ValueError,
                             ("low_freq_factor", "> 0")),
    "high_freq_factor inf": (lambda: SF(64, **{**LLAMA3, "high_freq_factor": math.inf}), ValueError,
                             ("high_freq_factor", "finite")),
    "beta_fast not above beta_slow": (lambda: SF(64, **YARN, beta_fast=1.0, beta_slow=1.0), ValueError,
                                      ("beta_fast", "greater than beta_slow")),
    "beta_fast nan": (lambda: SF(64, **YARN, beta_fast=math.nan), ValueError, ("beta_fast", "finite")),
    "beta_slow negative": (lambda: SF(64, **YARN, beta_slow=-1.0), ValueError, ("beta_slow", "> 0")),
    "mscale alone": (lambda: SF(64, **YARN, mscale=0.707), TypeError, ("mscale", "mscale_all_dim", "both")),
    "mscale_all_dim alone": (lambda: SF(64, **YARN, mscale_all_dim=1.0), TypeError, ("mscale", "both")),
    "mscale zero": (lambda: SF(64, **YARN, mscale=0.0, mscale_all_dim=1.0), ValueError, ("mscale", "> 0")),
    "mscale_all_dim nan": (lambda: SF(64, **YARN, mscale=1.0, mscale_all_dim=math.nan), ValueError,
                           ("mscale_all_dim", "finite")),
    "truncate not a bool": (lambda: SF(64, **YARN, truncate="yes"), TypeError, ("truncate", "True or False")),
    "seq_len zero": (lambda: SF(64, method="dynamic", factor=2.0, original_max_len=64, seq_len=0), ValueError,
                     ("seq_len", "≥ 1")),
    "seq_len a float": (lambda: SF(64, method="dynamic", factor=2.0, original_max_len=64, seq_len=100.5), TypeError,
                        ("seq_len", "integer")),
    "original_max_len zero": (lambda: SF(64, **{**YARN, "original_max_len": 0}), ValueError,
                              ("original_max_len", "≥ 1")),
    "original_max_len inf": (lambda: SF(64, **{**YARN, "original_max_len": math.inf}), TypeError,
                             ("original_max_len", "integer")),
    "odd head_dim": (lambda: SF(63, factor=2.0), ValueError, ("head_dim", "even")),
    "head_dim 2 for ntk": (lambda: SF(2, method="ntk", factor=2.0), ValueError, ("head_dim", "≥ 4", "'ntk'")),
    "freqs a list": (lambda: H.rope(torch.randn(5, 8), freqs=[1.0, 0.1, 0.01, 0.001]), TypeError,
                     ("freqs", "shape (d/2,) = (4,)", "list")),
    "freqs integers": (lambda: H.rope(torch.randn(5, 8), freqs=torch.ones(4, dtype=torch.long)), TypeError,
                       ("freqs", "floating-point", "torch.int64")),
    "freqs wrong length": (lambda: H.rope(torch.randn(5, 8), freqs=torch.ones(8)), ValueError,
                           ("freqs", "(4,)", "x.shape[-1] = 8", "(8,)")),
    "freqs 2-D": (lambda: H.rope(torch.randn(5, 8), freqs=torch.ones(1, 4)), ValueError, ("freqs", "(1, 4)")),
    "freqs nan": (lambda: H.rope(torch.randn(5, 8), freqs=torch.tensor([1.0, math.nan, 0.1, 0.01])), ValueError,
                  ("freqs", "finite", "nan")),
    "freqs inf": (lambda: H.rope(torch.randn(5, 8), torch.arange(5), freqs=torch.tensor([1.0, 0.5, math.inf, 0.0])),
                  ValueError, ("freqs", "finite", "inf")),
    "wavelengths of negative frequencies": (lambda: H.relative_wavelengths(torch.tensor([1.0, -0.1]), 64), ValueError,
                                            ("inv_freq", "> 0")),
    "wavelengths without a length": (lambda: H.relative_wavelengths(torch.tensor([1.0, 0.1]), 0), ValueError,
                                     ("original_max_len", "≥ 1")),
    "scales of mismatched shapes": (lambda: H.pair_scales(torch.ones(4), torch.ones(3)), ValueError,
                                    ("original and scaled", "same shape")),
    "scales of a list": (lambda: H.pair_scales([1.0], torch.ones(1)), TypeError, ("original", "tensor")),
    "classify with factor below 1": (lambda: H.classify_pairs(torch.ones(4), 0.5), ValueError, ("factor", "≥ 1")),
    "classify with a bad tolerance": (lambda: H.classify_pairs(torch.ones(4), 2.0, rel_tol=-1), ValueError,
                                      ("rel_tol",)),
    "dynamic factor below 1": (lambda: H.dynamic_ntk_factor(0.9, 100, 10), ValueError, ("factor", "≥ 1")),
}


@pytest.mark.parametrize("case", BAD_CALLS)
def test_bad_input_gets_a_clear_error(case):
    call, exc, fragments = BAD_CALLS[case]
    with raises(exc, *fragments):
        call()


def test_the_usual_rope_still_works_after_a_bad_freqs():
    x = torch.randn(5, 8)
    with pytest.raises(ValueError):
        H.rope(x, freqs=torch.ones(3))
    assert torch.equal(H.rope(x), H.rope(x, freqs=H.frequencies(8, 10000.0, torch.float64)))


# --- unseen angles and the blur ------------------------------------------------------------


def test_unseen_angles_by_hand():
    # ω = 1, L = 4: training offsets 0 … 3 give angles 0, 1, 2, 3 rad. Offset 4 is 1 rad from 3;
    # offset 5 is 2π − 5 = 1.2832 rad from 0 (mod 2π) and 2 rad from 3: the largest gap is 1.2832.
    u = H.unseen_angles(torch.tensor([1.0], dtype=torch.float64), 4, 6)
    assert u.largest_gap.item() == pytest.approx(TAU - 5)
    assert u.turns_within_l.item() == pytest.approx(3 / TAU)
    # A quarter turn per step: offsets 0 … 3 already visit all four angles it can ever reach.
    quarter = H.unseen_angles(torch.tensor([TAU / 4], dtype=torch.float64), 4, 40)
    assert quarter.largest_gap.item() == pytest.approx(0.0, abs=1e-12)


def test_unseen_angles_llama2_follow_yarn_cut_off():
    # Llama 2 at 4×: pairs that turn at least once within L only revisit angles; the others
    # (from pair 46 on, the ones YaRN fully interpolates) meet angles far from any seen in training.
    u = H.unseen_angles(H.frequencies(128, 10000.0, torch.float64), 4096, 4 * 4096)
    assert bool((u.largest_gap[:46] < 0.05).all()) and bool((u.largest_gap[46:] > 0.4).all())
    assert bool((u.turns_within_l[:46] > 1).all()) and bool((u.turns_within_l[46:] < 1).all())


def test_unseen_angles_bad_input():
    with pytest.raises(ValueError, match="length must be an integer"):
        H.unseen_angles(torch.ones(2, dtype=torch.float64), 64, 64)
    with pytest.raises(ValueError, match="inv_freq must hold finite frequencies"):
        H.unseen_angles(torch.tensor([1.0, -1.0]), 4, 8)


def test_neighbour_blur_of_position_interpolation():
    omega = H.frequencies(16, 10000.0, torch.float64)
    blur = H.neighbour_blur(omega / 4, omega, offset=12)
    assert blur == (0.25, 1.0, 3.0)
    # Every pair alike: the key 12 back gets exactly the rotation the key 3 back had in training.
    x = torch.randn(1, 16, dtype=torch.float64)
    assert torch.allclose(H.rope(x, torch.tensor([12]), freqs=omega / 4), H.rope(x, torch.tensor([3])))


# --- the dynamic-NTK cache pitfall ---------------------------------------------------------


def test_dynamic_cache_mismatch_by_hand():
    # d = 4, base 100: ω = (1, 0.1). L = 4, prompt 4, n = 8. q and every key are e_1 of pair 1
    # (the slow pair), so each score is cos(angle of q − angle of k) in that pair.
    # Now (length 8): factor 8/4 = 2, ω'_1 = 0.1/2 = 0.05 (NTK halves the slowest pair); q at 7: 0.35.
    # Cached: keys 0 … 3 at ω = 0.1 (the prompt, length 4); key j ≥ 4 at length j + 1: ω = 0.1·4/(j + 1).
    q = torch.tensor([0.0, 0.0, 1.0, 0.0], dtype=torch.float64)
    keys = q.expand(8, 4).clone()
    r = H.dynamic_cache_mismatch(q, keys, base=100.0, original_max_len=4, prompt_len=4)
    fresh = [math.cos(0.35 - 0.05 * j) for j in range(8)]
    stale = [math.cos(0.35 - 0.1 * j) for j in range(4)] + [math.cos(0.35 - j * 0.4 / (j + 1)) for j in range(4, 8)]
    assert r.fresh.tolist() == pytest.approx(fresh, abs=1e-12)
    assert r.rotated_cache.tolist() == pytest.approx(stale, abs=1e-12)
    assert r.unrotated_cache.tolist() == pytest.approx(fresh, abs=1e-12)
    assert r.rotated_cache_error == pytest.approx(max(abs(a - b) for a, b in zip(stale, fresh, strict=True)))
    assert r.unrotated_cache_error == 0.0


def test_no_mismatch_while_the_length_stays_within_l():
    g = torch.Generator().manual_seed(0)
    q, keys = torch.randn(16, generator=g), torch.randn(40, 16, generator=g)
    r = H.dynamic_cache_mismatch(q, keys, base=10000.0, original_max_len=64, prompt_len=10)
    assert r.rotated_cache_error == 0.0
    long = H.dynamic_cache_mismatch(q, torch.randn(100, 16, generator=g), base=10000.0, original_max_len=64,
                                    prompt_len=64)
    assert long.rotated_cache_error > 0.1 and long.unrotated_cache_error == 0.0


def test_cache_rows_match_rope_key_by_key():
    # the generated keys are turned all at once; each must equal rope on that key alone, at its position,
    # with the frequencies for the length the sequence had then, and a prompt of every key has none
    g = torch.Generator().manual_seed(1)
    q, keys = torch.randn(16, generator=g, dtype=torch.float64), torch.randn(30, 16, generator=g, dtype=torch.float64)
    r = H.dynamic_cache_mismatch(q, keys, base=10000.0, original_max_len=8, prompt_len=12, factor=2.0)
    now = H.scaled_frequencies(16, 1e4, "dynamic", 2.0, 8, seq_len=30)[0]
    q_rot = H.rope(q[None], torch.tensor([29]), freqs=now)[0]
    for j in (12, 20, 29):
        freqs = H.scaled_frequencies(16, 1e4, "dynamic", 2.0, 8, seq_len=j + 1)[0]
        alone = H.rope(keys[j : j + 1], torch.tensor([j]), freqs=freqs)[0] @ q_rot
        assert r.rotated_cache[j].item() == pytest.approx(alone.item(), abs=1e-12)
    whole = H.dynamic_cache_mismatch(q, keys, base=10000.0, original_max_len=8, prompt_len=30, factor=2.0)
    assert whole.rotated_cache_error == 0.0 and whole.rotated_cache.shape == (30,)


def test_cache_bad_input():
    with pytest.raises(ValueError, match="prompt_len must be at most"):
        H.dynamic_cache_mismatch(torch.ones(4), torch.ones(3, 4), base=100.0, original_max_len=2, prompt_len=5)
    with pytest.raises(ValueError, match="q must have shape"):
        H.dynamic_cache_mismatch(torch.ones(6), torch.ones(3, 4), base=100.0, original_max_len=2, prompt_len=2)
