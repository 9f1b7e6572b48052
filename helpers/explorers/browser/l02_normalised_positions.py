"""Lesson 02's explorer, computed and drawn by the browser: the normalised codes p / (L − 1) of two
sentences side by side, with a slider for each length. Its script, ``js/src/l02_normalised_positions.js``,
computes what :func:`helpers.compare_lengths` does; the still picture is drawn by Matplotlib from it.
"""

from __future__ import annotations

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..._checks import check_int
from ...live import IntRange
from ...measure.l02_normalised_positions import compare_lengths
from ...plots import COLORS, COURSE_DPI, EMPHASIS, course_style
from .base import BrowserExplorer, bundle_source


def _lengths(label: str, max_length: int) -> IntRange:
    return IntRange(label, 2, max_length)


class NormalisedExplorer(BrowserExplorer):
    """The two lengths shared with the browser, each checked as the builder checks it."""

    _esm = bundle_source("l02_normalised_positions")
    names = ("length_a", "length_b")
    still_inches = (7.8, 3.2)
    length_a = traitlets.Int(5).tag(sync=True)
    length_b = traitlets.Int(12).tag(sync=True)
    max_length = traitlets.Int(40).tag(sync=True)

    @traitlets.validate("length_a", "length_b")
    def _check_length(self, proposal):
        name = proposal["trait"].name
        return _lengths(name, self.max_length).check(name, proposal["value"])

    def describe(self) -> str:
        c = compare_lengths(self.length_a, self.length_b)
        return (f"The normalised codes of sentences of {self.length_a} and {self.length_b} words: the second word "
                f"at {c.second_a:.3g} and {c.second_b:.3g}; {len(c.shared)} codes in common.")

    def still_figure(self) -> Figure:
        return still_figure(self.length_a, self.length_b)


def normalised_explorer(length_a: int = 5, length_b: int = 12, max_length: int = 40) -> NormalisedExplorer:
    """Two sentences' normalised codes, with a slider for each length (2 … ``max_length``), computed and
    drawn by the browser. Each row shows a sentence's codes on [0, 1] with indices under the dots; the
    second word (index 1) is a vermillion diamond; dashed lines join codes the two sentences share."""
    max_length = check_int("max_length", max_length, 2)
    length_a = _lengths("length_a", max_length).check("length_a", length_a)
    length_b = _lengths("length_b", max_length).check("length_b", length_b)
    return NormalisedExplorer(length_a=length_a, length_b=length_b, max_length=max_length)


def still_figure(length_a: int, length_b: int) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    c = compare_lengths(length_a, length_b)
    with course_style():
        fig = Figure(figsize=NormalisedExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        fig.subplots_adjust(left=0.11, right=0.975, top=0.8, bottom=0.17)
        for i, j in c.shared:
            ax.plot([c.codes_a[i], c.codes_b[j]], [1.0, 0.0], color=COLORS["green"], linestyle="--", linewidth=1)
        for y, length, codes in ((1.0, length_a, c.codes_a.numpy()), (0.0, length_b, c.codes_b.numpy())):
            ax.axhline(y, color="0.85", linewidth=1, zorder=0)
            ax.plot(codes, np.full(length, y), "o", color=COLORS["blue"], markersize=6)
            ax.plot([codes[1]], [y], "D", color=EMPHASIS, markersize=9)
            every = 1 if length <= 20 else 5
            for p, code in enumerate(codes):
                if p % every == 0 or p == 1:
                    ax.text(code, y - 0.12, str(p), ha="center", va="top", fontsize=9)
            ax.text(-0.025, y, f"L = {length}", ha="right", va="center", fontsize=10,
                    transform=ax.get_yaxis_transform())
        ax.set(xlim=(-0.04, 1.04), ylim=(-0.45, 1.3), yticks=[], xlabel="normalised position p / (L − 1)")
        ax.set_title(f"second word: {c.second_a:.3g} vs {c.second_b:.3g};   step between neighbours: "
                     f"{c.step_a:.3g} vs {c.step_b:.3g}\ncodes in common: {len(c.shared)}", fontsize=10)
    return fig
