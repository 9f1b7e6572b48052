"""Lesson 10's explorer, computed and drawn by the browser: RoPE's angles p·ω_i computed in float16,
bfloat16 or float32, against float64. The frequencies ω_i (float64) and the largest error against the
position (a sweep that no slider changes) are sent once; the script, ``js/src/l10_rope_in_practice.js``,
computes every pair's error at the chosen position as :func:`helpers.measure.l10_rope_in_practice.angle_error`
does, rounding to each dtype as torch does. The still is drawn by Matplotlib.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

from ..._checks import check_base, check_even
from ...encodings import frequencies
from ...live import Choice, LogRange
from ...measure.l10_rope_in_practice import angle_error, precision_view
from ...plots import COLORS, COURSE_DPI, EMPHASIS, TEXT_COLORS, course_style
from .base import BrowserExplorer, bundle_source

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


def sweep_positions() -> torch.Tensor:
    """The positions of the right panel: 160 log-spaced from 1 to 100 000, rounded, without repeats."""
    return torch.unique(torch.logspace(0, 5, 160, dtype=torch.float64).round().long())


def sweep_worst(d: int, base: float) -> dict[str, list[float | None]]:
    """The largest angle error over the pairs at each sweep position, per dtype, at least FLOOR (None where
    the dtype stores the position as infinity)."""
    sweep = sweep_positions()
    out = {}
    for name, dt in DTYPES.items():
        worst = angle_error(sweep, d, base, dt).amax(-1).clamp_min(FLOOR)
        out[name] = [None if math.isnan(w) else float(w) for w in worst.tolist()]
    return out


def heading(position: int, dtype: str, d: int, base: float) -> list[str]:
    """The lines above the panels, as the script writes them."""
    view = precision_view(position, d, DTYPES[dtype], base)
    if math.isinf(view.stored):
        summary = [f"{dtype} stores position {position} as infinity: every angle is lost"]
    else:
        summary = [f"{dtype} stores position {position} as {view.stored:g}; largest angle error "
                   f"{view.worst:.2g} rad,", f"{view.pairs_off} of {d // 2} pairs off by more than 0.1 rad"]
    return [f"angles p·ω_i computed in {dtype}, d = {d}", *summary]


class AnglePrecisionExplorer(BrowserExplorer):
    """The position and the dtype shared with the browser, each checked as the builder checks it; ω_i and
    the sweep fixed."""

    _esm = bundle_source("l10_rope_in_practice")
    names = ("position", "dtype")
    still_inches = (7.8, 4.6)
    position = traitlets.Float(1000.0).tag(sync=True)
    dtype = traitlets.Unicode("bfloat16").tag(sync=True)
    d = traitlets.Int(128).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)
    omega = traitlets.List(traitlets.Float()).tag(sync=True)
    sweep = traitlets.List(traitlets.Int()).tag(sync=True)
    sweep_worst = traitlets.Dict().tag(sync=True)

    @traitlets.validate("position")
    def _check_position(self, proposal):
        return POSITION.check("position", proposal["value"])

    @traitlets.validate("dtype")
    def _check_dtype(self, proposal):
        return DTYPE.check("dtype", proposal["value"])

    def rounded_position(self) -> int:
        return int(round(self.position))

    def describe(self) -> str:
        p = self.rounded_position()
        view = precision_view(p, self.d, DTYPES[self.dtype], self.base)
        if math.isinf(view.stored):
            return (f"RoPE's angles computed in {self.dtype}: it stores position {p} as infinity, so every angle is "
                    "lost.")
        return (f"RoPE's angles computed in {self.dtype} at position {p} (stored as {view.stored:g}): the largest "
                f"angle error is {view.worst:.2g} rad, {view.pairs_off} of {self.d // 2} pairs are off by more than "
                "0.1 rad.")

    def still_figure(self) -> Figure:
        return still_figure(self.rounded_position(), self.dtype, self.d, self.base)


def angle_precision_explorer(position: float = 1000.0, dtype: str = "bfloat16", d: int = 128,
                             base: float = 10000.0) -> AnglePrecisionExplorer:
    """How far off RoPE's angles are when p·ω_i is computed in a low-precision dtype, computed and drawn
    by the browser.

    Left: the angle error of every pair i at the chosen position, for the three dtypes (the chosen one
    drawn bold), with 1 rad marked: beyond it a pair's rotation says nothing about the position. Right: the
    largest error over the pairs against the position (log axes), with the chosen position marked;
    float16 stops at 65 504, past which it stores infinity. Sliders: the position (1 … 100 000, log scale,
    rounded to an integer) and the dtype. Numbers as :func:`helpers.precision_view` computes them.
    """
    position, dtype = POSITION.check("position", position), DTYPE.check("dtype", dtype)
    d, base = check_even("d", d), check_base(base)
    return AnglePrecisionExplorer(
        position=position, dtype=dtype, d=d, base=base,
        omega=frequencies(d, base, torch.float64).tolist(), sweep=sweep_positions().tolist(),
        sweep_worst=sweep_worst(d, base))


def still_figure(position: int, dtype: str, d: int, base: float) -> Figure:
    """What the browser draws, as a Matplotlib figure. Its jagged curves are drawn without antialiasing (the
    still is saved at twice the page's pixels): a picture of a few colours that a notebook saves small."""
    sweep = sweep_positions().numpy()
    worst = {name: np.array([np.nan if w is None else w for w in ws]) for name, ws in sweep_worst(d, base).items()}
    views = {name: precision_view(position, d, dt, base) for name, dt in DTYPES.items()}
    view = views[dtype]
    pairs = np.arange(d // 2)
    with course_style():
        fig = Figure(figsize=AnglePrecisionExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        by_pair, by_position = fig.subplots(1, 2)
        fig.subplots_adjust(left=0.1, right=0.97, top=0.7, bottom=0.12, wspace=0.12)
        for ax in (by_pair, by_position):
            ax.set_yscale("log")
            ax.set_ylim(FLOOR / 2, 10)
            ax.axhline(1.0, color=EMPHASIS, linestyle=":", linewidth=1)
            ax.yaxis.set_major_locator(FixedLocator([1e-8, 1e-6, 1e-4, 1e-2, 1.0]))
            ax.yaxis.set_major_formatter(FixedFormatter(["1e-8", "1e-6", "1e-4", "0.01", "1"]))
            ax.yaxis.set_minor_locator(NullLocator())
        handles = []
        for name in [*(n for n in DTYPES if n != dtype), dtype]:
            color, dashes = DTYPE_STYLES[name]
            chosen = name == dtype
            (line,) = by_pair.plot(pairs, views[name].errors.clamp_min(FLOOR).numpy(), color=color, linestyle=dashes,
                                   linewidth=2.4 if chosen else 1.0, alpha=1.0 if chosen else 0.45,
                                   label=f"{name} (chosen)" if chosen else name, antialiased=False)
            handles.append(line)
            by_position.plot(sweep, worst[name], color=color, linestyle=dashes, linewidth=1.2, antialiased=False)
        by_pair.set_xlim(0, d // 2 - 1)
        by_pair.xaxis.set_major_locator(FixedLocator(pair_ticks(d)))
        by_pair.text(d // 2 - 1, 1.4, "1 rad ", ha="right", va="bottom", fontsize=9, color=TEXT_COLORS["vermillion"])
        by_pair.set_xlabel("pair i (fast → slow)")
        by_pair.set_ylabel("angle error (rad)")
        by_pair.set_title(f"every pair's angle error at position {position}", fontsize=9, loc="left")
        by_position.tick_params(labelleft=False)
        by_position.set_xscale("log")
        by_position.set_xlim(1, 100_000)
        by_position.xaxis.set_major_locator(FixedLocator([1, 10, 100, 1e3, 1e4, 1e5]))
        by_position.xaxis.set_major_formatter(FixedFormatter(["1", "10", "100", "1000", "10⁴", "10⁵"]))
        by_position.xaxis.set_minor_locator(NullLocator())
        by_position.set_xlabel("position")
        by_position.set_title("largest angle error over the pairs", fontsize=9, loc="left")
        by_position.axvline(position, color="0.3", linewidth=1)
        if not math.isnan(view.worst):
            by_position.plot([position], [max(view.worst, FLOOR)], "o", color="black", markersize=7)
        order = {name: k for k, name in enumerate(DTYPES)}
        handles.sort(key=lambda h: order[h.get_label().split(" ")[0]])
        fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.01, 0.76), ncol=3, frameon=False,
                   handlelength=2.6)
        lines = heading(position, dtype, d, base)
        fig.text(0.01, 0.985, lines[0], ha="left", va="top", fontsize=10, fontweight="bold")
        fig.text(0.01, 0.935, "\n".join(lines[1:]), ha="left", va="top", fontsize=9.5)
    return fig
