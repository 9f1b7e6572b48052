"""Lesson 05: each frequency pair of PE as a clock hand, moved by the shift matrix."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .._checks import check_base, check_even, check_int
from ..live import IntRange, LiveFigure, register
from ..measure.l05_rotation_matrix import shift_snapshot
from ..plots import COURSE_DPI, EMPHASIS


@register(moves="k", example={"d_model": 512}, in_lesson=False)
def clock_hands_explorer(d_model: int = 16, k: int = 10, position: int = 0, base: float = 10000.0,
                         max_k: int = 200, n_clocks: int = 8) -> LiveFigure:
    """For a few pairs i (spread from fastest to slowest), the point (sin pω_i, cos pω_i) drawn
    on the unit circle: 12 o'clock at p = 0, turning clockwise as p grows. The grey hand is
    PE(p); the vermillion hand is M_k·PE(p) = PE(p + k), turned by the angle k·ω_i (the arc).
    Sliders: the offset k (−max_k … max_k; negative turns back) and the start position p
    (0 … max_k). Numbers from :func:`helpers.measure.l05_rotation_matrix.shift_snapshot`.
    """
    d_model, base = check_even("d_model", d_model), check_base(base)
    max_k, n_clocks = check_int("max_k", max_k, 1), check_int("n_clocks", n_clocks, 1)
    offsets, starts = IntRange("offset k", -max_k, max_k), IntRange("start p", 0, max_k)
    k, position = offsets.check("k", k), starts.check("position", position)
    n_pairs = d_model // 2
    pairs = sorted({round(i) for i in np.linspace(0, n_pairs - 1, min(n_clocks, n_pairs))})

    cols = min(len(pairs), 4)
    rows = -(-len(pairs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(1.95 * cols, 0.5 + 2.2 * rows), squeeze=False, dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.01, right=0.99, top=1 - 0.75 / (0.5 + 2.2 * rows), bottom=0.03, wspace=0.08,
                        hspace=0.5)
    circle = np.linspace(0, 2 * np.pi, 121)
    clocks = []
    for ax in axes.flat[len(pairs):]:
        ax.set_visible(False)
    for ax, i in zip(axes.flat, pairs, strict=False):
        ax.plot(np.sin(circle), np.cos(circle), color="0.75", linewidth=1)
        ax.plot([0], [0], "o", color="0.3", markersize=3)
        (start,) = ax.plot([], [], color="0.6", linestyle="-", linewidth=2)
        (arc,) = ax.plot([], [], color=EMPHASIS, linestyle="-", linewidth=2.5, alpha=0.5)
        (hand,) = ax.plot([], [], color=EMPHASIS, linestyle="-", linewidth=2.5, marker="o", markevery=[1], markersize=6)
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.25, 1.25)
        ax.set_aspect("equal")
        ax.set_axis_off()
        clocks.append((i, start, arc, hand, ax.set_title("", fontsize=9)))
    heading = fig.suptitle("", fontsize=11)

    def update(k, position):
        s = shift_snapshot(k, position, d_model, base)
        here, moved, omega, turns = s.start.numpy(), s.moved.numpy(), s.omega.numpy(), s.turns.numpy()
        for i, start, arc, hand, label in clocks:
            start.set_data([0, here[2 * i]], [0, here[2 * i + 1]])
            hand.set_data([0, moved[2 * i]], [0, moved[2 * i + 1]])
            # the arc starts at the grey hand (angle p·ω_i) and sweeps k·ω_i, at most one turn either way
            sweep = np.linspace(0, float(np.clip(2 * np.pi * turns[i], -2 * np.pi, 2 * np.pi)), 60)
            t0 = position * omega[i]
            arc.set_data(1.1 * np.sin(t0 + sweep), 1.1 * np.cos(t0 + sweep))
            label.set_text(f"pair {i}: ω={omega[i]:.3g}\nk·ω/2π = {turns[i]:+.3g} turns")
        heading.set_text(f"k = {k}.   grey: PE({position}),   vermillion: M_k·PE({position}) = PE({position + k})")

    # every axis is fixed and hidden: both sliders change only the hands, arcs and texts
    animated = [artist for _, start, arc, hand, label in clocks for artist in (start, arc, hand, label)]
    return LiveFigure(fig, update, {"k": offsets.slider(k), "position": starts.slider(position)},
                      animated=[*animated, heading], blit=("k", "position"))
