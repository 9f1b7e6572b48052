"""Lesson 02: the normalised codes p / (L − 1) of two sentences, side by side."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection

from .._checks import check_int
from ..live import IntRange, LiveFigure, register
from ..measure.l02_normalised_positions import compare_lengths
from ..plots import COLORS, COURSE_DPI, EMPHASIS


@register(moves="length_a", in_lesson=False)
def normalised_explorer(length_a: int = 5, length_b: int = 12, max_length: int = 40) -> LiveFigure:
    """Two sentences' normalised codes, with a slider for each length (2 … ``max_length``).

    Each row shows a sentence's codes on [0, 1] with indices under the dots; the second word
    (index 1) is a larger vermillion diamond; dashed lines join codes the two sentences share
    exactly. The title gives the step between neighbours, 1 / (L − 1). Numbers from :func:`helpers.compare_lengths`.
    """
    max_length = check_int("max_length", max_length, 2)
    ranges = {"length_a": IntRange("length A", 2, max_length), "length_b": IntRange("length B", 2, max_length)}
    length_a = ranges["length_a"].check("length_a", length_a)
    length_b = ranges["length_b"].check("length_b", length_b)

    fig, ax = plt.subplots(figsize=(7.8, 3.2), dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.11, right=0.975, top=0.8, bottom=0.17)
    rows = {"a": 1.0, "b": 0.0}
    shared = LineCollection([], colors=COLORS["green"], linestyles="--", linewidths=1)
    ax.add_collection(shared)
    dots, seconds, texts = {}, {}, {}
    for key, y in rows.items():
        ax.axhline(y, color="0.85", linewidth=1, zorder=0)
        (dots[key],) = ax.plot([], [], "o", color=COLORS["blue"], markersize=6)
        (seconds[key],) = ax.plot([], [], "D", color=EMPHASIS, markersize=9)
        texts[key] = [ax.text(0, y - 0.2, "", ha="center", va="top", fontsize=9) for _ in range(max_length)]
    ax.set_xlim(-0.04, 1.04)
    ax.set_ylim(-0.45, 1.3)
    ax.set_xlabel("normalised position p / (L − 1)")
    ylabels = {key: ax.text(-0.025, y, "", ha="right", va="center", fontsize=10, transform=ax.get_yaxis_transform())
               for key, y in rows.items()}
    ax.set_yticks([])
    title = ax.set_title("", fontsize=10)

    def update(length_a, length_b):
        c = compare_lengths(length_a, length_b)
        for key, length, codes in (("a", length_a, c.codes_a.numpy()), ("b", length_b, c.codes_b.numpy())):
            y = rows[key]
            dots[key].set_data(codes, np.full(length, y))
            seconds[key].set_data([codes[1]], [y])
            every = 1 if length <= 20 else 5
            for p, text in enumerate(texts[key]):
                visible = p < length and (p % every == 0 or p == 1)
                text.set_visible(visible)
                if visible:
                    text.set_position((codes[p], y - 0.12))
                    text.set_text(str(p))
            ylabels[key].set_text(f"L = {length}")
        shared.set_segments([[(c.codes_a[i].item(), 1.0), (c.codes_b[j].item(), 0.0)] for i, j in c.shared])
        title.set_text(f"second word: {c.second_a:.3g} vs {c.second_b:.3g};   step between neighbours: "
                       f"{c.step_a:.3g} vs {c.step_b:.3g}\ncodes in common: {len(c.shared)}")

    controls = {"length_a": ranges["length_a"].slider(length_a), "length_b": ranges["length_b"].slider(length_b)}
    return LiveFigure(fig, update, controls)
