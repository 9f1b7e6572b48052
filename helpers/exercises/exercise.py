"""What every exercise shares: the verdict (:class:`CheckResult`), one call of an implement
exercise (:class:`Case`) and the base class (:class:`Exercise`) with the messages every kind gives
(not attempted, passed, failed), and :func:`companion`, which finds the part of a stub the learner wrote
beside the function the check is given. The kinds are in :mod:`helpers.exercises.kinds`; what a learner's
function may not do to its inputs in :mod:`helpers.exercises.inputs`; the registry and the learner's calls in
:mod:`helpers.exercises.core`.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

KINDS = ("implement", "predict", "explore", "design")
HALF = "computed in half precision"
STATUSES = ("passed", "failed", "not attempted")
MARKS = {"passed": "✅", "failed": "❌", "not attempted": "✏️"}  # the verdict at a glance
COLUMN = 90  # a notebook column: longer lines wrap in the browser mid-word


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

    @property
    def shown(self) -> str:
        """What a notebook shows: the verdict's mark first (✅ passed, ❌ failed, ✏️ not attempted),
        then the message, each line wrapped at :data:`COLUMN` characters between words."""
        lines = []
        for line in f"{MARKS[self.status]} {self.message}".splitlines():
            lines.extend(textwrap.wrap(line, COLUMN, subsequent_indent="  ", break_long_words=False,
                                       break_on_hyphens=False) or [""])
        return "\n".join(lines)

    def _ipython_display_(self) -> None:
        print(self.shown)


class Case(NamedTuple):
    """One call of an implement exercise: ``f(*args)``, described to the learner by ``label``;
    ``slack``: the float32-angle allowance of the policy, added to atol on this case only."""

    label: str
    args: tuple
    slack: float = 0.0


def companion(answer: Any, name: str) -> Callable | None:
    """The function ``name`` that the learner's cell defines beside ``answer`` and ``answer`` calls (the part
    of the stub the learner writes, such as entropy_terms), or None when there is none."""
    fn = inspect.unwrap(answer) if callable(answer) else answer
    code = getattr(fn, "__code__", None)
    if code is None or name not in code.co_names:
        return None
    found = getattr(fn, "__globals__", {}).get(name)
    return found if callable(found) else None


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
        start = {
            "implement": "replace raise NotImplementedError by your code, then run the cell.",
            "design": "replace raise NotImplementedError by your proposal (any formula), then run the cell.",
            "predict": "replace None by one of the quoted choices, then run the cell.",
            "explore": "change the setting at the top, run the cell, set answer from what it shows.",
        }[self.kind]
        message = (f"{self.id} · not attempted yet: {self.title}.\nTo start: {start}\n"
                   f'Stuck? H.hint("{self.id}") gives a hint (again for the next), H.solution("{self.id}") the '
                   "solution.")
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
