"""The lessons' slider explorers, one module per lesson: ``lNN_<lesson>.py`` holds the explorers
of ``notebooks/NN_<lesson>.ipynb``. A lesson calls them as ``explorers.<name>(...)`` after
``from helpers import explorers``.

Importing this package imports every ``lNN_*`` module in it, and each module registers its
explorers in :data:`helpers.live.REGISTRY`; the builders are then attributes of this package.

How to add one: see :mod:`helpers.live.registry`.

``explorers.browser`` holds the explorers drawn by the browser (anywidgets), outside the registry.
"""

import importlib
import pkgutil
import re

from ..live.registry import REGISTRY
from . import browser  # noqa: F401 (explorers drawn by the browser: not registered)


def _import_lesson_modules() -> None:
    for module in pkgutil.iter_modules(__path__):
        if re.fullmatch(r"l\d\d_\w+", module.name):
            importlib.import_module(f"{__name__}.{module.name}")


_import_lesson_modules()
globals().update({name: explorer.build for name, explorer in REGISTRY.items()})
__all__ = sorted(REGISTRY)
