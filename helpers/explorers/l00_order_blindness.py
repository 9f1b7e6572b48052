"""Lesson 00: choose an order of the tokens; see attention without and with a position signal."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.patches import Rectangle

from ..encodings import sinusoidal
from ..live import Choice, LiveFigure, register, render_png
from ..measure.l00_order_blindness import order_snapshot
from ..plots import COLORS, COURSE_DPI, EMPHASIS, attention_map, course_style


def _example() -> dict:
    torch.manual_seed(0)
    tokens = ["dog", "bites", "man"]
    mha = torch.nn.MultiheadAttention(16, 2, batch_first=True).eval()
    x = torch.randn(len(tokens), 16)
    return {"mha": mha, "x": x, "tokens": tokens, "position": sinusoidal(len(tokens), 16)}


@register(moves="order", example=_example, in_lesson=False)
def order_explorer(mha, x, tokens: list[str], position) -> LiveFigure:
    """Attention maps of the tokens in the chosen order, without and with a position signal, and
    how far the mean-pooled output moves from the original order's, as two bars with their
    values printed on them (numbers from :func:`helpers.measure.l00_order_blindness.order_snapshot`).
    Each map prints its weights in its cells and outlines the row of the first token,
    ``tokens[0]``, wherever the order puts it.

    mha: batch-first nn.MultiheadAttention; x: (length, d) token embeddings in the original
    order; tokens: their words; position: (length, d) position signal added per slot.
    """
    fig, update, orders, animated = _order_figure(mha, x, tokens, position)
    order = Choice("order", [(" ".join(tokens[i] for i in o), o) for o in orders])
    # the order relabels both maps' ticks, so they are redrawn whole; the bar panel's axes stay
    return LiveFigure(fig, update, {"order": order.slider(orders[0])}, animated=animated, blit=("order",))


def order_picture(mha, x, tokens: list[str], position, order) -> bytes:
    """The picture :func:`order_explorer` shows at ``order`` (a permutation of 0 … length − 1,
    e.g. ``(1, 2, 0)``), as PNG bytes: a still of another setting than the explorer's start,
    drawn without a widget."""
    with course_style():
        fig, update, orders, _ = _order_figure(mha, x, tokens, position)
    try:
        key = tuple(int(i) for i in order)
    except (TypeError, ValueError):
        key = None
    if key not in orders:
        plt.close(fig)
        raise ValueError(f"order must be a permutation of 0 … {len(tokens) - 1}, such as {orders[-1]}, got {order!r}")
    update(key)
    fig.set_dpi(LiveFigure.LIVE_SCALE * fig.dpi)  # the pixels of the explorer's own steps
    png = render_png(fig)
    plt.close(fig)
    return png


def _order_figure(mha, x, tokens, position):
    """The explorer's figure and its update(order); the orders offered; the artists update changes."""
    n = len(tokens)
    orders = list(itertools.permutations(range(n)))
    snapshots = {o: order_snapshot(mha, x, o, position) for o in orders}  # also checks the inputs
    largest = max(max(s.moved_plain, s.moved_with_position) for s in snapshots.values())

    fig, axes = plt.subplots(1, 3, figsize=(7.8, 3.3), gridspec_kw={"width_ratios": [1, 1, 0.8]}, dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.09, right=0.985, top=0.9, bottom=0.2, wspace=0.45)
    blank = np.zeros((n, n))
    # each map prints its weights in its cells: no colour bar needed
    ims = [attention_map(axes[0], blank, tokens, "no position signal", colorbar=False),
           attention_map(axes[1], blank, tokens, "with position signal", colorbar=False)]
    axes[1].set_ylabel("")
    numbers = [[ax.text(j, i, "", ha="center", va="center", fontsize=9) for i in range(n) for j in range(n)]
               for ax in axes[:2]]
    outlines = [ax.add_patch(Rectangle((-0.5, -0.5), n, 1, fill=False, edgecolor=EMPHASIS, linewidth=2.5))
                for ax in axes[:2]]
    bars = axes[2].bar(["without", "with"], [0.0, 0.0], color=["0.6", COLORS["blue"]])
    # each bar's value printed above it: a bar of height 0 is otherwise invisible
    values = [axes[2].text(bar.get_x() + bar.get_width() / 2, 0.0, "", ha="center", va="bottom", fontsize=10)
              for bar in bars]
    axes[2].set_ylim(0, 1.3 * largest + 1e-6)
    axes[2].set_title("pooled output moved")
    axes[2].set_xlabel("position signal")

    def update(order):
        s = snapshots[order]
        names = [tokens[i] for i in order]
        first = list(order).index(0)  # the row of tokens[0]
        for im, texts, outline, weights, bar, value, moved in zip(
                ims, numbers, outlines, (s.weights_plain, s.weights_with_position), bars, values,
                (s.moved_plain, s.moved_with_position), strict=True):
            im.set_data(weights.numpy())
            im.axes.set_xticks(range(n), names, rotation=45)
            im.axes.set_yticks(range(n), names)
            for text, w in zip(texts, weights.flatten().tolist(), strict=True):
                text.set_text(f"{w:.2f}")
                text.set_color("white" if w < 0.5 else "black")
            outline.set_y(first - 0.5)
            bar.set_height(moved)
            value.set_y(moved)
            value.set_text(f"{moved:.3f}")

    # what a step changes, in each map's drawing order (image, outline, frame, axes with their tick
    # labels, numbers): the panels' titles and backgrounds stay in the kept picture
    changed = [artist for ax, im, outline, texts in zip(axes[:2], ims, outlines, numbers, strict=True)
               for artist in (im, outline, *ax.spines.values(), ax.xaxis, ax.yaxis, *texts)]
    return fig, update, orders, (*changed, *bars, *values)
