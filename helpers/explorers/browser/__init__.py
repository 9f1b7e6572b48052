"""Explorers drawn by the browser: anywidgets whose JavaScript computes and draws, so a slider move
never waits for the kernel. ``lNN_<lesson>.py`` holds the explorers of ``notebooks/NN_<lesson>.ipynb``,
with its script ``lNN_<lesson>.js`` beside it (shipped as package data). A lesson calls them as
``explorers.browser.<name>(...)`` after ``from helpers import explorers``.

They are not in :data:`helpers.live.REGISTRY`, which holds the kernel-drawn ones (``LiveFigure``);
their tests are ``tests/explorers/browser/`` and ``tests/browser/test_lab_anywidget.py``.
"""

from .l04_sinusoidal import sinusoidal_explorer

__all__ = ["sinusoidal_explorer"]
