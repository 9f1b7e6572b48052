"""Lesson 08's explorer, drawn by the browser: the trained models' loss by position, overlaid, up to a
chosen evaluation length. The curves need trained models: they come from a :class:`ShortContextRun`
(:func:`helpers.evaluate_models`) and are sent once, with the entropy floor and the training length;
the script, ``js/src/l08_train_short_test_long.js``, cuts them at n and computes the mean loss over the
first n tokens and its perplexity as ``ShortContextRun.prefix_losses`` does. The still is drawn by
Matplotlib.

The schemes keep the colours and dash patterns of the lesson's static figures
(``SCHEME_COLORS``, ``SCHEME_DASHES`` of :mod:`helpers.explorers.l08_train_short_test_long`).
"""

from __future__ import annotations

import base64
import dataclasses
import math

import numpy as np
import traitlets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from ...live import IntRange
from ...measure.l08_train_short_test_long import TRAINED_SCHEMES, ShortContextRun, build_model, evaluate_models
from ...plots import COURSE_DPI, SCHEME_COLORS, SCHEME_DASHES, SCHEME_LINESTYLES, course_style, watch_figure
from ...training import SHORT_CONTEXT
from .base import BrowserExplorer, bundle_source, compact_png

SCHEME_GROUPS = (
    ("all six", TRAINED_SCHEMES),
    ("Press et al.'s four: sinusoidal, rope, alibi, t5", ("sinusoidal", "rope", "alibi", "t5")),
    ("added to the input: sinusoidal, learned", ("sinusoidal", "learned")),
    ("relative: rope, alibi, t5", ("rope", "alibi", "t5")),
    ("no positions vs sinusoidal", ("none", "sinusoidal")),
    *((name, (name,)) for name in TRAINED_SCHEMES),
)


def _example() -> dict:
    """Six untrained models on a few sequences: what the explorer draws, without the training."""
    settings = dataclasses.replace(SHORT_CONTEXT, eval_batches=1, batch=4)
    return {"run": evaluate_models({name: build_model(name, settings) for name in TRAINED_SCHEMES}, settings)}

LINE_WIDTH = 1.5  # the curves' width; a dash pattern is in line widths, as Matplotlib scales it
# The still's palette: half of base.STILL_COLOURS looks the same here (seven line colours and greys) and
# saves 14 KB, which a saved notebook carries twice.
STILL_COLOURS = 48


def encode(values) -> str:
    """Losses as float32 (little-endian), in base64: 5.3 characters a value where a float64's digits take
    about 19. float32 moves a loss by at most 2⁻²⁴ of it (3.3e-7 for a loss of 5.6 nats): a mean loss by no
    more, its perplexity by no more than that fraction of it, far below the two decimals the panel shows.
    A saved explorer carries its data twice (the widget's state and the page's script), and six curves of
    5L positions as float64 digits would take its output past 300 KB."""
    return base64.b64encode(np.asarray(values, dtype="<f4").tobytes()).decode("ascii")


def decode(text: str) -> np.ndarray:
    """The float64 values of what :func:`encode` sent: what the browser computes with."""
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float64)


def loss_curves_data(run: ShortContextRun) -> dict:
    """What the browser needs, sent once: each scheme's curve (mean loss at each position, shorter for a
    learned table), the entropy floor, the training length L, the groups of schemes the control offers
    and each scheme's colour and dash pattern (in CSS px)."""
    if not isinstance(run, ShortContextRun):
        raise TypeError(f"run must be a ShortContextRun (from evaluate_models), got {type(run).__name__}")
    groups = [[label, list(names)] for label, names in SCHEME_GROUPS if all(n in run.schemes for n in names)]
    if not groups:
        groups = [[", ".join(run.schemes), list(run.schemes)]]
    styles = {name: {"colour": to_hex(SCHEME_COLORS.get(name, "0.5")),
                     "dash": [LINE_WIDTH * d for d in (SCHEME_DASHES.get(name) or ())]} for name in run.schemes}
    return {"schemes": list(run.schemes), "curves": {name: encode(run.curve(name)) for name in run.schemes},
            "floor": encode(run.floor), "length": int(run.length), "train_length": int(run.train_length),
            "groups": groups, "styles": styles}


def prefix_mean(curve, n: int) -> float:
    """The mean of curve[:n], nan when the curve stops before n (as ``ShortContextRun.prefix_losses``)."""
    return float(np.mean(curve[:n])) if len(curve) >= n else math.nan


class LossCurvesExplorer(BrowserExplorer):
    """The group of schemes shown (its label) and the evaluation length n shared with the browser, each
    checked as the builder checks it; the curves sent once."""

    _esm = bundle_source("l08_train_short_test_long")
    names = ("group", "length")
    still_inches = (7.8, 4.4)
    group = traitlets.Unicode().tag(sync=True)
    length = traitlets.Int(1).tag(sync=True)
    data = traitlets.Dict().tag(sync=True)

    def lengths(self) -> IntRange:
        L = self.data["train_length"]
        return IntRange("evaluation length n", L, self.data["length"], max(1, L // 4))

    @traitlets.validate("group")
    def _check_group(self, proposal):
        labels = [label for label, _ in self.data.get("groups", [])]
        if proposal["value"] not in labels:
            raise ValueError(f"group must be one of {labels}, got {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("length")
    def _check_length(self, proposal):
        return self.lengths().check("length", proposal["value"])

    def shown(self) -> list[str]:
        return dict((label, names) for label, names in self.data["groups"])[self.group]

    def describe(self) -> str:
        d, n = self.data, self.length
        parts = []
        for name in self.shown():
            curve = decode(d["curves"][name])
            loss = prefix_mean(curve, n)
            parts.append(f"{name} no row past {len(curve)}" if math.isnan(loss)
                         else f"{name} {loss:.2f} (perplexity {math.exp(loss):.2f})")
        floor = prefix_mean(decode(d["floor"]), n)
        return (f"Loss by position of models trained on L = {d['train_length']} tokens, cut at n = {n}; mean loss "
                f"over the first {n} tokens: " + ", ".join(parts) + f"; entropy floor {floor:.2f}.")

    def still_png(self) -> bytes:
        """base.BrowserExplorer's still, in STILL_COLOURS colours."""
        fig = self.still_figure()
        watch_figure(fig, COURSE_DPI)
        return compact_png(fig, 2 * COURSE_DPI, STILL_COLOURS)

    def still_figure(self) -> Figure:
        return still_figure(self.data, self.shown(), self.length)


def loss_curves_explorer(run: ShortContextRun, schemes: tuple[str, ...] = TRAINED_SCHEMES,
                         length: int | None = None) -> LossCurvesExplorer:
    """Loss by position of models already trained and evaluated (``run``, from
    :func:`helpers.evaluate_models`), drawn by the browser: nothing is trained or run on a slider move,
    the curves are only cut and shown.

    Controls: which schemes to show (a group of them or one) and the evaluation length n, from the
    training length L to the curves' length in steps of L/4. The panel beside the curves lists, for each
    shown scheme, the mean loss over the first n tokens and its perplexity, the toy counterpart of one
    column of Press et al.'s Table 2 (``ShortContextRun.prefix_losses``). Drawn as well: the training
    length L, the task's entropy floor, and where the learned table ends (no curve beyond: there is no
    row to look up)."""
    data = loss_curves_data(run)
    groups = {tuple(names): label for label, names in data["groups"]}
    if tuple(schemes) not in groups:
        raise ValueError(f"schemes must be one of {list(groups)}, got {tuple(schemes)!r}")
    widget = LossCurvesExplorer(data=data)
    widget.group = groups[tuple(schemes)]
    widget.length = run.length if length is None else length
    return widget


def still_figure(d: dict, shown: list[str], length: int) -> Figure:
    """What the browser draws, as a Matplotlib figure."""
    L, floor = d["train_length"], decode(d["floor"])
    n_max = len(floor)
    curves = {name: decode(c) for name, c in d["curves"].items()}
    top = max(float(np.nanmax(c)) for c in curves.values())
    with course_style():
        fig = Figure(figsize=LossCurvesExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        fig.subplots_adjust(left=0.09, right=0.65, top=0.87, bottom=0.12)
        ax.plot(np.arange(n_max), floor, color="black", linewidth=1, linestyle="--", label="entropy floor")
        ax.axvline(L, color="0.3", linewidth=1.2)
        ax.text(L, 1.01, "L", transform=ax.get_xaxis_transform(), fontsize=9, va="bottom", ha="center")
        for k in (2, 4):
            if k * L < n_max:
                ax.axvline(k * L, color="0.8", linewidth=0.8)
                ax.text(k * L, 1.01, f"{k}L", transform=ax.get_xaxis_transform(), fontsize=9, va="bottom",
                        ha="center", color="0.35")
        handles = ax.get_lines()[:1]
        for name, curve in curves.items():
            cut = curve[:length] if name in shown else []
            handles += ax.plot(np.arange(len(cut)), cut, color=SCHEME_COLORS.get(name, "0.5"),
                               linestyle=SCHEME_LINESTYLES.get(name, "-"), linewidth=LINE_WIDTH, label=name)
            if name in shown and len(curve) < length:  # a learned table: no row at or past its end
                ax.axvline(len(curve), color=SCHEME_COLORS.get(name, "0.5"), linewidth=2.5, alpha=0.6)
        ax.set_xlim(0, n_max)
        ax.set_ylim(0, 1.05 * top)
        ax.set_xlabel("position in the sequence")
        ax.set_ylabel("next-token loss (nats)")
        fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.665, 0.08), frameon=False, ncol=2,
                   handlelength=2.4, columnspacing=0.8, handletextpad=0.5)
        rows = [f"first {length} tokens:", f"{'':<11}{'loss':>6}{'ppl':>7}"]
        for name in shown:
            loss = prefix_mean(curves[name], length)
            rows.append(f"{name:<11}" + (f"   no row past {len(curves[name])}" if math.isnan(loss)
                                         else f"{loss:6.2f}{math.exp(loss):7.2f}"))
        floor_loss = prefix_mean(floor, length)
        rows.append(f"{'floor':<11}{floor_loss:6.2f}{math.exp(floor_loss):7.2f}")
        fig.text(0.675, 0.87, "\n".join(rows), fontsize=9, va="top", family="monospace")
        fig.suptitle(f"trained on L = {L} tokens, evaluated on n = {length} = {length / L:g}L", fontsize=11,
                     x=0.02, ha="left")
    return fig
