"""Lesson 07's two explorers, computed and drawn by the browser: T5's relative-position buckets and ALiBi's
per-head biases. Nothing needs torch at a slider move: the script, ``js/src/l07_learned_and_relative.js``
(one bundle; the widget's ``kind`` picks the explorer), computes what :func:`helpers.t5_bucket` (in float32,
as torch does), :func:`helpers.alibi_slopes` and :func:`helpers.measure.l07_learned_and_relative.t5_bucket_view`
and ``alibi_view`` compute. The stills are drawn by Matplotlib.
"""

from __future__ import annotations

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, NullLocator

from ..._checks import check_int
from ...live import Choice, IntRange
from ...measure.l07_learned_and_relative import alibi_view, t5_bucket_view
from ...plots import COLORS, COURSE_DPI, EMPHASIS, course_style
from .base import BrowserExplorer, bundle_source

BUNDLE = "l07_learned_and_relative"
NUM_BUCKETS = IntRange("num_buckets", 4, 64, step=4)
MAX_DISTANCE = IntRange("max_distance", 40, 400, step=8)
DIRECTION = Choice("attention", (("causal (decoder)", False), ("bidirectional (encoder)", True)))
N_HEADS = IntRange("n_heads", 1, 16)
SPAN = MAX_DISTANCE.high * 3 // 2  # the T5 explorer's offsets: −SPAN … SPAN, for every max_distance
BIAS_FLOOR = -6.0  # the ALiBi heatmap's colour scale: 0 down to −6, the same for every head


def _direction(bidirectional: bool) -> str:
    return "bidirectional" if bidirectional else "causal"


class T5BucketsExplorer(BrowserExplorer):
    """num_buckets, max_distance and the direction shared with the browser, each checked as the builder
    checks it; the offsets run over −600 … 600 (``span``) for every setting."""

    _esm = bundle_source(BUNDLE)
    names = ("num_buckets", "max_distance", "bidirectional")
    still_inches = (7.8, 5.6)
    kind = traitlets.Unicode("t5-buckets", read_only=True).tag(sync=True)
    num_buckets = traitlets.Int(32).tag(sync=True)
    max_distance = traitlets.Int(128).tag(sync=True)
    bidirectional = traitlets.Bool(False).tag(sync=True)
    span = traitlets.Int(SPAN, read_only=True).tag(sync=True)

    @traitlets.validate("num_buckets")
    def _check_num_buckets(self, proposal):
        return NUM_BUCKETS.check("num_buckets", proposal["value"])

    @traitlets.validate("max_distance")
    def _check_max_distance(self, proposal):
        return MAX_DISTANCE.check("max_distance", proposal["value"])

    @traitlets.validate("bidirectional")
    def _check_bidirectional(self, proposal):
        return DIRECTION.check("bidirectional", proposal["value"])

    def describe(self) -> str:
        v = t5_bucket_view(self.num_buckets, self.max_distance, self.bidirectional, self.span)
        empty = int(np.isnan(v.starts.numpy()).sum())
        return (f"T5's buckets: {self.num_buckets} buckets, max_distance {self.max_distance}, "
                f"{_direction(self.bidirectional)}; distances 0 … {v.exact - 1} have a bucket each, then log-spaced "
                f"buckets up to {self.max_distance}" + (f"; {empty} buckets left empty." if empty else "."))

    def still_figure(self) -> Figure:
        return t5_still(self.num_buckets, self.max_distance, self.bidirectional, self.span)


def t5_buckets_explorer(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False
                        ) -> T5BucketsExplorer:
    """T5's buckets, computed and drawn by the browser: which bucket each offset falls in (T5's code takes
    key − query; the picture plots δ = query − key, as the lesson does).

    Top: the bucket of every offset up to 1.5 times the largest max_distance, on an axis that is linear
    up to ±10 and logarithmic beyond (so the log-spaced buckets climb evenly), with the range of exact
    buckets (grey dotted) and max_distance (vermillion dashed) marked. Bottom: where each bucket of keys
    before the query starts, on a log scale (dots; empty buckets have none), next to the formula
    exact·(max_distance/exact)^((b − exact)/(n − exact)) (dashed line). Sliders: num_buckets (4 … 64),
    max_distance (40 … 400) and causal or bidirectional. Numbers as
    :func:`helpers.measure.l07_learned_and_relative.t5_bucket_view` computes them.
    """
    num_buckets = NUM_BUCKETS.check("num_buckets", num_buckets)
    max_distance = MAX_DISTANCE.check("max_distance", max_distance)
    bidirectional = DIRECTION.check("bidirectional", bidirectional)
    return T5BucketsExplorer(num_buckets=num_buckets, max_distance=max_distance, bidirectional=bidirectional)


def t5_still(num_buckets: int, max_distance: int, bidirectional: bool, span: int = SPAN) -> Figure:
    """What the browser draws for T5's buckets, as a Matplotlib figure."""
    v = t5_bucket_view(num_buckets, max_distance, bidirectional, span)
    with course_style():
        fig = Figure(figsize=T5BucketsExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax_map, ax_edges = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1.3, 1]})
        fig.subplots_adjust(left=0.09, right=0.965, top=0.87, bottom=0.09, hspace=0.62)
        # δ = query − key, as the lesson's figures plot it; T5's code takes key − query = −δ
        ax_map.plot(-v.offsets.numpy(), v.buckets.numpy(), color=COLORS["blue"], linewidth=1.4, drawstyle="steps-mid")
        sides = (-1, 1) if bidirectional else (1,)
        for k, side in enumerate(sides):
            ax_map.axvline(side * (v.exact - 0.5), color="0.5", linestyle=":", linewidth=1.2,
                           label=None if k else "end of the exact buckets")
            ax_map.axvline(side * max_distance, color=EMPHASIS, linestyle="--", linewidth=1.2,
                           label=None if k else "max_distance")
        ax_map.set_xlabel("δ = query − key position (positive: the key comes before the query)")
        ax_map.set_ylabel("bucket")
        ax_map.set_xscale("symlog", linthresh=10, linscale=0.6)
        ticks = [-500, -100, -30, -10, 0, 10, 30, 100, 500]
        ax_map.set_xticks(ticks, [str(t).replace("-", "−") for t in ticks])
        ax_map.xaxis.set_minor_locator(NullLocator())
        ax_map.yaxis.set_major_locator(MaxNLocator(6, integer=True))
        ax_map.set_xlim(-span if bidirectional else -10, span)
        ax_map.set_ylim(-1, num_buckets)
        direction = "bidirectional: half the buckets for keys after the query" if bidirectional else \
            "causal: every key after the query in bucket 0"
        ax_map.set_title(f"{num_buckets} buckets, max_distance {max_distance}; {direction}", fontsize=10, pad=22)
        ax_map.legend(loc="lower center", bbox_to_anchor=(0.5, 0.99), ncol=2, frameon=False, borderaxespad=0.1,
                      handlelength=2.4)

        b = np.arange(len(v.edges))
        ax_edges.plot(b[v.exact:], v.edges.numpy()[v.exact:], color="0.4", linestyle="--", linewidth=1.2,
                      label="formula")
        ax_edges.plot(b[1:], v.starts.numpy()[1:], "o", color=COLORS["blue"], markersize=4,
                      label="first distance in the bucket")
        ax_edges.set_yscale("log")
        ax_edges.set_yticks([1, 10, 100], ["1", "10", "100"])
        ax_edges.minorticks_off()
        ax_edges.set_xlabel("bucket (keys before the query)")
        ax_edges.set_ylabel("distance")
        ax_edges.set_ylim(0.8, MAX_DISTANCE.high * 1.5)
        ax_edges.set_xlim(-0.5, len(b) - 0.5)
        ax_edges.legend(loc="upper left", frameon=False)
        empty = int(np.isnan(v.starts.numpy()).sum())
        ax_edges.set_title(f"distances 0 … {v.exact - 1} exact, then log-spaced up to {max_distance}"
                           + (f"; {empty} buckets left empty" if empty else ""), fontsize=10)
    return fig


class AlibiExplorer(BrowserExplorer):
    """n_heads, length and head shared with the browser, each checked as the builder checks it; head
    follows n_heads down (as its slider does)."""

    _esm = bundle_source(BUNDLE)
    names = ("n_heads", "length", "head")
    still_inches = (7.8, 4.6)
    kind = traitlets.Unicode("alibi", read_only=True).tag(sync=True)
    n_heads = traitlets.Int(8).tag(sync=True)
    length = traitlets.Int(32).tag(sync=True)
    head = traitlets.Int(1).tag(sync=True)
    max_length = traitlets.Int(128).tag(sync=True)

    @traitlets.validate("n_heads")
    def _check_n_heads(self, proposal):
        return N_HEADS.check("n_heads", proposal["value"])

    @traitlets.validate("length")
    def _check_length(self, proposal):
        return IntRange("length", 8, self.max_length, step=8).check("length", proposal["value"])

    @traitlets.validate("head")
    def _check_head(self, proposal):
        return IntRange("head", 1, self.n_heads).check("head", proposal["value"])

    @traitlets.observe("n_heads")
    def _follow_n_heads(self, change):
        if self.head > change["new"]:
            self.head = change["new"]

    def describe(self) -> str:
        v = alibi_view(self.n_heads, self.length, self.head)
        return (f"ALiBi, head {self.head} of {self.n_heads} over {self.length} tokens: slope "
                f"{float(v.slopes[self.head - 1]):.4g}, so the last query's weight halves every "
                f"{v.half_distance:.3g} tokens when every content score is equal.")

    def still_figure(self) -> Figure:
        return alibi_still(self.n_heads, self.length, self.head)


def alibi_explorer(n_heads: int = 8, length: int = 32, head: int = 1, max_length: int = 128) -> AlibiExplorer:
    """ALiBi, computed and drawn by the browser: the bias of one head, the slopes of all heads, and how far
    a head looks.

    Left: the causal bias −m·(i − j) of the chosen head over ``length`` tokens (blank above the diagonal:
    future keys are masked), on one colour scale for every head, clipped at −6 (a key that far down keeps
    less than e^−6 ≈ 0.25 % of its weight). Top right: every head's slope m (log scale), the chosen one
    ringed; with a head count that is not a power of two the sequence is interleaved. Bottom right: the
    attention weight that the last query gives each key when all content scores are equal,
    softmax(−m·distance), on a log scale where it falls along a straight line. Sliders: n_heads (1 … 16),
    length (8 … max_length, in steps of 8) and head (1 … n_heads). Numbers as
    :func:`helpers.measure.l07_learned_and_relative.alibi_view` computes them.
    """
    max_length = check_int("max_length", max_length, 8)
    n_heads = N_HEADS.check("n_heads", n_heads)
    length = IntRange("length", 8, max_length, step=8).check("length", length)
    head = IntRange("head", 1, n_heads).check("head", head)
    return AlibiExplorer(max_length=max_length, n_heads=n_heads, length=length, head=head)


def alibi_still(n_heads: int, length: int, head: int) -> Figure:
    """What the browser draws for ALiBi, as a Matplotlib figure."""
    v = alibi_view(n_heads, length, head)
    slope = float(v.slopes[head - 1])
    with course_style():
        fig = Figure(figsize=AlibiExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.1), hspace=0.7, wspace=0.42,
                                left=0.09, right=0.985, top=0.9, bottom=0.12)
        ax_map = fig.add_subplot(grid[:, 0])
        ax_slopes, ax_weights = fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
        im = ax_map.imshow(v.bias.numpy(), cmap="viridis", interpolation="nearest", interpolation_stage="data",
                           vmin=BIAS_FLOOR, vmax=0, extent=(-0.5, length - 0.5, length - 0.5, -0.5))
        bar = fig.colorbar(im, ax=ax_map, fraction=0.046, pad=0.03, extend="min")
        bar.ax.set_title("bias", fontsize=9)
        ax_map.set_xlabel("key position j")
        ax_map.set_ylabel("query position i")
        ax_map.set_title(f"head {head}: bias −{slope:.4g}·(i − j)", fontsize=10)

        ax_slopes.plot(np.arange(1, n_heads + 1), v.slopes.numpy(), "o-", color="0.55", markersize=4, linewidth=0.8)
        ax_slopes.plot([head], [slope], "o", markersize=11, markerfacecolor="none", markeredgecolor=EMPHASIS,
                       markeredgewidth=2)
        ax_slopes.set_yscale("log", base=2)
        ax_slopes.set_yticks([2.0**-e for e in range(0, 9, 2)], ["1", "1/4", "1/16", "1/64", "1/256"])
        ax_slopes.minorticks_off()
        ax_slopes.set_xlim(0.5, N_HEADS.high + 0.5)
        ax_slopes.set_ylim(2.0**-8.6, 1.2)
        ax_slopes.set_xlabel("head")
        ax_slopes.set_ylabel("slope m")
        ax_slopes.xaxis.set_major_locator(MaxNLocator(8, integer=True))
        n0 = 1 << (n_heads.bit_length() - 1)  # the largest power of two ≤ n_heads
        rule = "one geometric sequence" if v.power_of_two else f"{n0} geometric, then {n_heads - n0} in between"
        ax_slopes.set_title(f"{n_heads} slopes: {rule}", fontsize=10)

        distance = np.arange(length)
        ax_weights.plot(distance, v.weights.numpy()[::-1], color=EMPHASIS, linewidth=1.4)
        ax_weights.plot([0, length - 1], [1 / length, 1 / length], color="0.45", linestyle=":", linewidth=1.2)
        ax_weights.text(length - 1, 1.15 / length, "no bias (uniform)", ha="right", va="bottom", fontsize=9,
                        color="0.3")
        ax_weights.set_yscale("log")
        ax_weights.set_yticks([1e-4, 1e-3, 1e-2, 1e-1, 1.0], ["0.0001", "0.001", "0.01", "0.1", "1"])
        ax_weights.minorticks_off()
        ax_weights.set_ylim(5e-5, 1.5)
        ax_weights.set_xlim(-0.5, length - 0.5)
        ax_weights.set_xlabel("distance i − j from the last query")
        ax_weights.set_ylabel("weight")
        ax_weights.set_title(f"weight halves every {v.half_distance:.3g} tokens (ln 2 / m)", fontsize=10)
    return fig
