"""The four kinds of exercise, each checking one answer (the policy is in
:mod:`helpers.exercises.core`'s docstring): :class:`Implement` (a function against the course's
reference, with the tolerance and dtype policy and the catalogued mistakes), :class:`Predict` (one of
the quoted choices), :class:`Design` (a proposal with the properties the fix needs) and
:class:`Explore` (an answer read from the learner's own run).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from .compare import DEFAULT_ATOL, DEFAULT_RTOL, HALF_DTYPES, close, describe_type, first_failure, relation, to_tensor
from .exercise import HALF, Case, CheckResult, Exercise
from .inputs import InputChanged, InputGuard, changed_input, left_pytorch, snapshot


@dataclass
class Implement(Exercise):
    reference: Callable = None
    cases: Sequence[Case] | Callable[[], Sequence[Case]] = ()
    mistakes: dict[str, tuple[Callable, str]] = field(default_factory=dict)
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    where: Callable[[tuple, tuple], str] | None = None
    axes: tuple[str, ...] = ()
    dtype: Callable[[tuple], torch.dtype] | None = None
    dtype_why: str = "the input's dtype"
    explain: Callable[[tuple, torch.Tensor], str | None] | None = None
    explain_error: Callable[[tuple, Exception], str | None] | None = None
    autograd: bool = False
    part_check: Callable[[Callable], str | None] | None = None
    kind: str = field(init=False, default="implement")
    _cache: dict = field(init=False, default_factory=dict, repr=False)

    def prepared(self) -> tuple[list[Case], list, dict[str, list]]:
        """The cases, the reference's outputs, and each mistake's outputs (None where it raised)."""
        if not self._cache:
            cases = [c if isinstance(c, Case) else Case(*c)
                     for c in (self.cases() if callable(self.cases) else self.cases)]
            expected = [to_tensor(self.reference(*_fresh(c.args))) for c in cases]
            wrong = {name: [[_quiet(f, c.args) for c in cases] for f in (fn if isinstance(fn, tuple) else (fn,))]
                     for name, (fn, _) in self.mistakes.items()}
            self._cache.update(cases=cases, expected=expected, wrong=wrong)
        return self._cache["cases"], self._cache["expected"], self._cache["wrong"]

    def tolerance(self, case: Case) -> tuple[float, float]:
        """(rtol, atol) on this case: the exercise's, plus the case's float32-angle slack."""
        return self.rtol, self.atol + case.slack

    def namer(self, case: Case) -> Callable[[tuple], str] | None:
        if self.where is None:
            return None
        return lambda index: self.where(case.args, index)

    def _check(self, answer: Any, context: dict) -> CheckResult:
        if (refused := self._no_context(context)) is not None:
            return refused
        if not callable(answer):
            return self.failed(f"expected your function (the def my_… in this cell), got {describe_type(answer)}.")
        cases, expected, wrong = self.prepared()
        raw, outputs, first, failing = [], [], None, []
        for number, (case, want) in enumerate(zip(cases, expected, strict=True)):
            args = _fresh(case.args)
            saved = snapshot(args)
            try:
                got = answer(*args)
            except NotImplementedError:
                if number == 0:
                    return self.not_attempted()
                return self.failed(f'on case "{case.label}" your function raised NotImplementedError: '
                                   f"that part is still to write.")
            except Exception as err:
                meaning = self._error_explained(case, err)
                return self.failed(f'on case "{case.label}", {_call(answer, case.args)} raised '
                                   f"{type(err).__name__}: {err}\n"
                                   + (f"What it means: {meaning}\n" if meaning else "")
                                   + "(Call it like that in a cell of its own to see where.)")
            changed = changed_input(answer, saved)
            if changed is not None:
                return self.failed(f'on case "{case.label}", {changed}')
            raw.append(got)
            outputs.append(_tensor_or_none(got))
            rtol, atol = self.tolerance(case)
            problem = first_failure(want, got, rtol, atol, name=self.namer(case),
                                    dtype=self.dtype(case.args) if self.dtype is not None else None,
                                    dtype_why=self.dtype_why,
                                    device=_device(case.args))
            if problem is not None:
                failing.append(number)
                first = first or (number, case, problem)
        if first is None:
            problem = self._whole_answer_problem(answer, cases)
            if problem is not None:
                return self.failed(problem)
            return self.passed(f"your function matches the course's reference on all {len(cases)} cases "
                               f"(the lesson's sizes and the edge cases).")
        number, case, problem = first
        where = f'on case "{case.label}": {problem}.'
        name = self.diagnose(cases, expected, wrong, outputs, failing)
        if name is not None:
            how_to_fix = self.mistakes[name][1]
            return self.failed(f"this is a known mistake: {name}.\nHow to fix it: {how_to_fix}\n"
                               f"First difference {where}", mistake=name)
        said = self.relation(cases, expected, outputs)
        found = self._explained(case, outputs[number]) or _fixed_output(expected, outputs)
        return self.failed(where + (f"\nWhat the numbers say: {said}." if said else "")
                           + (f"\nWhat your output does: {found}" if found else ""))

    def _whole_answer_problem(self, answer: Callable, cases: list[Case]) -> str | None:
        """What is wrong with an answer whose outputs all match: the parts the stub asks for break their own
        contract (``part_check``), or, where the task takes tensors and returns one computed from them
        (``autograd``), the answer leaves PyTorch."""
        if self.part_check is not None:
            problem = self.part_check(answer)
            if problem is not None:
                return problem
        if self.autograd:
            case = next((c for c in cases if any(isinstance(a, torch.Tensor) and a.is_floating_point()
                                                 for a in c.args)), None)
            if case is not None:
                problem = left_pytorch(answer, case.args)
                if problem is not None:
                    return f'on case "{case.label}", {problem}'
        return None

    def _explained(self, case: Case, output) -> str | None:
        if self.explain is None or output is None:
            return None
        try:
            return self.explain(case.args, output)
        except Exception:  # an explanation must never hide the difference itself
            return None

    def _error_explained(self, case: Case, err: Exception) -> str | None:
        if self.explain_error is None:
            return None
        try:
            return self.explain_error(case.args, err)
        except Exception:  # an explanation must never hide the error itself
            return None

    def relation(self, cases, expected, outputs) -> str | None:
        """The relation (a sign, a scale, an order …) the answer has to the expected output on every failing
        case, in the first failing case's words; None when the failing cases do not share one."""
        found, entries = [], 0
        for case, want, got in zip(cases, expected, outputs, strict=True):
            if got is not None and close(want, got, *self.tolerance(case)):
                continue
            found.append(relation(want, got, *self.tolerance(case), self.axes))
            entries += want.numel()
            if found[-1] is None or found[-1][0] != found[0][0]:
                return None
        # one wrong number is a multiple (and a shift) of any other: a relation needs two entries to show
        return found[0][1] if found and entries >= 2 else None

    def diagnose(self, cases, expected, wrong, outputs, failing) -> str | None:
        """The catalogued mistake the answer's outputs make, or None (``failing``: the cases it fails)."""
        tolerances = [self.tolerance(c) for c in cases]
        for name in self.mistakes:
            if name == HALF:
                continue
            if any(all(w is not None and o is not None and close(w, o, *tol)
                       for w, o, tol in zip(variant, outputs, tolerances, strict=True))
                   for variant in wrong[name]):
                return name
        if HALF in self.mistakes and self._half_precision(expected, wrong.get(HALF, []), outputs, tolerances,
                                                          failing):
            return HALF
        return None

    def _half_errors(self, expected, emulations) -> list[list[float] | None]:
        """Each half-precision emulation's largest error on each case (None where it raised), computed once."""
        if "half_errors" not in self._cache:
            self._cache["half_errors"] = [
                None if any(v is None or v.shape != e.shape for v, e in zip(variant, expected, strict=True))
                else [_largest_error(e, v) for e, v in zip(expected, variant, strict=True)]
                for variant in emulations]
        return self._cache["half_errors"]

    def _half_precision(self, expected, emulations, outputs, tolerances, failing) -> bool:
        if any(o is not None and o.dtype in HALF_DTYPES and e.is_floating_point()
               for e, o in zip(expected, outputs, strict=True)):
            return True
        if any(o is None or not e.is_floating_point() or o.shape != e.shape for e, o in zip(expected, outputs,
                                                                                               strict=True)):
            return False
        if not failing:
            return False
        for half in HALF_DTYPES:  # computed in half precision, then cast back: every value a half number,
            # within a few of that precision's steps of the expected value
            if all(_largest_error(expected[k], outputs[k]) <= 2.0 ** -6 * float(expected[k].abs().max()) + 2.0 ** -14
                   and bool((outputs[k] == outputs[k].to(half).to(outputs[k].dtype)).all())
                   and not bool((expected[k] == expected[k].to(half).to(expected[k].dtype)).all())
                   for k in failing):
                return True
        mine = None
        for variant, theirs in zip(emulations, self._half_errors(expected, emulations), strict=True):
            # the error a half-precision computation makes, within a factor of 8, failing where it fails
            if theirs is None:
                continue
            if mine is None:
                mine = [_largest_error(e, o) for e, o in zip(expected, outputs, strict=True)]
            if all(m <= 8 * t + tol[1] + tol[0] * float(e.abs().max()) for m, t, e, tol
                   in zip(mine, theirs, expected, tolerances, strict=True)) and \
                    all(mine[k] >= theirs[k] / 8 for k in failing) and \
                    all(not close(expected[k], variant[k], *tolerances[k]) for k in failing):
                return True
        return False


def _fixed_output(expected: list[torch.Tensor], outputs: list) -> str | None:
    """The answer gives one and the same output on every case while the expected outputs differ: it does not
    depend on its arguments (a result copied into the code)."""
    if len(outputs) < 2 or any(o is None or o.shape != outputs[0].shape for o in outputs):
        return None
    first = outputs[0].to(torch.float64) if outputs[0].is_floating_point() else outputs[0]
    if not all(torch.equal(o.to(first.dtype), first) for o in outputs[1:]):
        return None
    if all(e.shape == expected[0].shape and close(expected[0], e, DEFAULT_RTOL, DEFAULT_ATOL) for e in expected[1:]):
        return None
    value = f"{float(first):.6g}" if first.numel() == 1 else f"the same tensor of shape {tuple(first.shape)}"
    return (f"it is {value} on every one of the {len(outputs)} cases, whatever the arguments, while the expected "
            "outputs differ from case to case. A result written into the code (a number copied from a printed "
            "output, say) cannot follow the arguments: compute it from them.")


def _tensor_or_none(value) -> torch.Tensor | None:
    try:
        return to_tensor(value)
    except Exception:  # a tensor that cannot come to the CPU (a meta tensor): first_failure says why
        return None


def _largest_error(expected: torch.Tensor, got: torch.Tensor) -> float:
    diff = (got.to(torch.float64) - expected.to(torch.float64)).abs()
    return float(diff.nan_to_num(nan=float("inf")).max()) if diff.numel() else 0.0


def _device(args: tuple) -> torch.device:
    """Where the inputs live (the CPU when none is a tensor): the output must be there too."""
    for a in args:
        if isinstance(a, torch.Tensor):
            return a.device
    return torch.device("cpu")


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
        keys = {_normal(k): k for k in self.choices}
        picked = keys.get(_normal(str(answer))) if isinstance(answer, str | int | float) else None
        if picked is None:
            listed = ", ".join(f'"{k}"' for k in self.choices)
            return self.failed(f"{answer!r} is not one of the choices: {listed}.")
        if picked == self.answer:
            return self.passed(f'"{picked}" is right. {self.choices[picked]}')
        return self.failed(f'"{picked}" is not it. {self.choices[picked]}')


def _normal(text: str) -> str:
    """A choice as matched: lower case, no spaces around it or around its symbols ("qk + bias" = "qk+bias")."""
    text = " ".join(text.strip().lower().split())
    return re.sub(r"\s*([^\w\s])\s*", r"\1", text)


class WrongOutput(ValueError):
    """Raised by a design check's own test when the proposal returns the wrong shape or kind of output:
    a verdict on the answer (reported as such), not an error inside the learner's function."""


@dataclass
class Design(Exercise):
    question: str = ""
    properties: tuple[tuple[str, Callable], ...] = ()
    kind: str = field(init=False, default="design")

    def _check(self, answer: Any, context: dict) -> CheckResult:
        if (refused := self._no_context(context)) is not None:
            return refused
        if not callable(answer):
            return self.failed(f"expected your proposal, the function this cell defines, got {describe_type(answer)}.")
        said = []
        watched = InputGuard(answer)  # every call the properties make fails on an input changed in place
        for number, (name, test) in enumerate(self.properties):
            try:
                ok, text = test(watched)
            except InputChanged as changed:
                return self.failed(str(changed))
            except WrongOutput as wrong:
                return self.failed(f"your proposal returned the wrong output: {wrong}.")
            except NotImplementedError:
                if number == 0:
                    return self.not_attempted()
                return self.failed("your function raised NotImplementedError: that part is still to write.")
            except Exception as err:
                return self.failed(f"testing whether your proposal is {name}, your function raised "
                                   f"{type(err).__name__}: {err}\n(Call it in a cell of its own to see where.)")
            if not ok:
                kept = f" It is {' and '.join(n for n, _ in self.properties[:number])}, but it" if number else " It"
                return self.failed(f"your proposal is not {name}.{kept} fails here: {text}")
            said.append(text)
        names = " and ".join(n for n, _ in self.properties)
        return self.passed(f"your proposal is {names}, which is what the fix needs. " + " ".join(said))


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
