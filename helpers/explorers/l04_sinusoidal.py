"""Lesson 04: the sinusoidal encoding with sliders over d_model, position, length and base, drawn by
the kernel (Matplotlib). The lesson shows the same explorer drawn by the browser
(:mod:`helpers.explorers.browser.l04_sinusoidal`); this one stays registered, out of the lesson, as the
reference ``benchmarks/slider_latency.py`` and ``benchmarks/browser_slider_latency.py`` measure against."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from .._checks import check_int
from ..live import IntRange, LiveFigure, LogRange, register
from ..measure.l04_sinusoidal import sinusoidal_snapshot
from ..plots import COLORS, COURSE_DPI, axis_names, heatmap

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


@register(moves="d_model", example={"d_model": 512, "length": 128}, in_lesson=False)
def sinusoidal_explorer(d_model: int = 128, position: int = 20, length: int = 128, base: float = 10000.0,
                        max_length: int = 1024) -> LiveFigure:
    """The sinusoidal encoding with sliders over d_model, position, sequence length and base.

    Left, the (length × d_model) heatmap of ``helpers.sinusoidal`` with the selected position's
    row marked; top right, that row (the position's vector) as two curves, sin(p·ω_i) at columns
    2i and cos(p·ω_i) at 2i + 1; bottom right, the sine column of a few frequency pairs (fastest,
    two middle ones, slowest; each labelled with its pair index i and wavelength) over all positions,
    stacked, with the selected position marked.
    The position slider ends at length − 1 and follows the length slider.
    Numbers from :func:`helpers.measure.l04_sinusoidal.sinusoidal_snapshot`.
    """
    max_length = check_int("max_length", max_length, 8)
    lengths = IntRange("length", 8, max_length, step=8)
    d_model, base = D_MODEL.check("d_model", d_model), BASE.check("base", base)
    length = lengths.check("length", length)
    positions = IntRange("position", 0, length - 1)
    position = positions.check("position", position)

    fig = plt.figure(figsize=(7.8, 5.0), dpi=COURSE_DPI)
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1), hspace=0.6, wspace=0.45,
                            left=0.1, right=0.985, top=0.86, bottom=0.1)
    ax_map, ax_vec, ax_wave = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])

    # axis names and wave labels are plain texts, and titles sit at a fixed height: a step lays
    # out only the tick labels that change, once
    im = heatmap(ax_map, np.zeros((length, d_model)), colorbar=False)
    axis_names(ax_map, "dimension", "position", y_gap=32)
    map_title = ax_map.set_title("", fontsize=10, pad=14, y=1.0)
    fig.colorbar(im, ax=ax_map, fraction=0.046, pad=0.03, ticks=[-1, 0, 1])
    row = ax_map.axhline(position, color="black", linewidth=1.6)
    # a mark above the heatmap at each column drawn as a wave on the right, in that wave's colour and marker
    column_marks = [ax_map.plot([], [], m, color=c, markersize=7, clip_on=False)[0] for c, m in WAVE_MARKS]

    (sin_line,) = ax_vec.plot([], [], color=COLORS["blue"], linewidth=1.2, label="sin (even dims)")
    (cos_line,) = ax_vec.plot([], [], color=COLORS["vermillion"], linewidth=1.2, linestyle="--",
                              label="cos (odd dims)")
    ax_vec.set_ylim(-1.15, 2.2)  # the band above 1 holds the legend, off the curves
    ax_vec.set_yticks([-1, 0, 1])
    axis_names(ax_vec, "dimension", None)
    vec_title = ax_vec.set_title("", fontsize=10, y=1.0)
    ax_vec.legend(loc="upper center", ncol=2, frameon=False, handlelength=1.8, columnspacing=1.0,
                  borderaxespad=0.2)

    gap = 2.4
    waves = [ax_wave.plot([], [], color=c, linestyle="-", linewidth=1.2, marker=m, markevery=[0], markersize=6,
                          clip_on=False)[0] for c, m in WAVE_MARKS]
    cursor = ax_wave.axvline(position, color="black", linewidth=1.0)
    ax_wave.set_ylim(-gap * 3 - 1.3, 1.3)
    axis_names(ax_wave, "position", None)
    ax_wave.set_title("sin(p·ω_i) of a few pairs i, fastest on top", fontsize=10, y=1.0)
    ax_wave.set_yticks([])
    wave_names = [ax_wave.annotate("", (0, -gap * j), xycoords=("axes fraction", "data"), xytext=(-8, 0),
                                   textcoords="offset points", ha="right", va="center", fontsize=9)
                  for j in range(len(WAVE_MARKS))]
    for ax in (ax_map, ax_vec, ax_wave):
        ax.xaxis.set_major_locator(MaxNLocator(5, integer=True))
    ax_map.yaxis.set_major_locator(MaxNLocator(5, integer=True))
    ax_vec.set_yticks([-1, 0, 1])

    def update(d_model, position, length, base):
        s = sinusoidal_snapshot(d_model, position, length, base)
        pe = s.table.numpy()
        im.set_data(pe)
        im.set_extent((-0.5, d_model - 0.5, length - 0.5, -0.5))
        row.set_ydata([position, position])
        map_title.set_text(f"PE: {length} positions × {d_model} dims, base {base:g}")

        dims = np.arange(d_model)
        sin_line.set_data(dims[0::2], pe[position, 0::2])
        cos_line.set_data(dims[1::2], pe[position, 1::2])
        ax_vec.set_xlim(-0.5, d_model - 0.5)
        vec_title.set_text(f"the vector PE[{position}]  (norm {s.norm:.3g} = √(d/2))")

        pairs = _wave_pairs(d_model // 2)
        for j, (line, mark, name) in enumerate(zip(waves, column_marks, wave_names, strict=True)):
            visible = j < len(pairs)
            for artist in (line, mark, name):
                artist.set_visible(visible)
            if visible:
                i = pairs[j]
                line.set_data(np.arange(length), pe[:, 2 * i] - gap * j)
                mark.set_data([2 * i], [-0.5 - 0.012 * length])
                name.set_text(f"pair {i}\nλ={_short_number(float(s.wavelengths[i]))}")
        ax_wave.set_xlim(-0.5, length - 0.5)
        cursor.set_xdata([position, position])

    controls = {"d_model": D_MODEL.slider(d_model), "position": positions.slider(position),
                "length": lengths.slider(length), "base": BASE.slider(base)}
    # d_model changes the artists below and the two dimension axes; the rest (the position axes, the
    # legend, the colour bar) is kept from the last whole draw. The heatmap's frame is redrawn
    # after the image, which would cover it. The position changes only the last five.
    moved_by_position = (row, sin_line, cos_line, vec_title, cursor)
    animated = (im, *column_marks, *ax_map.spines.values(), ax_map.xaxis, map_title, ax_vec.xaxis, *waves,
                *wave_names, *moved_by_position)
    return LiveFigure(fig, update, controls, limits=lambda values: {"position": values["length"] - 1},
                      animated=animated, blit={"d_model": animated, "position": moved_by_position})
