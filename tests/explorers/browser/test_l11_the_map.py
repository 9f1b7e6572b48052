"""Lesson 11's explorer drawn by the browser: the Python side and the bundle's words, run by Node.js
against the schemes' hooks (``H.where_position_enters``, ``H.hook_effects``) for every choice of the
slider: the heading, the places lit, the schemes named under each, the note of the scheme with no hook.
Drawing in Chromium: tests/browser/test_browser_explorers.py. Under CI a missing Node.js fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from IPython.display import Image  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l11_the_map import (  # noqa: E402
    EVERY,
    AttentionLayerExplorer,
    attention_layer_explorer,
    attention_layer_picture,
    layer_facts,
    layer_view,
)
from helpers.measure.l11_the_map import NOWHERE  # noqa: E402

from .node import evaluate  # noqa: E402

BUNDLE = BUNDLE_DIR / "l11_the_map.js"
CHOICES = [EVERY, *H.SCHEMES]


def test_the_lesson_reaches_it_and_arguments_are_checked():
    assert explorers.browser.attention_layer_explorer is attention_layer_explorer
    widget = attention_layer_explorer()
    assert isinstance(widget, AttentionLayerExplorer) and widget.values() == {"scheme": EVERY}
    assert widget.schemes == list(H.SCHEMES) and widget.nowhere_place == NOWHERE
    with pytest.raises(ValueError, match="scheme must be one of"):
        attention_layer_explorer(scheme="rotary")
    with pytest.raises(ValueError, match="scheme must be one of"):
        widget.scheme = "xpos"
    data, _ = widget._repr_mimebundle_()
    assert "bias on scores: alibi, t5, shaw" in data["text/plain"] and json.dumps(widget._esm) in data["text/html"]


def test_the_facts_are_the_hooks():
    groups, effects = layer_facts()
    assert groups == {place: list(names) for place, names in H.where_position_enters().items()}
    for name in H.SCHEMES:
        effect = H.hook_effects(name)
        assert effects[name] == {"places": list(effect.places), "parameters": effect.parameters}


def from_the_bundle(tmp_path: Path, bundle: str = "") -> list[dict]:
    groups, effects = layer_facts()
    facts = f"{json.dumps(groups)}, {json.dumps(effects)}, {json.dumps(NOWHERE)}"
    calls = ", ".join(f"m.layerView({json.dumps(c)}, {facts})" for c in CHOICES)
    return evaluate(tmp_path, bundle or BUNDLE.read_text(encoding="utf-8"), f"[{calls}]")


def differences(out: list[dict]) -> list[str]:
    groups, effects = layer_facts()
    wrong = []
    for choice, got in zip(CHOICES, out, strict=True):
        ref = layer_view(choice, groups, effects)._asdict()
        wrong += [f"{choice}: {key} {got[key]!r} != {value!r}" for key, value in ref.items() if got[key] != value]
    return wrong


def test_the_bundles_words_are_the_hooks(tmp_path):
    assert differences(from_the_bundle(tmp_path)) == []
    # each scheme lights the places its hooks change, and names only itself there
    views = {c: layer_view(c, *layer_facts()) for c in CHOICES}
    assert views["rope"].lit == ["rotates q, k"] and views["rope"].notes["rotates q, k"] == ["rotates q, k", "rope"]
    assert views["none"].lit == [] and views["none"].nowhere_lit and not views["t5"].nowhere_lit
    assert "learned: it has trainable parameters" in views["learned"].heading


def test_the_check_catches_every_scheme_named_under_one(tmp_path):
    right = BUNDLE.read_text(encoding="utf-8")
    # the schemes other than the chosen one named under its place
    wrong, planted = re.subn(r"\.filter\(([\w$]+)=>\1===([\w$]+)\)", r".filter(\1=>\1!==\2)", right)
    assert planted == 1, "the filter of the chosen scheme is not found in the bundle"
    assert differences(from_the_bundle(tmp_path, wrong))


def test_the_picture_is_the_explorers_start_and_leaves_the_random_stream_alone():
    torch.manual_seed(0)
    expected = torch.randn(3)
    torch.manual_seed(0)
    picture = attention_layer_picture()
    assert torch.equal(torch.randn(3), expected)
    assert isinstance(picture, Image) and picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (picture.width, picture.height) == tuple(AttentionLayerExplorer().still_size().values())
