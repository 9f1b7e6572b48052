"""Lesson 03's exercises (notebooks/03_single_sine.ipynb), in the order the notebook asks them.

03.gap_trend (predict): as ω grows, does the smallest gap between 1000 positions rise or fall?
03.smallest_gap (implement): my_smallest_gap(omega, length) → 0-dim tensor,
    min over p ≠ q in 0 … length − 1 of |sin(ω·p) − sin(ω·q)|.
03.circle_pair (predict): at ω = 1, L = 50, which pair is closest on the circle?
03.near_collision (explore): find an ω at which the two closest of 50 codes sin(ω·p) are not
    neighbours, and say how many positions apart they are (checked at the learner's own ω).
"""

from __future__ import annotations

import math

import torch

from ..measure.l03_single_sine import closest_pair, smallest_gap
from .core import Case, explore, implement, predict

predict(
    "03.gap_trend",
    title="the smallest gap as ω grows",
    question="From ω = 0.001 to ω = 1 the largest step between neighbours grows a thousandfold. Over "
             "L = 1000 positions, what does the smallest gap between any two positions do?",
    choices={
        "rises": "No: a faster wave does push neighbours apart, but it also comes back to the same heights "
                 "again and again, and then two distant positions land almost on top of each other.",
        "falls": "A faster wave pushes neighbours apart but comes back to the same heights again and again, "
                 "so two distant positions land almost on top of each other: the table below shows the gap "
                 "falling from about 5·10⁻⁴ at ω = 0.001 to about 10⁻⁷ at ω = 1.",
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
        "computed in float32": (
            _float32,
            "the gaps go below float32's resolution (1.3·10⁻⁷ at ω = 1): compute the codes in float64, "
            "torch.arange(length, dtype=torch.float64).",
        ),
    },
    hints=(
        "Compute the codes sin(ω·p) for p = 0 … length − 1 in float64: torch.arange(length, dtype=torch.float64).",
        "Once the codes are sorted, the two closest ones sit side by side: .sort().values, then .diff(), then .min().",
        "Neighbours in position are not neighbours in value: never compare only p and p + 1.",
    ),
    solution=SMALLEST_GAP_SOLUTION,
    rtol=1e-6,
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


def _near_collision(answer, omega=None, length=None) -> tuple[bool, str]:
    """Right when ``answer`` is j − i for the closest pair (i, j) of sin(ω·p), p < length, at the
    learner's own ω, and that pair is not two neighbours."""
    if isinstance(omega, bool) or not isinstance(omega, (int, float)) or not 0.01 <= omega <= 3:
        return False, f"omega must be a number from 0.01 to 3 (the cell's setting), got {omega!r}."
    if isinstance(length, bool) or not isinstance(length, int) or not 2 <= length <= 10_000:
        return False, f"length must be a whole number from 2 to 10000 (the cell's setting), got {length!r}."
    i, j, distance = closest_pair(torch.sin(omega * torch.arange(length, dtype=torch.float64)))
    if j - i == 1:
        return False, (f"At ω = {omega} the two closest codes are neighbours, positions {i} and {j}: that is the "
                       "slow wave's failure. Raise ω until the closest pair lies further apart, then answer again.")
    try:
        given = float(str(answer).strip())
    except ValueError:
        return False, f"Answer with a number of positions (pair.j − pair.i), got {answer!r}."
    if given != j - i:
        return False, (f"At ω = {omega} the closest codes are positions {i} and {j}, {j - i} apart; you answered "
                       f"{answer!r}.")
    return True, (f"At ω = {omega} positions {i} and {j} are {j - i} apart, yet their codes differ by only "
                  f"{distance:.2g}: the wave came back (or mirrored) onto the same height, the fast wave's failure.")


NEAR_COLLISION_SOLUTION = '''omega = 1.0   # your ω (0.01 … 3)
length = 50
pair = H.closest_pair(torch.sin(omega * torch.arange(length, dtype=torch.float64)))
answer = pair.j - pair.i  # how many positions apart are the two closest codes at your ω?
H.check("03.near_collision", answer, omega=omega, length=length)
'''

explore(
    "03.near_collision",
    title="find a near-collision yourself",
    question="Find an ω from 0.01 to 3 at which the two closest of the 50 codes sin(ω·p) are not neighbours; "
             "how many positions apart are they?",
    verify=_near_collision,
    context=("omega", "length"),
    hints=(
        "Slow waves (small ω) make neighbours the closest pair; try ω = 0.5, 1 or 2.",
        "The cell already computes pair = H.closest_pair(...): the answer is pair.j − pair.i, once it is more than 1.",
    ),
    solution=NEAR_COLLISION_SOLUTION,
    setup="import torch\n",
)
