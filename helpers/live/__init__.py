"""Control ranges (controls.py): ``IntRange``, ``LogRange``, ``Choice``, each a control's label and
bounds, checked once. The browser-drawn explorers (:mod:`helpers.explorers.browser`) check the values
a caller passes, and those their sliders send, with them.
"""

from .controls import Choice, IntRange, LogRange

__all__ = ["Choice", "IntRange", "LogRange"]
