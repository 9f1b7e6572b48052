"""Lesson 06: a query at position m and a key at position n, rotated by RoPE."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from .._checks import check_base, check_int, check_pairs
from ..encodings import frequencies
from ..live import IntRange, LiveFigure, register
from ..measure.l06_rope import rope_pair_view, scores_by_offset
from ..plots import COLORS, COURSE_DPI


@register(moves="m", in_lesson=False)
def rope_explorer(q=None, k=None, m: int = 3, n: int = 1, pair: int = 0, base: float = 10000.0,
                  max_position: int = 64) -> LiveFigure:
    """A query at position m and a key at position n, rotated by RoPE (interleaved pairs).

    Left: the plane of one pair (2i, 2i+1). Dashed arrows are q's and k's pair before rotation;
    solid arrows are the same pair turned by m·ω_i and n·ω_i. Their dot product is this pair's
    share of the score. Right: the full score ⟨R_m q, R_n k⟩ against the offset m − n (computed
    once), with the current point marked — moving m and n together leaves it where it is.
    Sliders: m, n (0 … max_position) and the pair i. q and k are (d,) tensors; by default a
    fixed random pair with d = 32. Numbers from :func:`helpers.rope_pair_view`.
    """
    if q is None or k is None:
        q, k = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    q, k = check_pairs("q", q), check_pairs("k", k)
    if q.dim() != 1 or q.shape != k.shape:
        raise ValueError(f"q and k must both have shape (d,), got {tuple(q.shape)} and {tuple(k.shape)}")
    base, max_position = check_base(base), check_int("max_position", max_position, 1)
    ranges = {"m": IntRange("query position m", 0, max_position), "n": IntRange("key position n", 0, max_position),
              "pair": IntRange("pair i", 0, q.shape[0] // 2 - 1)}
    values = {name: ranges[name].check(name, value) for name, value in {"m": m, "n": n, "pair": pair}.items()}
    q, k = q.detach().double(), k.detach().double()
    offsets = np.arange(-max_position, max_position + 1)
    profile = scores_by_offset(q, k, torch.from_numpy(offsets), base).numpy()
    omega = frequencies(q.shape[0], base, torch.float64).numpy()

    fig, (plane, curve) = plt.subplots(1, 2, figsize=(7.8, 4.0), gridspec_kw={"width_ratios": [1, 1.35]},
                                       dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.02, right=0.985, top=0.8, bottom=0.24, wspace=0.3)
    circle = np.linspace(0, 2 * np.pi, 121)
    (ring,) = plane.plot(np.cos(circle), np.sin(circle), color="0.85", linewidth=1)
    plane.axhline(0, color="0.9", linewidth=0.8)
    plane.axvline(0, color="0.9", linewidth=0.8)
    arrows = {}
    for name, color in (("q", COLORS["blue"]), ("k", COLORS["vermillion"])):
        (faint,) = plane.plot([], [], color=color, alpha=0.6, linestyle=(0, (2, 1.5)), linewidth=1.8,
                              label=f"{name} before turning")
        (solid,) = plane.plot([], [], color=color, linestyle="-", linewidth=2.5, marker="o", markevery=[1],
                              markersize=6, label=f"{name} turned")
        arrows[name] = (faint, solid)
    plane.set_aspect("equal")
    plane.set_xticks([])
    plane.set_yticks([])
    # below the plane, off the circle
    plane.legend(loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=2, frameon=False,
                 handlelength=1.8, columnspacing=0.8, handletextpad=0.5)
    plane_title = plane.set_title("", fontsize=9)
    curve.plot(offsets, profile, color="0.4", linestyle="-", linewidth=1.2)
    curve.axhline(0, color="0.85", linewidth=0.8)
    (marker,) = curve.plot([], [], "o", color="black", markersize=7)
    curve.set_xlabel("offset m − n")
    curve.set_ylabel("score ⟨R_m q, R_n k⟩")
    curve.set_xlim(offsets[0], offsets[-1])
    curve_title = curve.set_title("", fontsize=9)
    heading = fig.suptitle("", fontsize=11)

    def update(m, n, pair):
        view = rope_pair_view(q, k, m, n, pair, base)
        start = {"q": q[2 * pair : 2 * pair + 2].numpy(), "k": k[2 * pair : 2 * pair + 2].numpy()}
        radius = 1.15 * max(float(np.hypot(*start["q"])), float(np.hypot(*start["k"])), 1e-6)
        ring.set_data(radius / 1.15 * np.cos(circle), radius / 1.15 * np.sin(circle))
        for name, (faint, solid) in arrows.items():
            faint.set_data([0, start[name][0]], [0, start[name][1]])
            x, y = view.q_xy if name == "q" else view.k_xy
            solid.set_data([0, x], [0, y])
        plane.set_xlim(-radius, radius)
        plane.set_ylim(-radius, radius)
        plane_title.set_text(f"pair {pair}: ω = {omega[pair]:.3g}; q turned {m * omega[pair]:.3g} rad, "
                             f"k {n * omega[pair]:.3g} rad\nthis pair's share of the score: {view.pair_score:.3f}")
        marker.set_data([view.offset], [view.score])
        curve_title.set_text(f"score = {view.score:.4f} at m − n = {view.offset}")
        heading.set_text(f"query at m = {m}, key at n = {n}")

    controls = {name: ranges[name].slider(value) for name, value in values.items()}
    # the plane's limits follow the pair only: moving m or n redraws only the artists update changes
    animated = (ring, *(line for pair in arrows.values() for line in pair), plane_title, marker, curve_title, heading)
    return LiveFigure(fig, update, controls, animated=animated, blit=("m", "n"))
