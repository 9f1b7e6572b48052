"""Lesson 03's exercises: the implement exercise against independent answers and its catalogued
mistakes (each written out here, not taken from the module), and every choice of the predictions."""

import math

import numpy as np
import pytest
import torch

import helpers as H
from helpers.exercises.core import get
from helpers.exercises.l03_single_sine import SMALLEST_GAP_SOLUTION


def _brute_force(omega, length):
    # every pair p < q, in plain Python floats
    codes = [math.sin(omega * p) for p in range(length)]
    best = min(abs(codes[p] - codes[q]) for p in range(length) for q in range(p + 1, length))
    return torch.tensor(best, dtype=torch.float64)


def _all_pairs_numpy(omega, length):
    codes = np.sin(omega * np.arange(length, dtype=np.float64))
    gaps = np.abs(codes[:, None] - codes[None, :])
    np.fill_diagonal(gaps, np.inf)
    return gaps.min()  # a numpy scalar, 0-dim once converted


def _solution_function():
    namespace = {"H": H}
    exec(SMALLEST_GAP_SOLUTION.replace('H.check("03.smallest_gap", my_smallest_gap)', ""), namespace)
    return namespace["my_smallest_gap"]


def _in_float64(omega, length):
    return torch.sin(omega * torch.arange(length, dtype=torch.float64))


def test_brute_force_agrees_with_the_reference_values():
    # hand-derived anchors the lesson prints: ω = 1 over 1000 positions → pair (11, 344), gap 1.33e-7
    assert math.isclose(_brute_force(1.0, 1000).item(), abs(math.sin(11) - math.sin(344)), rel_tol=1e-12)
    assert _brute_force(2 * math.pi / 12, 12).item() < 1e-12


@pytest.mark.parametrize("answer", [_solution_function(), _brute_force,
                                    lambda w, n: np.asarray(_all_pairs_numpy(w, n))],
                         ids=["solution", "brute force, python floats", "numpy all pairs"])
def test_correct_answers_pass(answer):
    result = H.check("03.smallest_gap", answer)
    assert result.passed, result.message
    assert result.status == "passed" and result.mistake is None


def _pairs_with_itself(w, n):
    codes = _in_float64(w, n)
    return (codes[:, None] - codes[None, :]).abs().min()


def _from_one(w, n):
    return torch.sin(w * torch.arange(1, n + 1, dtype=torch.float64)).sort().values.diff().min()


def _single_precision(w, n):
    codes = torch.sin(torch.tensor(w, dtype=torch.float32) * torch.arange(n, dtype=torch.float32))
    return codes.sort().values.diff().min()


MISTAKES = {
    "neighbours only": lambda w, n: _in_float64(w, n).diff().abs().min(),
    "a position compared with itself": _pairs_with_itself,
    "positions counted from 1": _from_one,
    "computed in float32": _single_precision,
    "cos instead of sin": lambda w, n: np.diff(np.sort(np.cos(w * np.arange(n)))).min(),
    "signed differences (no absolute value)": lambda w, n: (_in_float64(w, n)[:, None] - _in_float64(w, n)[None, :]
                                                            + torch.diag(torch.full((n,), math.inf))).min(),
    "squared distance": lambda w, n: _in_float64(w, n).sort().values.diff().min() ** 2,
    "one position short (0 … length − 2)": lambda w, n: _in_float64(w, n - 1).sort().values.diff().min()
    if n > 2 else _in_float64(w, n).sort().values.diff().min(),
    "computed in half precision": lambda w, n: torch.sin(w * torch.arange(n).half()).sort().values.diff().min(),
    "codes sorted in descending order": lambda w, n: np.diff(np.sort(np.sin(w * np.arange(n)))[::-1]).min(),
    "angle converted between degrees and radians": lambda w, n: np.diff(np.sort(np.sin(np.radians(w * np.arange(n))))
                                                                        ).min(),
    "the index of the smallest gap (argmin) instead of the gap": lambda w, n: torch.from_numpy(
        np.asarray(np.argmin(np.diff(np.sort(np.sin(w * np.arange(n))))))),
    "omega left out of the angle (sin p)": lambda w, n: np.diff(np.sort(np.sin(np.arange(n)))).min(),
    "the largest gap (max) instead of the smallest": lambda w, n: np.diff(np.sort(np.sin(w * np.arange(n)))).max(),
    "length fixed at 1000": lambda w, n: np.diff(np.sort(np.sin(w * np.arange(1000)))).min(),
}


def test_every_catalogued_mistake_is_tested_here():
    assert set(MISTAKES) == set(get("03.smallest_gap").mistakes)


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_mistake_is_named(name):
    result = H.check("03.smallest_gap", MISTAKES[name])
    assert result.status == "failed" and result.mistake == name, result.message
    assert name in result.message and "How to fix it" in result.message


def test_a_wrong_shape_a_random_answer_and_a_float_fail_without_a_mistake_name():
    shape = H.check("03.smallest_gap", lambda w, n: _in_float64(w, n)[:2])
    assert shape.status == "failed" and "shape" in shape.message and shape.mistake is None
    random = H.check("03.smallest_gap", lambda w, n: torch.rand((), dtype=torch.float64))
    assert random.status == "failed" and random.mistake is None
    number = H.check("03.smallest_gap", lambda w, n: float(_brute_force(w, n)))
    assert number.status == "failed" and "torch.Tensor" in number.message


def test_the_stub_is_not_attempted_and_an_error_is_reported():
    def my_smallest_gap(omega, length):
        raise NotImplementedError  # your code here

    assert H.check("03.smallest_gap", my_smallest_gap).status == "not attempted"
    assert H.check("03.smallest_gap", None).status == "not attempted"
    broken = H.check("03.smallest_gap", lambda w, n: 1 / 0)
    assert broken.status == "failed" and "ZeroDivisionError" in broken.message


@pytest.mark.parametrize(("exercise_id", "right"), [("03.gap_trend", "falls"), ("03.circle_pair", "repeat")])
def test_predictions_give_every_choice_its_verdict(exercise_id, right):
    choices = get(exercise_id).choices
    for choice in choices:
        result = H.check(exercise_id, choice)
        assert result.passed == (choice == right), (choice, result.message)
    assert H.check(exercise_id, f"  {right.upper()} ").passed
    assert H.check(exercise_id, "perhaps").status == "failed"
    assert H.check(exercise_id, None).status == "not attempted"


def test_the_prediction_answers_are_what_the_lesson_computes():
    # 03.gap_trend: the smallest gap over 1000 positions falls from ω = 0.001 to ω = 1 (a thousandfold) ...
    gaps = {w: _brute_force(w, 1000).item() for w in (0.001, 0.005, 0.01, 1.0)}
    assert gaps[1.0] < gaps[0.001] / 1000
    # ... but not steadily: past the first turn back (ω > π/1998) it can rise with ω, as the feedback says
    assert 0.005 > math.pi / 1998 and gaps[0.01] > gaps[0.005]
    assert "not steadily" in get("03.gap_trend").choices["falls"]
    # 03.circle_pair: at ω = 1, L = 50 the closest pair on the circle is a near-repeat, 44 apart
    p = torch.arange(50, dtype=torch.float64)
    circle = torch.stack((p.cos(), p.sin()), dim=1)
    distance = torch.cdist(circle, circle) + torch.eye(50, dtype=torch.float64) * 9
    i, j = divmod(int(distance.argmin()), 50)
    assert abs(i - j) == 44 and abs(44 / (2 * math.pi) - 7) < 0.01  # every pair 44 apart ties
    assert H.sine_snapshot(1.0, 50).circle_pair[:2] == (0, 44)
    # the wave's closest pair (8, 14) is a mirror pair: same sine, cosines of opposite sign
    assert abs(math.sin(8) - math.sin(14)) < 0.002 and math.cos(8) * math.cos(14) < 0


def test_solutions_run_and_pass():
    for exercise_id in ("03.gap_trend", "03.smallest_gap", "03.circle_pair"):
        namespace = {"H": H}
        source = get(exercise_id).solution.strip().splitlines()
        exec("\n".join(source[:-1]), namespace)
        result = eval(source[-1], namespace)
        assert result.passed, result.message


def _closest_by_brute_force(omega, length):
    """The closest pair of sin(ω·p), every pair compared in plain Python (independent of H.closest_pair)."""
    codes = [math.sin(omega * p) for p in range(length)]
    return min((abs(codes[p] - codes[q]), p, q) for p in range(length) for q in range(p + 1, length))


def _smaller_factor_by_hand(omega, i, j):
    """sin(ωj) − sin(ωi) = 2·cos(ω(i+j)/2)·sin(ω(j−i)/2): the name of the smaller factor, written out here."""
    return "mirror" if abs(math.cos(omega * (i + j) / 2)) < abs(math.sin(omega * (j - i) / 2)) else "repeat"


# ω = 1: 8 and 14, 8 + 14 = 22 ≈ 7π (|cos 11| = 0.0044 against |sin 3| = 0.14); ω = 0.7: 38 and 47,
# 9·0.7/2π = 1.003 turns; ω = 0.05: neighbours 31 and 32 either side of the crest (31.5·0.05 ≈ π/2)
@pytest.mark.parametrize(("omega", "right"), [(1.0, "mirror"), (0.7, "repeat"), (0.05, "mirror"), (2.5, None)])
def test_near_collision_passes_the_smaller_factor_of_the_learners_own_pair(omega, right):
    _, i, j = _closest_by_brute_force(omega, 50)
    expected = _smaller_factor_by_hand(omega, i, j)
    assert right is None or expected == right
    for choice in ("mirror", "repeat"):
        result = H.check("03.near_collision", choice, omega=omega, length=50)
        assert result.passed == (choice == expected), (choice, result.message)
        if not result.passed:
            assert f"positions {i} and {j}" in result.message and "the smaller one names the reason" in result.message
    assert H.check("03.near_collision", f"  {expected.upper()} ", omega=omega, length=50).passed


def test_near_collision_is_well_posed_at_every_omega():
    # from 0.01 to 3: either neighbours on one slope, before the wave's first crest (the checker asks for a
    # faster wave), or exactly one of the two answers passes
    slope = 0
    for omega in np.linspace(0.01, 3, 600):
        omega = float(omega)
        _, i, j = _closest_by_brute_force(omega, 50)
        verdicts = {c: H.check("03.near_collision", c, omega=omega, length=50) for c in ("mirror", "repeat")}
        if "Raise ω" in verdicts["mirror"].message:
            assert "Raise ω" in verdicts["repeat"].message and j - i == 1
            assert 49 * omega < math.pi / 2   # the wave has not reached its first crest
            slope += 1
        else:
            assert verdicts[_smaller_factor_by_hand(omega, i, j)].passed
            assert sum(v.passed for v in verdicts.values()) == 1, omega
    assert 0 < slope < 10


def test_near_collision_at_a_slow_wave_asks_for_a_faster_one():
    _, i, j = _closest_by_brute_force(0.02, 50)
    assert (i, j) == (48, 49)   # 97·0.02/2 = 0.97 rad: on the rising slope, before the crest at π/2
    result = H.check("03.near_collision", "mirror", omega=0.02, length=50)
    assert result.status == "failed" and "neighbours on one slope" in result.message and "Raise ω" in result.message


def test_near_collision_failure_does_not_name_the_right_answer():
    result = H.check("03.near_collision", "repeat", omega=1.0, length=50)
    assert result.status == "failed"
    body = result.message.split("You answered")[0]
    assert "|cos(ω(i + j)/2)| and |sin(ω(j − i)/2)|" in body   # what to compute, not its values
    assert "mirror" not in body.replace("'", "") and "0.0044" not in body and "0.14" not in body


@pytest.mark.parametrize(("answer", "omega", "length", "says"), [
    ("six", 1.0, 50, 'Answer "mirror"'), (6, 1.0, 50, 'Answer "mirror"'), ("both", 1.0, 50, 'Answer "mirror"'),
    ("mirror", 7.0, 50, "omega must be"),
    ("mirror", None, 50, "omega must be"), ("mirror", 1.0, 60, "length must stay 50"),
    ("mirror", 1.0, 1, "length must stay 50"),
])
def test_near_collision_bad_input_gets_a_message(answer, omega, length, says):
    result = H.check("03.near_collision", answer, omega=omega, length=length)
    assert result.status == "failed" and says in result.message


def test_near_collision_takes_omega_as_a_tensor():
    assert H.check("03.near_collision", "mirror", omega=torch.tensor(1.0), length=50).passed


def test_near_collision_not_attempted():
    assert H.check("03.near_collision", None, omega=None, length=50).status == "not attempted"


def test_the_tasks_float64_is_enforced():
    float32 = H.check("03.smallest_gap", lambda w, n: torch.tensor(float(_brute_force(w, n))))
    assert float32.status == "failed" and "dtype: the task asks for float64 (as the task says: float32 codes " \
        "near ±1 lie 6·10⁻⁸ apart" in float32.message, float32.message
    assert H.check("03.smallest_gap", lambda w, n: torch.tensor(float(_brute_force(w, n)), dtype=torch.float64)).passed


def test_near_collision_asks_for_the_comparison_the_check_makes():
    """The task compares |cos(ω(i + j)/2)| with |sin(ω(j − i)/2)|, the 2 left aside, as the check does: at ω = 0.36
    2·|cos| > |sin| although |cos| < |sin|, and the check wants "mirror" there."""
    from helpers.exercises.core import get

    question = get("03.near_collision").question
    assert "Compare |cos(ω(i + j)/2)| with |sin(ω(j − i)/2)| (leave the 2 aside)" in question
    i, j, _ = H.closest_pair(torch.sin(0.36 * torch.arange(50, dtype=torch.float64)))
    cos_factor, sin_factor = abs(math.cos(0.36 * (i + j) / 2)), abs(math.sin(0.36 * (j - i) / 2))
    assert cos_factor < sin_factor < 2 * cos_factor
    assert H.check("03.near_collision", "mirror", omega=0.36, length=50).passed


def test_a_descending_sort_gives_minus_the_largest_gap():
    """Why the descending sort is wrong, by hand: codes 0, 0.5, 1 sorted downwards differ by −0.5 and −0.5."""
    assert np.diff(np.array([1.0, 0.5, 0.0])).min() == -0.5


def test_one_position_short_fails_at_two_positions_saying_a_position_is_left_out():
    result = H.check("03.smallest_gap", lambda w, n: _in_float64(w, n - 1).sort().values.diff().min())
    assert result.status == "failed" and result.mistake is None
    assert 'on case "omega=3.0, length=2 (two positions)"' in result.message
    assert "it left a position out" in result.message and "torch.arange(length), not torch.arange(length − 1)" in \
        result.message, result.message


def test_a_number_written_in_is_told_it_does_not_follow_the_arguments():
    value = float(_brute_force(1.0, 1000))  # the lesson's printed gap, right on the first case only
    result = H.check("03.smallest_gap", lambda w, n: torch.tensor(value, dtype=torch.float64))
    assert result.status == "failed" and result.mistake is None
    assert 'on case "omega=0.1, length=1000"' in result.message  # the first case passes
    assert f"it is {value:.6g} on every one of the 7 cases, whatever the arguments" in result.message, result.message
