"""The exercises' registry and checker: ``check``, ``hint``, ``solution``, ``CheckResult``.

Four kinds of exercise, each registered by one call in its lesson's module
``helpers/exercises/lNN_<lesson>.py`` (ids are "NN.name", NN the lesson number):

    implement(exercise_id, *, title, reference, cases, mistakes, hints, solution, where, axes=(),
              dtype=None, dtype_why="the input's dtype", half_why=None, half=(), explain=None,
              explain_error=None, rtol=DEFAULT_RTOL, atol=DEFAULT_ATOL, setup="")
        The learner writes a function. ``cases``: a sequence of ``Case(label, args, slack=0.0)`` (or a
        zero-argument function returning one, built on first use so importing stays cheap); the
        learner's function and ``reference`` are called as ``f(*args)`` on each case (tensors in
        ``args`` are cloned for every call). ``mistakes``: {name: (wrong_fn, how_to_fix)}, at least
        three, each ``wrong_fn`` taking the same arguments as ``reference`` (a tuple of functions when one
        mistake has several codings: any of them matches). ``where(args, index) -> str`` names an
        output index in the exercise's own terms ("offset −90 with bidirectional=False", "position 1,
        pair 0 = features 0, 1", "head 3 of 12"); ``axes`` names the output's trailing axes for the
        property messages ("reversed along the heads"). ``dtype(args) -> torch.dtype`` is the exact
        dtype the task states (06.rope and 01.attention_entropy: the input's dtype; 03.smallest_gap: float64),
        None where it states only "a float tensor"; ``dtype_why`` says where that dtype comes from in the
        message ("the dtype of weights").
        ``explain(args, output) -> str | None`` states, for a wrong output, which of the properties
        the task asks for it has and which it lacks (09.ntk_inv_freq: the fastest pair kept, the
        slowest divided by the factor), so that the learner can work from the properties rather than
        transcribe a formula. ``explain_error(args, error) -> str | None`` says what an exception the
        learner's function raised means in the exercise's terms (08.loss_by_position: F.cross_entropy wants
        the classes on dim 1; 10.half_layout_rows: rows indexed as columns). ``half_why`` says why this
        exercise needs more than half precision; it catalogues the mistake "computed in half precision",
        and ``half`` are functions computing the reference the way a learner would in float16 or bfloat16
        (the policy below says how it is recognised).

        The message of a failure gives the first failing property on the first failing case (see
        ``compare.first_failure``: type, shape, device, dtype, finite, values), with the input that
        produced the first difference named by ``where``; then, when the answer's outputs equal a
        catalogued mistake's on every case, names that mistake and how to fix it; when none matches,
        says which property the numbers show (``compare.what_property``: a sign, a scale, an order or
        direction along a named axis, a transpose, an off-by-one step), and what ``explain`` says.

    predict(exercise_id, *, title, question, choices, answer, hints, solution, setup="")
        The learner commits to one of ``choices`` = {"key": "explanation shown when picked"} before
        the next cells reveal it; ``answer`` is the right key. Keys match case-insensitively, with
        surrounding spaces and runs of inner spaces ignored (a number is matched by its text: 3
        matches "3").

    explore(exercise_id, *, title, question, verify, hints, solution, context=(), setup="")
        The learner changes a setting, reruns, and answers from their own run.
        ``verify(answer, **context) -> (ok: bool, message: str)``; ``context`` names the keywords
        the check needs (``H.check("08.rise", answer, run=run)`` → ``context=("run",)``).

    design(exercise_id, *, title, question, properties, hints, solution, setup="")
        "Design it yourself": before the lesson shows its fix, the learner proposes one as a function,
        with any formula. ``properties`` = ((name, test), …), each ``test(answer) -> (ok, message)``
        testing one property the fix needs ("bounded", "offset-only scores"); the check passes when
        every property holds and otherwise names the first that fails and the input that shows it.

Every kind: ``hints`` = 2 or 3 strings, shown one at a time, only when asked for; ``solution`` = the
complete source of the solved exercise cell, ending with the same ``H.check(...)`` line as the stub
(implement solutions import what they use, e.g. ``import torch``); ``setup`` = source that builds what
the cell uses from earlier cells of the lesson (the unit test runs ``setup`` then ``solution`` in a
namespace holding ``H``; in the notebook the earlier cells have already done it).

The learner calls ``check(exercise_id, answer, **context) -> CheckResult``; it never raises for an
answer. An answer of None or ``...``, or a function that raises NotImplementedError on its first
call, is "not attempted": the message names the exercise, says how to start and how to ask for a
hint (``H.hint("NN.name")``), and shows no hint.

The tolerance and dtype policy (every implement exercise)
---------------------------------------------------------
- Floating outputs pass when |got − expected| ≤ atol + slack + rtol·|expected| on every entry, with
  rtol = 1e-5 everywhere and atol = 1e-6 for outputs of order one that cross zero (encodings, rotated
  vectors, entropies, codes). Outputs that are positive magnitudes spanning orders of magnitude
  (frequencies, slopes, gaps) are compared relatively: atol = 0. float32 rounds to 6·10⁻⁸ of a value
  and passes; float16 (11 significant bits, relative steps of 5·10⁻⁴) and bfloat16 (8 bits, 4·10⁻³)
  fail. Integer outputs, and outputs that only move entries (a permutation), must be exact.
- ``slack`` is the only per-case allowance, and only for cases whose angles are large: a float32
  angle θ carries an error of about θ·2⁻²⁴, so a case whose largest angle is θ, multiplying values of
  size m, gets ``compare.float32_angle_slack(θ, m)`` = 4·θ·2⁻²⁴·m (position 4095 in RoPE: ≈ 10⁻³·m).
- Where the task states a dtype, a shape or a device, the check enforces it: shape always, the output
  on the inputs' device (the CPU), the exact dtype where ``dtype`` is given, and otherwise a floating
  output for a floating reference (float32 or float64, either is fine).
- "computed in half precision" is a named mistake in every implement exercise with a floating output,
  with ``half_why`` as its reason. It is recognised (1) by a float16 or bfloat16 output; (2) by outputs
  computed in half precision and cast back: on every failing case all values are exactly float16 (or
  all bfloat16) numbers while the expected ones are not; (3) by the error's size: on every case the
  answer's largest error is within a factor of 8 of that of one of the ``half`` functions (which
  compute the reference in float16 or bfloat16 the way a learner would), and fails where they fail.
- Correct answers written another way pass: float64 inside, Python loops, numpy arrays, another
  equivalent formula; the tests of each lesson's exercises keep such answers passing.

How to add an exercise
----------------------
1. In ``helpers/exercises/lNN_<lesson>.py`` (imported by ``helpers/exercises/__init__.py`` on its
   own), call ``predict(...)``, ``explore(...)``, ``implement(...)`` or ``design(...)`` at module
   level, in the order the exercises appear in the notebook.
2. In the notebook: a markdown cell ``### Your turn · <title> (predict, ~N min)`` (or implement,
   explore, design) with the task, then ONE code cell tagged ``exercise`` holding the stub, whose
   last line is the check: ``answer = None  # one of: "a", "b", "c"`` / ``H.check("NN.name", answer)``;
   for implement and design, ``def my_…(…): raise NotImplementedError`` then ``H.check("NN.name", my_…)``.
3. ``tests/exercises`` then tests it: each choice's verdict, the solution passing, the stub "not
   attempted", and the notebook cell run with the solution in place.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import torch

from .compare import DEFAULT_ATOL, DEFAULT_RTOL, HALF_DTYPES, close, describe_type, first_failure, relation, to_tensor

KINDS = ("implement", "predict", "explore", "design")
HALF = "computed in half precision"
STATUSES = ("passed", "failed", "not attempted")
MARKS = {"passed": "✅", "failed": "❌", "not attempted": "✏️"}  # the verdict at a glance
COLUMN = 90  # a notebook column: longer lines wrap in the browser mid-word
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
            try:
                got = answer(*_fresh(case.args))
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
        found = self._explained(case, outputs[number])
        return self.failed(where + (f"\nWhat the numbers say: {said}." if said else "")
                           + (f"\nWhat your output does: {found}" if found else ""))

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
        for number, (name, test) in enumerate(self.properties):
            try:
                ok, text = test(answer)
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
              hints: Sequence[str], solution: str, where: Callable[[tuple, tuple], str] | None = None,
              axes: Sequence[str] = (), dtype: Callable[[tuple], torch.dtype] | None = None,
              dtype_why: str = "the input's dtype",
              half_why: str | None = None, half: Callable | tuple[Callable, ...] = (),
              explain: Callable[[tuple, torch.Tensor], str | None] | None = None,
              explain_error: Callable[[tuple, Exception], str | None] | None = None,
              rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL, setup: str = "") -> Implement:
    """Register an implement exercise (see the module docstring)."""
    if len(mistakes) < 3:
        raise ValueError(f"{exercise_id}: catalogue at least three mistakes, got {len(mistakes)}")
    mistakes = dict(mistakes)
    if half_why is not None:
        mistakes[HALF] = (half if isinstance(half, tuple) else (half,),
                          f"float16 keeps 11 significant bits (about 3 decimal digits) and bfloat16 only 8 (about 2). "
                          f"{half_why} Compute in float32 or float64, and return float32 or float64.")
    return _register(Implement(exercise_id, title, tuple(hints), solution, setup, _caller_module(),
                               reference=reference, cases=cases, mistakes=mistakes, rtol=rtol, atol=atol,
                               where=where, axes=tuple(axes), dtype=dtype, dtype_why=dtype_why,
                               explain=explain, explain_error=explain_error))


def design(exercise_id: str, *, title: str, question: str, properties: Sequence[tuple[str, Callable]],
           hints: Sequence[str], solution: str, setup: str = "") -> Design:
    """Register a design-it-yourself exercise (see the module docstring)."""
    if not properties or not all(isinstance(n, str) and callable(t) for n, t in properties):
        raise ValueError(f"{exercise_id}: properties must be (name, test) pairs, at least one")
    return _register(Design(exercise_id, title, tuple(hints), solution, setup, _caller_module(),
                            question=question, properties=tuple(properties)))


def predict(exercise_id: str, *, title: str, question: str, choices: dict[str, str], answer: str,
            hints: Sequence[str], solution: str, setup: str = "") -> Predict:
    """Register a predict exercise (see the module docstring)."""
    if answer not in choices or len(choices) < 2:
        raise ValueError(f"{exercise_id}: answer {answer!r} must be one of at least two choices {list(choices)}")
    if len({_normal(k) for k in choices}) != len(choices):
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
