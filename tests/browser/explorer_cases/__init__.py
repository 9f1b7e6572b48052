"""What the browser tests check of each browser-drawn explorer, one module per lesson (``lNN_<lesson>.py``),
each defining:

* ``CASES``: name -> (the builder's call, the keys pressed as (slider name, key, the values they reach),
  the function measuring how far what was drawn is from the Python reference); run on a page of the
  explorer's own saved output (test_browser_explorers.py);
* ``IN_LESSONS``: notebook -> the explorers that lesson shows (:class:`InLesson`), moved in JupyterLab
  (test_browser_explorers.py) and on the web site (test_site.py).

An error function takes ``(drawn, values)``: the numbers the last draw put on the canvas and the slider
values (``globalThis.__pe_explorers[id]``), and returns the largest difference from the reference
(``math.inf`` when what was drawn is for other settings).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class InLesson:
    """One explorer a lesson shows: words of the cell that builds it, its ``data-explorer`` name, the slider
    and key pressed, the values that key reaches, and the error function."""

    words: str
    explorer: str
    slider: str
    key: str
    expected: dict
    error: Callable[[dict, dict], float]


CASES: dict = {}
IN_LESSONS: dict[str, list[InLesson]] = {}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    CASES.update(_module.CASES)
    for _notebook, _shown in _module.IN_LESSONS.items():
        IN_LESSONS.setdefault(_notebook, []).extend(_shown)
