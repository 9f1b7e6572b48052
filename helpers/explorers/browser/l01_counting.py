"""Lesson 01's explorer, drawn by the browser: the raw index as a position signal over sequence lengths
L = 4 … 100 000. The numbers that need torch (random embeddings and attention, from
:func:`helpers.counting_snapshot`) are computed once, for every length the slider offers, and sent as
lists; the script, ``js/src/l01_counting.js``, only picks a length and draws.
"""

from __future__ import annotations

import math

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..._checks import check_int
from ...measure.l01_counting import COUNTING_LENGTHS, counting_snapshot
from ...plots import COLORS, COURSE_DPI, course_style
from .base import BrowserExplorer, bundle_source


def counting_snapshots(shown_keys: int = 20) -> dict:
    """Everything the explorer draws, for every length of COUNTING_LENGTHS: sizes, the last token's weights
    on its last ``shown_keys`` keys (0: itself) without and with the index, and the row's entropy the three
    ways. Lists of floats, rounded to 12 significant digits (what a page needs, and equal on every run)."""
    def r(x: float) -> float:
        return float(f"{x:.12g}")

    out = {"lengths": list(COUNTING_LENGTHS), "shown_keys": shown_keys, "embedding_rms": [], "max_logit": [],
           "ratio": [], "weights_none": [], "weights_feature": [], "weight_on_last_none": [],
           "weight_on_last_feature": [], "entropy_none": [], "entropy_feature": [], "entropy_added": []}
    for length in COUNTING_LENGTHS:
        plain, feature = counting_snapshot(length, mode="none"), counting_snapshot(length, mode="feature")
        out["embedding_rms"].append(r(feature.embedding_rms))
        out["max_logit"].append(r(feature.max_logit))
        out["ratio"].append(r(feature.ratio))
        out["weights_none"].append([r(w) for w in plain.weights.flip(0)[:shown_keys].tolist()])
        out["weights_feature"].append([r(w) for w in feature.weights.flip(0)[:shown_keys].tolist()])
        out["weight_on_last_none"].append(r(plain.weight_on_last))
        out["weight_on_last_feature"].append(r(feature.weight_on_last))
        out["entropy_none"].append(r(plain.entropy))
        out["entropy_feature"].append(r(feature.entropy))
        out["entropy_added"].append(r(counting_snapshot(length, mode="added").entropy))
    return out


class CountingExplorer(BrowserExplorer):
    """The length shared with the browser (one of COUNTING_LENGTHS); the snapshots sent once."""

    _esm = bundle_source("l01_counting")
    names = ("length",)
    still_inches = (7.8, 5.6)
    length = traitlets.Int(1000).tag(sync=True)
    snapshots = traitlets.Dict().tag(sync=True)

    @traitlets.validate("length")
    def _check_length(self, proposal):
        value = check_int("length", proposal["value"], 1)
        if value not in COUNTING_LENGTHS:
            raise ValueError(f"length must be one of {list(COUNTING_LENGTHS)}, got {value}")
        return value

    def describe(self) -> str:
        k = COUNTING_LENGTHS.index(self.length)
        s = self.snapshots
        return (f"L = {self.length:,}: the largest index {self.length - 1:,} against an embedding entry of about "
                f"{s['embedding_rms'][k]:.3g}; the last token's attention entropy {s['entropy_none'][k]:.3g} without "
                f"the index, {s['entropy_feature'][k]:.3g} with it.")

    def still_figure(self) -> Figure:
        return still_figure(self.length, self.snapshots)


def counting_explorer(length: int = 1000, shown_keys: int = 20) -> CountingExplorer:
    """The raw index as a position signal, over sequence lengths L = 4 … 100 000 (values 1-2-5 per decade;
    other lengths snap to the nearest of them), drawn by the browser. Left, on a log scale: a typical
    embedding entry, the largest index L − 1 and the largest attention logit with the index as a feature.
    Top right: the last token's weights on its last ``shown_keys`` keys, without and with the index.
    Bottom right: the entropy of that row against L, no index, the index as a feature and added."""
    length = check_int("length", length, 1)
    shown_keys = check_int("shown_keys", shown_keys, 2)
    length = min(COUNTING_LENGTHS, key=lambda n: abs(math.log(n) - math.log(length)))
    return CountingExplorer(length=length, snapshots=counting_snapshots(shown_keys))


def still_figure(length: int, s: dict) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    k = s["lengths"].index(length)
    grey, feature, added = "0.45", COLORS["blue"], COLORS["vermillion"]
    with course_style():
        fig = Figure(figsize=CountingExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        grid = fig.add_gridspec(2, 2, width_ratios=(0.75, 1), hspace=0.55, wspace=0.38, left=0.09, right=0.985,
                                top=0.78, bottom=0.1)
        ax_size, ax_row, ax_ent = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
        sizes = (s["embedding_rms"][k], length - 1, s["max_logit"][k])
        ax_size.bar(["embedding\nentry\n(RMS)", "largest\nindex", "largest\nlogit"], [max(v, 0.1) for v in sizes],
                    color=["0.6", COLORS["orange"], COLORS["vermillion"]])
        for i, v in enumerate(sizes):
            ax_size.text(i, max(v, 0.1) * 1.3, f"{v:.4g}" if i == 0 else f"{v:.3g}", ha="center", va="bottom",
                         fontsize=9)
        ax_size.set(yscale="log", ylim=(0.1, 1e11), title="sizes (log scale)")
        n = min(s["shown_keys"], length)
        ax_row.plot(range(n), s["weights_none"][k][:n], "o-", color=grey, markersize=3, label="no index")
        ax_row.plot(range(n), s["weights_feature"][k][:n], "s--", color=feature, markersize=3,
                    label="index as a feature")
        ax_row.axhline(1 / length, color="black", linestyle=":", linewidth=1)
        ax_row.set(ylim=(-0.03, 1.03), xlim=(-0.5, s["shown_keys"] - 0.5), ylabel="weight",
                   xlabel="keys back from the last token (0: itself)")
        ax_row.set_title(f"weight on itself: {s['weight_on_last_none'][k]:.2g} → {s['weight_on_last_feature'][k]:.3g}",
                         fontsize=10)
        lengths = np.array(s["lengths"])
        ax_ent.plot(lengths, np.log(lengths), ":", color="black", label="ln L (uniform)")
        for key, colour, style, name in (("entropy_none", grey, "o-", "no index"),
                                         ("entropy_feature", feature, "s--", "index as a feature"),
                                         ("entropy_added", added, "^-.", "index added")):
            ax_ent.plot(lengths, s[key], style, color=colour, markersize=3, label=name)
        ax_ent.axvline(length, color="black", linewidth=1.2)
        ax_ent.set(xscale="log", xlabel="sequence length L", ylabel="entropy (nats)")
        ax_ent.set_title(f"entropy {s['entropy_none'][k]:.3g} → {s['entropy_feature'][k]:.3g}  "
                         f"(ln L = {math.log(length):.3g})", fontsize=10)
        fig.legend(handles=ax_ent.get_lines()[:4], loc="upper right", bbox_to_anchor=(0.995, 0.895), ncol=2,
                   frameon=False, handlelength=2.6, columnspacing=1.2)
        fig.suptitle(f"L = {length:,}: the last token's index is {length - 1:,},\n{(length - 1) / sizes[0]:.3g}× a "
                     f"typical embedding entry (RMS {sizes[0]:.4g})", fontsize=11, x=0.02, ha="left", y=0.995,
                     va="top")
    return fig
