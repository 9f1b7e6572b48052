"""Lesson 10: RoPE's angles p·ω_i computed in float16, bfloat16 or float32, against float64."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

from .._checks import check_base, check_even
from ..live import Choice, LiveFigure, LogRange, register
from ..measure.l10_rope_in_practice import angle_error, precision_view
from ..plots import COLORS, COURSE_DPI, EMPHASIS, TEXT_COLORS

POSITION = LogRange("query position", 1.0, 100_000.0, step=0.02)
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
DTYPE = Choice("angles computed in", list(DTYPES))
# a colour and a dash pattern per dtype, the same in both panels
DTYPE_STYLES = {"float16": (COLORS["blue"], "-"), "bfloat16": (COLORS["vermillion"], "--"),
                "float32": (COLORS["green"], "-.")}
FLOOR = 1e-9  # errors of exactly 0 drawn here, on the log axis


def pair_ticks(d: int) -> list[int]:
    """The pair axis's ticks: multiples of d/8 (of 1 when d < 8), then the last pair d/2 − 1."""
    last = d // 2 - 1
    return sorted(set(range(0, last, max(1, d // 8))) | {last})


@register(moves="position", in_lesson=False)
def angle_precision_explorer(position: float = 1000.0, dtype: str = "bfloat16", d: int = 128,
                             base: float = 10000.0) -> LiveFigure:
    """How far off RoPE's angles are when p·ω_i is computed in a low-precision dtype.

    Left: the angle error of every pair i at the chosen position, for the three dtypes (the
    chosen one drawn bold), with 1 rad marked: beyond it a pair's rotation says nothing about
    the position. Right: the largest error over the pairs against the position (log axes), with
    the chosen position marked; float16 stops at 65 504, past which it stores infinity.
    Sliders: the position (1 … 100 000, log scale, rounded to an integer) and the dtype.
    Numbers from :func:`helpers.measure.l10_rope_in_practice.precision_view`.
    """
    position, dtype = POSITION.check("position", position), DTYPE.check("dtype", dtype)
    d, base = check_even("d", d), check_base(base)
    sweep = torch.unique(torch.logspace(0, 5, 160, dtype=torch.float64).round().long())
    worst = {name: angle_error(sweep, d, base, dt).amax(-1).clamp_min(FLOOR).numpy() for name, dt in DTYPES.items()}
    pairs = np.arange(d // 2)

    fig, (by_pair, by_position) = plt.subplots(1, 2, figsize=(7.8, 4.4), dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.1, right=0.97, top=0.72, bottom=0.12, wspace=0.12)
    pair_lines = {name: by_pair.plot([], [], color=DTYPE_STYLES[name][0], linestyle=DTYPE_STYLES[name][1],
                                     label=name)[0] for name in DTYPES}
    for ax in (by_pair, by_position):
        ax.set_yscale("log")
        ax.set_ylim(FLOOR / 2, 10)
        ax.axhline(1.0, color=EMPHASIS, linestyle=":", linewidth=1)
        # fixed ticks and no minor ones: far fewer labels to lay out on every step
        ax.yaxis.set_major_locator(FixedLocator([1e-8, 1e-6, 1e-4, 1e-2, 1.0]))
        ax.yaxis.set_major_formatter(FixedFormatter(["1e-8", "1e-6", "1e-4", "0.01", "1"]))
        ax.yaxis.set_minor_locator(NullLocator())
    by_pair.set_xlim(0, d // 2 - 1)
    # every eighth of the pairs (0, 16, 32, 48 at d = 128) and the last pair
    by_pair.xaxis.set_major_locator(FixedLocator(pair_ticks(d)))
    by_position.tick_params(labelleft=False)  # the same error axis as on the left
    by_pair.text(d // 2 - 1, 1.4, "1 rad ", ha="right", va="bottom", fontsize=9, color=TEXT_COLORS["vermillion"])
    by_pair.set_xlabel("pair i (fast → slow)")
    by_pair.set_ylabel("angle error (rad)")
    # one legend for both panels, above them: the curves fill both
    fig.legend(handles=list(pair_lines.values()), loc="lower center", bbox_to_anchor=(0.54, 0.79), ncol=3,
               frameon=False, handlelength=2.6)
    pair_title = by_pair.set_title("", fontsize=9)
    for name in DTYPES:
        by_position.plot(sweep.numpy(), worst[name], color=DTYPE_STYLES[name][0], linestyle=DTYPE_STYLES[name][1],
                         linewidth=1.2, label=name)
    by_position.set_xscale("log")
    by_position.set_xlim(1, 100_000)
    by_position.xaxis.set_major_locator(FixedLocator([1, 10, 100, 1e3, 1e4, 1e5]))
    by_position.xaxis.set_major_formatter(FixedFormatter(["1", "10", "100", "1000", "10⁴", "10⁵"]))
    by_position.xaxis.set_minor_locator(NullLocator())
    by_position.set_xlabel("position")
    by_position.set_title("largest angle error over the pairs", fontsize=9)
    now = by_position.axvline(position, color="0.3", linewidth=1)
    (marker,) = by_position.plot([], [], "o", color="black", markersize=7)
    heading = fig.suptitle("", fontsize=10, x=0.02, ha="left")

    def update(position, dtype):
        p = int(round(position))
        views = {name: precision_view(p, d, dt, base) for name, dt in DTYPES.items()}
        for name, line in pair_lines.items():
            line.set_data(pairs, views[name].errors.clamp_min(FLOOR).numpy())
            line.set_linewidth(2.4 if name == dtype else 1.0)
            line.set_alpha(1.0 if name == dtype else 0.35)
        view = views[dtype]
        now.set_xdata([p, p])
        marker.set_data([p], [max(view.worst, FLOOR)] if not math.isnan(view.worst) else [math.nan])
        pair_title.set_text(f"every pair's angle error at position {p}")
        if math.isinf(view.stored):
            summary = f"{dtype} stores position {p} as infinity: every angle is lost"
        else:
            summary = (f"{dtype} stores position {p} as {view.stored:g}; largest angle error {view.worst:.2g} rad,\n"
                       f"{view.pairs_off} of {d // 2} pairs off by more than 0.1 rad")
        heading.set_text(f"angles p·ω_i computed in {dtype}, d = {d}\n{summary}")

    controls = {"position": POSITION.slider(position), "dtype": DTYPE.slider(dtype)}
    # fixed limits and ticks: every move redraws only the artists update changes
    animated = (*pair_lines.values(), now, marker, pair_title, heading)
    return LiveFigure(fig, update, controls, animated=animated, blit=("position", "dtype"))
