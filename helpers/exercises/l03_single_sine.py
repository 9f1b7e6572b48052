"""Lesson 03's exercises (notebooks/03_single_sine.ipynb), in the order the notebook asks them.

03.fixed_code (design): propose my_code(positions) from the position alone, within [−1, 1] out to
    10⁶, no two of the positions 0 … 99 sharing a code (closer than 10⁻⁹) and no exact repeat with any
    period up to 20 000 positions, neighbours apart (steps above 10⁻⁴ for at least 95 % of the neighbours
    over the positions 0 … 10⁶), asked before the lesson shows the sine.
03.gap_trend (predict): from ω = 0.001 to ω = 1, does the smallest gap between 1000 positions rise or fall?
    (It falls, but not steadily: a drop once the wave turns back within the sentence, then no trend.)
03.smallest_gap (implement): my_smallest_gap(omega, length) → 0-dim tensor,
    min over p ≠ q in 0 … length − 1 of |sin(ω·p) − sin(ω·q)|.
03.circle_pair (predict, asked as a recap in Going deeper after the core's chord formula): at ω = 1,
    L = 50, which pair is closest on the circle?
03.near_collision (explore): at an ω of the learner's choice, say why the two closest of 50 codes
    sin(ω·p) are close: of the factors of their gap 2·|cos(ω(i + j)/2)|·|sin(ω(j − i)/2)|, which is the
    smaller, |cos(ω(i + j)/2)| ("mirror") or |sin(ω(j − i)/2)| ("repeat"), the 2 left aside (checked at the
    learner's own ω).
"""

from __future__ import annotations

import math
import numbers

import torch

from ..measure.l03_single_sine import closest_pair, pair_kind, smallest_gap
from .core import Case, WrongOutput, design, explore, implement, predict
from .l02_normalised_positions import SAME_CODE  # two codes closer than this count as one, as in lesson 02

# --- 03.fixed_code (design; asked first, before the lesson shows its fix) ------------------------------


def _positions_codes(fn, positions: torch.Tensor) -> torch.Tensor:
    out = fn(positions.clone())
    if not isinstance(out, torch.Tensor):
        out = torch.as_tensor(out)
    out = out.detach().to(torch.float64).cpu()
    if tuple(out.shape) != tuple(positions.shape):
        raise WrongOutput(f"my_code(positions) should return one code per position, shape {tuple(positions.shape)}, "
                         f"got shape {tuple(out.shape)}")
    return out


def _same_code_whatever_the_sentence(fn) -> tuple[bool, str]:
    short = _positions_codes(fn, torch.arange(10))
    long = _positions_codes(fn, torch.arange(5000))[:10]
    differs = ~torch.isclose(short, long, rtol=1e-9, atol=1e-12)
    if bool(differs.any()):
        p = int(differs.nonzero()[0])
        return False, (f"position {p} gets {float(short[p]):.6g} in a 10-word sentence and {float(long[p]):.6g} in a "
                       "5000-word one: when the sentence grows its cached keys go stale, lesson 02's problem. Use "
                       "the position alone, not the sentence's length.")
    return True, "A position keeps its code whatever the sentence around it, so cached keys stay valid."


FLOAT16_LARGEST = 65504  # float16's largest finite number: a larger position overflows to inf


def why_not_finite(positions: torch.Tensor, finite: torch.Tensor) -> str:
    """Why a code is nan or inf, from where it happens: past 65 504 alone, float16's overflow; else the formula."""
    if bool(finite[positions <= FLOAT16_LARGEST].all()) and not bool(finite[positions > FLOAT16_LARGEST].any()):
        return ("every position past 65 504 does, and none before: float16's largest number is 65 504, so a larger "
                "position stored in float16 overflows to inf, and sin(inf) or inf/inf is nan. Compute in float32 or "
                "float64 (positions.to(torch.float64)).")
    return "a code must be a finite number; nan comes from 0/0, inf − inf or the sine of inf, inf from dividing by 0."


def _bounded_far_out(fn) -> tuple[bool, str]:
    positions = torch.arange(0, 1_000_001, 997)
    codes = _positions_codes(fn, positions)
    finite = torch.isfinite(codes)
    if not bool(finite.all()):
        k = int((~finite).nonzero()[0])
        return False, (f"position {int(positions[k])} gets the code {float(codes[k]):.6g}: "
                       f"{why_not_finite(positions, finite)}")
    outside = codes.abs() > 1
    if bool(outside.any()):
        k = int(outside.nonzero()[0])
        return False, (f"position {int(positions[k])} gets the code {float(codes[k]):.6g}, outside [−1, 1]: the raw "
                       "index's problem (lesson 01) comes back for long texts.")
    return True, "Codes stay within [−1, 1] out to position 1 000 000."


DISTINCT_UP_TO = 100  # the positions 0 … 99 checked for a shared code
REPEAT_UP_TO = 20_000  # and no exact repeat with any period up to this many positions …
_REPEAT_UP_TO = f"{REPEAT_UP_TO:,}".replace(",", " ")  # as the messages write it: 20 000
REPEAT_WINDOW = 1_000  # … a repeat being this many positions in a row, each equal to the one a period earlier


def _exact_repeat(codes: torch.Tensor) -> int | None:
    """The smallest period T ≤ REPEAT_UP_TO with codes[p + T] = codes[p] (closer than SAME_CODE) for every p in
    0 … REPEAT_WINDOW − 1, or None. A code that passes the check on 0 … 99 can still repeat exactly with a longer
    period, such as (p mod 100)/100; a sine with an irrational ω/π never does (lesson 03, Going deeper)."""
    first = codes[:REPEAT_WINDOW]
    candidates = ((codes[1:REPEAT_UP_TO + 1] - codes[0]).abs() < SAME_CODE).nonzero().flatten() + 1
    for period in candidates[:2000].tolist():
        if bool(((codes[period:period + REPEAT_WINDOW] - first).abs() < SAME_CODE).all()):
            return period
    return None


def _one_code_per_position(fn) -> tuple[bool, str]:
    """No two of the positions 0 … 99 share a code. The threshold is honest for the lesson's sine: over the
    600 values of ω from 10⁻⁴ to π the lesson scans, sin(ω·p) keeps every two of these positions at least
    4·10⁻⁸ apart in float64 and 6·10⁻⁸ in float32, except ω = π itself, which repeats every two positions
    (tests/exercises/test_design.py computes it)."""
    codes = _positions_codes(fn, torch.arange(DISTINCT_UP_TO))
    close = (codes[:, None] - codes[None, :]).abs() < SAME_CODE
    close &= torch.ones_like(close).triu(1)
    if bool(close.any()):
        q = int(close.any(0).nonzero()[0])  # the first position that repeats an earlier code
        p = int(close[:, q].nonzero()[0])
        step = q - p
        period = bool(((codes[step:] - codes[:-step]).abs() < SAME_CODE).all())
        said = "" if not period else " (yours gives every position the same code)" if step == 1 else \
            f" (yours repeats every {step} positions)"
        later = codes[p:]
        if step == 1 and not period and bool(((later - codes[p]).abs() < SAME_CODE).all()):
            return False, (f"from position {p} on your code stays at {float(codes[p]):.6g}: it has flattened out "
                           f"(saturated), so positions {p} and {q} and every later one share a code. No two of the "
                           f"positions 0 … {DISTINCT_UP_TO - 1} may share a code (codes closer than 10⁻⁹ count as "
                           "one).")
        return False, (f"positions {p} and {q} get the same code {float(codes[p]):.6g}: a code that repeats a value "
                       f"cannot tell them apart{said}. No two of the positions 0 … {DISTINCT_UP_TO - 1} may share a "
                       "code (codes closer than 10⁻⁹ count as one).")
    codes = _positions_codes(fn, torch.arange(REPEAT_UP_TO + REPEAT_WINDOW))
    period = _exact_repeat(codes)
    if period is not None:
        return False, (f"positions 0 and {period} get the same code {float(codes[0]):.6g}, and so do p and "
                       f"p + {period} for each of the first {REPEAT_WINDOW} positions p: your code repeats exactly "
                       f"every {period} positions, so a text longer than {period} words has two words with one "
                       f"code. Distinct codes for the positions 0 … {DISTINCT_UP_TO - 1} are not enough: a position "
                       f"code must not repeat exactly (the check looks for exact repeats with any period up to "
                       f"{_REPEAT_UP_TO} positions).")
    return True, (f"No two of the positions 0 … {DISTINCT_UP_TO - 1} share a code (none closer than 10⁻⁹), and the "
                  f"codes never repeat exactly (no period up to {_REPEAT_UP_TO} positions), so every word of a long "
                  "text has its own.")


NEIGHBOURS_UP_TO = 1_000_000  # the neighbour steps checked: every one over the positions 0 … 10⁶
FLAT_STEP = 1e-4  # a neighbour step below this counts as flat …
FLAT_SHARE = 0.05  # … and at most this share of them may be


def _neighbours_apart(fn) -> tuple[bool, str]:
    """At least 95 % of the 10⁶ neighbour steps over the positions 0 … 10⁶ are above 10⁻⁴. A wave comes close to
    standing still near its crests and troughs, for a share of its steps that grows as ω falls (about 6 % for
    sin(0.001·p)); a code that levels off stands still for good."""
    positions = torch.arange(NEIGHBOURS_UP_TO + 1)
    steps = _positions_codes(fn, positions).diff().abs()
    flat = ~(steps >= FLAT_STEP)  # a nan step counts as flat
    share = float(flat.double().mean())
    found = f"over the positions 0 … 1 000 000, {share * 100:.1f} % of the neighbour steps are below 10⁻⁴"
    if share > FLAT_SHARE:
        k = int(flat.nonzero()[0])
        return False, (f"{found} (at most 5 % may be), the first between positions {k} and {k + 1}: there your "
                       "code moves too little from one position to the next (it levels off, or a slow wave lingers "
                       "around its crests and troughs), and attention cannot tell those neighbours apart.")
    return True, (f"Neighbours stay apart: {found} (at most 5 % may be). The lesson takes sin(ω·p), bounded and fixed "
                  "per position, and then asks what it costs.")


FIXED_CODE_SOLUTION = '''\
import torch


def my_code(positions):
    p = positions.to(torch.float64)  # the positions, as floats; no sentence length here
    return code_of(p)  # one code per position, the same shape as positions


def code_of(p):
    """Your formula in the position p alone."""
    return torch.sin(0.01 * p)  # a slow sine: within [−1, 1] for every p, and it never levels off


H.check("03.fixed_code", my_code)
'''

design(
    "03.fixed_code",
    title="propose a code that neither grows nor goes stale",
    question="The raw index grows; normalised codes change when the sentence grows. Complete code_of, a code "
             "computed from the position p alone that stays within [−1, 1] for any position, gives no two "
             "positions of a "
             "sentence the same code (the positions 0 … 99 checked: codes closer than 10⁻⁹ count as one) and "
             "never repeats exactly (no period up to 20 000 positions), and "
             "still tells neighbours apart (steps above 10⁻⁴ for at least 95 % of the neighbours over the "
             "positions 0 … 1 000 000).",
    properties=(("the same for a position whatever the sentence", _same_code_whatever_the_sentence),
                ("bounded", _bounded_far_out), ("one code per position", _one_code_per_position),
                ("able to tell neighbours apart", _neighbours_apart)),
    hints=(
        "You may not look at the sentence's length. Which functions of a number p stay within [−1, 1] for every "
        "p, however large?",
        "A function that levels off (like tanh) stays bounded but stops changing; one that keeps moving up and "
        "down never levels off.",
    ),
    solution=FIXED_CODE_SOLUTION,
)

predict(
    "03.gap_trend",
    title="the smallest gap as ω grows",
    question="From ω = 0.001 to ω = 1 the largest step between neighbours grows a thousandfold. Over "
             "L = 1000 positions, what does the smallest gap between any two positions do?",
    choices={
        "rises": "No: a faster wave does push neighbours apart, but it also comes back to the same heights "
                 "again and again, and then two distant positions land almost on top of each other.",
        "falls": "From one end to the other it falls more than a thousandfold, from about 5·10⁻⁴ at ω = 0.001 to "
                 "about 10⁻⁷ at ω = 1, but not steadily. It drops once the wave turns back within the sentence "
                 "(ω above π/(2·999) ≈ 0.0016): then two distant positions can land almost on top of each other. "
                 "Above that it jumps about with ω, with no trend (ω = 0.01 keeps more than ω = 0.005): the table "
                 "below shows both.",
        "stays": "No: it changes by more than three orders of magnitude, because a faster wave comes back to "
                 "the same heights again and again and two distant positions land almost on top of each other.",
    },
    answer="falls",
    hints=(
        "A fast wave goes up and down many times over 1000 positions. Can two positions far apart land on "
        "nearly the same height?",
        "The smallest gap is over every pair, not only neighbours: the closest pair need not be neighbours.",
    ),
    solution='answer = "falls"\nH.check("03.gap_trend", answer)\n',
)


def _codes(omega, length, first=0, dtype=torch.float64) -> torch.Tensor:
    p = torch.arange(first, first + length, dtype=torch.float64)
    return torch.sin(omega * p).to(dtype)


def _reference(omega, length):
    return smallest_gap(float(omega), int(length))


def _neighbours_only(omega, length):
    return _codes(omega, length).diff().abs().min()


def _same_position_counted(omega, length):
    v = _codes(omega, length)
    return (v[:, None] - v[None, :]).abs().min()


def _positions_from_one(omega, length):
    return _codes(omega, length, first=1).sort().values.diff().min()


def _float32(omega, length):
    return torch.sin(omega * torch.arange(length, dtype=torch.float32)).sort().values.diff().min().double()


def _cos_instead(omega, length):
    return torch.cos(omega * torch.arange(length, dtype=torch.float64)).sort().values.diff().min()


def _signed(omega, length):
    v = _codes(omega, length)
    diff = v[:, None] - v[None, :]
    return diff.fill_diagonal_(float("inf")).min()


def _squared(omega, length):
    return _codes(omega, length).sort().values.diff().min() ** 2


def _one_short(omega, length):
    return _codes(omega, length - 1).sort().values.diff().min() if length > 2 else _reference(omega, length)


def _sorted_descending(omega, length):
    return _codes(omega, length).sort(descending=True).values.diff().min()


def _angle_as_degrees(omega, length):
    return torch.sin(torch.deg2rad(omega * torch.arange(length, dtype=torch.float64))).sort().values.diff().min()


def _angle_to_degrees(omega, length):
    return torch.sin(torch.rad2deg(omega * torch.arange(length, dtype=torch.float64))).sort().values.diff().min()


def _index_of_gap(omega, length):
    return _codes(omega, length).sort().values.diff().argmin()


def _omega_ignored(omega, length):
    return _codes(1.0, length).sort().values.diff().min()


def _largest_gap(omega, length):
    return _codes(omega, length).sort().values.diff().max()


def _length_fixed(omega, length):
    return _codes(omega, 1000).sort().values.diff().min()


def _gap_error_explained(args, err) -> str | None:
    """Two positions make one pair: a function that finds no pair there has left a position out."""
    omega, length = args
    if length == 2 and any(words in str(err) for words in ("numel() == 0", "zero-size array", "empty")):
        return ("with length = 2 there are two positions, 0 and 1, and one gap between their codes, but your function "
                "had nothing to take the min of: it left a position out. The positions are 0 … length − 1, all "
                "length of them: torch.arange(length), not torch.arange(length − 1).")
    return None


def _in_half(omega, length):
    codes = torch.sin(omega * torch.arange(length, dtype=torch.float16))
    return codes.sort().values.diff().min().double()


def _in_bfloat16(omega, length):
    codes = torch.sin(omega * torch.arange(length, dtype=torch.float64)).bfloat16()
    return codes.sort().values.diff().min().double()


def _where(args, index) -> str:
    omega, length = args
    return f"the smallest gap at ω = {omega:.4g} over positions 0 … {length - 1}"


def _cases() -> list[Case]:
    return [
        Case("omega=1.0, length=1000", (1.0, 1000)),
        Case("omega=0.1, length=1000", (0.1, 1000)),
        Case("omega=0.001, length=1000 (a slow wave)", (0.001, 1000)),
        Case("omega=0.3, length=50", (0.3, 50)),
        Case("omega=2.5, length=7", (2.5, 7)),
        Case("omega=3.0, length=2 (two positions)", (3.0, 2)),
        Case("omega=2π/12, length=12 (one exact turn: pairs share a code)", (2 * math.pi / 12, 12)),
    ]


SMALLEST_GAP_SOLUTION = '''\
import torch


def my_smallest_gap(omega, length):
    """min over positions p ≠ q in 0 … length − 1 of |sin(ω·p) − sin(ω·q)|, a 0-dim float64 tensor."""
    codes = torch.sin(omega * torch.arange(length, dtype=torch.float64))
    return codes.sort().values.diff().min()   # sorted, the closest two codes sit side by side


H.check("03.smallest_gap", my_smallest_gap)
'''

implement(
    "03.smallest_gap",
    title="the smallest gap between the codes of two distinct positions",
    reference=_reference,
    cases=_cases,
    mistakes={
        "neighbours only": (
            _neighbours_only,
            "the closest pair need not be neighbours (at ω = 1 it is 11 and 344): compare every pair p ≠ q, "
            "or sort the codes and take the smallest difference between consecutive sorted values.",
        ),
        "a position compared with itself": (
            _same_position_counted,
            "|sin(ω·p) − sin(ω·p)| = 0 for every p: leave out p = q (sorting and .diff() does that by itself).",
        ),
        "positions counted from 1": (
            _positions_from_one,
            "the positions are 0 … length − 1: torch.arange(length) starts at 0.",
        ),
        "cos instead of sin": (
            _cos_instead,
            "the codes of this lesson are sin(ω·p): torch.sin, not torch.cos.",
        ),
        "signed differences (no absolute value)": (
            _signed,
            "a gap is a distance, |sin(ω·p) − sin(ω·q)| ≥ 0: without abs the smallest \"gap\" is the most negative "
            "difference. Take .abs(), or sort first so that consecutive differences are ≥ 0.",
        ),
        "squared distance": (
            _squared,
            "the gap is |sin(ω·p) − sin(ω·q)| itself, not its square.",
        ),
        "one position short (0 … length − 2)": (
            _one_short,
            "the positions are 0 … length − 1, all length of them: torch.arange(length).",
        ),
        "codes sorted in descending order": (
            _sorted_descending,
            "sorted from the largest code down, consecutive differences are ≤ 0, and their min is minus the "
            "largest gap. Sort in ascending order, .sort() with no descending=True, so that the differences are "
            "the gaps (≥ 0), or take .abs() of them.",
        ),
        "angle converted between degrees and radians": (
            (_angle_as_degrees, _angle_to_degrees),
            "ω·p is in radians, and torch.sin takes radians: sin(ω·p) as it is, with no deg2rad, rad2deg or "
            "factor π/180.",
        ),
        "the index of the smallest gap (argmin) instead of the gap": (
            _index_of_gap,
            "argmin gives where the smallest gap sits in the sorted codes (an int64 index), not how large it is: "
            "use .min(), which returns the gap itself, a float64 number.",
        ),
        "omega left out of the angle (sin p)": (
            _omega_ignored,
            "position p's code is sin(ω·p): multiply the positions by the omega argument before the sine, "
            "torch.sin(omega * p), so that each case's ω counts.",
        ),
        "the largest gap (max) instead of the smallest": (
            _largest_gap,
            "the task asks for the smallest gap between two codes, the one that decides whether two positions "
            "can be told apart: take .min() of the sorted codes' differences, not .max().",
        ),
        "length fixed at 1000": (
            _length_fixed,
            "use the length argument, torch.arange(length): 1000 is the lesson's length, and the cases try others.",
        ),
        "computed in float32": (
            _float32,
            "float32 codes near ±1 are spaced 6·10⁻⁸ apart, so a gap of 1.3·10⁻⁷ (ω = 1) comes out about 10 % "
            "off and smaller gaps are lost: compute the codes in float64, torch.arange(length, dtype=torch.float64).",
        ),
    },
    hints=(
        "Compute the codes sin(ω·p) for p = 0 … length − 1 in float64: torch.arange(length, dtype=torch.float64).",
        "Once the codes are sorted, the two closest ones sit side by side: .sort().values, then .diff(), then .min().",
        "Neighbours in position are not neighbours in value: never compare only p and p + 1.",
    ),
    solution=SMALLEST_GAP_SOLUTION,
    where=_where,
    dtype=lambda args: torch.float64,
    dtype_why="as the task says: float32 codes near ±1 lie 6·10⁻⁸ apart, too coarse for gaps of 10⁻⁷",
    explain_error=_gap_error_explained,
    half_why="The gaps this exercise measures go down to 10⁻⁷, and float16's numbers near ±1 are 4.9·10⁻⁴ "
             "apart (bfloat16's 3.9·10⁻³): every smaller gap comes out as 0 or as one such step.",
    half=(_in_half, _in_bfloat16),
    atol=1e-12,
)

predict(
    "03.circle_pair",
    title="the closest pair on the circle",
    question="At ω = 1 and L = 50, which two positions are closest on the circle (cos ω·p, sin ω·p)?",
    choices={
        "neighbours": "No: on the circle neighbours are always 2·sin(ω/2) ≈ 0.96 apart at ω = 1. The closest "
                      "pair is 0 and 44, almost exactly 7 turns apart: a near-repeat.",
        "mirror": "No: a mirror pair has the same sine but cosines of opposite sign, so on the circle it lies on "
                  "opposite sides. The closest pair is 0 and 44, almost exactly 7 turns apart: a near-repeat.",
        "repeat": "On the circle only the angle counts, so two positions are close only when they are almost a "
                  "whole number of turns apart: 0 and 44 are 7.003 turns apart, and 0.018 apart on the circle.",
    },
    answer="repeat",
    hints=(
        "Mirror images have the same sine. What about their cosines?",
        "The distance between positions p and q on the circle is 2·|sin(ω·(q − p)/2)|: when is it small?",
    ),
    solution='answer = "repeat"\nH.check("03.circle_pair", answer)\n',
)


NEAR_COLLISION_LENGTH = 50


def _omega_value(omega) -> float | None:
    if isinstance(omega, torch.Tensor) and omega.numel() == 1 and not omega.dtype.is_complex:
        omega = omega.item()
    if isinstance(omega, bool) or not isinstance(omega, numbers.Real) or not 0.01 <= float(omega) <= 3:
        return None
    return float(omega)


def _near_collision(answer, omega=None, length=None) -> tuple[bool, str]:
    """Right when ``answer`` names the smaller factor of the closest pair (i, j) of the 50 codes
    sin(ω·p) at the learner's own ω (:func:`helpers.measure.l03_single_sine.pair_kind`):
    "mirror" for |cos(ω(i + j)/2)|, "repeat" for |sin(ω(j − i)/2)|."""
    w = _omega_value(omega)
    if w is None:
        return False, f"omega must be a number from 0.01 to 3 (set it at the top of the cell), got {omega!r}."
    if length != NEAR_COLLISION_LENGTH or isinstance(length, bool):
        return False, f"length must stay {NEAR_COLLISION_LENGTH} (the task's 50 codes), got {length!r}."
    choice = answer.strip().lower() if isinstance(answer, str) else None
    if choice not in ("mirror", "repeat"):
        return False, f'Answer "mirror" or "repeat", got {answer!r}.'
    i, j, gap = closest_pair(torch.sin(w * torch.arange(length, dtype=torch.float64)))
    kind = pair_kind(w, i, j)
    if kind == "step":
        return False, (f"At ω = {omega} the two closest codes are neighbours on one slope of the wave, positions "
                       f"{i} and {j}: the slow wave's blur, not a collision. Raise ω until the wave turns back "
                       "within the 50 positions, then answer again.")
    if choice != kind:
        return False, (f"At ω = {omega} the closest codes are positions {i} and {j}. Compute the two factors of "
                       f"their gap, |cos(ω(i + j)/2)| and |sin(ω(j − i)/2)|: the smaller one names the reason. "
                       f"You answered {answer!r}.")
    mirror, repeat = abs(math.cos(w * (i + j) / 2)), abs(math.sin(w * (j - i) / 2))
    turns = (j - i) * w / (2 * math.pi)
    crest = "crest" if math.sin(w * (i + j) / 2) > 0 else "trough"
    said = (f"(i + j)·ω/π = {(i + j) * w / math.pi:.3f}, close to an odd number: the two sit either side of a "
            f"{crest}{', as neighbours' if j - i == 1 else ''}" if kind == "mirror" else
            f"(j − i)·ω/2π = {turns:.3f}: the wave came back after almost {round(turns)} "
            f"turn{'s' if round(turns) > 1 else ''}")
    return True, (f"At ω = {omega} positions {i} and {j} have codes only {gap:.2g} apart, 2 × {mirror:.2g} × "
                  f"{repeat:.2g}, and the {kind} factor is the smaller: {said}. The other factor, "
                  f"{max(mirror, repeat):.2g}, helps when it is small too, as it often is for the closest pair of a "
                  "wave that turns many times.")


NEAR_COLLISION_SOLUTION = '''import math

omega = 0.7   # your ω, a number from 0.01 to 3
length = 50
i, j, gap = H.closest_pair(torch.sin(omega * torch.arange(length, dtype=torch.float64)))
mirror, repeat = abs(math.cos(omega * (i + j) / 2)), abs(math.sin(omega * (j - i) / 2))
print(f"closest pair {i} and {j}, gap {gap:.2g} = 2 × {mirror:.2g} × {repeat:.2g}")
answer = "mirror" if mirror < repeat else "repeat"
H.check("03.near_collision", answer, omega=omega, length=length)
'''

explore(
    "03.near_collision",
    title="why two codes collide, at your own ω",
    question="Pick an ω from 0.01 to 3 and find the two closest, i < j, of the 50 codes sin(ω·p). Their gap is "
             "2·|cos(ω(i + j)/2)|·|sin(ω(j − i)/2)|. Compare |cos(ω(i + j)/2)| with |sin(ω(j − i)/2)| (leave the 2 "
             "aside): which is the smaller? \"mirror\" (the cos: the two sit either side of a crest or trough) or "
             "\"repeat\" (the sin: they are almost whole turns apart)?",
    verify=_near_collision,
    context=("omega", "length"),
    hints=(
        "H.closest_pair(torch.sin(omega * torch.arange(length, dtype=torch.float64))) gives the pair (i, j) and "
        "its gap, as in the cell on ω = 1 near the top of the lesson.",
        "Compute abs(math.cos(omega * (i + j) / 2)) and abs(math.sin(omega * (j - i) / 2)); their product times 2 "
        "is the gap. If the pair is two neighbours on one slope, your ω is too small.",
    ),
    solution=NEAR_COLLISION_SOLUTION,
    setup="import torch\n",
)
