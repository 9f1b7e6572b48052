"""LiveFigure: one figure built once, updated in place, re-rendered without stacking copies.

Runs in both environments (ipywidgets 8 here, ipywidgets 7.7.1 in the Colab-like one).
"""

import inspect
import io
import textwrap

import ipywidgets as W
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from helpers import widgets  # noqa: E402
from helpers.widgets import LiveFigure, encode_png, int_slider, render_png  # noqa: E402


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def make_live(**kw):
    fig, ax = plt.subplots(figsize=(4, 2))
    im = ax.imshow(np.zeros((8, 16)), vmin=-1, vmax=1, cmap="RdBu_r")
    calls = []

    def update(freq, phase):
        calls.append((freq, phase))
        x = np.arange(16)[None, :] * freq / 16 + phase + np.arange(8)[:, None]
        im.set_data(np.sin(x))
        ax.set_title(f"freq {freq}, phase {phase}")

    live = LiveFigure(fig, update, {"freq": int_slider("freq", 1, 1, 8), "phase": int_slider("phase", 0, 0, 5)}, **kw)
    return live, im, calls


def test_slider_step_updates_the_same_figure_and_changes_the_png():
    live, im, calls = make_live()
    fig, axes, first = live.fig, list(live.fig.axes), live.png
    open_figures = plt.get_fignums()
    live.controls["freq"].value = 5
    assert calls[-1] == (5, 0)
    assert live.fig is fig and live.fig.axes == axes and list(axes[0].images) == [im]
    assert plt.get_fignums() == open_figures  # no figure created per step
    assert live.png != first and live.png.startswith(b"\x89PNG")
    width, height = fig.canvas.get_width_height()
    assert pixels(live.png).shape == (height, width, 3)
    live.controls["freq"].value = 1
    assert live.png == first  # same values, same pixels: the step depends only on the state


def test_set_moves_several_controls_with_one_update():
    live, _, calls = make_live()
    n = len(calls)
    live.set(freq=3, phase=2)
    assert calls[n:] == [(3, 2)]
    assert live.values() == {"freq": 3, "phase": 2}


def test_output_path_shows_a_fixed_height_output_widget():
    live, _, _ = make_live()
    assert not live.interactive
    assert isinstance(live.view, W.Output)
    assert live.view.layout.height == f"{int(2 * live.fig.dpi) + 12}px"
    assert live.view.layout.overflow == "hidden"
    assert live.widget.children[1] is live.view
    assert [c.description for c in live.widget.children[0].children] == ["freq", "phase"]


def test_png_encoder_round_trips_and_rejects_bad_input():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, size=(7, 11, 3), dtype=np.uint8)
    assert np.array_equal(pixels(encode_png(rgb)), rgb)
    with pytest.raises(ValueError, match=r"\(height, width, 3\) uint8"):
        encode_png(rgb.astype(np.float32))
    with pytest.raises(ValueError, match=r"\(height, width, 3\) uint8"):
        encode_png(rgb[..., :2])


def test_render_png_matches_savefig_pixels_with_and_without_text_cache():
    live, _, _ = make_live()
    live.set(freq=4, phase=1)
    buf = io.BytesIO()
    live.fig.savefig(buf, format="png", dpi=live.fig.dpi)
    reference = pixels(buf.getvalue())
    assert np.array_equal(pixels(render_png(live.fig)), reference)
    for _ in range(2):  # the second draw reuses cached layouts and glyphs
        assert np.array_equal(pixels(render_png(live.fig, cache_text=True)), reference)


def test_transparent_figure_is_composited_onto_white():
    fig, ax = plt.subplots(figsize=(2, 1))
    fig.patch.set_alpha(0.0)
    ax.set_axis_off()
    assert (pixels(render_png(fig)) == 255).all()
    plt.close(fig)


def test_continuous_updates_fixed_on_or_off():
    live, _, _ = make_live(continuous=False)
    assert [c.continuous_update for c in live.controls.values()] == [False, False]
    live, _, _ = make_live(continuous=True)
    live.SLOW_STEP_S = 0.0  # would count as slow, but the author fixed it
    live.controls["freq"].value = 2
    assert [c.continuous_update for c in live.controls.values()] == [True, True]


def test_slow_figures_throttle_to_release_and_fast_ones_stay_live():
    live, _, _ = make_live()
    live.SLOW_STEP_S = float("inf")
    live.controls["freq"].value = 2
    assert [c.continuous_update for c in live.controls.values()] == [True, True]
    live.SLOW_STEP_S = 0.0  # every step now counts as slow
    live.controls["freq"].value = 3
    assert [c.continuous_update for c in live.controls.values()] == [False, False]
    assert live.step_seconds is not None and live.step_seconds > 0


def test_step_png_renders_the_current_state():
    live, _, calls = make_live()
    live.controls["phase"].value = 4
    assert pixels(live.step_png()).shape == pixels(live.png).shape
    assert calls[-1] == (1, 4)


def test_every_explorer_builder_returns_a_live_figure_that_steps():
    """Each ``*_explorer`` with defaults for all its arguments builds, and moving its first
    slider (or dropdown) changes the image the front end would receive."""
    built = 0
    for name, fn in sorted(vars(widgets).items()):
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != widgets.__name__:
            continue
        if not (name.endswith("_explorer") or inspect.signature(fn).return_annotation in ("LiveFigure", LiveFigure)):
            continue
        try:
            live = fn()
        except TypeError:  # needs arguments a lesson provides; covered by the notebooks
            continue
        assert isinstance(live, LiveFigure), name
        control = next(iter(live.controls.values()))
        before = live.png
        if hasattr(control, "options"):
            options = [o[1] if isinstance(o, tuple) else o for o in control.options]
            control.value = next(o for o in options if o != control.value)
        else:
            control.value = control.value + control.step if control.value + control.step <= control.max \
                else control.value - control.step
        assert live.png != before, name
        plt.close(live.fig)
        built += 1
    assert built >= 1


KERNEL_SCRIPT = textwrap.dedent(
    """
    import matplotlib.pyplot as plt, numpy as np
    from helpers.widgets import LiveFigure, int_slider
    fig, ax = plt.subplots(figsize=(3, 2))
    im = ax.imshow(np.zeros((4, 4)), vmin=0, vmax=10)
    live = LiveFigure(fig, lambda k: im.set_data(np.full((4, 4), k)), {"k": int_slider("k", 0, 0, 10)})
    live
    """
)


def test_in_a_kernel_each_step_replaces_the_image_instead_of_stacking():
    """Execute a tiny notebook with nbclient (which records widget state the way a front end
    does), move the slider four times, and check the Output widget holds exactly one image."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(KERNEL_SCRIPT),
                nbformat.v4.new_code_cell("for k in (3, 5, 7, 9):\n    live.controls['k'].value = k\nlen(live.png)")]
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True)
    client.execute()
    assert not [o for c in nb.cells for o in c.outputs if o.output_type == "error"]
    state = nb.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"]
    outputs = [m for m in state.values() if m["model_name"] == "OutputModel"]
    assert len(outputs) == 1
    shown = outputs[0]["state"]["outputs"]
    assert len(shown) == 1 and "image/png" in shown[0]["data"]
    sliders = [m for m in state.values() if m["model_name"] == "IntSliderModel"]
    assert [m["state"]["value"] for m in sliders] == [9]
