"""Lesson 11's measurements (helpers.measure.l11_the_map): where each scheme enters attention,
found by calling its hooks, against the hooks each class overrides and a scheme written here; and
lesson 11's reference list, against every author–year citation in the lessons."""

import json
import re
from pathlib import Path

import pytest
import torch

import helpers as H
from helpers.measure import l11_the_map as M
from helpers.position_scheme import PositionScheme

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
THE_MAP = ROOT / "notebooks" / "11_the_map.ipynb"


def overridden(name: str) -> tuple[str, ...]:
    """The hooks a scheme's class overrides: a reading that calls nothing."""
    cls = type(H.scheme(name, n_heads=2, head_dim=8, max_len=16))
    return tuple(h for h in M.HOOKS if getattr(cls, h) is not getattr(PositionScheme, h))


@pytest.mark.parametrize("name", H.SCHEMES)
def test_calling_the_hooks_finds_the_hooks_each_class_overrides(name):
    effect = M.hook_effects(name)
    assert effect.name == name
    assert effect.hooks == overridden(name)
    assert effect.places == (tuple(M.PLACES[h] for h in effect.hooks) or (M.NOWHERE,))


def test_the_course_schemes_by_hand():
    expected = {"none": (), "sinusoidal": ("embed",), "learned": ("embed",), "rope": ("rotate",),
                "alibi": ("bias",), "t5": ("bias",), "shaw": ("bias",)}
    assert {name: M.hook_effects(name).hooks for name in H.SCHEMES} == expected
    # trainable numbers at 2 heads of 8 (d_model 16), max_len 16: a 16×16 table, 32 buckets × 2 heads,
    # (2·16 + 1) clipped offsets × 2 heads
    params = {name: M.hook_effects(name).parameters for name in H.SCHEMES}
    assert params == {"none": 0, "sinusoidal": 0, "learned": 256, "rope": 0, "alibi": 0, "t5": 64, "shaw": 66}


def test_a_zero_table_would_hide_the_bias_so_the_tables_are_randomised():
    fresh = H.scheme("shaw", n_heads=2, head_dim=8).bias(torch.arange(5), torch.arange(5))
    assert (fresh == 0).all()
    assert M.hook_effects("shaw").bias and M.hook_effects("t5", length=2).bias


def test_a_hook_that_changes_nothing_is_not_counted(monkeypatch):
    # a RoPE whose rotation is the identity (every frequency 0) enters nowhere
    from helpers import schemes

    class Still(schemes.RoPE):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.set_frequencies(torch.zeros(self.head_dim // 2))

    monkeypatch.setitem(schemes._CLASSES, "rope", Still)
    assert M.hook_effects("rope").hooks == ()


def test_where_position_enters_places_every_scheme_once():
    where = M.where_position_enters()
    assert list(where) == ["added to x", "rotates q, k", "bias on scores", M.NOWHERE]
    assert sorted(n for names in where.values() for n in names) == sorted(H.SCHEMES)
    assert where == {"added to x": ("sinusoidal", "learned"), "rotates q, k": ("rope",),
                     "bias on scores": ("alibi", "t5", "shaw"), M.NOWHERE: ("none",)}
    assert M.where_position_enters(length=3, seed=5) == where


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="name"):
        M.hook_effects("rotary")
    with pytest.raises(ValueError, match="length"):
        M.hook_effects("rope", length=1)
    with pytest.raises(ValueError, match="seed"):
        M.where_position_enters(seed=-1)


# ---------------------------------------------------------------------------------------------
# Lesson 11's references: every author–year citation of every lesson is listed, with a link.

CITED = (
    re.compile(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?) et al\.?,?(?: \(?((?:19|20)\d\d)\b)?"),  # Vaswani et al. (2017)
    re.compile(r"\b([A-Z][a-z]+), [A-Z][a-z]+ and [A-Z][a-z]+ \(((?:19|20)\d\d)\)"),  # Press, Smith and Lewis (2021)
)


def markdown(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]


def references() -> list[str]:
    """The lines of lesson 11's References section."""
    text = next(t for t in markdown(THE_MAP) if "## References" in t)
    section = text.split("## References", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def citations() -> dict[str, set[str | None]]:
    """author → the years the lessons give with that author (None where a lesson gives none)."""
    found: dict[str, set[str | None]] = {}
    for path in LESSONS:
        if path == THE_MAP:
            continue
        for text in markdown(path):
            for pattern in CITED:
                for author, year in pattern.findall(text):
                    found.setdefault(author, set()).add(year or None)
    return found


def test_the_citation_finder_finds_both_forms():
    text = "as Vaswani et al. (2017) and Raffel et al., 2020 wrote; Press, Smith and Lewis (2021); Su et al. found"
    assert [m for p in CITED for m in p.findall(text)] == [("Vaswani", "2017"), ("Raffel", "2020"), ("Su", ""),
                                                            ("Press", "2021")]


def test_every_citation_in_the_lessons_is_in_the_references():
    lines = references()
    assert len(lines) >= 15
    found = citations()
    assert {"Vaswani", "Press", "Haviv", "Chen", "Peng"} <= set(found), sorted(found)
    for author, years in found.items():
        listed = [line for line in lines if line.startswith(f"- {author} ")]
        assert listed, f"{author} is cited in a lesson but not listed in lesson 11's references"
        for year in years - {None}:
            assert any(f"({year})" in line for line in listed), f"{author} ({year}) is not in lesson 11's references"


def test_every_reference_has_a_link():
    for line in references():
        assert re.search(r"\]\(https://", line), f"no link: {line}"
        arxiv = re.findall(r"\]\((https://arxiv\.org/[^)]*)\)", line)
        assert all(re.fullmatch(r"https://arxiv\.org/abs/\d{4}\.\d{5}", a) for a in arxiv), line


def test_drawing_the_map_leaves_the_lessons_random_stream_alone():
    """Lessons 00 and 07 draw the map before their own seeded draws: what the map calls (every scheme's
    hooks) must not move them."""
    from helpers.measure import l11_the_map
    from helpers.schemes import SCHEMES

    torch.manual_seed(0)
    expected = torch.randn(3)
    torch.manual_seed(0)
    l11_the_map.hook_effects.cache_clear() if hasattr(l11_the_map.hook_effects, "cache_clear") else None
    l11_the_map.where_position_enters()
    for name in SCHEMES:
        l11_the_map.hook_effects(name)
    assert torch.equal(torch.randn(3), expected)
