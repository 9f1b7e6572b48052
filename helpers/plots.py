"""Plotting for the lessons: the course's figure style, and small functions that draw on a given
Axes and return the artists a widget later updates in place.

Importing this module changes nothing global. A lesson applies the style once, in its setup
cell, with :func:`use_course_style`; explorers create their figures at :data:`COURSE_DPI`
themselves, so every lesson renders at the same size whatever the notebook's settings.
"""

from __future__ import annotations

import os
import sys

import matplotlib.pyplot as plt
import torch
from matplotlib.text import Text

COURSE_DPI = 80
COURSE_STYLE = {"figure.dpi": COURSE_DPI, "axes.grid": False, "font.size": 10}
MIN_TEXT_POINTS = 9
# Set (to anything) in the course's own runs (regeneration, the notebook tests): every figure a
# lesson shows is measured, and text under MIN_TEXT_POINTS is reported in the cell's output.
CHECK_TEXT_ENV = "COURSE_CHECK_FIGURE_TEXT"
SMALL_TEXT_REPORT = "figure text under 9 pt"


def use_course_style() -> None:
    """Apply :data:`COURSE_STYLE` (dpi, grid, font size) to every figure drawn from now on. In a
    notebook, figures are also sent at twice their pixels and shown at the same size ("retina"),
    so they stay sharp on 2× screens."""
    plt.rcParams.update(COURSE_STYLE)
    shell = _notebook_shell()
    if shell is None:
        return
    try:  # ipykernel's inline backend (JupyterLab, Colab); another front end keeps its own formats
        from matplotlib_inline.backend_inline import InlineBackend, set_matplotlib_formats
    except ImportError:
        return
    InlineBackend.instance().figure_formats = {"retina"}  # kept when the inline backend starts later
    set_matplotlib_formats("retina")
    if os.environ.get(CHECK_TEXT_ENV) and not getattr(shell, "_course_checks_text", False):
        shell._course_checks_text = True
        # before the inline backend's own post_execute hook, which shows the figures and closes them
        shell.events.callbacks["post_execute"].insert(0, report_small_text_in_open_figures)


def _notebook_shell():
    """The IPython shell of a Jupyter kernel, or None (plain Python, a terminal IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return shell if getattr(shell, "kernel", None) is not None else None


def small_texts(fig, min_points: float = MIN_TEXT_POINTS) -> list[tuple[float, str]]:
    """Every visible, non-empty text of ``fig`` (titles, labels, ticks, legends, annotations)
    smaller than ``min_points``, as sorted (size in points, first 40 characters) pairs. Draws the
    figure first, since tick labels get their text at draw time."""
    fig.canvas.draw()
    return sorted({(round(t.get_fontsize(), 1), t.get_text()[:40]) for t in fig.findobj(Text)
                   if t.get_visible() and t.get_text().strip() and t.get_fontsize() < min_points})


def report_small_text_in_open_figures() -> None:
    """Print, to the cell's error stream, each open figure's text under :data:`MIN_TEXT_POINTS`."""
    for manager in plt._pylab_helpers.Gcf.get_all_fig_managers():
        small = small_texts(manager.canvas.figure)
        if small:
            print(f"{SMALL_TEXT_REPORT}: {small}", file=sys.stderr)


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
