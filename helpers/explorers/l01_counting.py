"""Lesson 01: the raw index as a position signal, with a slider over the sequence length."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator, NullLocator

from .._checks import check_int
from ..live import Choice, LiveFigure, register
from ..measure.l01_counting import COUNTING_LENGTHS, counting_snapshot
from ..plots import COLORS, COURSE_DPI

# one colour and one line style per way of using the index, in both panels
NO_INDEX, FEATURE, ADDED = "0.45", COLORS["blue"], COLORS["vermillion"]
LENGTH = Choice("length L", COUNTING_LENGTHS, as_slider=True, width="420px")


@register(moves="length", example={"length": 128}, in_lesson=False)
def counting_explorer(length: int = 1000, shown_keys: int = 20) -> LiveFigure:
    """The raw index as a position signal, over sequence lengths L = 4 … 100 000 (values 1-2-5
    per decade; other lengths snap to the nearest of them).

    Left, on a log scale: a typical embedding entry (RMS of N(0, 1) entries), the largest index
    L − 1 and the largest attention logit of the last token with the index in q and k ("index as
    a feature"). Middle: that token's attention weights on the last ``shown_keys`` keys, without
    a position signal and with the index. Right: the entropy of the row against L for no index,
    the index as a feature and added to every entry, with ln L (uniform attention) for
    reference. Every number comes from :func:`helpers.counting_snapshot`.
    """
    length = check_int("length", length, 1)
    shown_keys = check_int("shown_keys", shown_keys, 2)
    length = min(LENGTH.values, key=lambda n: abs(math.log(n) - math.log(length)))
    curves = {mode: [counting_snapshot(n, mode=mode).entropy for n in COUNTING_LENGTHS]
              for mode in ("none", "feature", "added")}

    fig = plt.figure(figsize=(7.8, 5.6), dpi=COURSE_DPI)
    grid = fig.add_gridspec(2, 2, width_ratios=(0.75, 1), hspace=0.55, wspace=0.38,
                            left=0.09, right=0.985, top=0.78, bottom=0.1)
    ax_size, ax_row, ax_ent = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
    bars = ax_size.bar(["embedding\nentry\n(RMS)", "largest\nindex", "largest\nlogit"],
                       [1.0, 1.0, 1.0], color=["0.6", COLORS["orange"], COLORS["vermillion"]])
    ax_size.set_yscale("log")
    ax_size.set_ylim(0.1, 1e11)
    ax_size.set_yticks([1e0, 1e2, 1e4, 1e6, 1e8, 1e10], ["1", "100", "10⁴", "10⁶", "10⁸", "10¹⁰"])
    ax_size.yaxis.set_minor_locator(NullLocator())
    ax_size.set_title("sizes (log scale)", fontsize=10)
    labels = [ax_size.text(i, 1.0, "", ha="center", va="bottom", fontsize=9) for i in range(3)]

    back = np.arange(shown_keys)
    (plain,) = ax_row.plot(back, np.zeros(shown_keys), "o-", color=NO_INDEX, markersize=3, label="no index")
    (indexed,) = ax_row.plot(back, np.zeros(shown_keys), "s--", color=FEATURE, markersize=3,
                             label="index as a feature")
    uniform = ax_row.axhline(0.0, color="black", linestyle=":", linewidth=1)
    ax_row.set_ylim(-0.03, 1.03)
    ax_row.set_xlim(-0.5, shown_keys - 0.5)
    ax_row.xaxis.set_major_locator(MaxNLocator(6, integer=True))
    ax_row.set_xlabel("keys back from the last token (0: itself)")
    ax_row.set_ylabel("weight")
    row_title = ax_row.set_title("", fontsize=10)

    lengths = np.array(COUNTING_LENGTHS)
    ax_ent.plot(lengths, np.log(lengths), ":", color="black", label="ln L (uniform)")
    for ys, color, style, name in zip(curves.values(), (NO_INDEX, FEATURE, ADDED), ("o-", "s--", "^-."),
                                      ("no index", "index as a feature", "index added"), strict=True):
        ax_ent.plot(lengths, ys, style, color=color, markersize=3, label=name)
    cursor = ax_ent.axvline(length, color="black", linewidth=1.2)
    ax_ent.set_xscale("log")
    ax_ent.set_xticks([10, 1e3, 1e5], ["10", "1000", "10⁵"])
    ax_ent.xaxis.set_minor_locator(NullLocator())  # fewer ticks to draw on every step
    ax_ent.set_xlabel("sequence length L")
    ax_ent.set_ylabel("entropy (nats)")
    ent_title = ax_ent.set_title("", fontsize=10)
    # one legend for both panels, above them: the curves fill both
    fig.legend(handles=ax_ent.get_lines()[:4], loc="upper right", bbox_to_anchor=(0.995, 0.895), ncol=2,
               frameon=False, handlelength=2.6, columnspacing=1.2)
    heading = fig.suptitle("", fontsize=11, x=0.02, ha="left", y=0.995, va="top")

    def update(length):
        plain_snap = counting_snapshot(length, mode="none")
        snap = counting_snapshot(length, mode="feature")
        for bar, label, size in zip(bars, labels, (snap.embedding_rms, snap.position, snap.max_logit), strict=True):
            bar.set_height(max(size, 0.1))
            label.set_position((label.get_position()[0], max(size, 0.1) * 1.3))
            label.set_text(f"{size:.4g}" if bar is bars[0] else f"{size:.3g}")  # the RMS: 1.005, not 1
        n = min(shown_keys, length)
        for line, s in ((plain, plain_snap), (indexed, snap)):
            ys = np.full(shown_keys, np.nan)
            ys[:n] = s.weights.flip(0)[:n].numpy()
            line.set_ydata(ys)
        uniform.set_ydata([1 / length, 1 / length])
        row_title.set_text(f"weight on itself: {plain_snap.weight_on_last:.2g} → {snap.weight_on_last:.3g}")
        cursor.set_xdata([length, length])
        ent_title.set_text(f"entropy {plain_snap.entropy:.3g} → {snap.entropy:.3g}  "
                           f"(ln L = {snap.uniform_entropy:.3g})")
        heading.set_text(f"L = {length:,}: the last token's index is {length - 1:,},\n"
                         f"{snap.ratio:.3g}× a typical embedding entry (RMS {snap.embedding_rms:.4g})")

    # every axis keeps its limits and ticks: a move redraws only what update changes
    animated = (*bars, *labels, plain, indexed, uniform, row_title, cursor, ent_title, heading)
    return LiveFigure(fig, update, {"length": LENGTH.slider(length)}, animated=animated, blit=("length",))
