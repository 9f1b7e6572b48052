"""Lesson 08: the trained models' loss by position, overlaid, up to a chosen evaluation length."""

from __future__ import annotations

import dataclasses
import math

import matplotlib.pyplot as plt
import numpy as np

from ..live import Choice, IntRange, LiveFigure, register
from ..measure.l08_train_short_test_long import TRAINED_SCHEMES, ShortContextRun, build_model, evaluate_models
from ..plots import COLORS, COURSE_DPI
from ..training import SHORT_CONTEXT

# One colour and one dash pattern per scheme, shared with the lesson's static figures: no two schemes share
# a dash pattern, so they differ in greyscale too (sinusoidal and rope turn the same grey).
SCHEME_COLORS = {"none": "0.35", "sinusoidal": COLORS["blue"], "learned": COLORS["purple"],
                 "rope": COLORS["vermillion"], "alibi": COLORS["green"], "t5": COLORS["orange"]}
# as seaborn's ``dashes`` takes them ("" solid, else on/off lengths in line widths)
SCHEME_DASHES = {"none": (1, 1.5), "sinusoidal": "", "learned": (3.7, 1.6), "rope": (9, 2.5),
                 "alibi": (6.4, 1.6, 1, 1.6),
                 "t5": (5, 1.5, 1, 1.5, 1, 1.5)}
# and as Matplotlib's ``linestyle``
SCHEME_LINESTYLES = {name: (0, dashes) if dashes else "-" for name, dashes in SCHEME_DASHES.items()}
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


@register(moves="length", example=_example, in_lesson=False)
def loss_curves_explorer(run: ShortContextRun, schemes: tuple[str, ...] = TRAINED_SCHEMES,
                         length: int | None = None) -> LiveFigure:
    """Loss by position of models already trained and evaluated (``run``, from
    :func:`helpers.evaluate_models`): nothing is trained or run on a
    slider move, the curves are only cut and shown.

    Controls: which schemes to show (a group of them or one) and the evaluation length n, from
    the training length L to the curves' length in steps of L/4. The panel on the right lists,
    for each shown scheme, the mean loss over the first n tokens and its perplexity, the toy
    counterpart of one column of Press et al.'s Table 2 (``ShortContextRun.prefix_losses``).
    Drawn as well: the training length L, the task's entropy floor, and where the learned table
    ends (no curve beyond: there is no row to look up).
    """
    if not isinstance(run, ShortContextRun):
        raise TypeError(f"run must be a ShortContextRun (from evaluate_models), got {type(run).__name__}")
    L, n_max = run.train_length, run.length
    groups = [(label, names) for label, names in SCHEME_GROUPS if all(n in run.schemes for n in names)]
    choice = Choice("schemes", groups, width="420px")
    lengths = IntRange("evaluation length n", L, n_max, max(1, L // 4))
    schemes = choice.check("schemes", tuple(schemes))
    length = lengths.check("length", n_max if length is None else length)
    curves = {name: run.curve(name).numpy() for name in run.schemes}
    top = max(float(np.nanmax(c)) for c in curves.values())

    fig, ax = plt.subplots(figsize=(7.8, 4.4), dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.09, right=0.65, top=0.87, bottom=0.12)
    floor = run.floor.numpy()
    ax.plot(np.arange(n_max), floor, color="black", linewidth=1, linestyle="--", label="entropy floor")
    ax.axvline(L, color="0.3", linewidth=1.2)
    ax.text(L, 1.01, "L", transform=ax.get_xaxis_transform(), fontsize=9, va="bottom", ha="center")
    for k in (2, 4):
        if k * L < n_max:
            ax.axvline(k * L, color="0.8", linewidth=0.8)
            ax.text(k * L, 1.01, f"{k}L", transform=ax.get_xaxis_transform(), fontsize=9, va="bottom", ha="center",
                    color="0.35")
    lines = {name: ax.plot([], [], color=SCHEME_COLORS.get(name, "0.5"), linestyle=SCHEME_LINESTYLES.get(name, "-"),
                           linewidth=1.5, label=name)[0] for name in run.schemes}
    walls = {}
    for name, curve in curves.items():
        if len(curve) < n_max:  # a learned table: no row at or past its end
            walls[name] = ax.axvline(len(curve), color=SCHEME_COLORS.get(name, "0.5"), linewidth=2.5, alpha=0.6)
    ax.set_xlim(0, n_max)  # fixed: the curves grow to the right as n grows
    ax.set_ylim(0, 1.05 * top)
    ax.set_xlabel("position in the sequence")
    ax.set_ylabel("next-token loss (nats)")
    handles = [*ax.get_lines()[:1], *lines.values()]  # the floor, then one line per scheme
    fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.665, 0.08), frameon=False, ncol=2,
               handlelength=2.4, columnspacing=0.8, handletextpad=0.5)
    panel = fig.text(0.675, 0.87, "", fontsize=9, va="top", family="monospace")
    heading = fig.suptitle("", fontsize=11, x=0.02, ha="left")

    def update(schemes, length):
        shown = set(schemes)
        for name, line in lines.items():
            cut = curves[name][:length]
            line.set_data(np.arange(len(cut)), cut)
            line.set_visible(name in shown)
        for name, wall in walls.items():
            wall.set_visible(name in shown and len(curves[name]) < length)
        prefix = run.prefix_losses(length, schemes)
        rows = [f"first {length} tokens:", f"{'':<11}{'loss':>6}{'ppl':>7}"]
        for name, loss in prefix.items():
            rows.append(f"{name:<11}" + ("   no row past " + str(len(curves[name])) if math.isnan(loss)
                                         else f"{loss:6.2f}{math.exp(loss):7.2f}"))
        floor_loss = float(floor[:length].mean())
        rows.append(f"{'floor':<11}{floor_loss:6.2f}{math.exp(floor_loss):7.2f}")
        panel.set_text("\n".join(rows))
        heading.set_text(f"trained on L = {L} tokens, evaluated on n = {length} = {length / L:g}L")

    controls = {"schemes": choice.slider(schemes), "length": lengths.slider(length)}
    # fixed limits and a fixed legend: every move redraws only the curves, walls and texts
    animated = (*lines.values(), *walls.values(), panel, heading)
    return LiveFigure(fig, update, controls, animated=animated, blit=("schemes", "length"))
