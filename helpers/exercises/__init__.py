"""The learner's turns: exercises checked on the spot (``H.check``, ``H.hint``, ``H.solution``).

``core`` holds the three kinds (implement, predict, explore), the registry and the checker;
``compare`` locates the first property where an answer differs from the expected output;
``lNN_<lesson>`` registers that lesson's exercises (see ``core``'s docstring for how to add one).
Every ``lNN_*.py`` module of this folder is imported here, in lesson order, so adding a lesson's
module needs no edit of this file. ``EXERCISES`` lists every id in course order.
"""

import importlib as _importlib
import pkgutil as _pkgutil
import re as _re

from .core import CheckResult, check, exercise_ids, hint, solution

for _module in sorted(m.name for m in _pkgutil.iter_modules(__path__) if _re.fullmatch(r"l\d\d_\w+", m.name)):
    _importlib.import_module(f"{__name__}.{_module}")

EXERCISES = exercise_ids()

__all__ = ["EXERCISES", "CheckResult", "check", "hint", "solution"]
