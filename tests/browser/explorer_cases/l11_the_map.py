"""Lesson 11's browser-drawn explorer in the browser tests (see __init__.py)."""

from __future__ import annotations

import math

from helpers import explorers

from . import InLesson


def layer_error(drawn: dict, values: dict) -> float:
    """0 when the heading, the places lit, the words under each place (those drawn too) and the note of the
    scheme with no hook are those the schemes' hooks give for the chosen scheme; math.inf otherwise."""
    from helpers.explorers.browser.l11_the_map import layer_facts, layer_view

    ref = layer_view(values["scheme"], *layer_facts())._asdict()
    if any(drawn[key] != value for key, value in ref.items()):
        return math.inf
    shown = {place: [line for line in words if line] for place, words in ref["notes"].items()}
    return 0.0 if drawn["notes_drawn"] == shown else math.inf


CASES = {
    "l11 attention layer": (lambda: explorers.browser.attention_layer_explorer(scheme="every scheme"),
                            [(None, None, {"scheme": "every scheme"}),
                             ("scheme", "ArrowRight", {"scheme": "none"}),
                             ("scheme", "ArrowRight", {"scheme": "sinusoidal"}),
                             ("scheme", "End", {"scheme": "shaw"}),
                             ("scheme", "ArrowLeft", {"scheme": "t5"}),
                             ("scheme", "Home", {"scheme": "every scheme"})],
                            layer_error),
}

IN_LESSONS = {
    "11_the_map.ipynb": [
        InLesson("explorers.browser.attention_layer_explorer(", "attention-layer", "scheme", "End",
                 {"scheme": "shaw"}, layer_error),
    ],
}
