"""Lesson 11: one attention layer drawn, with the three places position enters it and the
schemes that enter at each, decided by calling the schemes' hooks
(:func:`helpers.measure.l11_the_map.where_position_enters`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..live import Choice, LiveFigure, register
from ..measure.l11_the_map import NOWHERE, hook_effects, where_position_enters
from ..plots import COLORS, COURSE_DPI, TEXT_COLORS
from ..schemes import SCHEMES

SCHEME = Choice("scheme", ["every scheme", *SCHEMES])
# each place's colour (a lit box's fill) and the darker one of its words (4.5:1 on white at least)
PLACE_COLORS = {"added to x": "blue", "rotates q, k": "vermillion", "bias on scores": "green", NOWHERE: "purple"}
# (label, centre x, hook place or None): the attention layer from left to right
BOXES = (
    ("tokens x", 0.55, None),
    ("x + PE", 1.88, "added to x"),
    ("W_q, W_k,\nW_v", 3.21, None),
    ("rotate\nq and k", 4.54, "rotates q, k"),
    ("q·kᵀ / √d", 5.87, None),
    ("+ bias", 7.2, "bias on scores"),
    ("causal\nmask +\nsoftmax", 8.53, None),  # not a hook: no scheme enters here
    ("· V", 9.86, None),
)
WIDTH, HEIGHT, ROW = 1.08, 0.9, 2.5


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names) if names else "(no scheme)"


@register(moves="scheme", in_lesson=False)
def attention_layer_explorer(scheme: str = "every scheme") -> LiveFigure:
    """One attention layer from the tokens x to the output, with the three places a position
    scheme enters it (added to x, rotating q and k, a bias on the scores) and the causal mask,
    (not a hook). Under each place, the schemes that enter there, found by calling every scheme's
    hooks (``where_position_enters``); below the layer, apart from every box, the scheme whose hooks
    change nothing ("none").

    Dropdown: "every scheme" labels all the places; one scheme lights up the place(s) where its
    hooks change something (``hook_effects``, computed for every scheme when the explorer is
    built) and greys the others.
    """
    scheme = SCHEME.check("scheme", scheme)
    groups = where_position_enters()
    effects = {name: hook_effects(name) for name in SCHEMES}  # seven small calls, once: a step only looks up

    fig, ax = plt.subplots(figsize=(7.8, 3.0), dpi=COURSE_DPI)
    fig.subplots_adjust(left=0.005, right=0.995, top=0.9, bottom=0.02)
    ax.set_xlim(-0.05, 10.47)  # the first box's rounded edge reaches past 0
    ax.set_ylim(0.8, 3.95)
    ax.axis("off")
    boxes, labels, notes = {}, {}, {}
    for label, x, place in BOXES:
        patch = FancyBboxPatch((x - WIDTH / 2, ROW - HEIGHT / 2), WIDTH, HEIGHT, boxstyle="round,pad=0.04",
                               facecolor="white", edgecolor="0.35", linewidth=1.2)
        ax.add_patch(patch)
        text = ax.text(x, ROW, label, ha="center", va="center", fontsize=9)
        if place is not None:
            boxes[place], labels[place] = patch, text
            notes[place] = ax.text(x, ROW - HEIGHT / 2 - 0.25, "", ha="center", va="top", fontsize=9,
                                   linespacing=1.3)
    for (_, x0, _), (_, x1, _) in zip(BOXES, BOXES[1:], strict=False):
        ax.add_patch(FancyArrowPatch((x0 + WIDTH / 2 + 0.04, ROW), (x1 - WIDTH / 2 - 0.04, ROW),
                                     arrowstyle="-|>", mutation_scale=9, color="0.35", linewidth=1))
    v_from, v_to = BOXES[2][1], BOXES[-1][1]  # v skips the rotation and the scores
    ax.add_patch(FancyArrowPatch((v_from, ROW + HEIGHT / 2 + 0.05), (v_to, ROW + HEIGHT / 2 + 0.05),
                                 connectionstyle="arc3,rad=-0.12", arrowstyle="-|>", mutation_scale=9,
                                 color="0.55", linewidth=1))
    ax.text((v_from + v_to) / 2, ROW + HEIGHT / 2 + 0.5, "v (no scheme in this course rotates or biases it)",
            ha="center", va="bottom", fontsize=9, color="0.45")
    heading = ax.set_title("", fontsize=10)
    # apart from the boxes: a note under the mask box would read as if "none" entered there
    nowhere = ax.text(0.0, 0.85, "", ha="left", va="bottom", fontsize=9)

    def update(scheme):
        if scheme == "every scheme":
            lit = set(groups)
            heading.set_text("where position enters one attention layer (schemes placed by calling their hooks)")
        else:
            effect = effects[scheme]
            lit = set(effect.places)
            kind = "learned: it has trainable parameters" if effect.parameters else "fixed: nothing to train"
            heading.set_text(f"{scheme}: {' and '.join(effect.places)} ({kind})")
        for place, patch in boxes.items():
            on = place in lit
            color = COLORS[PLACE_COLORS[place]]
            patch.set_facecolor(color if on else "white")
            patch.set_alpha(0.3 if on else 1.0)
            patch.set_edgecolor(color if on else "0.75")
            patch.set_linewidth(2.2 if on else 1.0)
            labels[place].set_color("black" if on else "0.45")
            names = groups[place] if scheme == "every scheme" else tuple(n for n in groups[place] if n == scheme)
            notes[place].set_text(f"{place}\n{_names(names) if on else ''}")
            notes[place].set_color(TEXT_COLORS[PLACE_COLORS[place]] if on else "0.45")
        # "none" is the model with no position scheme; what the mask does is lesson 00's question
        nowhere.set_text(f"{_names(groups[NOWHERE])}: no scheme, so no hook")
        nowhere.set_color(TEXT_COLORS[PLACE_COLORS[NOWHERE]] if NOWHERE in lit else "0.45")

    controls = {"scheme": SCHEME.slider(scheme)}
    # a step changes only the places' boxes and words and the title: the arrows and the other
    # boxes stay in the kept picture
    animated = [*boxes.values(), *labels.values(), *notes.values(), nowhere, heading]
    return LiveFigure(fig, update, controls, animated=animated, blit=("scheme",))

