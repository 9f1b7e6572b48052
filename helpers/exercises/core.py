"""The exercises' registry and checker: ``check``, ``hint``, ``solution``, ``CheckResult``.

Three kinds of exercise, each registered by one call in its lesson's module
``helpers/exercises/lNN_<lesson>.py`` (ids are "NN.name", NN the lesson number):

    implement(exercise_id, *, title, reference, cases, mistakes, hints, solution,
              rtol=1e-4, atol=1e-4, setup="")
        The learner writes a function. ``cases``: a sequence of ``Case(label, args)`` (or a
        zero-argument function returning one, built on first use so importing stays cheap); the
        learner's function and ``reference`` are called as ``f(*args)`` on each case (tensors in
        ``args`` are cloned for every call). ``mistakes``: {name: (wrong_fn, how_to_fix)}, at least
        three, each ``wrong_fn`` taking the same arguments as ``reference`` (a tuple of functions when one
        mistake has several codings: any of them matches). The answer passes when its
        output on every case has the reference's shape, dtype kind and values (within
        atol + rtol·|expected|; exact for integer outputs). Otherwise the message gives the first
        failing property on the first failing case (see ``compare.first_failure``), and, when the
        answer's outputs equal a mistake's on every case, names that mistake and how to fix it.

    predict(exercise_id, *, title, question, choices, answer, hints, solution, setup="")
        The learner commits to one of ``choices`` = {"key": "explanation shown when picked"} before
        the next cells reveal it; ``answer`` is the right key. Keys match case-insensitively, with
        surrounding spaces ignored (a number is matched by its text: 3 matches "3").

    explore(exercise_id, *, title, question, verify, hints, solution, context=(), setup="")
        The learner changes a setting, reruns, and answers from their own run.
        ``verify(answer, **context) -> (ok: bool, message: str)``; ``context`` names the keywords
        the check needs (``H.check("08.rise", answer, run=run)`` → ``context=("run",)``).

Every kind: ``hints`` = 2 or 3 strings, shown one at a time; ``solution`` = the complete source of
the solved exercise cell, ending with the same ``H.check(...)`` line as the stub (implement
solutions import what they use, e.g. ``import torch``); ``setup`` = source that builds what the
cell uses from earlier cells of the lesson (the unit test runs ``setup`` then ``solution`` in a
namespace holding ``H``; in the notebook the earlier cells have already done it).

The learner calls ``check(exercise_id, answer, **context) -> CheckResult``; it never raises for an
answer. An answer of None or ``...``, or a function that raises NotImplementedError on the first
case, is "not attempted": the message names the exercise and gives hint 1.

How to add an exercise
----------------------
1. In ``helpers/exercises/lNN_<lesson>.py`` (imported by ``helpers/exercises/__init__.py`` on its
   own), call ``predict(...)``, ``explore(...)`` or ``implement(...)`` at module level, in the order
   the exercises appear in the notebook.
2. In the notebook: a markdown cell ``### Your turn · <title> (predict, ~N min)`` with the task, then
   ONE code cell tagged ``exercise`` holding the stub, whose last line is the check:
   ``answer = None  # one of: "a", "b", "c"`` / ``H.check("NN.name", answer)``.
3. ``tests/exercises`` then tests it: each choice's verdict, the solution passing, the stub "not
   attempted", and the notebook cell run with the solution in place.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .compare import DEFAULT_ATOL, DEFAULT_RTOL, close, describe_type, first_failure, to_tensor

KINDS = ("implement", "predict", "explore")
STATUSES = ("passed", "failed", "not attempted")
_ID = re.compile(r"\d\d\.[a-z0-9_]+")


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one answer. Shown as its ``message`` when it ends a notebook cell."""

    exercise_id: str
    status: str  # "passed" | "failed" | "not attempted"
    message: str
    mistake: str | None = None  # the catalogued mistake's name, when the answer makes one

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def __repr__(self) -> str:
        return self.message

    __str__ = __repr__

    def _ipython_display_(self) -> None:
        print(self.message)


class Case(NamedTuple):
    """One call of an implement exercise: ``f(*args)``, described to the learner by ``label``."""

    label: str
    args: tuple


def _more(exercise_id: str) -> str:
    return f'More help: H.hint("{exercise_id}") for a hint, H.solution("{exercise_id}") for the solution.'


@dataclass
class Exercise:
    """What every kind shares; subclasses define ``_check(answer, context)``."""

    id: str
    title: str
    hints: tuple[str, ...]
    solution: str
    setup: str = ""
    module: str = ""
    kind: str = field(init=False, default="")

    def check(self, answer: Any, context: dict) -> CheckResult:
        if answer is None or answer is Ellipsis:
            return self.not_attempted()
        try:
            return self._check(answer, context)
        except Exception as err:  # a bug in a verify function or a weird answer: say so, never raise
            return self.failed(f"the check could not run on this answer ({type(err).__name__}: {err}).")

    def _check(self, answer: Any, context: dict) -> CheckResult:
        raise NotImplementedError

    def not_attempted(self) -> CheckResult:
        _hints_shown[self.id] = max(_hints_shown.get(self.id, 0), 1)
        message = (f"{self.id} · not attempted yet: {self.title}.\n"
                   f"Hint 1 of {len(self.hints)}: {self.hints[0]}\n{_more(self.id)}")
        return CheckResult(self.id, "not attempted", message)

    def passed(self, text: str) -> CheckResult:
        return CheckResult(self.id, "passed", f"{self.id} · passed: {text}")

    def failed(self, text: str, mistake: str | None = None) -> CheckResult:
        return CheckResult(self.id, "failed", f"{self.id} · failed: {text}\n{_more(self.id)}", mistake)

    def _no_context(self, context: dict) -> CheckResult | None:
        if context:
            names = ", ".join(sorted(context))
            return self.failed(f"this check takes no keyword arguments, got {names}: "
                               f'call it as H.check("{self.id}", answer).')
        return None


@dataclass
class Implement(Exercise):
    reference: Callable = None
    cases: Sequence[Case] | Callable[[], Sequence[Case]] = ()
    mistakes: dict[str, tuple[Callable, str]] = field(default_factory=dict)
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    kind: str = field(init=False, default="implement")
    _cache: dict = field(init=False, default_factory=dict, repr=False)

    def prepared(self) -> tuple[list[Case], list, dict[str, list]]:
        """The cases, the reference's outputs, and each mistake's outputs (None where it raised)."""
        if not self._cache:
            cases = list(self.cases() if callable(self.cases) else self.cases)
            expected = [to_tensor(self.reference(*_fresh(c.args))) for c in cases]
            wrong = {name: [[_quiet(f, c.args) for c in cases] for f in (fn if isinstance(fn, tuple) else (fn,))]
                     for name, (fn, _) in self.mistakes.items()}
            self._cache.update(cases=cases, expected=expected, wrong=wrong)
        return self._cache["cases"], self._cache["expected"], self._cache["wrong"]

    def _check(self, answer: Any, context: dict) -> CheckResult:
        if (refused := self._no_context(context)) is not None:
            return refused
        if not callable(answer):
            return self.failed(f"expected your function (the def my_… in this cell), got {describe_type(answer)}.")
        cases, expected, wrong = self.prepared()
        outputs, first = [], None
        for number, (case, want) in enumerate(zip(cases, expected, strict=True)):
            try:
                got = answer(*_fresh(case.args))
            except NotImplementedError:
                if number == 0:
                    return self.not_attempted()
                return self.failed(f'on case "{case.label}" your function raised NotImplementedError: '
                                   f"that part is still to write.")
            except Exception as err:
                return self.failed(f'on case "{case.label}", {_call(answer, case.args)} raised '
                                   f"{type(err).__name__}: {err}\n(Call it like that in a cell of its own to see "
                                   f"where.)")
            outputs.append(to_tensor(got))
            problem = first_failure(want, got, self.rtol, self.atol)
            if problem is not None and first is None:
                first = (case, problem)
        if first is None:
            return self.passed(f"your function matches the course's reference on all {len(cases)} cases "
                               f"(the lesson's sizes and the edge cases).")
        case, problem = first
        where = f'on case "{case.label}": {problem}.'
        for name, (_, how_to_fix) in self.mistakes.items():
            if any(all(w is not None and o is not None and close(w, o, self.rtol, self.atol)
                       for w, o in zip(variant, outputs, strict=True)) for variant in wrong[name]):
                return self.failed(f"this is a known mistake: {name}.\nHow to fix it: {how_to_fix}\n"
                                   f"First difference {where}", mistake=name)
        return self.failed(where)


def _call(fn: Callable, args: tuple) -> str:
    """How the check called the learner's function, e.g. my_rope(tensor of shape (2, 8), 10000.0)."""
    def show(a) -> str:
        if hasattr(a, "shape") and hasattr(a, "dtype"):
            return f"<{str(a.dtype).replace('torch.', '')} tensor of shape {tuple(a.shape)}>"
        return repr(a)
    return f"{getattr(fn, '__name__', 'your function')}({', '.join(show(a) for a in args)})"


def _fresh(args: tuple) -> tuple:
    """The arguments with every tensor cloned, so an in-place change cannot leak into the next call."""
    return tuple(a.clone() if hasattr(a, "clone") and callable(a.clone) else a for a in args)


def _quiet(fn: Callable, args: tuple):
    try:
        return to_tensor(fn(*_fresh(args)))
    except Exception:
        return None


@dataclass
class Predict(Exercise):
    question: str = ""
    choices: dict[str, str] = field(default_factory=dict)
    answer: str = ""
    kind: str = field(init=False, default="predict")

    def _check(self, answer: Any, context: dict) -> CheckResult:
        if (refused := self._no_context(context)) is not None:
            return refused
        keys = {k.strip().lower(): k for k in self.choices}
        picked = keys.get(str(answer).strip().lower()) if isinstance(answer, str | int | float) else None
        if picked is None:
            listed = ", ".join(f'"{k}"' for k in self.choices)
            return self.failed(f"{answer!r} is not one of the choices: {listed}.")
        if picked == self.answer:
            return self.passed(f'"{picked}" is right. {self.choices[picked]}')
        return self.failed(f'"{picked}" is not it. {self.choices[picked]}')


@dataclass
class Explore(Exercise):
    question: str = ""
    verify: Callable = None
    context: tuple[str, ...] = ()
    kind: str = field(init=False, default="explore")

    def _check(self, answer: Any, context: dict) -> CheckResult:
        missing = [name for name in self.context if name not in context]
        if missing:
            needed = ", ".join(f"{n}={n}" for n in self.context)
            return self.failed(f"this check needs your run: call it as H.check(\"{self.id}\", answer, {needed}).")
        ok, text = self.verify(answer, **context)
        return self.passed(text) if ok else self.failed(text)


# ---------------------------------------------------------------------------------------------
# The registry and the learner-facing calls.

_registry: dict[str, Exercise] = {}
_hints_shown: dict[str, int] = {}


def _register(exercise: Exercise) -> Exercise:
    if not isinstance(exercise.id, str) or not _ID.fullmatch(exercise.id):
        raise ValueError(f'exercise_id must look like "NN.name" (lesson number, dot, lower-case name), '
                         f"got {exercise.id!r}")
    if not 2 <= len(exercise.hints) <= 3 or not all(isinstance(h, str) and h for h in exercise.hints):
        raise ValueError(f"{exercise.id}: hints must be 2 or 3 non-empty strings, got {len(exercise.hints)}")
    if f'H.check("{exercise.id}"' not in exercise.solution:
        raise ValueError(f'{exercise.id}: solution must end with its check line H.check("{exercise.id}", …)')
    old = _registry.get(exercise.id)
    if old is not None and old.module != exercise.module:
        raise ValueError(f"{exercise.id} is defined twice: in {old.module} and in {exercise.module}")
    _registry[exercise.id] = exercise
    return exercise


def _caller_module() -> str:
    return sys._getframe(2).f_globals.get("__name__", "")


def implement(exercise_id: str, *, title: str, reference: Callable, cases, mistakes: dict[str, tuple[Callable, str]],
              hints: Sequence[str], solution: str, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
              setup: str = "") -> Implement:
    """Register an implement exercise (see the module docstring)."""
    if len(mistakes) < 3:
        raise ValueError(f"{exercise_id}: catalogue at least three mistakes, got {len(mistakes)}")
    return _register(Implement(exercise_id, title, tuple(hints), solution, setup, _caller_module(),
                               reference=reference, cases=cases, mistakes=dict(mistakes), rtol=rtol, atol=atol))


def predict(exercise_id: str, *, title: str, question: str, choices: dict[str, str], answer: str,
            hints: Sequence[str], solution: str, setup: str = "") -> Predict:
    """Register a predict exercise (see the module docstring)."""
    if answer not in choices or len(choices) < 2:
        raise ValueError(f"{exercise_id}: answer {answer!r} must be one of at least two choices {list(choices)}")
    if len({k.strip().lower() for k in choices}) != len(choices):
        raise ValueError(f"{exercise_id}: choices must differ case-insensitively, got {list(choices)}")
    return _register(Predict(exercise_id, title, tuple(hints), solution, setup, _caller_module(),
                             question=question, choices=dict(choices), answer=answer))


def explore(exercise_id: str, *, title: str, question: str, verify: Callable, hints: Sequence[str], solution: str,
            context: Sequence[str] = (), setup: str = "") -> Explore:
    """Register an explore exercise (see the module docstring)."""
    return _register(Explore(exercise_id, title, tuple(hints), solution, setup, _caller_module(),
                             question=question, verify=verify, context=tuple(context)))


def exercise_ids() -> tuple[str, ...]:
    """Every registered id in course order: by lesson number, then in the order they were defined."""
    order = {eid: n for n, eid in enumerate(_registry)}
    return tuple(sorted(_registry, key=lambda eid: (eid[:2], order[eid])))


def get(exercise_id: str) -> Exercise:
    """The exercise registered under ``exercise_id``; a ValueError naming the known ids otherwise."""
    exercise = _registry.get(exercise_id) if isinstance(exercise_id, str) else None
    if exercise is None:
        known = ", ".join(exercise_ids()) or "none"
        raise ValueError(f"unknown exercise_id {exercise_id!r}; the exercises are: {known}")
    return exercise


def check(exercise_id: str, answer: Any = None, **context) -> CheckResult:
    """Check ``answer`` to exercise ``exercise_id``; returns a CheckResult and never raises for an answer."""
    return get(exercise_id).check(answer, context)


def hint(exercise_id: str) -> None:
    """Print the exercise's next hint (one more each call); after the last, point at the solution."""
    exercise = get(exercise_id)
    shown = _hints_shown.get(exercise_id, 0)
    total = len(exercise.hints)
    if shown >= total:
        print(f"{exercise_id}: that was the last hint ({total} of {total}). "
              f'H.solution("{exercise_id}") prints the solution.')
        return
    _hints_shown[exercise_id] = shown + 1
    print(f"{exercise_id} · hint {shown + 1} of {total}: {exercise.hints[shown]}")


def solution(exercise_id: str) -> None:
    """Print the source of the solved exercise cell (to read, or to paste into the cell)."""
    print(get(exercise_id).solution.strip("\n"))


def reset_hints() -> None:
    """Start the hints of every exercise from the first again."""
    _hints_shown.clear()
