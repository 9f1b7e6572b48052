"""Lesson 03's explorer, computed and drawn by the browser: positions 0 … L − 1 on the wave sin(ω·p)
and on the circle (cos ω·p, sin ω·p), the closest pair ringed on each, with sliders over ω
(0.001 … π, log scale) and L. Its script, ``js/src/l03_single_sine.js``, computes what
:func:`helpers.sine_snapshot` does; the still picture is drawn by Matplotlib from it.
"""

from __future__ import annotations

import math

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..._checks import check_int
from ...live import IntRange, LogRange
from ...measure.l03_single_sine import sine_snapshot
from ...plots import COLORS, COURSE_DPI, EMPHASIS, course_style
from .base import BrowserExplorer, bundle_source

OMEGA = LogRange("ω", 1e-3, math.pi, step=0.01)


def _lengths(max_length: int) -> IntRange:
    return IntRange("length L", 2, max_length)


class SineExplorer(BrowserExplorer):
    """ω and L shared with the browser, each checked as the builder checks it."""

    _esm = bundle_source("l03_single_sine")
    names = ("omega", "length")
    still_inches = (7.8, 4.0)
    omega = traitlets.Float(1.0).tag(sync=True)
    length = traitlets.Int(50).tag(sync=True)
    max_length = traitlets.Int(200).tag(sync=True)

    @traitlets.validate("omega")
    def _check_omega(self, proposal):
        return OMEGA.check("omega", proposal["value"])

    @traitlets.validate("length")
    def _check_length(self, proposal):
        return _lengths(self.max_length).check("length", proposal["value"])

    def describe(self) -> str:
        s = sine_snapshot(self.omega, self.length)
        i, j, _ = s.wave_pair
        ci, cj, _ = s.circle_pair
        return (f"Positions 0 to {self.length - 1} on the wave sin(ω·p) and on the circle, ω = {self.omega:.3g}: "
                f"closest pair on the wave {i} and {j}, on the circle {ci} and {cj}.")

    def still_figure(self) -> Figure:
        return still_figure(self.omega, self.length)


def sine_explorer(omega: float = 1.0, length: int = 50, max_length: int = 200) -> SineExplorer:
    """Positions 0 … L − 1 on the wave and on the circle, with sliders over ω (0.001 … π, log scale)
    and L (2 … ``max_length``), computed and drawn by the browser. The closest pair of distinct
    positions is ringed in vermillion on each; titles give the smallest gaps."""
    max_length = check_int("max_length", max_length, 2)
    omega, length = OMEGA.check("omega", omega), _lengths(max_length).check("length", length)
    return SineExplorer(omega=omega, length=length, max_length=max_length)


def still_figure(omega: float, length: int) -> Figure:
    """What the browser draws, as a Matplotlib figure: the wave with every position's dot, the circle
    with the positions coloured by p, the closest pair ringed on each."""
    s = sine_snapshot(omega, length)
    values, points = s.values.numpy(), s.circle.numpy()
    with course_style():
        fig = Figure(figsize=SineExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax_wave, ax_circle = fig.subplots(1, 2, gridspec_kw={"width_ratios": [2.0, 1]})
        fig.subplots_adjust(left=0.09, right=0.985, top=0.74, bottom=0.13, wspace=0.3)
        t = np.linspace(0, length - 1, 2000)
        ax_wave.plot(t, np.sin(omega * t), color="0.75", linewidth=1)
        ax_wave.plot(np.arange(length), values, "o", color=COLORS["blue"], markersize=3)
        i, j, gap = s.wave_pair
        ax_wave.axhline(values[i], color=EMPHASIS, linestyle=":", linewidth=1)
        ax_wave.plot([i, j], values[[i, j]], "o", color=EMPHASIS, markersize=8, markerfacecolor="none",
                     markeredgewidth=2)
        ax_wave.set(xlim=(-0.5, length - 0.5), ylim=(-1.15, 1.15), xlabel="position p", ylabel="sin(ω·p)")
        ax_wave.set_title(f"on the wave: closest pair {i}, {j} (gap {gap:.2g});\n"
                          f"smallest step to a neighbour {s.neighbour_gap:.2g}", fontsize=10)
        theta = np.linspace(0, 2 * np.pi, 241)
        ax_circle.plot(np.cos(theta), np.sin(theta), color="0.75", linewidth=1)
        ax_circle.scatter(points[:, 0], points[:, 1], c=np.arange(length), cmap="viridis", s=14, vmin=0,
                          vmax=max(length - 1, 1))
        ci, cj, cdist = s.circle_pair
        ax_circle.plot(points[[ci, cj], 0], points[[ci, cj], 1], "o", color=EMPHASIS, markersize=9,
                       markerfacecolor="none", markeredgewidth=2)
        ax_circle.set(xlim=(-1.3, 1.3), ylim=(-1.3, 1.3), aspect="equal", xlabel="cos(ω·p)", ylabel="sin(ω·p)")
        ax_circle.set_title(f"on the circle:\nclosest {ci}, {cj} ({cdist:.2g})", fontsize=10)
        fig.suptitle(f"ω = {omega:.3g}, L = {length}: the positions go round {s.turns:.3g} times\n"
                     f"(period 2π/ω = {2 * math.pi / omega:.3g} positions)", fontsize=11, x=0.02, ha="left",
                     y=0.99, va="top")
    return fig
