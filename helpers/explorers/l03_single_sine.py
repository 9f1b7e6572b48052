"""Lesson 03: positions on the wave sin(ω·p) and on the circle (cos ω·p, sin ω·p)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from .._checks import check_int
from ..live import IntRange, LiveFigure, LogRange, register
from ..measure.l03_single_sine import sine_snapshot
from ..plots import COLORS, COURSE_DPI, EMPHASIS

OMEGA = LogRange("ω", 1e-3, math.pi, step=0.01)


@register(moves="omega", example={"length": 128}, in_lesson=False)
def sine_explorer(omega: float = 1.0, length: int = 50, max_length: int = 200) -> LiveFigure:
    """Positions 0 … L − 1 on the wave and on the circle, with sliders over ω (0.001 … π, log
    scale) and L (2 … ``max_length``).

    The closest pair of distinct positions is circled in vermillion on each: on the wave they share
    (nearly) the same height; on the circle (nearly) the same point. Titles give the smallest
    gaps. Numbers from :func:`helpers.sine_snapshot`.
    """
    max_length = check_int("max_length", max_length, 2)
    lengths = IntRange("length L", 2, max_length)
    omega, length = OMEGA.check("omega", omega), lengths.check("length", length)

    fig, (ax_wave, ax_circle) = plt.subplots(1, 2, figsize=(7.8, 3.9), dpi=COURSE_DPI,
                                             gridspec_kw={"width_ratios": [2.0, 1]})
    fig.subplots_adjust(left=0.09, right=0.985, top=0.76, bottom=0.13, wspace=0.3)
    (curve,) = ax_wave.plot([], [], color="0.7", linewidth=1)
    (wave_dots,) = ax_wave.plot([], [], "o", color=COLORS["blue"], markersize=3)
    (wave_pair,) = ax_wave.plot([], [], "o", color=EMPHASIS, markersize=8, markerfacecolor="none", markeredgewidth=2)
    pair_level = ax_wave.axhline(0.0, color=EMPHASIS, linestyle=":", linewidth=1)
    ax_wave.set_ylim(-1.15, 1.15)
    ax_wave.set_xlabel("position p")
    ax_wave.set_ylabel("sin(ω·p)")
    wave_title = ax_wave.set_title("", fontsize=10)

    theta = np.linspace(0, 2 * np.pi, 241)
    ax_circle.plot(np.cos(theta), np.sin(theta), color="0.8", linewidth=1)
    circle_dots = ax_circle.scatter(np.zeros(max_length), np.zeros(max_length), c=np.arange(max_length),
                                    cmap="viridis", s=14, vmin=0, vmax=max_length - 1)
    (circle_pair,) = ax_circle.plot([], [], "o", color=EMPHASIS, markersize=9, markerfacecolor="none",
                                    markeredgewidth=2)
    ax_circle.set_xlim(-1.3, 1.3)
    ax_circle.set_ylim(-1.3, 1.3)
    ax_circle.set_aspect("equal")
    ax_circle.set_xlabel("cos(ω·p)")
    ax_circle.set_ylabel("sin(ω·p)")
    circle_title = ax_circle.set_title("", fontsize=10)
    heading = fig.suptitle("", fontsize=11, x=0.02, ha="left", y=0.99, va="top")

    def update(omega, length):
        s = sine_snapshot(omega, length)
        values = s.values.numpy()
        t = np.linspace(0, length - 1, 2000)
        curve.set_data(t, np.sin(omega * t))
        wave_dots.set_data(np.arange(length), values)
        i, j, gap = s.wave_pair
        wave_pair.set_data([i, j], [values[i], values[j]])
        pair_level.set_ydata([values[i]] * 2)
        ax_wave.set_xlim(-0.5, length - 0.5)
        wave_title.set_text(f"on the wave: closest pair {i}, {j} (gap {gap:.2g});\n"
                            f"smallest step to a neighbour {s.neighbour_gap:.2g}")
        points = np.full((max_length, 2), np.nan)
        points[:length] = s.circle.numpy()
        circle_dots.set_offsets(points)
        circle_dots.set_clim(0, length - 1)
        ci, cj, cdist = s.circle_pair
        circle_pair.set_data(points[[ci, cj], 0], points[[ci, cj], 1])
        circle_title.set_text(f"on the circle:\nclosest {ci}, {cj} ({cdist:.2g})")
        heading.set_text(f"ω = {omega:.3g}, L = {length}: the positions go round {s.turns:.3g} times\n"
                         f"(period 2π/ω = {2 * math.pi / omega:.3g} positions)")

    # ω changes no limits (the length does): moving it redraws only the artists update changes
    animated = (curve, wave_dots, wave_pair, pair_level, wave_title, circle_dots, circle_pair, circle_title, heading)
    return LiveFigure(fig, update, {"omega": OMEGA.slider(omega), "length": lengths.slider(length)},
                      animated=animated, blit=("omega",))
