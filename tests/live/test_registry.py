"""The registry decorator: where an explorer may live, what it is called, what it records."""

import types

import pytest

from helpers.live import registry


def builder(name: str, module: str):
    """A stand-in builder function, as if defined in ``module``."""
    fn = types.FunctionType((lambda: None).__code__, {}, name)
    fn.__module__ = module
    return fn


@pytest.fixture
def empty_registry(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", {})
    return registry


def test_register_records_lesson_control_and_example(empty_registry):
    fn = builder("wave_explorer", "helpers.explorers.l07_learned_and_relative")
    styled = empty_registry.register(moves="buckets", example={"heads": 3})(fn)
    # the builder itself, run in the course's figure style (plots.course_style)
    assert styled.__wrapped__ is fn and styled.__name__ == fn.__name__ and styled.__module__ == fn.__module__
    entry = empty_registry.REGISTRY["wave_explorer"]
    assert (entry.lesson, entry.moves, entry.build) == ("07_learned_and_relative", "buckets", styled)
    assert entry.in_lesson  # shown in its lesson unless it says otherwise
    first = entry.example()
    first["heads"] = 99
    assert entry.example() == {"heads": 3}  # a fresh copy each time
    made = empty_registry.register(moves="m", example=lambda: {"q": [1.0]})(builder("pair_explorer", "x.l06_rope"))
    assert empty_registry.REGISTRY["pair_explorer"].example() == {"q": [1.0]} and made.__name__ == "pair_explorer"
    empty_registry.register(moves="k")(builder("plain_explorer", "x.l05_rotation_matrix"))
    assert empty_registry.REGISTRY["plain_explorer"].example() == {}
    empty_registry.register(moves="k", in_lesson=False)(builder("kept_explorer", "x.l04_sinusoidal"))
    assert not empty_registry.REGISTRY["kept_explorer"].in_lesson


def test_a_registered_builder_draws_in_the_course_style(empty_registry):
    import matplotlib

    from helpers.plots import COURSE_STYLE

    seen = {}

    def font_explorer():
        seen["font"], seen["dpi"] = matplotlib.rcParams["font.size"], matplotlib.rcParams["figure.dpi"]

    font_explorer.__module__ = "helpers.explorers.l03_single_sine"
    with matplotlib.rc_context({"font.size": 6, "figure.dpi": 50}):
        empty_registry.register(moves="k")(font_explorer)()
        assert matplotlib.rcParams["font.size"] == 6  # and only while it builds
    assert seen == {"font": COURSE_STYLE["font.size"], "dpi": COURSE_STYLE["figure.dpi"]}


def test_register_refuses_misplaced_or_misnamed_builders(empty_registry):
    with pytest.raises(ValueError, match="modules named lNN_<lesson>"):
        empty_registry.register(moves="k")(builder("clock_explorer", "helpers.widgets"))
    with pytest.raises(ValueError, match="ends in '_explorer'"):
        empty_registry.register(moves="k")(builder("clock_hands", "helpers.explorers.l05_rotation_matrix"))
    empty_registry.register(moves="k")(builder("clock_explorer", "helpers.explorers.l05_rotation_matrix"))
    with pytest.raises(ValueError, match="registered twice"):
        empty_registry.register(moves="k")(builder("clock_explorer", "helpers.explorers.l06_rope"))
