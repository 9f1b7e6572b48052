"""Every registered explorer, read from the one registry: it builds outside its lesson, renders
at the course's dpi, every control changes the picture without adding or removing artists, and
the registry and the notebooks agree on which explorers exist.

Runs in both environments (ipywidgets 8 here, ipywidgets 7.7.1 in the Colab-like one).
"""

import io
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg  # noqa: E402
from PIL import Image  # noqa: E402

from helpers import explorers  # noqa: E402
from helpers.live import REGISTRY, LiveFigure  # noqa: E402
from helpers.plots import COURSE_DPI  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
USE = re.compile(r"\bexplorers\.(\w+)\(")
# explorers with controls that redraw only their animated artists (LiveFigure's ``blit``)
BLITTING = ("alibi_explorer", "angle_precision_explorer", "attention_layer_explorer", "clock_hands_explorer",
            "counting_explorer", "loss_curves_explorer", "order_explorer", "pair_scale_explorer", "rope_explorer",
            "sine_explorer", "sinusoidal_explorer", "t5_buckets_explorer")


def used_in_notebooks() -> dict[str, set[str]]:
    """explorer name → stems of the notebooks whose code calls ``explorers.<name>(``."""
    used: dict[str, set[str]] = {}
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        for name in USE.findall(code):
            used.setdefault(name, set()).add(path.stem)
    return used


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def drawn(fig) -> list[int]:
    """What update() may change but must never add or remove (ticks are matplotlib's own)."""
    return [len(group) for ax in fig.axes for group in (ax.lines, ax.collections, ax.texts, ax.patches, ax.images)]


def other_values(control) -> list:
    """Values one notch away from the current one, and both ends of the control's range."""
    if hasattr(control, "options"):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        i = values.index(control.value)
        candidates = [values[i + 1] if i + 1 < len(values) else values[i - 1], values[-1], values[0]]
    elif hasattr(control, "base"):  # a log slider: min, max and step are exponents
        up = control.value * control.base**control.step
        near = up if up <= control.base**control.max else control.value / control.base**control.step
        candidates = [near, control.base**control.max, control.base**control.min]
    else:
        step = control.step
        near = control.value + step if control.value + step <= control.max else control.value - step
        candidates = [near, control.max, control.min]
    return [v for i, v in enumerate(candidates) if v not in candidates[:i]]


def test_the_registry_holds_every_explorer_module():
    assert set(REGISTRY) == set(explorers.__all__) and len(REGISTRY) >= 7
    stems = {p.stem for p in NOTEBOOKS}
    for name, entry in REGISTRY.items():
        assert getattr(explorers, name) is entry.build
        assert entry.lesson in stems, f"{name}: its module names lesson {entry.lesson}, which has no notebook"


# Lesson 11's drawing of where position enters attention opens lessons 00 and 07 as well: the big picture
# first, drawn by the same helper (a still of it there; its dropdown lives in lesson 11).
ALSO_SHOWN_IN = {"attention_layer_explorer": {"00_order_blindness", "07_learned_and_relative"}}


def test_every_notebook_explorer_is_registered_and_every_registered_one_is_used():
    used = used_in_notebooks()
    assert used, "no notebook calls an explorer"
    unregistered = sorted(set(used) - set(REGISTRY))
    assert not unregistered, f"notebooks call explorers that are not registered: {unregistered}"
    kept = {name for name, entry in REGISTRY.items() if not entry.in_lesson}
    unused = sorted(set(REGISTRY) - set(used) - kept)
    assert not unused, f"registered explorers no notebook uses: {unused}"
    shown = sorted(kept & set(used))
    assert not shown, f"explorers registered as out of every lesson (in_lesson=False) that a notebook uses: {shown}"
    for name, stems in used.items():
        allowed = {REGISTRY[name].lesson} | ALSO_SHOWN_IN.get(name, set())
        assert REGISTRY[name].lesson in stems and stems <= allowed, \
            f"{name} belongs to {REGISTRY[name].lesson} but is used in {stems}"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_explorer_builds_renders_and_every_control_changes_the_picture(name):
    entry = REGISTRY[name]
    live = entry.build_example()
    assert isinstance(live, LiveFigure)
    assert live.page_dpi == COURSE_DPI and live.fig.dpi == live.LIVE_SCALE * COURSE_DPI
    assert entry.moves in live.controls, f"{name}: moves {entry.moves!r}, not one of {list(live.controls)}"
    assert bool(live.blit) == (name in BLITTING), f"{name}: BLITTING and the explorer disagree"
    artists = drawn(live.fig)
    for key, control in live.controls.items():
        start = control.value
        for value in other_values(control):
            before = live.png
            control.value = value
            assert live.png.startswith(b"\x89PNG") and live.png != before, f"{name}: moving {key} changed nothing"
            assert drawn(live.fig) == artists, f"{name}: moving {key} added or removed artists"
        live.set(**{key: start})
    plt.close(live.fig)


@pytest.mark.parametrize("name", BLITTING)
@pytest.mark.parametrize("steps", ["sharp", "falling back to 1x"])
def test_a_blitted_move_gives_the_pixels_of_a_whole_draw(name, steps, monkeypatch):
    """The controls an explorer blits must change nothing but its animated artists: after every move
    of one, the image must be the one a whole draw gives, after moves of the other controls too; also
    on a machine too slow for 2× steps, where the steps switch to 1× after the first few."""
    if steps != "sharp":
        monkeypatch.setattr(LiveFigure, "SHARP_STEP_S", 0.0)
    live = REGISTRY[name].build_example()
    for key in sorted(live.controls, key=lambda k: k in live.blit):  # whole draws first, then blits
        for value in other_values(live.controls[key]):
            live.controls[key].value = value
            for blitted in sorted(live.blit):
                for notch in other_values(live.controls[blitted])[:2]:
                    live.controls[blitted].value = notch
                    stepped = pixels(live.png)
                    assert np.array_equal(stepped, pixels(live._draw_png(blit=False))), (
                        f"{name}: moving {blitted} after {key} = {value!r} left a stale picture")
    fell_back = steps != "sharp" and len(live._first_steps) == LiveFigure.SHARP_AFTER
    assert live.scale == (1 if fell_back else 2), live.scale
    plt.close(live.fig)


def stock_pixels(live: LiveFigure) -> np.ndarray:
    """The explorer's figure drawn by a fresh stock Agg renderer (no text cache), in one whole
    draw, with its animated artists drawn last as LiveFigure draws them."""
    fig, canvas = live.fig, live.fig.canvas
    try:
        stock = FigureCanvasAgg(fig)
        stock.draw()
        for artist in live.animated:
            fig.draw_artist(artist)
        assert type(stock.get_renderer()) is RendererAgg
        return np.asarray(stock.buffer_rgba())[..., :3].copy()
    finally:
        fig.set_canvas(canvas)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_step_gives_the_pixels_of_a_stock_draw(name):
    """What a learner sees after a move (text cache, blitting, the image sampled as data) is what
    Matplotlib draws for the same figure on its own."""
    live = REGISTRY[name].build_example()
    assert np.array_equal(pixels(live.png), stock_pixels(live)), f"{name}: the first picture"
    for key, control in live.controls.items():
        for value in other_values(control)[:2]:
            control.value = value
            assert np.array_equal(pixels(live.png), stock_pixels(live)), f"{name}: after {key} = {value!r}"
    plt.close(live.fig)
