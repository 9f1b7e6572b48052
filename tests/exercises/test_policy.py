"""The tolerance and dtype policy and the messages, on every implement exercise of the course:
half precision fails everywhere and is named, correct answers in float32, float64 or numpy pass (numpy
fails, naming it, where a tensor goes in and one comes out), answers that write into their inputs fail,
every catalogued mistake is named from its own coding, and the first difference is named in the
exercise's own terms (never a bare flat index)."""

import pytest
import torch

import helpers as H
from helpers.exercises import compare, core

IMPLEMENT = [core.get(i) for i in H.EXERCISES if core.get(i).kind == "implement"]
FLOATING = [e for e in IMPLEMENT if e.prepared()[1][0].is_floating_point()]
INTEGER = [e for e in IMPLEMENT if not e.prepared()[1][0].is_floating_point()]


def _ids(exercises):
    return [e.id for e in exercises]


def _reference_then(exercise, transform):
    """The reference's output, transformed; a tensor output keeps its autograd graph (as a learner's would)."""
    def answer(*args):
        out = exercise.reference(*args)
        return transform(out if isinstance(out, torch.Tensor) else compare.to_tensor(out))
    return answer


def test_the_policy_is_written_down_with_the_numbers_the_checker_uses():
    doc = core.__doc__
    assert "The tolerance and dtype policy" in doc
    assert compare.DEFAULT_RTOL == 1e-5 and compare.DEFAULT_ATOL == 1e-6
    assert "rtol = 1e-5" in doc and "atol = 1e-6" in doc and "4·θ·2⁻²⁴·m" in doc
    assert compare.float32_angle_slack(4095, 2.0) == pytest.approx(4 * 4095 * 2.0 ** -24 * 2.0)


def test_every_exercise_uses_the_policy_tolerances():
    for exercise in IMPLEMENT:
        assert exercise.rtol in (compare.DEFAULT_RTOL, 0.0), exercise.id
        assert exercise.atol in (compare.DEFAULT_ATOL, 1e-12, 0.0), exercise.id  # order one / magnitudes / exact
        cases, _, _ = exercise.prepared()
        for case in cases:  # slack only as the float32-angle allowance, never above 4·θ·2⁻²⁴·m for θ ≤ 10⁴
            assert 0 <= case.slack < 0.01, (exercise.id, case.label)


@pytest.mark.parametrize("exercise", FLOATING, ids=_ids(FLOATING))
@pytest.mark.parametrize("half", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
def test_a_half_precision_output_fails_and_is_named(exercise, half):
    assert core.HALF in exercise.mistakes, f"{exercise.id}: no half-precision mistake catalogued"
    for answer in (_reference_then(exercise, lambda t: t.to(half)),                      # returned in half
                   _reference_then(exercise, lambda t: t.to(half).to(t.dtype))):         # rounded and cast back
        result = H.check(exercise.id, answer)
        assert result.status == "failed" and result.mistake == core.HALF, result.message
        assert exercise.mistakes[core.HALF][1] in result.message and "float16 keeps 11 significant bits" in \
            result.message


@pytest.mark.parametrize("exercise", FLOATING, ids=_ids(FLOATING))
def test_a_computation_in_half_precision_is_named(exercise):
    emulations = exercise.mistakes[core.HALF][0]
    exact = exercise.rtol == exercise.atol == 0.0  # a permutation: computes nothing that half could round
    assert emulations or exact, f"{exercise.id}: give `half` functions a learner would write"
    for emulation in emulations:
        result = H.check(exercise.id, emulation)
        assert result.status == "failed" and result.mistake == core.HALF, result.message


@pytest.mark.parametrize("exercise", INTEGER, ids=_ids(INTEGER))
def test_a_half_precision_answer_fails_where_integers_are_asked(exercise):
    result = H.check(exercise.id, _reference_then(exercise, lambda t: t.half()))
    named = ("dtype: expected an integer tensor", "dtype: the task asks for int")  # an exercise may name its int
    assert result.status == "failed" and any(words in result.message for words in named), result.message
    assert "float16" in result.message


@pytest.mark.parametrize("exercise", FLOATING, ids=_ids(FLOATING))
def test_correct_outputs_in_float32_float64_or_numpy_pass(exercise):
    if exercise.dtype is None:
        for dtype in (torch.float32, torch.float64):
            result = H.check(exercise.id, _reference_then(exercise, lambda t, dtype=dtype: t.to(dtype)))
            assert result.passed, result.message
    else:  # the task states the dtype: the same values in another float dtype fail on the dtype
        assert H.check(exercise.id, _reference_then(exercise, lambda t: t.clone())).passed
        other = H.check(exercise.id, lambda *args: compare.to_tensor(exercise.reference(*args)).to(
            torch.float32 if exercise.dtype(args) == torch.float64 else torch.float64))
        assert other.status == "failed" and "dtype: the task asks for" in other.message
    numpy = H.check(exercise.id, _reference_then(exercise, lambda t: t.detach().numpy()))
    if exercise.autograd:  # a tensor in, a tensor out: the right numbers through numpy lose the gradient
        assert numpy.status == "failed" and "Somewhere your function leaves PyTorch" in numpy.message, numpy.message
    else:
        assert numpy.passed, numpy.message


def test_autograd_is_asked_exactly_where_a_tensor_goes_in_and_one_comes_out():
    asked = {e.id for e in IMPLEMENT if e.autograd}
    assert asked == {"01.attention_entropy", "06.rope", "08.loss_by_position", "10.half_layout_rows"}
    for exercise in IMPLEMENT:
        cases, _, _ = exercise.prepared()
        takes_floats = any(isinstance(a, torch.Tensor) and a.is_floating_point() for c in cases for a in c.args)
        assert takes_floats == exercise.autograd, exercise.id


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_every_answer_that_writes_into_its_inputs_fails_naming_the_input(exercise):
    """The reference's output, after the answer wrote into its first tensor input: the output is right, the
    caller's tensor is not, and the message names that input as the learner's function calls it."""
    cases, _, _ = exercise.prepared()
    if not any(isinstance(a, torch.Tensor) for c in cases for a in c.args):
        return  # nothing to change: the inputs are numbers

    def scribbles(*args):
        out = compare.to_tensor(exercise.reference(*args)).clone()
        for a in args:
            if isinstance(a, torch.Tensor) and a.numel():
                a.view(-1)[0] = a.view(-1)[0] + 1
                break
        return out

    result = H.check(exercise.id, scribbles)
    assert result.status == "failed" and "your function changed its input `args[" in result.message, result.message


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_every_catalogued_mistake_is_named_from_its_own_coding(exercise):
    for name, (fn, how_to_fix) in exercise.mistakes.items():
        for coding in (fn if isinstance(fn, tuple) else (fn,)):
            result = H.check(exercise.id, coding)
            assert result.status == "failed" and result.mistake == name, (name, result.message)
            assert how_to_fix in result.message and "First difference on case" in result.message


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_the_first_difference_is_named_in_the_exercises_terms(exercise):
    """One entry of the reference's output changed: the message names that entry with the exercise's
    own ``where`` (the offset, position and pair, head …), expected against got, and no flat index."""
    assert exercise.where is not None, f"{exercise.id}: give the exercise a `where` naming its output indices"
    cases, expected, _ = exercise.prepared()
    number = max(range(len(cases)), key=lambda k: expected[k].numel())
    case, want = cases[number], expected[number]
    index = tuple(int(i) for i in torch.nonzero(torch.ones_like(want, dtype=torch.bool))[want.numel() // 2]) \
        if want.dim() else ()

    def changed(*args):
        out = compare.to_tensor(exercise.reference(*args)).clone()
        if len(args) == len(case.args) and all(a is b or (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
                                                          and a.shape == b.shape and bool((a == b).all()))
                                               or (not isinstance(a, torch.Tensor) and a == b)
                                               for a, b in zip(args, case.args, strict=True)):
            out[index] = out[index] + (7 if not out.is_floating_point() else 0.5 + abs(float(out[index])))
        return out

    result = H.check(exercise.id, changed)
    assert result.status == "failed", result.message
    named = exercise.where(case.args, index)
    assert f'on case "{case.label}": at {named}: expected ' in result.message, result.message
    assert not named.startswith("[") and "values differ at [" not in result.message
    assert "1 of" in result.message


@pytest.mark.parametrize("exercise", FLOATING, ids=_ids(FLOATING))
def test_a_sign_or_a_scale_is_told_from_the_numbers(exercise):
    for factor, said in ((-1.0, "sign flipped"), (1.5, "1.5 × the expected one")):
        result = H.check(exercise.id, _reference_then(exercise, lambda t, f=factor: t * f))
        assert result.status == "failed"
        assert result.mistake is not None or said in result.message, result.message
