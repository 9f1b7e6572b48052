"""Lesson 09's explorer, computed and drawn by the browser: for one model shape, the scale s_i = ω_i / ω'_i
each RoPE-stretching method gives each frequency pair, against the pair's wavelength ÷ the training length L
(log–log). The shapes (head dimension, base, L) are sent once; the script, ``js/src/l09_stretching_rope.js``,
computes what :func:`helpers.measure.l09_stretching_rope.shape_pictures` does for every method, factor and
shape. The still is drawn by Matplotlib.
"""

from __future__ import annotations

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, NullLocator

from ...live import Choice
from ...measure.l09_stretching_rope import MODEL_SHAPES, shape_pictures
from ...plots import COLORS, COURSE_DPI, course_style
from ...rope_scaling import PAIR_KINDS, SCALING_METHODS
from .base import BrowserExplorer, bundle_source

FACTOR = Choice("factor", [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0])
METHOD = Choice("method", list(SCALING_METHODS))
SHAPE = Choice("model", [(shape.name, i) for i, shape in enumerate(MODEL_SHAPES)])
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

# the model slider's short names, in the order of MODEL_SHAPES (the heading gives each shape in full)
SHAPE_LABELS = ("Llama 2", "Llama 3.1", "TinyLM")
assert len(SHAPE_LABELS) == len(MODEL_SHAPES)


def shape_constants() -> list[dict]:
    """What the script needs of each model shape: its name, short name, head dimension, base and L."""
    return [{"name": s.name, "label": label, "head_dim": s.head_dim, "base": s.base,
             "original_max_len": s.original_max_len} for s, label in zip(MODEL_SHAPES, SHAPE_LABELS, strict=True)]


def heading(method: str, factor: float, model: int) -> tuple[str, dict]:
    """The explorer's heading (two lines) and the pictures of every method."""
    shape = MODEL_SHAPES[model]
    pictures = shape_pictures(shape, factor)
    picture = pictures[method]
    where = " at n = factor·L" if method == "dynamic" else ""
    kept = picture.count("extrapolated")
    text = (f"{shape.name}\n{method}{where}, factor {factor:g}: {kept} pair{'s' * (kept != 1)} kept, "
            f"{picture.count('blended')} blended, {picture.count('interpolated')} divided by {picture.factor:g}")
    return text, pictures


class PairScaleExplorer(BrowserExplorer):
    """The method, the factor and the model shape shared with the browser, each checked as the builder checks
    it; the shapes and the factors the slider offers sent once."""

    _esm = bundle_source("l09_stretching_rope")
    names = ("method", "factor", "model")
    still_inches = (7.8, 4.8)
    method = traitlets.Unicode("yarn").tag(sync=True)
    factor = traitlets.Float(16.0).tag(sync=True)
    model = traitlets.Int(0).tag(sync=True)
    shapes = traitlets.List(traitlets.Dict()).tag(sync=True)
    factors = traitlets.List(traitlets.Float()).tag(sync=True)

    @traitlets.validate("method")
    def _check_method(self, proposal):
        return METHOD.check("method", proposal["value"])

    @traitlets.validate("factor")
    def _check_factor(self, proposal):
        return float(FACTOR.check("factor", proposal["value"]))

    @traitlets.validate("model")
    def _check_model(self, proposal):
        return SHAPE.check("model", proposal["value"])

    def describe(self) -> str:
        pictures = shape_pictures(MODEL_SHAPES[self.model], self.factor)
        p = pictures[self.method]
        where = " at n = factor·L" if self.method == "dynamic" else ""
        kept = p.count("extrapolated")
        return (f"{MODEL_SHAPES[self.model].name}; {self.method}{where} at factor {self.factor:g}: {kept} "
                f"pair{'s' * (kept != 1)} kept, {p.count('blended')} blended, {p.count('interpolated')} divided by "
                f"{p.factor:g}; q, k ×{p.attention_scale:.3f}.")

    def still_figure(self) -> Figure:
        return still_figure(self.method, self.factor, self.model)


def pair_scale_explorer(method: str = "yarn", factor: float = 16.0, model: int = 0) -> PairScaleExplorer:
    """The scale s_i = ω_i / ω'_i each method gives each pair, against the pair's wavelength relative to
    the training length L (both on log axes), for one of three model shapes, computed and drawn by the
    browser.

    Every method is drawn as a thin line; the chosen one is drawn bold with its pairs marked as kept
    (extrapolated, s = 1), blended, or fully interpolated (s = factor), with their counts and YaRN's
    attention temperature. "dynamic" is configured with the factor and shown at the length n = factor·L it
    is asked to reach, where its slowest pair is divided by factor² − factor + 1. Sliders: the method, the
    factor (1 … 64) and the model shape (``MODEL_SHAPES``). Numbers as
    :func:`helpers.measure.l09_stretching_rope.shape_pictures` computes them.
    """
    method, factor, model = METHOD.check("method", method), FACTOR.check("factor", factor), SHAPE.check("model", model)
    return PairScaleExplorer(method=method, factor=float(factor), model=model, shapes=shape_constants(),
                             factors=[float(f) for f in FACTOR.values])


def still_figure(method: str, factor: float, model: int) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    text, pictures = heading(method, factor, model)
    picture = pictures[method]
    with course_style():
        fig = Figure(figsize=PairScaleExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        fig.subplots_adjust(left=0.09, right=0.64, top=0.85, bottom=0.17)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(FixedLocator([1e-3, 1e-2, 1e-1, 1.0, 1e1, 1e2, 1e3]))
        ax.yaxis.set_major_locator(FixedLocator(Y_TICKS))
        ax.yaxis.set_major_formatter("{x:g}")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_minor_locator(NullLocator())
        ax.axvline(1.0, color="0.6", linestyle=":", linewidth=1)
        ax.text(1.0, 1.01, "wavelength = L", transform=ax.get_xaxis_transform(), fontsize=9, color="0.4",
                ha="center", va="bottom")  # above the panel, never over the curves
        x, s = picture.relative_wavelength.numpy(), picture.scale.numpy()
        (chosen,) = ax.plot(x, s, color="black", linestyle="-", linewidth=2.2, label="the chosen method", zorder=2)
        kinds = np.array(picture.kinds)
        points = [ax.plot(x[kinds == kind], s[kinds == kind], marker, color=c, markersize=6, linestyle="none",
                          label=label, zorder=3)[0] for kind, (c, marker, label) in KIND_LABELS.items()]
        lines = [ax.plot(pictures[m].relative_wavelength.numpy(), pictures[m].scale.numpy(), color=c, linewidth=1.6,
                         linestyle=style, alpha=0.9, label=label, zorder=4)[0]
                 for m, (c, label, style) in METHOD_LINES.items()]
        ax.set_xlim(x.min() / 2, x.max() * 2)
        ax.set_ylim(0.8, 2 * max(FACTOR.values) * 1.1)
        ax.set_xlabel("original wavelength of the pair ÷ training length L\n(fast pairs on the left)")
        ax.set_ylabel("scale s = ω / ω′")
        fig.legend(handles=[chosen, *points, *lines], loc="upper left", frameon=False, bbox_to_anchor=(0.65, 0.855),
                   handlelength=2.6)
        scale = picture.attention_scale
        fig.text(0.665, 0.17, "\n".join(f"{kind:<13}{picture.count(kind):>3}" for kind in PAIR_KINDS)
                 + f"\ntemperature:\nq, k ×{scale:.3f}\nlogits ×{scale * scale:.3f}", fontsize=9, va="bottom",
                 family="monospace")
        fig.suptitle(text, fontsize=10, x=0.02, ha="left")
    return fig
