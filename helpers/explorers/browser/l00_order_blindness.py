"""Lesson 00's explorer, drawn by the browser: the tokens in a chosen order, attention without and with a
position signal, and how far the mean-pooled output moves from the original order's. The attention of
the layer needs torch: it is computed once for every order (:func:`order_snapshot`) and sent as numbers;
the script, ``js/src/l00_order_blindness.js``, only picks an order and draws.
"""

from __future__ import annotations

import itertools

import numpy as np
import torch
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...encodings import sinusoidal
from ...measure.l00_order_blindness import order_snapshot
from ...plots import COLORS, COURSE_DPI, EMPHASIS, attention_map, course_style
from .base import BrowserExplorer, bundle_source


def _example() -> dict:
    """The arguments the tests and the slider benchmark build the explorer with: a seeded two-head
    layer over "dog bites man" and sinusoidal positions."""
    torch.manual_seed(0)
    tokens = ["dog", "bites", "man"]
    mha = torch.nn.MultiheadAttention(16, 2, batch_first=True).eval()
    x = torch.randn(len(tokens), 16)
    return {"mha": mha, "x": x, "tokens": tokens, "position": sinusoidal(len(tokens), 16)}

def order_snapshots(mha, x, tokens: list[str], position) -> dict:
    """Every order of the tokens: its label, the two attention maps and how far the pooled output moved,
    rounded to 12 significant digits (what a page needs, and equal on every run)."""
    def r(values) -> list:
        return [[float(f"{w:.12g}") for w in row] for row in values.tolist()]

    orders = list(itertools.permutations(range(len(tokens))))
    snapshots = [order_snapshot(mha, x, o, position) for o in orders]  # also checks the inputs
    return {
        "tokens": list(tokens), "orders": [list(o) for o in orders],
        "labels": [" ".join(tokens[i] for i in o) for o in orders],
        "weights_plain": [r(s.weights_plain) for s in snapshots],
        "weights_with_position": [r(s.weights_with_position) for s in snapshots],
        "moved_plain": [float(f"{s.moved_plain:.12g}") for s in snapshots],
        "moved_with_position": [float(f"{s.moved_with_position:.12g}") for s in snapshots],
        "largest": float(max(max(s.moved_plain, s.moved_with_position) for s in snapshots)),
    }


class OrderExplorer(BrowserExplorer):
    """The order (its label, such as "bites dog man") shared with the browser; the snapshots sent once."""

    _esm = bundle_source("l00_order_blindness")
    names = ("order",)
    still_inches = (7.8, 3.3)
    order = traitlets.Unicode().tag(sync=True)
    snapshots = traitlets.Dict().tag(sync=True)

    @traitlets.validate("order")
    def _check_order(self, proposal):
        labels = self.snapshots.get("labels", [])
        if proposal["value"] not in labels:
            raise ValueError(f"order must be one of {labels}, got {proposal['value']!r}")
        return proposal["value"]

    def describe(self) -> str:
        k = self.snapshots["labels"].index(self.order)
        return (f"Attention of the tokens in the order {self.order}, without and with a position signal; the pooled "
                f"output moved {self.snapshots['moved_plain'][k]:.3g} without and "
                f"{self.snapshots['moved_with_position'][k]:.3g} with.")

    def still_figure(self) -> Figure:
        return still_figure(self.snapshots, self.order)


def order_explorer(mha, x, tokens: list[str], position, order=None) -> OrderExplorer:
    """Attention maps of the tokens in the chosen order, without and with a position signal, and how far
    the mean-pooled output moves from the original order's, drawn by the browser. Each map prints its
    weights in its cells and outlines the row of ``tokens[0]``, wherever the order puts it.

    mha: batch-first nn.MultiheadAttention; x: (length, d) token embeddings in the original order;
    tokens: their words; position: (length, d) position signal added per slot; order: the order to start
    at, a permutation of 0 … length − 1 such as ``(1, 2, 0)`` (default: the original order)."""
    snapshots = order_snapshots(mha, x, tokens, position)
    start = 0
    if order is not None:
        try:
            start = snapshots["orders"].index([int(i) for i in order])
        except (TypeError, ValueError):
            raise ValueError(f"order must be a permutation of 0 … {len(tokens) - 1}, such as "
                             f"{tuple(snapshots['orders'][-1])}, got {order!r}") from None
    widget = OrderExplorer(snapshots=snapshots)
    widget.order = snapshots["labels"][start]
    return widget


def still_figure(s: dict, label: str) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    k = s["labels"].index(label)
    order = s["orders"][k]
    names = [s["tokens"][i] for i in order]
    n, first = len(names), order.index(0)
    with course_style():
        fig = Figure(figsize=OrderExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1, 0.8]})
        fig.subplots_adjust(left=0.09, right=0.985, top=0.9, bottom=0.2, wspace=0.45)
        for ax, key, title in ((axes[0], "weights_plain", "no position signal"),
                               (axes[1], "weights_with_position", "with position signal")):
            weights = np.asarray(s[key][k])
            attention_map(ax, weights, names, title, colorbar=False)
            for i in range(n):
                for j in range(n):
                    ax.text(j, i, f"{weights[i, j]:.2f}", ha="center", va="center", fontsize=9,
                            color="white" if weights[i, j] < 0.5 else "black")
            ax.add_patch(Rectangle((-0.5, first - 0.5), n, 1, fill=False, edgecolor=EMPHASIS, linewidth=2.5))
            ax.set_xticks(range(n), names, rotation=45)
        axes[1].set_ylabel("")
        moved = (s["moved_plain"][k], s["moved_with_position"][k])
        bars = axes[2].bar(["without", "with"], moved, color=["0.6", COLORS["blue"]])
        for bar, value in zip(bars, moved, strict=True):
            axes[2].text(bar.get_x() + bar.get_width() / 2, value, f"{value:.3f}", ha="center", va="bottom",
                         fontsize=10)
        axes[2].set(ylim=(0, 1.3 * s["largest"] + 1e-6), title="pooled output moved", xlabel="position signal")
    return fig
