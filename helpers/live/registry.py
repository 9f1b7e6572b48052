"""The registry of explorers: every slider explorer of every lesson, in one place.

An explorer is a function ``<what>_explorer(...) -> LiveFigure`` in
``helpers/explorers/lNN_<lesson>.py``, decorated with :func:`register`. The unit tests
(``tests/explorers/``), ``benchmarks/slider_latency.py`` and the browser test
(``tests/browser/``) read :data:`REGISTRY`, which importing ``helpers.explorers`` fills,
instead of keeping lists of their own.

How to add an explorer
----------------------
1. In ``helpers/explorers/lNN_<lesson>.py`` (create it if the lesson has none; ``NN_<lesson>``
   is the notebook's file name without ``.ipynb``) write ``<what>_explorer(...) -> LiveFigure``:

   * give each control's bounds once, as a range from :mod:`helpers.live` (``IntRange``,
     ``LogRange``, ``Choice``); check the builder's arguments with ``RANGE.check(name, value)``
     and build the control with ``RANGE.slider(value)``;
   * build the figure once, at ``plots.COURSE_DPI`` and at most ``plots.COLUMN_PX`` wide, with
     every artist it will ever show (the registry builds it in ``plots.course_style()``); colour
     it with ``plots.COLORS`` (one dash pattern per series too) and ``plots.TEXT_COLORS`` for text;
   * write ``update(...)`` with one parameter per control: it calls the lesson's measurement
     (``helpers/measure/lNN_<lesson>.py``, the only place that validates) once and then only
     changes artists (``set_data``, ``set_text``, limits);
   * return ``LiveFigure(fig, update, controls)``.

2. Decorate it with ``@register(moves="<control>", example={...})``: the control a benchmark or
   the browser test moves by one notch, and keyword arguments that build it outside the lesson
   (a function returning them when they must be built, like the model in ``l00``). Keep the
   example quick to build (seconds, no training): the tests build every explorer.

3. Use it in the notebook, in a cell tagged ``nbval-ignore-output`` (a cell tag, never a comment in
   the source), and call the measurement behind it once in a plain cell whose output is compared.

Nothing else changes: the unit tests (``tests/explorers/``), ``benchmarks/slider_latency.py`` and
the browser test (``tests/browser/``) read the registry, and a test fails when a notebook uses an
explorer that is not registered, or a registered one is used by no notebook.

An explorer a lesson no longer shows, because one drawn by the browser (``helpers.explorers.browser``)
took its place, stays registered with ``in_lesson=False`` while a benchmark compares the two: the unit
tests still build and check it, the browser test of the lessons leaves it out, and a test fails if a
notebook uses it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..plots import course_style
from .figure import LiveFigure

_MODULE = re.compile(r"l(\d\d)_(\w+)")


@dataclass(frozen=True)
class Explorer:
    """One registered explorer."""

    name: str  # the builder's name, "<something>_explorer"
    lesson: str  # its notebook's stem, "04_sinusoidal", taken from the module's name
    build: Callable[..., LiveFigure]
    moves: str  # the control a benchmark or the browser test moves (a key of LiveFigure.controls)
    example: Callable[[], dict]  # keyword arguments that build it outside a lesson (tests, benchmark)
    in_lesson: bool = True  # False: kept as the reference a browser-drawn successor is measured against

    def build_example(self) -> LiveFigure:
        """The explorer built with :attr:`example`'s arguments."""
        return self.build(**self.example())


REGISTRY: dict[str, Explorer] = {}


def register(moves: str, example: Callable[[], dict] | dict | None = None, in_lesson: bool = True):
    """Decorator that adds an explorer builder to :data:`REGISTRY`.

    moves: the control that a benchmark or the browser test moves by one notch.
    example: keyword arguments (or a function returning them, for arguments that must be built,
        such as a model) with which the builder runs outside its lesson; none needed if every
        parameter has a default.
    in_lesson: False for an explorer no lesson shows any more (one drawn by the browser took its
        place) that stays as the reference a benchmark compares its successor with.
    """
    if callable(example):
        arguments = example
    else:
        fixed = dict(example or {})

        def arguments() -> dict:
            return dict(fixed)

    def add(build: Callable[..., LiveFigure]) -> Callable[..., LiveFigure]:
        module = build.__module__.rsplit(".", 1)[-1]
        match = _MODULE.fullmatch(module)
        if match is None:
            raise ValueError(f"{build.__name__}: explorers live in modules named lNN_<lesson>, not {module!r}")
        if not build.__name__.endswith("_explorer"):
            raise ValueError(f"{build.__name__}: an explorer's name ends in '_explorer'")
        known = REGISTRY.get(build.__name__)
        if known is not None and known.build.__module__ != build.__module__:
            raise ValueError(f"{build.__name__} is registered twice: {known.build.__module__}, {build.__module__}")
        @functools.wraps(build)
        def styled(*args, **kwargs) -> LiveFigure:  # every explorer is drawn in the course style
            with course_style():
                return build(*args, **kwargs)

        REGISTRY[build.__name__] = Explorer(build.__name__, f"{match[1]}_{match[2]}", styled, moves, arguments,
                                            in_lesson)
        return styled

    return add
