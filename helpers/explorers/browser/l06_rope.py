"""Lesson 06's explorer, computed and drawn by the browser: a query at position m and a key at position
n, turned by RoPE (interleaved pairs), seen in the plane of one pair, with the score against the offset.
q and k are sent once, as lists of numbers; the script, ``js/src/l06_rope.js``, computes what
:func:`helpers.rope_pair_view` and :func:`helpers.scores_by_offset` do. The still is drawn by Matplotlib.
"""

from __future__ import annotations

import numpy as np
import torch
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..._checks import check_base, check_int, check_pairs
from ...encodings import frequencies
from ...live import IntRange
from ...measure.l06_rope import rope_pair_view, scores_by_offset
from ...plots import COLORS, COURSE_DPI, course_style
from .base import BrowserExplorer, bundle_source


class RopeExplorer(BrowserExplorer):
    """m, n and the pair shared with the browser, each checked as the builder checks it; q, k fixed."""

    _esm = bundle_source("l06_rope")
    names = ("m", "n", "pair")
    still_inches = (7.8, 4.0)
    m = traitlets.Int(3).tag(sync=True)
    n = traitlets.Int(1).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)
    q = traitlets.List(traitlets.Float()).tag(sync=True)
    k = traitlets.List(traitlets.Float()).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)
    max_position = traitlets.Int(64).tag(sync=True)

    @traitlets.validate("m", "n")
    def _check_position(self, proposal):
        name = proposal["trait"].name
        label = "query position m" if name == "m" else "key position n"
        return IntRange(label, 0, self.max_position).check(name, proposal["value"])

    @traitlets.validate("pair")
    def _check_pair(self, proposal):
        return IntRange("pair i", 0, max(len(self.q) // 2 - 1, 0)).check("pair", proposal["value"])

    def describe(self) -> str:
        q, k = torch.tensor(self.q, dtype=torch.float64), torch.tensor(self.k, dtype=torch.float64)
        view = rope_pair_view(q, k, self.m, self.n, self.pair, self.base)
        return (f"A query at m = {self.m} and a key at n = {self.n} turned by RoPE, seen in pair {self.pair}; "
                f"their score {view.score:.3f} at offset {view.offset}.")

    def still_figure(self) -> Figure:
        return still_figure(torch.tensor(self.q, dtype=torch.float64), torch.tensor(self.k, dtype=torch.float64),
                            self.m, self.n, self.pair, self.base, self.max_position)


def rope_explorer(q=None, k=None, m: int = 3, n: int = 1, pair: int = 0, base: float = 10000.0,
                  max_position: int = 64) -> RopeExplorer:
    """A query at position m and a key at position n, rotated by RoPE (interleaved pairs), computed and
    drawn by the browser. Left: the plane of one pair, q's and k's pair before (dashed) and after (solid)
    the turn; right: the score ⟨R_m q, R_n k⟩ against the offset m − n, the current point marked.
    Sliders: m, n (0 … max_position) and the pair i. q and k are (d,) tensors; by default a fixed random
    pair with d = 32."""
    if q is None or k is None:
        q, k = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    q, k = check_pairs("q", q), check_pairs("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    base, max_position = check_base(base), check_int("max_position", max_position, 1)
    m = IntRange("query position m", 0, max_position).check("m", m)
    n = IntRange("key position n", 0, max_position).check("n", n)
    pair = IntRange("pair i", 0, q.shape[0] // 2 - 1).check("pair", pair)
    return RopeExplorer(q=q.detach().double().tolist(), k=k.detach().double().tolist(), m=m, n=n, pair=pair,
                        base=base, max_position=max_position)


def still_figure(q: torch.Tensor, k: torch.Tensor, m: int, n: int, pair: int, base: float,
                 max_position: int) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    view = rope_pair_view(q, k, m, n, pair, base)
    offsets = np.arange(-max_position, max_position + 1)
    profile = scores_by_offset(q, k, torch.from_numpy(offsets), base).numpy()
    omega = frequencies(q.shape[0], base, torch.float64).numpy()
    start = {"q": q[2 * pair: 2 * pair + 2].numpy(), "k": k[2 * pair: 2 * pair + 2].numpy()}
    radius = 1.15 * max(float(np.hypot(*start["q"])), float(np.hypot(*start["k"])), 1e-6)
    circle = np.linspace(0, 2 * np.pi, 121)
    with course_style():
        fig = Figure(figsize=RopeExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        plane, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.35]})
        fig.subplots_adjust(left=0.02, right=0.985, top=0.8, bottom=0.24, wspace=0.3)
        plane.plot(radius / 1.15 * np.cos(circle), radius / 1.15 * np.sin(circle), color="0.85", linewidth=1)
        plane.axhline(0, color="0.9", linewidth=0.8)
        plane.axvline(0, color="0.9", linewidth=0.8)
        for name, color, turned in (("q", COLORS["blue"], view.q_xy), ("k", COLORS["vermillion"], view.k_xy)):
            plane.plot([0, start[name][0]], [0, start[name][1]], color=color, alpha=0.6, linestyle=(0, (2, 1.5)),
                       linewidth=1.8, label=f"{name} before turning")
            plane.plot([0, turned[0]], [0, turned[1]], color=color, linewidth=2.5, marker="o", markevery=[1],
                       markersize=6, label=f"{name} turned")
        plane.set(xlim=(-radius, radius), ylim=(-radius, radius), aspect="equal", xticks=[], yticks=[])
        plane.legend(loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=2, frameon=False, handlelength=1.8,
                     columnspacing=0.8, handletextpad=0.5)
        plane.set_title(f"pair {pair}: ω = {omega[pair]:.3g}; q turned {m * omega[pair]:.3g} rad, "
                        f"k {n * omega[pair]:.3g} rad\nthis pair's share of the score: {view.pair_score:.3f}",
                        fontsize=9)
        right.plot(offsets, profile, color="0.4", linewidth=1.2)
        right.axhline(0, color="0.85", linewidth=0.8)
        right.plot([view.offset], [view.score], "o", color="black", markersize=7)
        right.set(xlabel="offset m − n", ylabel="score ⟨R_m q, R_n k⟩", xlim=(offsets[0], offsets[-1]))
        right.set_title(f"score = {view.score:.4f} at m − n = {view.offset}", fontsize=9)
        fig.suptitle(f"query at m = {m}, key at n = {n}", fontsize=11)
    return fig
