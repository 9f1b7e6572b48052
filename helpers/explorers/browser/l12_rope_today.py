"""Lesson 12's explorer, computed and drawn by the browser: 2-D axial RoPE on a grid of image patches. A
query patch at (row, column) scores a key on every patch; beside that map, the score against the offset
key − query, which is the same for every query: the grid's map is the window of it that the query's
position cuts out. q and k are sent once, as lists of numbers; the script, ``js/src/l12_rope_today.js``,
computes what :func:`helpers.measure.l12_rope_today.grid_scores` and ``offset_scores`` do for the split
``two_axis_split`` names. The still is drawn by Matplotlib.
"""

from __future__ import annotations

import torch
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from ..._checks import check_base, check_choice, check_pairs
from ...live import IntRange
from ...measure.l12_rope_today import AXIS_SPLITS, grid_scores, offset_scores, two_axis_split
from ...plots import COURSE_DPI, course_style
from .base import BrowserExplorer, bundle_source

MAX_SIDE = 16  # rows or columns of the grid: the map against the offset has 2·side − 1


class GridRopeExplorer(BrowserExplorer):
    """The query's row and column and the split shared with the browser, each checked as the builder checks
    it; q, k, the base and the grid's size fixed."""

    _esm = bundle_source("l12_rope_today")
    names = ("query_row", "query_col", "split")
    still_inches = (7.8, 4.3)
    query_row = traitlets.Int(2).tag(sync=True)
    query_col = traitlets.Int(3).tag(sync=True)
    split = traitlets.Unicode("halves").tag(sync=True)
    q = traitlets.List(traitlets.Float()).tag(sync=True)
    k = traitlets.List(traitlets.Float()).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)
    rows = traitlets.Int(8).tag(sync=True)
    cols = traitlets.Int(8).tag(sync=True)

    @traitlets.validate("query_row")
    def _check_row(self, proposal):
        return IntRange("query row", 0, self.rows - 1).check("query_row", proposal["value"])

    @traitlets.validate("query_col")
    def _check_col(self, proposal):
        return IntRange("query column", 0, self.cols - 1).check("query_col", proposal["value"])

    @traitlets.validate("split")
    def _check_split(self, proposal):
        return check_choice("split", proposal["value"], AXIS_SPLITS)

    def _maps(self):
        q, k = torch.tensor(self.q, dtype=torch.float64), torch.tensor(self.k, dtype=torch.float64)
        freqs, axes = two_axis_split(q.shape[0], self.split, self.base)
        return (grid_scores(q, k, self.query_row, self.query_col, self.rows, self.cols, freqs, axes),
                offset_scores(q, k, self.rows, self.cols, freqs, axes))

    def describe(self) -> str:
        _, offsets = self._maps()
        return (f"Scores of a query patch at row {self.query_row}, column {self.query_col} with a key on every patch "
                f"of the {self.rows} × {self.cols} grid, 2-D RoPE with the pairs split in {self.split}: left over the "
                f"grid, right against key − query, where the grid is a window at offsets from "
                f"({-self.query_row}, {-self.query_col}); scores from {offsets.min():.3g} to {offsets.max():.3g}.")

    def still_figure(self) -> Figure:
        grid, offsets = self._maps()
        return still_figure(grid, offsets, self.query_row, self.query_col, self.split,
                            *two_axis_split(len(self.q), self.split, self.base))


def grid_rope_explorer(q=None, k=None, query_row: int = 2, query_col: int = 3, split: str = "halves",
                       rows: int = 8, cols: int = 8, base: float = 10000.0) -> GridRopeExplorer:
    """2-D axial RoPE on a rows × cols grid of image patches, computed and drawn by the browser. Left: the
    score of a query patch at (query_row, query_col) with a key on every patch (the query ringed); right:
    the score against the offset key − query, the same map whatever the query's patch, with the window
    the grid cuts out of it outlined. Sliders: the query's row and column, and how the pairs are split
    between the axes (``split``: "halves", "alternate pairs" or "blocks", as
    :func:`helpers.measure.l12_rope_today.two_axis_split`). q and k are (d,) tensors, d a multiple of 4;
    by default a fixed random pair with d = 64. rows and cols: 2 … 16."""
    if q is None or k is None:
        q, k = torch.randn(2, 64, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    q, k = check_pairs("q", q), check_pairs("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    if q.shape[0] % 4:
        raise ValueError(f"q and k must have d a multiple of 4 (two axes, each of whole pairs), got d = {q.shape[0]}")
    rows = IntRange("rows", 2, MAX_SIDE).check("rows", rows)
    cols = IntRange("cols", 2, MAX_SIDE).check("cols", cols)
    base = check_base(base)
    query_row = IntRange("query row", 0, rows - 1).check("query_row", query_row)
    query_col = IntRange("query column", 0, cols - 1).check("query_col", query_col)
    split = check_choice("split", split, AXIS_SPLITS)
    return GridRopeExplorer(q=q.detach().double().tolist(), k=k.detach().double().tolist(), base=base, rows=rows,
                            cols=cols, query_row=query_row, query_col=query_col, split=split)


def still_figure(grid: torch.Tensor, offsets: torch.Tensor, query_row: int, query_col: int, split: str,
                 freqs: torch.Tensor, axes: torch.Tensor) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    rows, cols = grid.shape
    low, high = float(offsets.min()), float(offsets.max())
    fastest = [float(freqs[axes == a].max()) for a in (0, 1)]
    pairs = [int((axes == a).sum()) for a in (0, 1)]
    with course_style():
        fig = Figure(figsize=GridRopeExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1]})
        fig.subplots_adjust(left=0.08, right=0.97, top=0.76, bottom=0.16, wspace=0.55)
        shown = left.imshow(grid.numpy(), cmap="viridis", vmin=low, vmax=high, origin="upper",
                            extent=(-0.5, cols - 0.5, rows - 0.5, -0.5))
        left.plot([query_col], [query_row], "o", markersize=11, markerfacecolor="none", markeredgecolor="white",
                  markeredgewidth=3.5)
        left.plot([query_col], [query_row], "o", markersize=11, markerfacecolor="none", markeredgecolor="0.13",
                  markeredgewidth=1.8, label="the query's patch (offset 0, 0)")
        left.set(xlabel="key column", ylabel="key row")
        left.set_title("score with a key on each patch", fontsize=9, loc="left")
        bar = fig.colorbar(shown, ax=left, fraction=0.06, pad=0.05)
        bar.set_label("score after 2-D RoPE", fontsize=9)
        right.imshow(offsets.numpy(), cmap="viridis", vmin=low, vmax=high, origin="upper",
                     extent=(0.5 - cols, cols - 0.5, rows - 0.5, 0.5 - rows))
        window = "the grid as this query sees it (the left map)"
        for colour, width, style, label in (("white", 3.5, "solid", None), ("0.13", 1.8, (0, (4, 2)), window)):
            right.add_patch(Rectangle((-query_col - 0.5, -query_row - 0.5), cols, rows, fill=False,
                                      edgecolor=colour, linewidth=width, linestyle=style, label=label))
        right.plot([0], [0], "o", markersize=8, markerfacecolor="none", markeredgecolor="white", markeredgewidth=3.5)
        right.plot([0], [0], "o", markersize=8, markerfacecolor="none", markeredgecolor="0.13", markeredgewidth=1.8)
        right.set(xlabel="key column − query column", ylabel="key row − query row")
        for axis in (left.xaxis, left.yaxis, right.xaxis, right.yaxis):
            axis.set_major_locator(MaxNLocator(nbins=8, integer=True))
        right.set_title("the same, against key − query", fontsize=9, loc="left")
        handles = [*left.get_legend_handles_labels()[0], *right.get_legend_handles_labels()[0]]
        fig.legend(handles=handles, loc="lower center", ncol=2, frameon=False, fontsize=9, bbox_to_anchor=(0.5, 0.0))
        fig.suptitle(f"query patch at row {query_row}, column {query_col}; pairs split in {split}\n"
                     f"rows: {pairs[0]} pairs, the fastest turns {fastest[0]:.3g} rad per row; columns: {pairs[1]} "
                     f"pairs, the fastest turns {fastest[1]:.3g} rad per column", fontsize=10)
    return fig
