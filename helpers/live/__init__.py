"""Figures that follow sliders: :class:`LiveFigure`, control ranges, PNG rendering, and the
registry of the lessons' explorers.

    figure.py      LiveFigure: one figure built once, updated in place, shown in JupyterLab or Colab
    controls.py    IntRange, LogRange, Choice: a control's bounds, checked once, and its slider
    png.py         render_png, encode_png: what the Output-widget path sends to the front end
    text_cache.py  a text cache for Agg, behind a Matplotlib version gate
    registry.py    register, REGISTRY: every explorer, for tests, benchmark and browser test
"""

from ..compat import require

# Artist.get_figure(root=True), which the blitting of LiveFigure relies on, is Matplotlib 3.10's.
require("matplotlib", "3.10", why="the sliders' figures use Artist.get_figure(root=True)")

from .controls import Choice, IntRange, LogRange  # noqa: E402
from .figure import LiveFigure, one_thread, uses_interactive_backend  # noqa: E402
from .png import encode_png, render_png  # noqa: E402
from .registry import REGISTRY, Explorer, register  # noqa: E402

__all__ = ["REGISTRY", "Choice", "Explorer", "IntRange", "LiveFigure", "LogRange", "encode_png", "one_thread",
           "register", "render_png", "uses_interactive_backend"]
