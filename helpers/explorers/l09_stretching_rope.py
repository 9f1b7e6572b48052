"""Lesson 09: what each RoPE scaling method does to each frequency pair. The lesson shows the explorer drawn
by the browser (:mod:`helpers.explorers.browser.l09_stretching_rope`); this one stays registered, out of the
lesson, as the kernel-drawn reference."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FixedLocator, NullLocator

from ..live import Choice, LiveFigure, register
from ..measure.l09_stretching_rope import MODEL_SHAPES, shape_pictures
from ..plots import COLORS, COURSE_DPI
from ..rope_scaling import PAIR_KINDS, SCALING_METHODS

FACTOR = Choice("factor", [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0], as_slider=True,
                width="360px")
METHOD = Choice("method", list(SCALING_METHODS))
SHAPE = Choice("model", [(shape.name, i) for i, shape in enumerate(MODEL_SHAPES)], width="380px")
# "dynamic" is configured with the factor and shown at n = factor·L, where it divides its slowest pair by
# factor² − factor + 1 (13 at factor 4), not by the factor.
# each method its own colour AND dash pattern, so that the lines are told apart without colour
METHOD_LINES = {"linear": (COLORS["blue"], "linear", "-"), "ntk": (COLORS["purple"], "ntk", "--"),
                "dynamic": (COLORS["orange"], "dynamic at n = factor·L", "-."),
                "yarn": (COLORS["vermillion"], "yarn", (0, (1, 1))),
                "llama3": (COLORS["green"], "llama3", (0, (6, 2, 1, 2, 1, 2)))}
Y_TICKS = [1, 2, 4, 8, 16, 32, 64, 128]
# the chosen method's pairs, by kind: a marker shape each, so that they read without colour
KIND_LABELS = {"extrapolated": (COLORS["green"], "o", "extrapolated (s = 1)"),
               "blended": (COLORS["orange"], "s", "blended"),
               "interpolated": (COLORS["blue"], "^", "interpolated (s = factor)")}


@register(moves="factor", in_lesson=False)
def pair_scale_explorer(method: str = "yarn", factor: float = 16.0, model: int = 0) -> LiveFigure:
    """The scale s_i = ω_i / ω'_i each method gives each pair, against the pair's wavelength
    relative to the training length L (both on log axes), for one of three model shapes.

    Every method is drawn as a thin line; the chosen one is drawn with its pairs marked as kept
    (extrapolated, s = 1), blended, or fully interpolated (s = factor). "dynamic" is configured with
    the factor and shown at the length n = factor·L it is asked to reach, where its slowest pair is
    divided by factor² − factor + 1. Controls: the method, the
    factor (1 … 64) and the model shape (``MODEL_SHAPES``). Numbers from
    :func:`helpers.measure.l09_stretching_rope.shape_pictures`.
    """
    method, factor, model = METHOD.check("method", method), FACTOR.check("factor", factor), SHAPE.check("model", model)

    fig, ax = plt.subplots(figsize=(7.8, 4.8), dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.09, right=0.64, top=0.85, bottom=0.17)
    ax.set_xscale("log")
    ax.set_yscale("log")
    # fixed ticks, no minor ones: fewer labels to lay out on every step
    ax.xaxis.set_major_locator(FixedLocator([1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3]))
    ax.yaxis.set_major_locator(FixedLocator(Y_TICKS))
    ax.yaxis.set_major_formatter("{x:g}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_minor_locator(NullLocator())
    ax.axvline(1.0, color="0.6", linestyle=":", linewidth=1)
    ax.text(1.05, 0.02, "wavelength = L", transform=ax.get_xaxis_transform(), fontsize=9, color="0.4")
    # drawn over the chosen method's black line and its dots, so the chosen method's own line stays visible
    method_lines = {m: ax.plot([], [], color=c, linewidth=1.6, linestyle=style, alpha=0.9, label=label, zorder=4)[0]
                    for m, (c, label, style) in METHOD_LINES.items()}
    kind_points = {k: ax.plot([], [], marker, color=c, markersize=6, linestyle="none", label=label, zorder=3)[0]
                   for k, (c, marker, label) in KIND_LABELS.items()}
    (chosen,) = ax.plot([], [], color="black", linestyle="-", linewidth=2.2, label="the chosen method", zorder=2)
    # fixed, so that moving the factor redraws only the curves; dynamic's slowest pairs leave the top from
    # factor 12 on (its scale there is factor² − factor + 1; the heading gives it)
    ax.set_ylim(0.8, 2 * max(FACTOR.values) * 1.1)
    ax.set_xlabel("original wavelength of the pair ÷ training length L\n(fast pairs on the left)")
    ax.set_ylabel("scale s = ω / ω′")
    fig.legend(handles=[chosen, *kind_points.values(), *method_lines.values()], loc="upper left",
               frameon=False, bbox_to_anchor=(0.65, 0.855), handlelength=2.6)
    summary = fig.text(0.665, 0.17, "", fontsize=9, va="bottom", family="monospace")
    heading = fig.suptitle("", fontsize=10, x=0.02, ha="left")

    def update(method, factor, model):
        shape = MODEL_SHAPES[model]
        pictures = shape_pictures(shape, factor)
        for m, line in method_lines.items():  # the thin lines: every method
            line.set_data(pictures[m].relative_wavelength.numpy(), pictures[m].scale.numpy())
        picture = pictures[method]
        x, s = picture.relative_wavelength.numpy(), picture.scale.numpy()
        chosen.set_data(x, s)
        kinds = np.array(picture.kinds)
        for kind, points in kind_points.items():
            points.set_data(x[kinds == kind], s[kinds == kind])
        ax.set_xlim(x.min() / 2, x.max() * 2)
        scale = picture.attention_scale
        summary.set_text("\n".join(f"{kind:<13}{picture.count(kind):>3}" for kind in PAIR_KINDS)
                         + f"\ntemperature:\nq, k ×{scale:.3f}\nlogits ×{scale * scale:.3f}")
        where = " at n = factor·L" if method == "dynamic" else ""
        kept = picture.count("extrapolated")
        heading.set_text(f"{shape.name}\n{method}{where}, factor {factor:g}: {kept} pair{'s' * (kept != 1)} kept, "
                         f"{picture.count('blended')} blended, {picture.count('interpolated')} divided by "
                         f"{picture.factor:g}")

    controls = {"method": METHOD.slider(method), "factor": FACTOR.slider(factor), "model": SHAPE.slider(model)}
    # the wavelength axis follows the model only: the method and the factor redraw only the artists update changes
    animated = (*method_lines.values(), *kind_points.values(), chosen, summary, heading)
    return LiveFigure(fig, update, controls, animated=animated, blit=("method", "factor"))
