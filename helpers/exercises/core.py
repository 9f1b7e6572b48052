"""The exercises' registry and checker: ``check``, ``hint``, ``solution``, ``CheckResult``.

Four kinds of exercise, each registered by one call in its lesson's module
``helpers/exercises/lNN_<lesson>.py`` (ids are "NN.name", NN the lesson number):

    implement(exercise_id, *, title, reference, cases, mistakes, hints, solution, where, axes=(),
              dtype=None, dtype_why="the input's dtype", half_why=None, half=(), explain=None,
              explain_error=None, autograd=False, part_check=None, rtol=DEFAULT_RTOL, atol=DEFAULT_ATOL,
              setup="")
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
        (the policy below says how it is recognised). ``autograd=True`` where the task takes tensors and
        returns one computed from them (01.attention_entropy, 06.rope, 08.loss_by_position,
        10.half_layout_rows): once every case matches, the answer is called with its floating inputs
        requiring gradients, and fails when its output carries none (it left PyTorch: numpy, .detach(),
        .item()). ``part_check(answer) -> str | None`` checks, once every case matches, the part of the stub
        the learner wrote against its own contract (01.attention_entropy: entropy_terms keeps the shape of
        weights), finding it with ``exercise.companion``; a message means it fails.

        The message of a failure gives the first failing property on the first failing case (see
        ``compare.first_failure``: type, shape, device, dtype, finite, values), with the input that
        produced the first difference named by ``where``; then, when the answer's outputs equal a
        catalogued mistake's on every case, names that mistake and how to fix it; when none matches,
        says which property the numbers show (``compare.what_property``: a sign, a scale, an order or
        direction along a named axis, a transpose, an off-by-one step), and what ``explain`` says (or, when
        the answer gives one and the same output on every case while the expected outputs differ, that it
        does not follow its arguments: a result written into the code).

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
- The learner's function leaves its inputs as they were: every call is given fresh copies of the case's
  tensors, and the very tensors passed in are compared afterwards with copies kept before the call
  (``inputs.changed_input``); a change fails, naming the input by its name in the learner's function. Design
  checks watch every call of the proposal the same way.
- Correct answers written another way pass: float64 inside, Python loops, numpy arrays, another
  equivalent formula; the tests of each lesson's exercises keep such answers passing. Where the task takes
  tensors and returns one computed from them (``autograd=True``), the answer must stay in PyTorch: a numpy
  round trip gives the right numbers but no gradient, and on a GPU it would come back on the CPU. (The checks
  run on the CPU, where a device cannot be lost: the missing gradient is what they see of it.)

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
from collections.abc import Callable, Sequence
from typing import Any

import torch

from .compare import DEFAULT_ATOL, DEFAULT_RTOL
from .exercise import COLUMN, HALF, KINDS, MARKS, STATUSES, Case, CheckResult, Exercise
from .kinds import Design, Explore, Implement, Predict, WrongOutput, _normal

__all__ = ["COLUMN", "HALF", "KINDS", "MARKS", "STATUSES", "Case", "CheckResult", "Design", "Exercise", "Explore",
           "Implement", "Predict", "check", "design", "exercise_ids", "explore", "get", "hint", "implement",
           "predict", "reset_hints", "solution", "WrongOutput"]

_ID = re.compile(r"\d\d\.[a-z0-9_]+")


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
              autograd: bool = False, part_check: Callable[[Callable], str | None] | None = None,
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
                               explain=explain, explain_error=explain_error, autograd=autograd,
                               part_check=part_check))


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
