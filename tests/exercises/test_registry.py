"""Every registered exercise, whatever its lesson: its solution passes, None is not attempted, hints
come one at a time, every choice of a prediction gets its verdict, and every implement exercise
refuses a random answer, a wrong shape and a crashing answer, and gives the same verdict twice."""

import ast
import re
from collections import Counter

import pytest
import torch

import helpers as H
from helpers.exercises import core, kinds
from helpers.exercises.compare import close, to_tensor

EXERCISES = [core.get(i) for i in H.EXERCISES]
PREDICT = [e for e in EXERCISES if e.kind == "predict"]
IMPLEMENT = [e for e in EXERCISES if e.kind == "implement"]


def _ids(exercises):
    return [e.id for e in exercises]


def run_solution(exercise) -> core.CheckResult:
    """Run ``setup`` then ``solution`` in a namespace holding ``H``; return the value of its last line."""
    namespace = {"H": H}
    exec(exercise.setup, namespace)
    tree = ast.parse(exercise.solution)
    assert isinstance(tree.body[-1], ast.Expr), f"{exercise.id}: the solution must end with the H.check(…) call"
    last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, f"<{exercise.id} solution>", "exec"), namespace)
    return eval(compile(last, f"<{exercise.id} check>", "eval"), namespace)


def test_the_registry_is_in_course_order_with_well_formed_ids():
    assert len(H.EXERCISES) == len(set(H.EXERCISES))
    assert list(H.EXERCISES) == sorted(H.EXERCISES, key=lambda i: int(i[:2]))
    for exercise in EXERCISES:
        module = exercise.module.rsplit(".", 1)[-1]
        assert re.fullmatch(r"l\d\d_\w+", module) and module[1:3] == exercise.id[:2], (exercise.id, exercise.module)
        assert exercise.kind in core.KINDS


def test_every_lesson_has_its_exercises():
    # lessons 01–10 at least two, 00 and 11 at least one, 24 in all, 8 required implement exercises
    per_lesson = Counter(i[:2] for i in H.EXERCISES)
    needed = {f"{n:02d}": 1 if n in (0, 11) else 2 for n in range(12)}
    short = {lesson: per_lesson[lesson] for lesson, least in needed.items() if per_lesson[lesson] < least}
    assert not short, f"lessons with too few exercises (lesson: count): {short}"
    assert len(H.EXERCISES) >= 24
    required = {"04.sinusoidal", "05.shift_matrix", "06.rope", "07.alibi_slopes", "07.t5_bucket", "09.ntk_inv_freq",
                "09.llama3_inv_freq", "10.half_layout_rows"}
    assert required <= set(_ids(IMPLEMENT))


@pytest.mark.parametrize("exercise", EXERCISES, ids=_ids(EXERCISES))
def test_the_solution_passes(exercise):
    result = run_solution(exercise)
    assert isinstance(result, core.CheckResult), f"{exercise.id}: the solution's last line returned {result!r}"
    assert result.exercise_id == exercise.id and result.passed, result.message


@pytest.mark.parametrize("exercise", EXERCISES, ids=_ids(EXERCISES))
def test_none_is_not_attempted_and_shows_how_to_start_but_no_hint(exercise, capsys):
    core.reset_hints()
    result = H.check(exercise.id, None, **{name: None for name in getattr(exercise, "context", ())})
    assert result.status == "not attempted" and not result.passed
    assert result.message == H.check(exercise.id, None).message  # deterministic, context or not
    lines = result.message.splitlines()
    assert lines[0] == f"{exercise.id} · not attempted yet: {exercise.title}."
    assert lines[1].startswith("To start: ") and f'H.hint("{exercise.id}")' in lines[2] and \
        f'H.solution("{exercise.id}")' in lines[2]
    assert not any(hint in result.message for hint in exercise.hints) and "Hint 1" not in result.message
    H.hint(exercise.id)  # the first hint the learner asks for is hint 1: the stub showed none
    assert capsys.readouterr().out == f"{exercise.id} · hint 1 of {len(exercise.hints)}: {exercise.hints[0]}\n"
    core.reset_hints()


@pytest.mark.parametrize("exercise", EXERCISES, ids=_ids(EXERCISES))
def test_hints_one_at_a_time(exercise, capsys):
    core.reset_hints()
    for number, text in enumerate(exercise.hints, 1):
        H.hint(exercise.id)
        assert capsys.readouterr().out == f"{exercise.id} · hint {number} of {len(exercise.hints)}: {text}\n"
    H.hint(exercise.id)
    assert f'H.solution("{exercise.id}")' in capsys.readouterr().out
    core.reset_hints()


@pytest.mark.parametrize("exercise", PREDICT, ids=_ids(PREDICT))
def test_every_choice_gets_its_verdict(exercise):
    for choice in exercise.choices:
        for spelling in (choice, f"  {choice.upper()} "):
            result = H.check(exercise.id, spelling)
            assert result.passed == (choice == exercise.answer), (spelling, result.message)
            assert exercise.choices[choice] in result.message
    unknown = H.check(exercise.id, "none of these")
    assert unknown.status == "failed" and all(f'"{c}"' in unknown.message for c in exercise.choices)


def _reference_output(exercise, case):
    return to_tensor(exercise.reference(*kinds._fresh(case.args)))


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_implement_refuses_random_wrong_shape_and_crashing_answers(exercise):
    cases, _, _ = exercise.prepared()
    g = torch.Generator().manual_seed(0)

    def random_answer(*args):
        out = exercise.reference(*args)
        out = torch.as_tensor(out)
        if out.is_floating_point():
            return torch.rand(out.shape, generator=g, dtype=torch.float64) * 7 + 3
        return torch.randint(1000, 2000, out.shape, generator=g)

    def wrong_shape(*args):
        return torch.as_tensor(exercise.reference(*args)).unsqueeze(0)

    def crashing(*args):
        raise KeyError("oops")

    def stub(*args):
        raise NotImplementedError  # your code here

    assert H.check(exercise.id, random_answer).status == "failed"
    shape = H.check(exercise.id, wrong_shape)
    assert shape.status == "failed" and "shape: expected" in shape.message
    crash = H.check(exercise.id, crashing)
    assert crash.status == "failed" and "raised KeyError: 'oops'" in crash.message and "Traceback" not in crash.message
    assert H.check(exercise.id, stub).status == "not attempted"
    assert H.check(exercise.id, 42).status == "failed"


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_implement_has_three_mistakes_each_unlike_the_reference(exercise):
    assert len(exercise.mistakes) >= 3
    cases, expected, wrong = exercise.prepared()
    for name, variants in wrong.items():
        for outputs in variants:
            assert any(o is None or not close(e, o, exercise.rtol, exercise.atol)
                       for e, o in zip(expected, outputs, strict=True)), f"{exercise.id}: {name} equals the reference"


@pytest.mark.parametrize("exercise", IMPLEMENT, ids=_ids(IMPLEMENT))
def test_a_check_answers_the_same_way_twice(exercise):
    # its speed is measured by benchmarks/exercise_check_time.py, not here
    first, second = run_solution(exercise), run_solution(exercise)
    assert first.passed and second.passed
    wrong = [H.check(exercise.id, lambda *args: exercise.reference(*args) * 0 + 1) for _ in range(2)]
    assert not wrong[0].passed and wrong[0].message == wrong[1].message
