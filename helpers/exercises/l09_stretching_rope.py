"""Lesson 09's exercises (notebooks/09_stretching_rope.ipynb), in the order the notebook asks them.

09.ntk_inv_freq (implement): my_ntk_inv_freq(head_dim, base, factor) → (head_dim/2,) NTK-aware
frequencies ω'_i = base'^(−2i/d), d = head_dim. The task states the two properties base' is chosen for (the
fastest pair kept, ω'_0 = 1; the slowest, i = d/2 − 1, divided by the factor) and the learner solves for
base' = base·factor^(d/(d−2)), so that ω'_i = ω_i·factor^(−2i/(d−2)). The stub computes the frequencies from
base'; the learner writes ntk_base, the one line that solves for base' (the check tests the whole function).

09.llama3_inv_freq (implement): my_llama3_inv_freq(head_dim, base, factor, low_freq_factor,
high_freq_factor, original_max_len) → (head_dim/2,). With r_i = L·ω_i/2π the turns of pair i within
L = original_max_len: kept (ω_i) if r_i ≥ high_freq_factor, divided (ω_i/factor) if r_i ≤ low_freq_factor,
between: s·ω_i + (1 − s)·ω_i/factor with s = (r_i − low_freq_factor)/(high_freq_factor − low_freq_factor).
"""

from __future__ import annotations

import math

import torch

from ..rope_scaling import scaled_frequencies
from .core import Case, explore, implement, predict  # noqa: F401


def _omega(head_dim, base):
    return float(base) ** (-2.0 * torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)



# --- 09.pi_offset (predict; asked before the implement exercises, in "Why not just interpolate everything?") --

PI_OFFSET_SOLUTION = '''answer = "0.5"  # one of: "8", "2", "0.5", "0.25"
H.check("09.pi_offset", answer)'''

predict(
    "09.pi_offset",
    title="what PI does to a trained offset",
    question="Under position interpolation at factor 4, the key 2 tokens back is rotated as if it were how many "
             "tokens back?",
    choices={
        "0.5": "Every frequency is divided by 4, so the angle δ·ω_i/4 of δ = 2 is the angle the model learned "
               "for δ = 0.5, an offset training never showed (and the key 7 bytes back is rotated as if it were "
               "1.75 bytes back).",
        "8": "That is the other way round: PI divides positions by the factor, so offsets shrink. The key 8 back is "
             "the one that now looks like the trained offset 2.",
        "2": "The rotation depends on the angle δ·ω'_i, and PI divides every ω_i by 4: δ = 2 now turns as far as "
             "δ = 0.5 used to.",
        "0.25": "0.25 is what offset 1 becomes (1/4); the key 2 back turns by 2/4 of its trained angle.",
    },
    answer="0.5",
    hints=(
        "Position interpolation at factor 4 replaces every ω_i by ω_i / 4: the angle of an offset δ becomes δ·ω_i/4.",
        "Which trained offset δ' has the angle δ'·ω_i = 2·ω_i/4?",
    ),
    solution=PI_OFFSET_SOLUTION,
)


# --- 09.ntk_inv_freq --------------------------------------------------------------------------


def _ntk_reference(head_dim, base, factor):
    return scaled_frequencies(head_dim, base, "ntk", factor)[0]


def _ntk_base_times_factor(head_dim, base, factor):
    return _omega(head_dim, base * factor)


def _ntk_linear(head_dim, base, factor):
    return _omega(head_dim, base) / factor


def _ntk_exponent_flipped(head_dim, base, factor):
    return _omega(head_dim, base * factor ** ((head_dim - 2) / head_dim))


def _ntk_base_divided(head_dim, base, factor):
    return _omega(head_dim, base * factor ** (-head_dim / (head_dim - 2)))


def _ntk_positive_exponent(head_dim, base, factor):
    new_base = base * factor ** (head_dim / (head_dim - 2))
    return new_base ** (2.0 * torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)


def _ntk_base_missing(head_dim, base, factor):
    return _omega(head_dim, factor ** (head_dim / (head_dim - 2)))


def _ntk_base_plus(head_dim, base, factor):
    return _omega(head_dim, base + factor ** (head_dim / (head_dim - 2)))


def _ntk_i_over_d(head_dim, base, factor):
    new_base = base * factor ** (head_dim / (head_dim - 2))
    return new_base ** (-torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)


def _ntk_base_to_the_factor(head_dim, base, factor):
    return _omega(head_dim, base ** factor)


def _ntk_d_minus_one(head_dim, base, factor):
    return _omega(head_dim, base * factor ** (head_dim / (head_dim - 1)))


def _ntk_head_dim_16(head_dim, base, factor):
    return _omega(head_dim, base * factor ** (16 / 14))


def _ntk_head_dim_fixed(size):
    def frequencies(head_dim, base, factor):
        return _omega(head_dim, base * factor ** (size / (size - 2)))
    return frequencies


def _ntk_all_raised(head_dim, base, factor):
    return _omega(head_dim, (base * factor) ** (head_dim / (head_dim - 2)))


def _ntk_two_over_d(head_dim, base, factor):
    return _omega(head_dim, base * factor ** (2 / head_dim))


def _ntk_base_stored_in(dtype):
    def frequencies(head_dim, base, factor):
        new_base = torch.tensor(base * factor ** (head_dim / (head_dim - 2)), dtype=dtype)
        return new_base ** (-2 * torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)
    return frequencies


def _ntk_in(dtype):
    def frequencies(head_dim, base, factor):
        new_base = base * factor ** (head_dim / (head_dim - 2))
        return (new_base ** (-2 * torch.arange(head_dim // 2, dtype=dtype) / head_dim)).double()
    return frequencies


def _pair_where(args, index) -> str:
    head_dim, base = args[0], float(args[1])
    i = index[0]
    return (f"pair {i} of {head_dim // 2} (features {2 * i}, {2 * i + 1}; before the stretch "
            f"ω_{i} = {base ** (-2 * i / head_dim):.4g})")


def _llama3_where(args, index) -> str:
    head_dim, base, factor, low, high, length = args
    i = index[0]
    omega = float(base) ** (-2 * i / head_dim)
    turns = length * omega / (2 * math.pi)
    part = "kept" if turns >= high else "divided by the factor" if turns <= low else "blended"
    return (f"pair {i} of {head_dim // 2} (ω_{i} = {omega:.4g}, r_{i} = {turns:.4g} turns within L = {length}: "
            f"{part})")


_HALF_WHY = ("A long-context model's slowest pairs have ω near 10⁻⁶ to 10⁻⁷, below float16's smallest normal "
             "number (6·10⁻⁵): they lose digits or flush to 0, and those are the very pairs the stretch is about; "
             "bfloat16 keeps them but with 2 digits, so pairs a few percent apart get one frequency.")


def _ntk_explain(args, output) -> str | None:
    """The three properties that pin NTK-aware scaling down, each stated for the learner's frequencies."""
    head_dim, base, factor = args
    got = output.to(torch.float64).flatten()
    if got.numel() != head_dim // 2 or bool((got <= 0).any()):
        return None
    omega = _omega(head_dim, base)
    fastest = float(got[0])
    slowest = float(omega[-1] / got[-1])
    ratios = got[1:] / got[:-1]
    geometric = bool(torch.allclose(ratios, ratios[0].expand_as(ratios), rtol=1e-6)) if len(ratios) else True
    said = [f"the fastest pair turns at {fastest:.6g} (it must stay at 1, as before the stretch)",
            f"the slowest pair is divided by {slowest:.6g} (it must be divided by exactly the factor, {factor:g})",
            "one pair's frequency over the previous one's is the same ratio throughout, as the form base'^(−2i/d) "
            "needs" if geometric else
            "the ratio of one pair's frequency to the previous one's changes along the pairs, so they are not of "
            "the form base'^(−2i/d)"]
    return "; ".join(said) + "."


def _ntk_cases() -> list[Case]:
    return [
        Case("head_dim=64, base=10000.0, factor=4.0", (64, 10000.0, 4.0)),
        Case("head_dim=128, base=500000.0, factor=8.0", (128, 500000.0, 8.0)),
        Case("head_dim=6, base=10000.0, factor=2.0 (head_dim not a power of two)", (6, 10000.0, 2.0)),
        Case("head_dim=16, base=10000.0, factor=1.0 (no stretch)", (16, 10000.0, 1.0)),
        Case("head_dim=32, base=10000.0, factor=2.5", (32, 10000.0, 2.5)),
    ]


NTK_SOLUTION = '''\
import torch

def my_ntk_inv_freq(head_dim, base, factor):
    d = head_dim
    new_base = ntk_base(base, factor, d)  # base'
    i = torch.arange(d // 2, dtype=torch.float64)
    return new_base ** (-2 * i / d)  # ω'_i = base'^(−2i/d): lesson 06's frequencies with base' for base


def ntk_base(base, factor, d):
    """base' with base'^(−(d−2)/d) = base^(−(d−2)/d) / factor: the slowest pair (i = d/2 − 1, exponent
    −2i/d = −(d−2)/d) divided by the factor; pair 0 (base'^0 = 1) is kept whatever base' is."""
    return base * factor ** (d / (d - 2))  # raise both sides to the power −d/(d−2)

H.check("09.ntk_inv_freq", my_ntk_inv_freq)
'''

implement(
    "09.ntk_inv_freq",
    title="find NTK-aware scaling's base and its frequencies",
    reference=_ntk_reference,
    cases=_ntk_cases,
    mistakes={
        "exponent d/(d−2) missing (base·factor, or d // (d − 2), which is 1)": (
            _ntk_base_times_factor,
            "with base' = base·factor the slowest pair, ω'_(d/2−1) = base'^(−(d−2)/d), is divided by "
            "factor^((d−2)/d), a little less than the factor it must be divided by. Solve "
            "base'^(−(d−2)/d) = base^(−(d−2)/d) / factor for base' instead. If you wrote factor ** (d // (d − 2)): "
            "// is integer division, and d // (d − 2) is 1 for every head_dim above 4, so the exponent is lost; "
            "divide with /, factor ** (d / (d − 2)).",
        ),
        "every frequency divided by the factor (position interpolation)": (
            _ntk_linear,
            "that is linear interpolation. NTK-aware scaling keeps the fastest pair (ω'_0 = ω_0 = 1) and "
            "divides only the slowest by the full factor, by raising the base.",
        ),
        "exponent (d−2)/d instead of d/(d−2)": (
            _ntk_exponent_flipped,
            "the exponent comes from the slowest pair's equation, (base')^(−(d−2)/d) = base^(−(d−2)/d) / factor "
            "for i = d/2 − 1: raise both sides to the power −d/(d−2), not −(d−2)/d.",
        ),
        "positive exponent, base'^(+2i/d)": (
            _ntk_positive_exponent,
            "the frequencies fall from ω'_0 = 1: ω'_i = base'^(−2i/d), a negative exponent. With +2i/d they grow "
            "up to about base' radians per position.",
        ),
        "×base missing (base' = factor^(d/(d−2)))": (
            _ntk_base_missing,
            "the factor raises the base the model was trained with: without base in base', even the slowest pair "
            "is far from ω / factor. Keep base in the equation you solve.",
        ),
        "base + factor^(d/(d−2)) instead of base · factor^(d/(d−2))": (
            _ntk_base_plus,
            "solving the slowest pair's equation multiplies the base by a power of the factor; adding barely "
            "moves a base of 10 000, so the slowest pair is hardly slowed.",
        ),
        "ω'_i = base'^(−i/d) instead of base'^(−2i/d)": (
            _ntk_i_over_d,
            "pair i keeps the form of lesson 04, ω'_i = base'^(−2i/d), i = 0 … d/2 − 1; only the base changes.",
        ),
        "base divided instead of multiplied": (
            _ntk_base_divided,
            "stretching slows the pairs down, so the new base is larger than base: the slowest pair is divided "
            "by the factor, not multiplied by it.",
        ),
        "base ** factor instead of base · factor^(d/(d−2))": (
            _ntk_base_to_the_factor,
            "the stretch multiplies the base by a power of the factor, base' = base · factor^(d/(d−2)). "
            "base ** factor raises the base itself to the factor (10000⁴ = 10¹⁶), so the slow pairs all but stop.",
        ),
        "exponent d/(d−1) instead of d/(d−2)": (
            _ntk_d_minus_one,
            "the slowest pair is i = d/2 − 1, whose exponent is −2i/d = −(d−2)/d: solving "
            "base'^(−(d−2)/d) = base^(−(d−2)/d) / factor raises the factor to d/(d−2), not d/(d−1).",
        ),
        "head_dim fixed at 16": (
            _ntk_head_dim_16,
            "use d, the head_dim ntk_base is given: factor^(16/14) is right only for heads of 16 features; "
            "the cases use 6, 32, 64 and 128 too.",
        ),
        "head_dim fixed at 128 (or 64)": (
            (_ntk_head_dim_fixed(128), _ntk_head_dim_fixed(64)),
            "use d, the head_dim ntk_base is given: factor^(128/126) is right only for heads of 128 features "
            "(Llama's); the cases try other sizes.",
        ),
        "(base·factor)^(d/(d−2)): the base raised too": (
            _ntk_all_raised,
            "only the factor takes the exponent: base' = base · factor^(d/(d−2)). Raising base·factor as a whole "
            "also raises the base, and every pair but the fastest slows down too much.",
        ),
        "exponent 2/d instead of d/(d−2)": (
            _ntk_two_over_d,
            "the exponent comes from the slowest pair's equation, base'^(−(d−2)/d) = base^(−(d−2)/d) / factor: "
            "raise both sides to the power −d/(d−2), so base' = base · factor^(d/(d−2)). With 2/d the slowest "
            "pair is hardly slowed.",
        ),
    },
    hints=(
        "Pair 0 is kept for any base' (base'^0 = 1). Dividing the slowest pair by the factor is one equation in "
        "base': that pair, i = d/2 − 1, has the exponent −2i/d = −(d−2)/d, so "
        "base'^(−(d−2)/d) = base^(−(d−2)/d) / factor.",
        "Raise both sides to the power −d/(d−2): base' = base · factor^(d/(d−2)). Then ω'_i = base'^(−2i/d), "
        "i = 0 … d/2 − 1.",
    ),
    solution=NTK_SOLUTION,
    where=_pair_where,
    axes=("pairs",),
    half_why=_HALF_WHY,
    half=(_ntk_in(torch.float16), _ntk_in(torch.bfloat16), _ntk_base_stored_in(torch.float16),
          _ntk_base_stored_in(torch.bfloat16)),
    explain=_ntk_explain,
    atol=1e-12,
)

# --- 09.llama3_inv_freq -----------------------------------------------------------------------


def _llama3_reference(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    return scaled_frequencies(head_dim, base, "llama3", factor, original_max_len,
                              low_freq_factor=low_freq_factor, high_freq_factor=high_freq_factor)[0]


def _llama3(omega, factor, low, high, length, two_pi=2 * math.pi):
    """Llama 3.1's rule in Hugging Face's wavelength form, written out independently of rope_scaling."""
    out = []
    for w in omega.tolist():
        wavelength = two_pi / w
        if wavelength < length / high:
            out.append(w)
        elif wavelength > length / low:
            out.append(w / factor)
        else:
            smooth = (length / wavelength - low) / (high - low)
            out.append((1 - smooth) * w / factor + smooth * w)
    return torch.tensor(out, dtype=torch.float64)


def _swapped_branches(head_dim, base, factor, low, high, length):
    # the branch form with the two swapped: every pair turning more than `low` times is kept, the others divided
    return _llama3(_omega(head_dim, base), factor, high, low, length)


def _swapped_ramp(head_dim, base, factor, low, high, length):
    # low and high exchanged in the blend: s = (r − high)/(low − high), clamped to [0, 1]
    omega = _omega(head_dim, base)
    r = length * omega / (2 * math.pi)
    kept = ((r - high) / (low - high)).clamp(0.0, 1.0)
    return omega * kept + omega / factor * (1 - kept)


def _reversed_middle(head_dim, base, factor, low, high, length):
    # the ends right (fast pairs kept, slow ones divided) but the middle blended the other way round
    omega = _omega(head_dim, base)
    r = length * omega / (2 * math.pi)
    kept = (r - low) / (high - low)
    middle = (1 - kept) * omega + kept * omega / factor
    return torch.where(r <= low, omega / factor, torch.where(r >= high, omega, middle))


def _reversed_unclamped(head_dim, base, factor, low, high, length):
    omega = _omega(head_dim, base)
    kept = 1 - (length * omega / (2 * math.pi) - low) / (high - low)
    return kept * omega + (1 - kept) * omega / factor


def _llama3_unclamped(head_dim, base, factor, low, high, length):
    # the kept share s = (r − low)/(high − low) used as it is, above 1 for fast pairs and below 0 for slow ones
    omega = _omega(head_dim, base)
    kept = (length * omega / (2 * math.pi) - low) / (high - low)
    return kept * omega + (1 - kept) * omega / factor


def _llama3_no_two_pi(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    return _llama3(_omega(head_dim, base), factor, low_freq_factor, high_freq_factor, original_max_len, two_pi=1.0)


def _llama3_linear(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    return _omega(head_dim, base) / factor


def _llama3_thresholds_multiplied(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    # wavelength thresholds L·high and L·low instead of L/high and L/low
    omega = _omega(head_dim, base)
    out = []
    for w in omega.tolist():
        wavelength = 2 * math.pi / w
        if wavelength < original_max_len * low_freq_factor:
            out.append(w)
        elif wavelength > original_max_len * high_freq_factor:
            out.append(w / factor)
        else:
            smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append((1 - smooth) * w / factor + smooth * w)
    return torch.tensor(out, dtype=torch.float64)


def _llama3_wavelength_as_turns(head_dim, base, factor, low, high, length):
    omega = _omega(head_dim, base)
    kept = ((2 * math.pi / omega - low) / (high - low)).clamp(0.0, 1.0)
    return kept * omega + (1 - kept) * omega / factor


def _llama3_times_factor(head_dim, base, factor, low, high, length):
    omega = _omega(head_dim, base)
    kept = ((length * omega / (2 * math.pi) - low) / (high - low)).clamp(0.0, 1.0)
    return kept * omega + (1 - kept) * omega * factor


def _llama3_hard(threshold):
    def frequencies(head_dim, base, factor, low, high, length):
        omega = _omega(head_dim, base)
        turns = length * omega / (2 * math.pi)
        cut = {"high": high, "low": low, "middle": (low + high) / 2}[threshold]
        return torch.where(turns >= cut, omega, omega / factor)
    return frequencies


def _llama3_blend(omega, factor, low, high, length, kept=None):
    if kept is None:
        kept = ((length * omega / (2 * math.pi) - low) / (high - low)).clamp(0.0, 1.0)
    return kept * omega + (1 - kept) * omega / factor


def _llama3_i_over_d(head_dim, base, factor, low, high, length):
    omega = float(base) ** (-torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)
    return _llama3_blend(omega, factor, low, high, length)


def _llama3_pairs_from_one(head_dim, base, factor, low, high, length):
    omega = float(base) ** (-2.0 * torch.arange(1, head_dim // 2 + 1, dtype=torch.float64) / head_dim)
    return _llama3_blend(omega, factor, low, high, length)


def _llama3_ramp_in_wavelength(head_dim, base, factor, low, high, length):
    # the kept share linear in the wavelength λ = 2π/ω between L/high and L/low, instead of in the turns r = L/λ
    omega = _omega(head_dim, base)
    wavelength = 2 * math.pi / omega
    kept = ((length / low - wavelength) / (length / low - length / high)).clamp(0.0, 1.0)
    return _llama3_blend(omega, factor, low, high, length, kept)


def _llama3_numbers_written_in(head_dim, base, factor, low, high, length):
    # Llama 3.1's own settings in place of the arguments (only head_dim taken from them)
    return _llama3_blend(_omega(head_dim, 500000.0), 8.0, 1.0, 4.0, 8192)


def _llama3_one_written_in(which):
    # one of Llama 3.1's settings written in place of its argument, the others taken from the arguments
    def frequencies(head_dim, base, factor, low, high, length):
        given = {"base": base, "factor": factor, "low": low, "high": high, "length": length}
        given[which] = {"base": 500000.0, "factor": 8.0, "low": 1.0, "high": 4.0, "length": 8192}[which]
        return _llama3_blend(_omega(head_dim, given["base"]), given["factor"], given["low"], given["high"],
                             given["length"])
    return frequencies


def _llama3_pi_rounded(pi):
    def frequencies(head_dim, base, factor, low, high, length):
        omega = _omega(head_dim, base)
        kept = ((length * omega / (2 * pi) - low) / (high - low)).clamp(0.0, 1.0)
        return _llama3_blend(omega, factor, low, high, length, kept)
    return frequencies


def _llama3_harmonic(head_dim, base, factor, low, high, length):
    # the blend taken on the wavelengths 1/ω: 1/ω' = s/ω + (1 − s)·factor/ω
    omega = _omega(head_dim, base)
    kept = ((length * omega / (2 * math.pi) - low) / (high - low)).clamp(0.0, 1.0)
    return 1 / (kept / omega + (1 - kept) * factor / omega)


def _llama3_in(dtype):
    def frequencies(head_dim, base, factor, low, high, length):
        omega = (float(base) ** (-2 * torch.arange(head_dim // 2, dtype=torch.float64) / head_dim)).to(dtype)
        kept = ((length * omega / (2 * math.pi) - low) / (high - low)).clamp(0.0, 1.0)
        return (kept * omega + (1 - kept) * omega / factor).double()
    return frequencies


def _llama3_cases() -> list[Case]:
    return [
        Case("Llama 3.1: head_dim=128, base=500000.0, factor=8.0, low=1.0, high=4.0, L=8192",
             (128, 500000.0, 8.0, 1.0, 4.0, 8192)),
        Case("head_dim=64, base=10000.0, factor=4.0, low=1.0, high=4.0, L=256", (64, 10000.0, 4.0, 1.0, 4.0, 256)),
        Case("head_dim=10, base=10000.0, factor=2.0, low=1.0, high=4.0, L=512 (head_dim not a power of two)",
             (10, 10000.0, 2.0, 1.0, 4.0, 512)),
        Case("head_dim=32, base=10000.0, factor=1.0 (no stretch), low=1.0, high=4.0, L=128",
             (32, 10000.0, 1.0, 1.0, 4.0, 128)),
        Case("head_dim=48, base=10000.0, factor=4.0, low=2.0, high=32.0, L=1024", (48, 10000.0, 4.0, 2.0, 32.0, 1024)),
    ]


LLAMA3_SOLUTION = '''\
import math
import torch

def my_llama3_inv_freq(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    """Llama 3.1's frequencies (head_dim/2,): keep the fast pairs, divide the slow ones by factor, blend between."""
    i = torch.arange(head_dim // 2, dtype=torch.float64)
    omega = base ** (-2 * i / head_dim)
    turns = original_max_len * omega / (2 * math.pi)          # r_i: turns of pair i within L
    kept = ((turns - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0.0, 1.0)
    return kept * omega + (1 - kept) * omega / factor

H.check("09.llama3_inv_freq", my_llama3_inv_freq)
'''

implement(
    "09.llama3_inv_freq",
    title="compute Llama 3.1's scaled frequencies",
    reference=_llama3_reference,
    cases=_llama3_cases,
    mistakes={
        "the blend reversed (s and 1 − s swapped, or low and high)": (
            (_swapped_ramp, _reversed_middle, _reversed_unclamped),
            "pairs turning at least high_freq_factor times within L are kept, those turning at most "
            "low_freq_factor times are divided: the kept share s = (r − low)/(high − low) grows with r, and "
            "the result is s·ω + (1 − s)·ω/factor. Exchanging low and high in s, using 1 − s, or putting s on "
            "ω/factor instead of on ω, blends the wrong way round: the faster a middle pair, the more it is "
            "divided.",
        ),
        "the blend weight s not clamped to [0, 1]": (
            _llama3_unclamped,
            "s = (r − low)/(high − low) is a share: above high_freq_factor turns it exceeds 1, so "
            "s·ω + (1 − s)·ω/factor speeds a fast pair up beyond ω, and below low_freq_factor it turns "
            "negative, slowing a slow pair past ω/factor (or below zero). Clamp it: s.clamp(0, 1), or the three "
            "branches.",
        ),
        "wavelength taken as 1/ω instead of 2π/ω": (
            _llama3_no_two_pi,
            "a pair's wavelength is 2π/ω_i, so it turns r_i = L·ω_i/2π times within L.",
        ),
        "every frequency divided by the factor (position interpolation)": (
            _llama3_linear,
            "Llama 3 keeps the fast pairs as they are: only pairs with r_i ≤ low_freq_factor are divided "
            "by the full factor.",
        ),
        "wavelength 2π/ω compared with the thresholds instead of the turns r": (
            _llama3_wavelength_as_turns,
            "low_freq_factor and high_freq_factor are numbers of turns within L: compare r_i = L·ω_i/2π with them, "
            "not the wavelength 2π/ω_i.",
        ),
        "slow pairs multiplied by the factor instead of divided": (
            _llama3_times_factor,
            "stretching the context slows the slow pairs down: ω_i / factor, so that they still turn less than "
            "once over the longer context.",
        ),
        "the middle pairs not blended (one hard threshold)": (
            (_llama3_hard("high"), _llama3_hard("middle"), _llama3_hard("low"), _swapped_branches),
            "only the two ends are kept or divided outright: the pairs turning between low_freq_factor and "
            "high_freq_factor times within L get the blend s·ω_i + (1 − s)·ω_i/factor with "
            "s = (r_i − low)/(high − low), so that no pair's frequency jumps. One torch.where on a single "
            "threshold keeps or divides them all.",
        ),
        "wavelength thresholds L·factor instead of L/factor": (
            _llama3_thresholds_multiplied,
            "a pair is kept when its wavelength is below L / high_freq_factor and divided when it is above "
            "L / low_freq_factor (equivalently r_i ≥ high_freq_factor, r_i ≤ low_freq_factor).",
        ),
        "ω_i = base^(−i/d) instead of base^(−2i/d)": (
            _llama3_i_over_d,
            "the frequencies before the stretch are lesson 04's, ω_i = base^(−2i/head_dim), i = 0 … head_dim/2 − 1: "
            "with −i/d they fall only half as fast, and pair i gets the frequency of pair i/2.",
        ),
        "pairs counted from 1": (
            _llama3_pairs_from_one,
            "pair 0 is the fastest, ω_0 = base⁰ = 1: i runs over 0 … head_dim/2 − 1, torch.arange(head_dim // 2).",
        ),
        "Llama 3.1's numbers written in instead of the arguments": (
            _llama3_numbers_written_in,
            "use the arguments, base, factor, low_freq_factor, high_freq_factor and original_max_len: Llama 3.1's "
            "500000, 8, 1, 4 and 8192 are one setting of them, and the cases try others.",
        ),
        **{f"{argument} written in as {value}": (
            _llama3_one_written_in(which),
            f"use the argument {argument} where your code has {value}: Llama 3.1's {value} is one setting of it, "
            "and the cases try others.",
        ) for which, argument, value in (("length", "original_max_len", "8192"), ("low", "low_freq_factor", "1"),
                                         ("high", "high_freq_factor", "4"), ("factor", "factor", "8"),
                                         ("base", "base", "500000"))},
        "π rounded (3.14)": (
            (_llama3_pi_rounded(3.14), _llama3_pi_rounded(22 / 7)),
            "3.14 is π to three digits only, and the pairs near the thresholds move by more than the check "
            "allows: use math.pi (or torch.pi).",
        ),
        "the blend taken on the wavelengths instead of the frequencies": (
            _llama3_harmonic,
            "blend the frequencies themselves: ω' = s·ω + (1 − s)·ω/factor. Blending the wavelengths, "
            "1/ω' = s/ω + (1 − s)·factor/ω, gives another curve between the same two ends.",
        ),
        "the blend linear in the wavelength instead of in the turns": (
            _llama3_ramp_in_wavelength,
            "the kept share is linear in the turns r_i = L·ω_i/2π: s = (r_i − low)/(high − low). The wavelength "
            "2π/ω_i = L/r_i runs between the same thresholds, L/high and L/low, but a share linear in it is another "
            "curve, which agrees with Llama's only at the two ends.",
        ),
    },
    hints=(
        "For each pair count its turns within the original length: r_i = original_max_len · ω_i / 2π.",
        "r_i ≥ high_freq_factor: keep ω_i; r_i ≤ low_freq_factor: ω_i / factor; between them, blend the two "
        "with the kept share s = (r_i − low_freq_factor)/(high_freq_factor − low_freq_factor).",
        "One expression does all three: s = ((r − low)/(high − low)).clamp(0, 1), then s·ω + (1 − s)·ω/factor.",
    ),
    solution=LLAMA3_SOLUTION,
    where=_llama3_where,
    axes=("pairs",),
    half_why=_HALF_WHY,
    half=(_llama3_in(torch.float16), _llama3_in(torch.bfloat16)),
    atol=1e-12,
)
