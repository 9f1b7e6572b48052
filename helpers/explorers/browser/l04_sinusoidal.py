"""Lesson 04's sinusoidal explorer, computed and drawn by the browser (an anywidget).

Its script, ``js/src/l04_sinusoidal.js`` (shipped as ``bundle/l04_sinusoidal.js``), computes the
table itself, PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i) with ω_i = base^(−2i/d_model) as
:func:`helpers.sinusoidal` does, and draws three panels (the heatmap, the chosen position's vector,
the sine of a few pairs over all positions), so a move never waits for the kernel. The values are
still sent to Python (``widget.d_model`` and the others
follow the sliders), and setting them from Python moves the sliders. The still picture is drawn by
Matplotlib (:func:`still_figure`).

What a test reads (js/src/explorer.js's contract): the root ``.pe-explorer[data-explorer="sinusoidal"]``
and ``globalThis.__pe_explorers[<data-pe-id>]``: ``values`` (the four sliders) and ``drawn``: the
chosen ``row``, its ``norm``, the ``pairs`` drawn as waves and the ``waves`` (fastest first, one
``{pair, wavelength, values}`` each), with the whole ``table`` (row by row) and its heatmap ``image``
(one pixel per entry, in the course's signed colour map, cividis) as properties that are not enumerable.
"""

from __future__ import annotations

import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ...live import IntRange, LogRange
from ...measure.l04_sinusoidal import sinusoidal_snapshot
from ...plots import COLORS, COURSE_DPI, course_style, heatmap
from .base import BrowserExplorer, bundle_source

LENGTH = IntRange("length", 8, 1024, step=8)
STILL_INCHES = (7.84, 5.0)  # the browser's canvas at its widest: 784 × 500 CSS px
STILL_SIZE = {"width": round(STILL_INCHES[0] * COURSE_DPI), "height": round(STILL_INCHES[1] * COURSE_DPI)}
D_MODEL = IntRange("d_model", 2, 1024, step=2)
BASE = LogRange("base", 10.0, 1e6, step=0.05)
# the waves drawn on the right: a colour and a marker each, the same as their column's mark on the heatmap
WAVE_MARKS = ((COLORS["blue"], "v"), (COLORS["vermillion"], "s"), (COLORS["green"], "D"), (COLORS["purple"], "o"))


def _short_number(x: float) -> str:
    """A compact label for a positive number: 6.28, 628, 54.5k, 5.95M."""
    if x < 999.5:
        return f"{x:.3g}"
    if x < 999.5e3:
        return f"{x / 1e3:.3g}k"
    return f"{x / 1e6:.3g}M"


def _wave_pairs(n_pairs: int) -> list[int]:
    """Up to four frequency pairs spread from the fastest (0) to the slowest (n_pairs − 1)."""
    return sorted({round(f * (n_pairs - 1)) for f in (0.0, 1 / 8, 1 / 3, 1.0)})


def _position_range(length: int) -> IntRange:
    return IntRange("position", 0, length - 1)


def format_base(base: float) -> str:
    """The base as the page writes it: 10 000, 1 000 000, 17.8, 316."""
    rounded = float(f"{base:.3g}")
    return f"{round(rounded):,}".replace(",", "\u2009") if base >= 1000 else f"{rounded:g}"


class SinusoidalExplorer(BrowserExplorer):
    """The widget: four values shared with the browser, each checked as the builder checks it."""

    _esm = bundle_source("l04_sinusoidal")
    names = ("d_model", "position", "length", "base")
    still_inches = STILL_INCHES
    d_model = traitlets.Int(128).tag(sync=True)
    position = traitlets.Int(20).tag(sync=True)
    length = traitlets.Int(128).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)

    @traitlets.validate("d_model")
    def _check_d_model(self, proposal):
        return D_MODEL.check("d_model", proposal["value"])

    @traitlets.validate("length")
    def _check_length(self, proposal):
        return LENGTH.check("length", proposal["value"])

    @traitlets.validate("position")
    def _check_position(self, proposal):
        return _position_range(self.length).check("position", proposal["value"])

    @traitlets.validate("base")
    def _check_base(self, proposal):
        return BASE.check("base", proposal["value"])

    @traitlets.observe("length")
    def _follow_length(self, change) -> None:
        """The position slider ends at length − 1: a shorter length moves the position with it."""
        if self.position > self.length - 1:
            self.position = self.length - 1

    def describe(self) -> str:
        norm = float(sinusoidal_snapshot(self.d_model, self.position, self.length, self.base).norm)
        pairs = ", ".join(str(i) for i in _wave_pairs(self.d_model // 2))
        return (f"Sinusoidal table, {self.length} positions by {self.d_model} dimensions, base "
                f"{format_base(self.base)}: row {self.position} marked and drawn as a vector (norm {norm:.3g}); "
                f"below it the sine of pairs {pairs} over all positions.")

    def still_figure(self) -> Figure:
        return still_figure(**self.values())


def sinusoidal_explorer(d_model: int = 128, position: int = 20, length: int = 128,
                        base: float = 10000.0) -> SinusoidalExplorer:
    """The sinusoidal table (length × d_model, the chosen position's row marked), that row as curves
    and the sine of a few frequency pairs (fastest, two middle ones, slowest) over all positions, with
    sliders over d_model (even, 2–1024), the position (0 to length − 1, following the length), the
    length (8–1024, in steps of 8) and the base (10 to 10⁶, on a log scale), all computed and drawn by
    the browser. See the module's docstring for what the page exposes."""
    d_model = D_MODEL.check("d_model", d_model)
    length = LENGTH.check("length", length)
    position = _position_range(length).check("position", position)
    base = BASE.check("base", base)
    return SinusoidalExplorer(d_model=d_model, position=position, length=length, base=base)


def still_figure(d_model: int, position: int, length: int, base: float) -> Figure:
    """The browser's picture as a Matplotlib figure: left, the heatmap with the row marked (and the
    columns drawn as waves marked above it); top right, the row; bottom right, the sine column of a few
    pairs over all positions, stacked, fastest on top, the position marked."""
    s = sinusoidal_snapshot(d_model, position, length, base)
    pe = s.table.numpy()
    pairs = _wave_pairs(d_model // 2)
    with course_style():
        fig = Figure(figsize=STILL_INCHES, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.1), height_ratios=(1, 1), hspace=0.62, wspace=0.42,
                                left=0.09, right=0.985, top=0.87, bottom=0.09)
        ax_map, ax_vec, ax_wave = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
        im = heatmap(ax_map, pe, colorbar=False, xlabel="dimension", ylabel="position")  # cividis, as the browser
        fig.colorbar(im, ax=ax_map, fraction=0.046, pad=0.03, ticks=[-1, 0, 1])
        ax_map.axhline(position, color="white", linewidth=3.2)  # a white edge keeps it seen on the dark blue
        ax_map.axhline(position, color="black", linewidth=1.6)
        ax_map.set_title(f"PE: {length} positions × {d_model} dims,\nbase {base:g}", fontsize=10, pad=12)
        for i, (colour, mark) in zip(pairs, WAVE_MARKS, strict=False):  # the columns drawn as waves
            ax_map.plot([2 * i], [-0.5 - 0.012 * length], mark, color=colour, markersize=7, clip_on=False)
        ax_map.set_ylim(length - 0.5, -0.5)  # the marks sit above the table, outside its limits
        dims = range(d_model)
        ax_vec.plot(dims[0::2], pe[position, 0::2], color=COLORS["blue"], linestyle="-", linewidth=1.2,
                    label="sin (even dims)")
        ax_vec.plot(dims[1::2], pe[position, 1::2], color=COLORS["vermillion"], linewidth=1.2, linestyle="--",
                    label="cos (odd dims)")
        ax_vec.set_ylim(-1.15, 1.15)
        ax_vec.set_yticks([-1, 0, 1])
        ax_vec.set_xlabel("dimension")
        ax_vec.set_title(f"the vector PE[{position}]\n(norm {s.norm:.3g} = √(d/2))", fontsize=10, pad=22)
        ax_vec.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, frameon=False, borderaxespad=0.1,
                      handlelength=1.8, columnspacing=1.0)
        gap = 2.4
        for j, (i, (colour, mark)) in enumerate(zip(pairs, WAVE_MARKS, strict=False)):
            ax_wave.plot(range(length), pe[:, 2 * i] - gap * j, color=colour, linestyle="-", linewidth=1.2,
                         marker=mark, markevery=[0], markersize=6, clip_on=False)
            ax_wave.annotate(f"pair {i}\nλ={_short_number(float(s.wavelengths[i]))}", (0, -gap * j),
                             xycoords=("axes fraction", "data"), xytext=(-8, 0), textcoords="offset points",
                             ha="right", va="center", fontsize=9)
        ax_wave.axvline(position, color="black", linewidth=1.0)
        ax_wave.set_xlim(-0.5, length - 0.5)
        ax_wave.set_ylim(-gap * 3 - 1.3, 1.3)
        ax_wave.set_yticks([])
        ax_wave.set_xlabel("position")
        ax_wave.set_title("sin(p·ω_i) of a few pairs i, fastest on top", fontsize=10)
    return fig
