"""Shared assertions for the exercises' tests (one module per lesson uses them)."""

from __future__ import annotations

import helpers as H
from helpers.exercises.core import get


def assert_passes(exercise_id: str, fn) -> None:
    result = H.check(exercise_id, fn)
    assert result.passed and result.status == "passed" and result.mistake is None, result.message


def assert_diagnosed(exercise_id: str, fn, mistake: str) -> str:
    """``fn`` fails, and the message names ``mistake`` and how to fix it."""
    assert mistake in get(exercise_id).mistakes, f"{mistake!r} is not catalogued for {exercise_id}"
    result = H.check(exercise_id, fn)
    assert result.status == "failed" and not result.passed, result.message
    assert result.mistake == mistake, result.message
    how_to_fix = get(exercise_id).mistakes[mistake][1]
    assert mistake in result.message and how_to_fix in result.message and "First difference on case" in \
        result.message, result.message
    return result.message


def assert_fails_undiagnosed(exercise_id: str, fn) -> str:
    result = H.check(exercise_id, fn)
    assert result.status == "failed" and result.mistake is None, result.message
    return result.message


def solved_function(exercise_id: str):
    """The ``my_…`` function the exercise's solution defines (its check line is not run)."""
    exercise = get(exercise_id)
    namespace = {"H": H}
    exec(exercise.setup, namespace)
    body = exercise.solution.split(f'H.check("{exercise_id}"')[0]
    exec(body, namespace)
    names = [n for n in namespace if n.startswith("my_")]
    assert len(names) == 1, names
    return namespace[names[0]]


def assert_choices(exercise_id: str, right: str, at_least: int = 2) -> None:
    """``right`` (found by the calling test's own computation) is the registered answer: it alone passes,
    in any case and with spaces around it; another text fails; None is not attempted."""
    choices = get(exercise_id).choices
    assert right in choices and len(choices) >= at_least
    for choice in choices:
        result = H.check(exercise_id, choice)
        assert result.passed == (choice == right), (choice, result.message)
        assert result.status == ("passed" if choice == right else "failed")
    assert H.check(exercise_id, f" {right.upper()} ").passed
    assert H.check(exercise_id, "no idea").status == "failed"
    assert H.check(exercise_id, None).status == "not attempted"


def assert_solution_passes(exercise_id: str, right: str | None = None) -> None:
    """The exercise's solution cell, run as a learner would (``H`` in scope), passes its check; for a
    prediction, the ``answer`` it sets is ``right`` when given."""
    namespace = {"H": H}
    lines = get(exercise_id).solution.strip().splitlines()
    exec("\n".join(lines[:-1]), namespace)
    if right is not None:
        assert namespace["answer"] == right
    assert eval(lines[-1], namespace).passed
