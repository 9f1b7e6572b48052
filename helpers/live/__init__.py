"""Figures that follow sliders: :class:`LiveFigure`, control ranges, PNG rendering, and the
registry of the lessons' explorers.

    figure.py      LiveFigure: one figure built once, updated in place, shown in JupyterLab or Colab
    controls.py    IntRange, LogRange, Choice: a control's bounds, checked once, and its slider
    png.py         render_png, encode_png: what the Output-widget path sends to the front end
    text_cache.py  a text cache for Agg, behind a Matplotlib version gate
    registry.py    register, REGISTRY: every explorer, for tests, benchmark and browser test
"""

from .controls import Choice, IntRange, LogRange
from .figure import LiveFigure, one_thread, uses_interactive_backend
from .png import encode_png, render_png
from .registry import REGISTRY, Explorer, register

__all__ = ["REGISTRY", "Choice", "Explorer", "IntRange", "LiveFigure", "LogRange", "encode_png", "one_thread",
           "register", "render_png", "uses_interactive_backend"]
