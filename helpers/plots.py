"""Plotting for the lessons: the course's figure style, and small functions that draw on a given
Axes and return the artists a widget later updates in place.

Importing this module changes nothing global. A lesson applies the style once, in its setup
cell, with :func:`use_course_style`; explorers create their figures at :data:`COURSE_DPI`
themselves, so every lesson renders at the same size whatever the notebook's settings.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import torch

COURSE_DPI = 80
COURSE_STYLE = {"figure.dpi": COURSE_DPI, "axes.grid": False, "font.size": 10}


def use_course_style() -> None:
    """Apply :data:`COURSE_STYLE` (dpi, grid, font size) to every figure drawn from now on."""
    plt.rcParams.update(COURSE_STYLE)


def as_numpy(x):
    """A tensor (or array) as a NumPy array on the CPU."""
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else x


def heatmap(ax, data, title: str = "", xlabel: str = "", ylabel: str = "", cmap: str = "RdBu_r",
            vmin: float | None = -1.0, vmax: float | None = 1.0, colorbar: bool = True):
    """Draw ``data`` (rows × columns) as an image; returns the AxesImage (update it with set_data)."""
    im = ax.imshow(as_numpy(data), aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return im


def attention_map(ax, weights, tokens: list[str], title: str = ""):
    """Attention weights (queries × keys) with token labels; returns the AxesImage."""
    im = heatmap(ax, weights, title=title, xlabel="key", ylabel="query", cmap="viridis", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(tokens)), tokens, rotation=45)
    ax.set_yticks(range(len(tokens)), tokens)
    return im
