"""The lessons' slider explorers, drawn by the browser (anywidgets): ``browser/lNN_<lesson>.py`` holds
the explorers of ``notebooks/NN_<lesson>.ipynb``. A lesson calls them as ``explorers.browser.<name>(...)``
after ``from helpers import explorers``.
"""

from . import browser

__all__ = ["browser"]
