"""Lesson 05's explorer, computed and drawn by the browser: for a few pairs i of PE, the point
(sin pω_i, cos pω_i) on the unit circle as a clock hand (12 o'clock at p = 0, clockwise as p grows),
grey PE(p) and vermillion M_k·PE(p) = PE(p + k), with sliders over the offset k and the start p. Its
script, ``js/src/l05_rotation_matrix.js``, computes what
:func:`helpers.measure.l05_rotation_matrix.shift_snapshot` does; the still is drawn by Matplotlib.
"""

from __future__ import annotations

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..._checks import check_base, check_even, check_int
from ...live import IntRange
from ...measure.l05_rotation_matrix import shift_snapshot
from ...plots import COURSE_DPI, EMPHASIS, course_style
from .base import BrowserExplorer, bundle_source


def clock_pairs(d_model: int, n_clocks: int) -> list[int]:
    """The pairs drawn: ``n_clocks`` indices spread from the fastest to the slowest, without repeats."""
    n_pairs = d_model // 2
    return sorted({round(i) for i in np.linspace(0, n_pairs - 1, min(n_clocks, n_pairs))})


class ClockHandsExplorer(BrowserExplorer):
    """k and the start p shared with the browser, each checked as the builder checks it."""

    _esm = bundle_source("l05_rotation_matrix")
    names = ("k", "position")
    k = traitlets.Int(10).tag(sync=True)
    position = traitlets.Int(0).tag(sync=True)
    d_model = traitlets.Int(16).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)
    max_k = traitlets.Int(200).tag(sync=True)
    n_clocks = traitlets.Int(8).tag(sync=True)

    @property
    def still_inches(self) -> tuple[float, float]:
        rows = -(-len(clock_pairs(self.d_model, self.n_clocks)) // 4)
        return (7.8, 0.5 + 2.2 * rows)

    @traitlets.validate("k")
    def _check_k(self, proposal):
        return IntRange("offset k", -self.max_k, self.max_k).check("k", proposal["value"])

    @traitlets.validate("position")
    def _check_position(self, proposal):
        return IntRange("start p", 0, self.max_k).check("position", proposal["value"])

    def describe(self) -> str:
        pairs = ", ".join(map(str, clock_pairs(self.d_model, self.n_clocks)))
        return (f"Clock hands of pairs {pairs} of PE({self.position}) (grey) and of PE({self.position + self.k}) "
                f"(vermillion), turned by k = {self.k}.")

    def still_figure(self) -> Figure:
        return still_figure(self.k, self.position, self.d_model, self.base, self.n_clocks, self.still_inches)


def clock_hands_explorer(d_model: int = 16, k: int = 10, position: int = 0, base: float = 10000.0,
                         max_k: int = 200, n_clocks: int = 8) -> ClockHandsExplorer:
    """For a few pairs i (spread from fastest to slowest), the point (sin pω_i, cos pω_i) on the unit
    circle: the grey hand is PE(p), the vermillion hand M_k·PE(p) = PE(p + k), turned by k·ω_i (the arc).
    Sliders: the offset k (−max_k … max_k; negative turns back) and the start p (0 … max_k), computed
    and drawn by the browser."""
    d_model, base = check_even("d_model", d_model), check_base(base)
    max_k, n_clocks = check_int("max_k", max_k, 1), check_int("n_clocks", n_clocks, 1)
    k = IntRange("offset k", -max_k, max_k).check("k", k)
    position = IntRange("start p", 0, max_k).check("position", position)
    return ClockHandsExplorer(k=k, position=position, d_model=d_model, base=base, max_k=max_k, n_clocks=n_clocks)


def still_figure(k: int, position: int, d_model: int, base: float, n_clocks: int,
                 inches: tuple[float, float]) -> Figure:
    """What the browser draws, as a Matplotlib figure: one clock per pair, four to a row."""
    s = shift_snapshot(k, position, d_model, base)
    here, moved, omega, turns = s.start.numpy(), s.moved.numpy(), s.omega.numpy(), s.turns.numpy()
    pairs = clock_pairs(d_model, n_clocks)
    cols = min(len(pairs), 4)
    rows = -(-len(pairs) // cols)
    circle = np.linspace(0, 2 * np.pi, 121)
    with course_style():
        fig = Figure(figsize=inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        axes = fig.subplots(rows, cols, squeeze=False)
        fig.subplots_adjust(left=0.01, right=0.99, top=1 - 0.75 / inches[1], bottom=0.03, wspace=0.08, hspace=0.5)
        for ax in axes.flat[len(pairs):]:
            ax.set_visible(False)
        for ax, i in zip(axes.flat, pairs, strict=False):
            ax.plot(np.sin(circle), np.cos(circle), color="0.75", linewidth=1)
            ax.plot([0], [0], "o", color="0.3", markersize=3)
            ax.plot([0, here[2 * i]], [0, here[2 * i + 1]], color="0.6", linewidth=2)
            sweep = np.linspace(0, float(np.clip(2 * np.pi * turns[i], -2 * np.pi, 2 * np.pi)), 60)
            t0 = position * omega[i]
            ax.plot(1.1 * np.sin(t0 + sweep), 1.1 * np.cos(t0 + sweep), color=EMPHASIS, linewidth=2.5, alpha=0.5)
            ax.plot([0, moved[2 * i]], [0, moved[2 * i + 1]], color=EMPHASIS, linewidth=2.5, marker="o",
                    markevery=[1], markersize=6)
            ax.set(xlim=(-1.25, 1.25), ylim=(-1.25, 1.25), aspect="equal")
            ax.set_axis_off()
            ax.set_title(f"pair {i}: ω={omega[i]:.3g}\nk·ω/2π = {turns[i]:+.3g} turns", fontsize=9)
        fig.suptitle(f"k = {k}.   grey: PE({position}),   vermillion: M_k·PE({position}) = PE({position + k})",
                     fontsize=11)
    return fig
