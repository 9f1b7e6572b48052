"""Lesson 07: T5's relative-position buckets and ALiBi's per-head biases, with sliders."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator, NullLocator

from .._checks import check_int
from ..live import Choice, IntRange, LiveFigure, register
from ..measure.l07_learned_and_relative import alibi_view, t5_bucket_view
from ..plots import COLORS, COURSE_DPI, EMPHASIS, axis_names

NUM_BUCKETS = IntRange("num_buckets", 4, 64, step=4)
MAX_DISTANCE = IntRange("max_distance", 40, 400, step=8)
DIRECTION = Choice("attention", (("causal (decoder)", False), ("bidirectional (encoder)", True)))
N_HEADS = IntRange("n_heads", 1, 16)
SPAN = MAX_DISTANCE.high * 3 // 2  # the T5 explorer's offsets: −SPAN … SPAN, for every max_distance
BIAS_FLOOR = -6.0  # the ALiBi heatmap's colour scale: 0 down to −6, the same for every head


@register(moves="max_distance", in_lesson=False)
def t5_buckets_explorer(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False) -> LiveFigure:
    """T5's buckets: which bucket each offset (key − query) falls in.

    Top: the bucket of every offset up to 1.5 times the largest max_distance, on an axis that is
    linear up to ±10 and logarithmic beyond (so the log-spaced buckets climb evenly), with the
    range of exact buckets (grey dotted) and max_distance (vermillion dashed) marked. Bottom: where each bucket
    of keys before the query starts, on a log scale (dots; empty buckets have none), next to
    the formula exact·(max_distance/exact)^((b − exact)/(n − exact)) (dashed line): a straight
    line on this scale, i.e. log-spaced buckets. Sliders: num_buckets, max_distance, and causal
    or bidirectional. Numbers from :func:`helpers.measure.l07_learned_and_relative.t5_bucket_view`.
    """
    num_buckets = NUM_BUCKETS.check("num_buckets", num_buckets)
    max_distance = MAX_DISTANCE.check("max_distance", max_distance)
    bidirectional = DIRECTION.check("bidirectional", bidirectional)

    fig, (ax_map, ax_edges) = plt.subplots(2, 1, figsize=(7.8, 5.6), dpi=COURSE_DPI,
                                           gridspec_kw={"height_ratios": [1.3, 1]})
    fig.subplots_adjust(left=0.09, right=0.965, top=0.87, bottom=0.09, hspace=0.62)
    (steps,) = ax_map.plot([], [], color=COLORS["blue"], linestyle="-", linewidth=1.4, drawstyle="steps-mid")
    exact_lines = [ax_map.axvline(0, color="0.5", linestyle=":", linewidth=1.2, label=label)
                   for label in ("end of the exact buckets", None)]
    far_lines = [ax_map.axvline(0, color=EMPHASIS, linestyle="--", linewidth=1.2, label=label)
                 for label in ("max_distance", None)]
    ax_map.set_xlabel("offset = key − query position (negative: the key comes before the query)")
    ax_map.set_ylabel("bucket")
    ax_map.set_xscale("symlog", linthresh=10, linscale=0.6)
    ticks = [-500, -100, -30, -10, 0, 10, 30, 100, 500]
    # plain labels: a symlog axis would otherwise lay out mathtext on every step
    ax_map.set_xticks(ticks, [f"{t:+d}".replace("-", "−") if t else "0" for t in ticks])
    ax_map.xaxis.set_minor_locator(NullLocator())
    ax_map.yaxis.set_major_locator(MaxNLocator(6, integer=True))
    map_title = ax_map.set_title("", fontsize=10, pad=22)
    # between the title and the panel: the lines move over the whole panel
    ax_map.legend(handles=[exact_lines[0], far_lines[0]], loc="lower center", bbox_to_anchor=(0.5, 0.99), ncol=2,
                  frameon=False, borderaxespad=0.1, handlelength=2.4)

    (formula,) = ax_edges.plot([], [], color="0.4", linestyle="--", linewidth=1.2, label="formula")
    (starts,) = ax_edges.plot([], [], "o", color=COLORS["blue"], markersize=4, label="first distance in the bucket")
    ax_edges.set_yscale("log")
    # fixed plain labels and no minor ticks: a log axis would otherwise lay out mathtext on every step
    ax_edges.set_yticks([1, 10, 100], ["1", "10", "100"])
    ax_edges.minorticks_off()
    ax_edges.set_xlabel("bucket (keys before the query)")
    ax_edges.set_ylabel("distance")
    ax_edges.set_ylim(0.8, MAX_DISTANCE.high * 1.5)
    ax_edges.legend(loc="upper left", frameon=False)
    edges_title = ax_edges.set_title("", fontsize=10)

    def update(num_buckets, max_distance, bidirectional):
        v = t5_bucket_view(num_buckets, max_distance, bidirectional, SPAN)
        steps.set_data(v.offsets.numpy(), v.buckets.numpy())
        ax_map.set_xlim(-SPAN, SPAN if bidirectional else 10)  # causal: a glimpse of the keys after
        ax_map.set_ylim(-1, num_buckets)
        sides = (-1, 1) if bidirectional else (-1, -1)  # causal: both lines of a pair on the left
        for line, side in zip(exact_lines, sides, strict=True):
            line.set_xdata([side * (v.exact - 0.5)] * 2)
        for line, side in zip(far_lines, sides, strict=True):
            line.set_xdata([side * max_distance] * 2)
        direction = "bidirectional: half the buckets for keys after the query" if bidirectional else \
            "causal: every key after the query in bucket 0"
        map_title.set_text(f"{num_buckets} buckets, max_distance {max_distance}; {direction}")

        b = np.arange(len(v.edges))
        formula.set_data(b[v.exact:], v.edges.numpy()[v.exact:])
        starts.set_data(b[1:], v.starts.numpy()[1:])  # bucket 0 starts at distance 0, off a log scale
        ax_edges.set_xlim(-0.5, len(b) - 0.5)
        empty = int(np.isnan(v.starts.numpy()).sum())
        edges_title.set_text(f"distances 0 … {v.exact - 1} exact, then log-spaced up to {max_distance}"
                             + (f"; {empty} buckets left empty" if empty else ""))

    controls = {"num_buckets": NUM_BUCKETS.slider(num_buckets), "max_distance": MAX_DISTANCE.slider(max_distance),
                "bidirectional": DIRECTION.slider(bidirectional)}
    # the limits follow the number of buckets and the direction: max_distance redraws only what update changes
    animated = (steps, *exact_lines, *far_lines, map_title, formula, starts, edges_title)
    return LiveFigure(fig, update, controls, animated=animated, blit=("max_distance",))


@register(moves="head", in_lesson=False)
def alibi_explorer(n_heads: int = 8, length: int = 32, head: int = 1, max_length: int = 128) -> LiveFigure:
    """ALiBi: the bias of one head, the slopes of all heads, and how far a head looks.

    Left: the causal bias −m·(i − j) of the chosen head over ``length`` tokens (blank above the
    diagonal: future keys are masked), on one colour scale for every head, clipped at
    ``BIAS_FLOOR`` (a key that far down keeps less than e^−6 ≈ 0.25 % of its weight). Top right:
    every head's slope m (log scale), the chosen one ringed; with a head count that is not a
    power of two the sequence is interleaved. Bottom right: the attention weight that the last
    query gives each key when all content scores are equal, softmax(−m·distance), on a log
    scale where it falls along a straight line. Sliders: n_heads, length and head (1 … n_heads).
    Numbers from :func:`helpers.measure.l07_learned_and_relative.alibi_view`.
    """
    max_length = check_int("max_length", max_length, 8)
    lengths = IntRange("length", 8, max_length, step=8)
    n_heads, length = N_HEADS.check("n_heads", n_heads), lengths.check("length", length)
    heads = IntRange("head", 1, n_heads)
    head = heads.check("head", head)

    fig = plt.figure(figsize=(7.8, 4.6), dpi=COURSE_DPI)
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.1), hspace=0.7, wspace=0.42,
                            left=0.09, right=0.985, top=0.9, bottom=0.12)
    ax_map = fig.add_subplot(grid[:, 0])
    ax_slopes, ax_weights = fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
    im = ax_map.imshow(np.zeros((length, length)), cmap="viridis", interpolation="nearest",
                       interpolation_stage="data", vmin=BIAS_FLOOR, vmax=0)
    fig.colorbar(im, ax=ax_map, fraction=0.046, pad=0.03, extend="min")
    axis_names(ax_map, "key position j", "query position i")
    map_title = ax_map.set_title("", fontsize=10)

    (all_slopes,) = ax_slopes.plot([], [], "o-", color="0.55", markersize=4, linewidth=0.8)
    (chosen,) = ax_slopes.plot([], [], "o", markersize=11, markerfacecolor="none", markeredgecolor=EMPHASIS,
                               markeredgewidth=2)
    ax_slopes.set_yscale("log", base=2)
    ax_slopes.set_yticks([2.0**-e for e in range(0, 9, 2)], ["1", "1/4", "1/16", "1/64", "1/256"])
    ax_slopes.minorticks_off()  # plain labels, drawn the same at every step (no mathtext)
    ax_slopes.set_xlim(0.5, N_HEADS.high + 0.5)
    ax_slopes.set_ylim(2.0**-8.6, 1.2)
    axis_names(ax_slopes, "head", None)
    ax_slopes.xaxis.set_major_locator(MaxNLocator(8, integer=True))
    slopes_title = ax_slopes.set_title("", fontsize=10)

    (weights,) = ax_weights.plot([], [], color=EMPHASIS, linestyle="-", linewidth=1.4)
    (uniform,) = ax_weights.plot([], [], color="0.45", linestyle=":", linewidth=1.2)
    # named at its right end, above it: a legend would sit on the lines of some head and length
    uniform_name = ax_weights.text(0, 0, "no bias (uniform)", ha="right", va="bottom", fontsize=9, color="0.3")
    ax_weights.set_yscale("log")
    ax_weights.set_yticks([1e-4, 1e-3, 1e-2, 1e-1, 1.0], ["0.0001", "0.001", "0.01", "0.1", "1"])
    ax_weights.minorticks_off()
    ax_weights.set_ylim(5e-5, 1.5)
    axis_names(ax_weights, "distance i − j from the last query", "weight", y_gap=40)
    weights_title = ax_weights.set_title("", fontsize=10)

    def update(n_heads, length, head):
        v = alibi_view(n_heads, length, head)
        slope = float(v.slopes[head - 1])
        im.set_data(v.bias.numpy())
        im.set_extent((-0.5, length - 0.5, length - 0.5, -0.5))
        map_title.set_text(f"head {head}: bias −{slope:.4g}·(i − j)")

        all_slopes.set_data(np.arange(1, n_heads + 1), v.slopes.numpy())
        chosen.set_data([head], [slope])
        n0 = 1 << (n_heads.bit_length() - 1)  # the largest power of two ≤ n_heads
        rule = "one geometric sequence" if v.power_of_two else f"{n0} geometric, then {n_heads - n0} in between"
        slopes_title.set_text(f"{n_heads} slopes: {rule}")

        distance = np.arange(length)
        weights.set_data(distance, v.weights.numpy()[::-1])
        uniform.set_data([0, length - 1], [1 / length, 1 / length])
        uniform_name.set_position((length - 1, 1.15 / length))
        ax_weights.set_xlim(-0.5, length - 0.5)
        weights_title.set_text(f"weight halves every {v.half_distance:.3g} tokens (ln 2 / m)")

    controls = {"n_heads": N_HEADS.slider(n_heads), "length": lengths.slider(length), "head": heads.slider(head)}
    # head and n_heads change only these artists (length changes the map's axes too)
    animated = (im, map_title, all_slopes, chosen, slopes_title, weights, uniform, uniform_name, weights_title)
    return LiveFigure(fig, update, controls, limits=lambda values: {"head": values["n_heads"]}, animated=animated,
                      blit=("head", "n_heads"))
