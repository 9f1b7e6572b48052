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


def axis_names(ax, x: str | None, y: str | None, y_gap: float = 30) -> None:
    """Name the axes with plain texts below and left of them, ``y_gap`` points from the y axis.

    For figures redrawn on every slider step: unlike ``set_xlabel``/``set_ylabel``, whose place is
    worked out around the tick labels at every draw, these texts stay where they are put."""
    if x:
        ax.annotate(x, (0.5, 0), xycoords="axes fraction", xytext=(0, -19), textcoords="offset points",
                    ha="center", va="top")
    if y:
        ax.annotate(y, (0, 0.5), xycoords="axes fraction", xytext=(-y_gap, 0), textcoords="offset points",
                    ha="right", va="center", rotation=90)


def heatmap(ax, data, title: str = "", xlabel: str = "", ylabel: str = "", cmap: str = "RdBu_r",
            vmin: float | None = -1.0, vmax: float | None = 1.0, colorbar: bool = True):
    """Draw ``data`` (rows × columns) as an image; returns the AxesImage (update it with set_data).

    Nearest-neighbour sampling picks the same cells before colour mapping as after it, so the
    image is sampled as data: the same pixels, without colouring every cell first."""
    im = ax.imshow(as_numpy(data), aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest",
                   interpolation_stage="data")
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
