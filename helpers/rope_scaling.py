"""Stretching RoPE past its training length: the scaled frequencies of five published methods, and
what stretching does to the angles (unseen angles, blurred neighbours, a rotated key cache).

Every method starts from the usual frequencies ω_i = base^(−2i/d), i = 0 … d/2 − 1 (d = head_dim),
and returns new ones ω'_i. The scale of pair i is s_i = ω_i / ω'_i: 1 means the pair is kept
(it *extrapolates*: past the training length it reaches angles it never saw), ``factor`` means it
is fully *interpolated* (its angles are squeezed back into the trained range), anything between
is a *blend*. With L the original (training) length, pair i turns r_i = L·ω_i / 2π times within L;
its wavelength is 2π/ω_i = L / r_i.

- ``"linear"`` — position interpolation (Chen et al. 2023): ω'_i = ω_i / factor for every pair,
  which is the same as dividing every position by the factor.
- ``"ntk"`` — NTK-aware scaling: a larger base, base' = base·factor^(d/(d−2)), the one that divides
  the slowest pair by the factor and keeps the fastest: ω'_i = ω_i·factor^(−2i/(d−2)).
- ``"dynamic"`` — dynamic NTK: "ntk" with a factor that follows the current length n,
  factor_n = factor·n/L − (factor − 1) when n > L; nothing changes while n ≤ L.
- ``"yarn"`` — YaRN (Peng et al. 2023): pairs turning at least β_fast (32) times within L are kept,
  pairs turning at most β_slow (1) times are divided by the factor, and the ones between are blended
  along a linear ramp; q and k are each multiplied by 0.1·ln(factor) + 1.
- ``"llama3"`` — Llama 3.1: pairs with r_i ≥ high_freq_factor are kept, pairs with
  r_i ≤ low_freq_factor are divided by the factor, and between them the kept share is
  (r_i − low_freq_factor) / (high_freq_factor − low_freq_factor).

The two ramps differ: Llama 3's is linear in r_i. The YaRN paper writes its ramp in r too, but
the authors' released code — and Hugging Face's, the one checkpoints are run with — ramps linearly
in the pair index i (that is, in ln r_i) between the pairs where r = β_fast and r = β_slow, rounded
outward to whole pairs, and never starting before pair 0. Where pair 0 turns at least β_fast times
within L (Llama 2, Llama 3.1), both keep and fully interpolate the same pairs and only the blends differ.
Where it does not (a short L or a small head), the code still keeps pair 0, which the paper's formula
would blend. This module follows the released code.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import torch

from ._checks import check_base, check_choice, check_even, check_finite, check_int
from .encodings import frequencies
from .rotary import rope

SCALING_METHODS = ("linear", "ntk", "dynamic", "yarn", "llama3")
PAIR_KINDS = ("extrapolated", "blended", "interpolated")

_REQUIRED = object()
# The keyword parameters each method takes beyond factor and original_max_len, with their defaults.
_METHOD_PARAMETERS = {
    "linear": {},
    "ntk": {},
    "dynamic": {"seq_len": _REQUIRED},
    "yarn": {"beta_fast": 32.0, "beta_slow": 1.0, "mscale": None, "mscale_all_dim": None, "truncate": True},
    "llama3": {"low_freq_factor": _REQUIRED, "high_freq_factor": _REQUIRED},
}
_NEEDS_ORIGINAL_LENGTH = ("dynamic", "yarn", "llama3")


def _check_positive(name: str, value) -> float:
    value = check_finite(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return value


def _check_factor(factor) -> float:
    factor = check_finite("factor", factor)
    if factor < 1.0:
        raise ValueError(f"factor must be a finite number ≥ 1 (1 leaves the frequencies unchanged), got {factor}")
    return factor


def _method_parameters(method: str, params: dict) -> dict:
    """The method's parameters with defaults filled in; unknown or missing ones raise TypeError."""
    accepted = _METHOD_PARAMETERS[method]
    listed = ", ".join(accepted) or "none besides factor and original_max_len"
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise TypeError(f"method {method!r} takes no parameter {unknown[0]!r}; its parameters: {listed}")
    values = {name: params.get(name, default) for name, default in accepted.items()}
    missing = [name for name, value in values.items() if value is _REQUIRED]
    if missing:
        raise TypeError(f"method {method!r} needs the parameter {missing[0]!r}; its parameters: {listed}")
    return values


def dynamic_ntk_factor(factor: float, seq_len: int, original_max_len: int) -> float:
    """The factor dynamic NTK uses at length n = seq_len: factor·n/L − (factor − 1) if n > L, else 1.

    It is 1 at n = L and grows linearly with n; at factor = 1 it is n/L, the stretch that just fits.
    """
    factor = _check_factor(factor)
    seq_len = check_int("seq_len", seq_len, 1)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    if seq_len <= original_max_len:
        return 1.0
    return factor * seq_len / original_max_len - (factor - 1.0)


def _ntk(omega: torch.Tensor, factor: float) -> torch.Tensor:
    d = 2 * omega.numel()
    i = torch.arange(d // 2, dtype=torch.float64)
    return omega * factor ** (-2.0 * i / (d - 2))


def _yarn_magnitude(factor: float, mscale: float) -> float:
    return 0.1 * mscale * math.log(factor) + 1.0


def _yarn_ramp(d, base, original_max_len, beta_fast, beta_slow, truncate):
    """YaRN's interpolated share of each pair (0 kept … 1 divided by the factor); it depends on L,
    base and d only, never on the factor."""

    def pair_turning(rotations: float) -> float:
        # Solve L·base^(−2i/d) / 2π = rotations for i.
        return d * math.log(original_max_len / (2 * math.pi * rotations)) / (2 * math.log(base))

    first, last = pair_turning(beta_fast), pair_turning(beta_slow)
    if truncate:
        first, last = math.floor(first), math.ceil(last)
    # The fastest pair is always kept; the released code also caps the ramp's end at d − 1.
    first, last = max(first, 0), min(last, d - 1)
    i = torch.arange(d // 2, dtype=torch.float64)
    if last > first:
        return ((i - first) / (last - first)).clamp(0.0, 1.0)
    return (i > first).to(torch.float64)  # a ramp of zero width: a step just after the first pair


def _yarn(omega, base, factor, original_max_len, beta_fast, beta_slow, mscale, mscale_all_dim, truncate):
    share = _yarn_ramp(2 * omega.numel(), base, original_max_len, beta_fast, beta_slow, truncate)
    inv_freq = omega * (1.0 - share) + (omega / factor) * share

    if mscale is None:
        attention_scale = _yarn_magnitude(factor, 1.0)
    else:  # DeepSeek's form: a ratio of two magnitudes
        attention_scale = _yarn_magnitude(factor, mscale) / _yarn_magnitude(factor, mscale_all_dim)
    return inv_freq, attention_scale


def _llama3(omega, factor, original_max_len, low_freq_factor, high_freq_factor):
    rotations = original_max_len * omega / (2 * math.pi)
    kept_share = ((rotations - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0.0, 1.0)
    return omega * kept_share + (omega / factor) * (1.0 - kept_share)


def scaled_frequencies(
    head_dim: int,
    base: float = 10000.0,
    method: str = "linear",
    factor: float = 1.0,
    original_max_len: int | None = None,
    **params,
) -> tuple[torch.Tensor, float]:
    """Frequencies for RoPE stretched by ``factor``, and the scale for the rotated q and k.

    Returns ``(inv_freq, attention_scale)``: ``inv_freq`` a float64 tensor of shape (head_dim//2,)
    to pass as ``rope(x, positions, freqs=inv_freq)``; ``attention_scale`` a float by which the
    rotated q and k are each multiplied (as Hugging Face multiplies its cos and sin), so attention
    logits grow by its square. It is 1.0 except for YaRN: 0.1·ln(factor) + 1, or, given ``mscale``
    and ``mscale_all_dim`` (DeepSeek), (0.1·mscale·ln(factor) + 1) / (0.1·mscale_all_dim·ln(factor) + 1).

    ``method`` is one of SCALING_METHODS (see the module docstring for each formula);
    ``original_max_len`` is the training length L, needed by "dynamic", "yarn" and "llama3"
    (the others accept and ignore it). Method parameters:

    - "dynamic": ``seq_len`` (required), the current length n;
    - "yarn": ``beta_fast`` = 32, ``beta_slow`` = 1 (rotations within L, beta_fast > beta_slow),
      ``mscale`` and ``mscale_all_dim`` (both or neither, > 0), ``truncate`` = True (round the ramp's
      ends outward to whole pairs; False keeps them fractional, as gpt-oss does);
    - "llama3": ``low_freq_factor`` and ``high_freq_factor`` (required, high > low > 0;
      Llama 3.1 uses 1 and 4).

    With factor = 1 every method returns the usual base^(−2i/d) — except "dynamic" past L,
    whose factor then is n/L (see ``dynamic_ntk_factor``).
    """
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    method = check_choice("method", method, SCALING_METHODS)
    factor = _check_factor(factor)
    p = _method_parameters(method, params)
    if original_max_len is None:
        if method in _NEEDS_ORIGINAL_LENGTH:
            raise TypeError(f"method {method!r} needs original_max_len, the length the model was trained at")
    else:
        original_max_len = check_int("original_max_len", original_max_len, 1)
    if method in ("ntk", "dynamic") and head_dim < 4:
        raise ValueError(
            f"head_dim must be ≥ 4 for method {method!r} (it keeps the fastest pair and divides the slowest, "
            f"which needs two pairs), got {head_dim}"
        )
    omega = frequencies(head_dim, base, torch.float64)

    if method == "linear":
        return omega / factor, 1.0
    if method == "ntk":
        return _ntk(omega, factor), 1.0
    if method == "dynamic":
        return _ntk(omega, dynamic_ntk_factor(factor, p["seq_len"], original_max_len)), 1.0
    if method == "yarn":
        beta_fast = _check_positive("beta_fast", p["beta_fast"])
        beta_slow = _check_positive("beta_slow", p["beta_slow"])
        if beta_fast <= beta_slow:
            raise ValueError(
                f"beta_fast must be greater than beta_slow (rotations within the original length), "
                f"got beta_fast={beta_fast} and beta_slow={beta_slow}"
            )
        mscale, mscale_all_dim = p["mscale"], p["mscale_all_dim"]
        if (mscale is None) != (mscale_all_dim is None):
            raise TypeError(
                f"mscale and mscale_all_dim go together: give both or neither, "
                f"got mscale={mscale!r} and mscale_all_dim={mscale_all_dim!r}"
            )
        if mscale is not None:
            mscale = _check_positive("mscale", mscale)
            mscale_all_dim = _check_positive("mscale_all_dim", mscale_all_dim)
        if not isinstance(p["truncate"], bool):
            raise TypeError(f"truncate must be True or False, got {p['truncate']!r}")
        return _yarn(omega, base, factor, original_max_len, beta_fast, beta_slow, mscale, mscale_all_dim,
                     p["truncate"])
    low = _check_positive("low_freq_factor", p["low_freq_factor"])
    high = _check_positive("high_freq_factor", p["high_freq_factor"])
    if high <= low:
        raise ValueError(
            f"high_freq_factor must be greater than low_freq_factor, got high_freq_factor={high} "
            f"and low_freq_factor={low}"
        )
    return _llama3(omega, factor, original_max_len, low, high), 1.0


def _check_frequencies(name: str, value) -> torch.Tensor:
    if not isinstance(value, torch.Tensor) or not value.is_floating_point() or value.dim() != 1:
        shape = tuple(value.shape) if isinstance(value, torch.Tensor) else type(value).__name__
        raise TypeError(f"{name} must be a 1-D floating-point tensor of frequencies, got {shape}")
    value = value.detach().to(torch.float64)
    if not bool((torch.isfinite(value) & (value > 0)).all()):
        raise ValueError(f"{name} must hold finite frequencies > 0, got {value.tolist()}")
    return value


def relative_wavelengths(inv_freq: torch.Tensor, original_max_len: int) -> torch.Tensor:
    """Each pair's wavelength as a multiple of the training length: 2π / (ω_i·L), float64 (d/2,).

    Below 1 the pair completes a full turn within L (r_i = 1 / this); above 1 it never did.
    """
    inv_freq = _check_frequencies("inv_freq", inv_freq)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    return 2 * math.pi / (inv_freq * original_max_len)


def pair_scales(original: torch.Tensor, scaled: torch.Tensor) -> torch.Tensor:
    """Per-pair scale s_i = original_i / scaled_i, float64 (d/2,): 1 kept, ``factor`` fully interpolated."""
    original = _check_frequencies("original", original)
    scaled = _check_frequencies("scaled", scaled)
    if original.shape != scaled.shape:
        raise ValueError(
            f"original and scaled must have the same shape, got {tuple(original.shape)} and {tuple(scaled.shape)}"
        )
    return original / scaled


def classify_pairs(scales: torch.Tensor, factor: float, rel_tol: float = 1e-9) -> tuple[str, ...]:
    """Name each pair by its scale: "extrapolated" (≈ 1), "interpolated" (≈ factor) or "blended".

    ``scales`` as from ``pair_scales``; ``factor`` the full interpolation (≥ 1; for "dynamic",
    its ``dynamic_ntk_factor``); equality within ``rel_tol``. Names are from PAIR_KINDS.
    """
    scales = _check_frequencies("scales", scales)
    factor = _check_factor(factor)
    if isinstance(rel_tol, bool) or not isinstance(rel_tol, numbers.Real) or not 0 <= rel_tol < 1:
        raise ValueError(f"rel_tol must be a number in [0, 1), got {rel_tol!r}")
    kinds = []
    for s in scales.tolist():
        if math.isclose(s, 1.0, rel_tol=rel_tol):
            kinds.append("extrapolated")
        elif math.isclose(s, factor, rel_tol=rel_tol):
            kinds.append("interpolated")
        else:
            kinds.append("blended")
    return tuple(kinds)


# ---------------------------------------------------------------------------------------------
# Why plain extrapolation fails, and why plain interpolation blurs neighbours


class UnseenAngles(NamedTuple):
    """Per pair: which angles a key at offset δ in L … n−1 gets that no offset below L gave it."""

    turns_within_l: torch.Tensor  # (d/2,) float64: (L−1)·ω_i / 2π, how far pair i turned over training offsets
    largest_gap: torch.Tensor  # (d/2,) float64: max over δ ∈ [L, n) of the distance (rad) to the nearest
    #                            angle δ'·ω_i (mod 2π) with δ' < L; 0 = nothing new


def unseen_angles(inv_freq: torch.Tensor, original_max_len: int, length: int) -> UnseenAngles:
    """For offsets δ = L … n−1 (n = ``length`` > L), how far each pair's angle δ·ω_i lies from every
    angle δ'·ω_i (mod 2π) the training offsets δ' = 0 … L−1 produced. ``inv_freq``: (d/2,) ω_i.

    A pair that turned less than once within L meets angles up to (n−1)·ω_i that no training
    offset showed it; a fast pair only revisits angles it has seen (gaps below ω_i / 2).
    """
    omega = _check_frequencies("inv_freq", inv_freq)
    original_max_len = check_int("original_max_len", original_max_len, 1)
    length = check_int("length", length, original_max_len + 1)
    tau = 2 * math.pi
    seen = torch.remainder(torch.arange(original_max_len, dtype=torch.float64)[:, None] * omega, tau)
    seen = seen.sort(dim=0).values.T.contiguous()  # (d/2, L), ascending per pair
    circle = torch.cat([seen[:, -1:] - tau, seen, seen[:, :1] + tau], dim=1)  # wrap-around neighbours
    new = torch.remainder(torch.arange(original_max_len, length, dtype=torch.float64)[:, None] * omega, tau)
    new = new.T.contiguous()  # (d/2, n − L)
    right = torch.searchsorted(circle, new).clamp(1, circle.shape[1] - 1)
    gap = torch.minimum(circle.gather(1, right) - new, new - circle.gather(1, right - 1)).clamp(min=0.0)
    return UnseenAngles((original_max_len - 1) * omega / tau, gap.amax(1))


class NeighbourBlur(NamedTuple):
    """What interpolation does to nearby offsets."""

    fastest_step: float  # ω'_0: the angle between neighbouring positions in the fastest pair (rad)
    original_step: float  # ω_0 before scaling
    looks_like: float  # the (fractional) trained offset whose rotation the offset asked about now gets


def neighbour_blur(inv_freq: torch.Tensor, original: torch.Tensor, offset: int) -> NeighbourBlur:
    """The fastest pair's step before and after scaling, and, when every pair is scaled alike
    (position interpolation), the trained offset that ``offset`` now looks like: offset·ω'_0/ω_0."""
    scale = pair_scales(original, inv_freq)
    offset = check_int("offset", offset, 0)
    return NeighbourBlur(float(inv_freq[0]), float(original[0]), offset / float(scale[0]))


# ---------------------------------------------------------------------------------------------
# The dynamic-NTK cache pitfall


class CacheMismatch(NamedTuple):
    """Scores of the newest query against every key, computed three ways. Errors are the largest
    |difference| from ``fresh``, relative to the largest fresh score."""

    fresh: torch.Tensor  # (n,) every key rotated now, with the frequencies of the current length n
    rotated_cache: torch.Tensor  # (n,) keys cached after rotation, each with the frequencies of its time
    unrotated_cache: torch.Tensor  # (n,) keys cached before rotation and rotated now
    rotated_cache_error: float
    unrotated_cache_error: float


def dynamic_cache_mismatch(
    q: torch.Tensor, keys: torch.Tensor, *, base: float, original_max_len: int, prompt_len: int,
    factor: float = 1.0,
) -> CacheMismatch:
    """Dynamic NTK in a decoder with a key cache. A prompt of c = ``prompt_len`` tokens is processed
    at once (its keys rotated with the frequencies for length c), then one token at a time up to
    n = len(keys): the key at position j ≥ c is rotated with the frequencies for length j + 1.
    The query q (d,) of the last token sits at n − 1 and uses the frequencies for length n.

    Dynamic NTK changes the frequencies whenever the length passes L, so keys rotated at an
    earlier length and kept in the cache no longer match the query's frequencies. Caching keys
    before the rotation (rotating them when attending) gives the fresh scores again.
    keys: (n, d); returns the three score vectors (n,) and the two relative errors.
    """
    q = q.detach().to(torch.float64)
    keys = keys.detach().to(torch.float64)
    if keys.dim() != 2 or q.shape != keys.shape[-1:]:
        raise ValueError(f"q must have shape (d,) and keys (n, d), got {tuple(q.shape)} and {tuple(keys.shape)}")
    d = check_even("q.shape[-1] (d)", q.shape[-1])
    n = keys.shape[0]
    prompt_len = check_int("prompt_len", prompt_len, 1)
    if prompt_len > n:
        raise ValueError(f"prompt_len must be at most the number of keys, {n}, got {prompt_len}")

    def freqs_at(length: int) -> torch.Tensor:
        return scaled_frequencies(d, base, "dynamic", factor, original_max_len, seq_len=length)[0]

    def turned(rows: torch.Tensor, angles: torch.Tensor) -> torch.Tensor:
        """Each row (m, d) turned pair by pair by its own angles (m, d/2), as rope turns interleaved pairs."""
        pairs = torch.view_as_complex(rows.contiguous().unflatten(-1, (d // 2, 2)))
        return torch.view_as_real(pairs * torch.polar(torch.ones_like(angles), angles)).flatten(-2)

    now = freqs_at(n)
    q_rot = rope(q[None], torch.tensor([n - 1]), freqs=now)[0]
    fresh = rope(keys, freqs=now) @ q_rot
    prompt = rope(keys[:prompt_len], freqs=freqs_at(prompt_len))
    # each generated key j was rotated when the sequence was j + 1 long: by j·ω'(j + 1), one row per key
    later = torch.arange(prompt_len, n)
    freqs_then = torch.stack([freqs_at(j + 1) for j in later.tolist()]) if n > prompt_len else now[None][:0]
    rotated_cache = torch.cat([prompt, turned(keys[prompt_len:], later.double()[:, None] * freqs_then)]) @ q_rot
    unrotated_cache = rope(keys, torch.arange(n), freqs=now) @ q_rot  # the stored raw keys, rotated now
    top = fresh.abs().max().item()
    return CacheMismatch(fresh, rotated_cache, unrotated_cache, (rotated_cache - fresh).abs().max().item() / top,
                         (unrotated_cache - fresh).abs().max().item() / top)
