"""Lesson 11's explorer, drawn by the browser: one attention layer, the three places position enters it
and the schemes at each. Which scheme enters where is found by calling every scheme's hooks
(:func:`helpers.measure.l11_the_map.where_position_enters`, :func:`hook_effects`) once, when the explorer
is built, and sent; the script, ``js/src/l11_the_map.js``, lights the places of the scheme chosen. The
still (and :func:`attention_layer_picture`, the same drawing with no widget) is drawn by Matplotlib.
"""

from __future__ import annotations

from typing import NamedTuple

import traitlets
from IPython.display import Image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ...live import Choice
from ...measure.l11_the_map import NOWHERE, hook_effects, where_position_enters
from ...plots import COLORS, COURSE_DPI, TEXT_COLORS, course_style, watch_figure
from ...schemes import SCHEMES
from .base import BrowserExplorer, bundle_source, compact_png

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

EVERY = "every scheme"


class LayerView(NamedTuple):
    """What the layer shows for a choice of scheme (the script's ``layerView``)."""

    scheme: str
    heading: str
    lit: list[str]  # the places lit, in the order attention meets them (not NOWHERE)
    notes: dict[str, list[str]]  # place -> [its name, the schemes named under it ("" where not lit)]
    nowhere: str  # the note of the scheme whose hooks change nothing
    nowhere_lit: bool


def _names(names) -> str:
    return ", ".join(names) if names else "(no scheme)"


def layer_facts() -> tuple[dict[str, list[str]], dict[str, dict]]:
    """The schemes grouped by the place they enter, and each scheme's places and trainable numbers, from
    calling their hooks (once)."""
    groups = {place: list(names) for place, names in where_position_enters().items()}
    effects = {}
    for name in SCHEMES:
        effect = hook_effects(name)
        effects[name] = {"places": list(effect.places), "parameters": effect.parameters}
    return groups, effects


def layer_view(scheme: str, groups: dict, effects: dict) -> LayerView:
    """The heading, lit places and words for ``scheme`` ("every scheme" or a name of ``SCHEMES``)."""
    if scheme == EVERY:
        lit = list(groups)
        heading = "where position enters one attention layer (schemes placed by calling their hooks)"
    else:
        effect = effects[scheme]
        lit = list(effect["places"])
        kind = "learned: it has trainable parameters" if effect["parameters"] else "fixed: nothing to train"
        heading = f"{scheme}: {' and '.join(effect['places'])} ({kind})"
    notes = {}
    for place, names in groups.items():
        if place == NOWHERE:
            continue
        shown = names if scheme == EVERY else [n for n in names if n == scheme]
        notes[place] = [place, _names(shown) if place in lit else ""]
    return LayerView(scheme, heading, [p for p in lit if p != NOWHERE], notes,
                     f"{_names(groups[NOWHERE])}: no scheme, so no hook", NOWHERE in lit)


class AttentionLayerExplorer(BrowserExplorer):
    """The scheme shared with the browser, checked as the builder checks it; the hooks' findings fixed."""

    _esm = bundle_source("l11_the_map")
    names = ("scheme",)
    still_inches = (7.8, 3.0)
    scheme = traitlets.Unicode(EVERY).tag(sync=True)
    schemes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    groups = traitlets.Dict().tag(sync=True)
    effects = traitlets.Dict().tag(sync=True)
    boxes = traitlets.List().tag(sync=True)
    nowhere_place = traitlets.Unicode(NOWHERE).tag(sync=True)

    @traitlets.validate("scheme")
    def _check_scheme(self, proposal):
        return SCHEME.check("scheme", proposal["value"])

    def view(self) -> LayerView:
        return layer_view(self.scheme, self.groups, self.effects)

    def describe(self) -> str:
        view = self.view()
        placed = "; ".join(f"{place}: {who}" for place, (_, who) in view.notes.items() if who)
        return f"One attention layer from the tokens x to the output. {view.heading}. {placed}."

    def still_figure(self) -> Figure:
        return still_figure(self.view())


def attention_layer_explorer(scheme: str = EVERY) -> AttentionLayerExplorer:
    """One attention layer from the tokens x to the output, with the three places a position scheme
    enters it (added to x, rotating q and k, a bias on the scores) and the causal mask (not a hook),
    drawn by the browser. Under each place, the schemes that enter there, found by calling every
    scheme's hooks (``where_position_enters``); below the layer, apart from every box, the scheme whose
    hooks change nothing ("none").

    Slider over "every scheme" (labels all the places) and each scheme (lights up the place(s) where its
    hooks change something, ``hook_effects``, and greys the others).
    """
    scheme = SCHEME.check("scheme", scheme)
    groups, effects = layer_facts()
    return AttentionLayerExplorer(scheme=scheme, schemes=list(SCHEMES), groups=groups, effects=effects,
                                  boxes=[[label, place] for label, _, place in BOXES])


def attention_layer_picture() -> Image:
    """The layer with every scheme at its place, as a plain picture (no widget, no slider): what the
    explorer shows at its start, for a lesson that only shows the map."""
    groups, effects = layer_facts()
    fig = still_figure(layer_view(EVERY, groups, effects))
    watch_figure(fig, COURSE_DPI)
    width, height = AttentionLayerExplorer.still_inches
    return Image(data=compact_png(fig, 2 * COURSE_DPI), format="png", width=round(width * COURSE_DPI),
                 height=round(height * COURSE_DPI))


def still_figure(view: LayerView) -> Figure:
    """What the browser draws on a wide page, as a Matplotlib figure."""
    with course_style():
        fig = Figure(figsize=AttentionLayerExplorer.still_inches, dpi=COURSE_DPI)
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        fig.subplots_adjust(left=0.005, right=0.995, top=0.9, bottom=0.02)
        ax.set_xlim(-0.05, 10.47)  # the first box's rounded edge reaches past 0
        ax.set_ylim(0.8, 3.95)
        ax.axis("off")
        for label, x, place in BOXES:
            on = place is not None and place in view.lit
            if place is None:
                style = {"facecolor": "white", "edgecolor": "0.35", "linewidth": 1.2}
            else:
                color = COLORS[PLACE_COLORS[place]]
                style = ({"facecolor": (*_rgb(color), 0.3), "edgecolor": color, "linewidth": 2.2} if on
                         else {"facecolor": "white", "edgecolor": "0.75", "linewidth": 1.0})
            ax.add_patch(FancyBboxPatch((x - WIDTH / 2, ROW - HEIGHT / 2), WIDTH, HEIGHT, boxstyle="round,pad=0.04",
                                        **style))
            ax.text(x, ROW, label, ha="center", va="center", fontsize=9,
                    color="black" if place is None or on else "0.45")
            if place is not None:
                ax.text(x, ROW - HEIGHT / 2 - 0.25, "\n".join(line for line in view.notes[place] if line),
                        ha="center", va="top", fontsize=9, linespacing=1.3,
                        color=TEXT_COLORS[PLACE_COLORS[place]] if on else "0.45")
        for (_, x0, _), (_, x1, _) in zip(BOXES, BOXES[1:], strict=False):
            ax.add_patch(FancyArrowPatch((x0 + WIDTH / 2 + 0.04, ROW), (x1 - WIDTH / 2 - 0.04, ROW),
                                         arrowstyle="-|>", mutation_scale=9, color="0.35", linewidth=1))
        v_from, v_to = BOXES[2][1], BOXES[-1][1]  # v skips the rotation and the scores
        ax.add_patch(FancyArrowPatch((v_from, ROW + HEIGHT / 2 + 0.05), (v_to, ROW + HEIGHT / 2 + 0.05),
                                     connectionstyle="arc3,rad=-0.12", arrowstyle="-|>", mutation_scale=9,
                                     color="0.55", linewidth=1))
        ax.text((v_from + v_to) / 2, ROW + HEIGHT / 2 + 0.5, "v (no scheme in this course rotates or biases it)",
                ha="center", va="bottom", fontsize=9, color="0.45")
        ax.set_title(view.heading, fontsize=10)
        # apart from the boxes: a note under the mask box would read as if "none" entered there
        ax.text(0.0, 0.85, view.nowhere, ha="left", va="bottom", fontsize=9,
                color=TEXT_COLORS[PLACE_COLORS[NOWHERE]] if view.nowhere_lit else "0.45")
    return fig


def _rgb(color: str) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    return to_rgb(color)
