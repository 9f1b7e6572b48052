"""Explorers drawn by the browser: anywidgets whose JavaScript computes and draws, so a slider move
never waits for the kernel. ``lNN_<lesson>.py`` holds the explorers of ``notebooks/NN_<lesson>.ipynb``;
its script is ``bundle/lNN_<lesson>.js``, built by ``make bundle`` from ``js/src/`` with d3's scales,
ticks and colour maps (``base.py``: what they share; shipped as package data). A lesson calls them as
``explorers.browser.<name>(...)`` after ``from helpers import explorers``.

Their tests are ``tests/explorers/browser/`` and the browser tests (``tests/browser/``).
"""

from .l00_order_blindness import order_explorer
from .l01_counting import counting_explorer
from .l02_normalised_positions import normalised_explorer
from .l03_single_sine import sine_explorer
from .l04_sinusoidal import sinusoidal_explorer
from .l05_rotation_matrix import clock_hands_explorer
from .l06_rope import rope_explorer
from .l07_learned_and_relative import alibi_explorer, t5_buckets_explorer
from .l08_train_short_test_long import loss_curves_explorer
from .l09_stretching_rope import pair_scale_explorer
from .l10_rope_in_practice import angle_precision_explorer
from .l11_the_map import attention_layer_explorer, attention_layer_picture
from .l12_rope_today import grid_rope_explorer

__all__ = ["alibi_explorer", "angle_precision_explorer", "attention_layer_explorer", "attention_layer_picture",
           "clock_hands_explorer", "counting_explorer", "grid_rope_explorer", "loss_curves_explorer",
           "normalised_explorer", "order_explorer", "pair_scale_explorer", "rope_explorer", "sine_explorer",
           "sinusoidal_explorer", "t5_buckets_explorer"]
