"""LiveFigure: one figure built once, updated in place, re-rendered without stacking copies.

Runs in both environments (ipywidgets 8 here, ipywidgets 7.7.1 in the Colab-like one).
"""

import io
import textwrap

import ipywidgets as W
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from PIL import Image  # noqa: E402

from helpers.live import IntRange, LiveFigure  # noqa: E402

FREQ, PHASE = IntRange("freq", 1, 8), IntRange("phase", 0, 5)


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def make_live(cls=LiveFigure, **kw):
    fig, ax = plt.subplots(figsize=(4, 2))
    im = ax.imshow(np.zeros((8, 16)), vmin=-1, vmax=1, cmap="RdBu_r")
    calls = []

    def update(freq, phase):
        calls.append((freq, phase))
        x = np.arange(16)[None, :] * freq / 16 + phase + np.arange(8)[:, None]
        im.set_data(np.sin(x))
        ax.set_title(f"freq {freq}, phase {phase}")

    live = cls(fig, update, {"freq": FREQ.slider(1), "phase": PHASE.slider(0)}, **kw)
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


def test_update_must_take_exactly_the_controls():
    fig, _ = plt.subplots()
    with pytest.raises(TypeError, match=r"update takes \['freq'\] but the controls are \['freq', 'phase'\]"):
        LiveFigure(fig, lambda freq: None, {"freq": FREQ.slider(1), "phase": PHASE.slider(0)})
    with pytest.raises(TypeError, match="update takes"):
        LiveFigure(fig, lambda frequency: None, {"freq": FREQ.slider(1)})
    plt.close(fig)


def test_limits_clamp_a_following_control_once_before_the_update():
    """A position slider that ends at length − 1: shrinking the length clamps the position, and
    update sees the clamped value in the same single call, whatever order observers run in."""
    fig, _ = plt.subplots(figsize=(2, 1))
    calls = []
    length, position = IntRange("length", 2, 20), IntRange("position", 0, 19)
    live = LiveFigure(fig, lambda length, position: calls.append((length, position)),
                      {"length": length.slider(10), "position": position.slider(9)},
                      limits=lambda values: {"position": values["length"] - 1})
    assert live.controls["position"].max == 9 and calls == [(10, 9)]
    live.controls["length"].value = 4
    assert calls[1:] == [(4, 3)]
    assert live.controls["position"].max == 3 and live.controls["position"].value == 3
    live.controls["length"].value = 12
    assert calls[2:] == [(12, 3)] and live.controls["position"].max == 11
    live.set(length=6, position=5)
    assert calls[3:] == [(6, 5)]


def test_output_path_shows_a_fixed_height_output_widget():
    live, _, _ = make_live()
    assert not live.interactive
    assert isinstance(live.view, W.Output)
    # the figure's 2 inches at the dpi it was built with, whatever it is drawn at
    assert live.view.layout.height == f"{int(2 * plt.rcParams['figure.dpi']) + 12}px"
    assert live.view.layout.overflow == "hidden"
    assert live.widget.children[1] is live.view
    assert [c.description for c in live.widget.children[0].children] == ["freq", "phase"]


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


def test_a_step_runs_torch_on_one_thread_and_restores_the_setting():
    threads = torch.get_num_threads()
    seen = []
    fig, _ = plt.subplots(figsize=(2, 1))
    LiveFigure(fig, lambda k: seen.append(torch.get_num_threads()), {"k": FREQ.slider(1)})
    assert seen == [1] and torch.get_num_threads() == threads


KERNEL_SCRIPT = textwrap.dedent(
    """
    import matplotlib.pyplot as plt, numpy as np
    from helpers.live import IntRange, LiveFigure
    fig, ax = plt.subplots(figsize=(3, 2))
    im = ax.imshow(np.zeros((4, 4)), vmin=0, vmax=10)
    live = LiveFigure(fig, lambda k: im.set_data(np.full((4, 4), k)), {"k": IntRange("k", 0, 10).slider(0)})
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


def make_blitting_live():
    """A sine whose phase moves only the line and the title (blitted), and whose span changes the
    x limits (drawn whole)."""
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.set_ylim(-1.2, 1.2)
    (line,) = ax.plot([], [], color="tab:red")
    title = ax.set_title("")
    spans = IntRange("span", 4, 32)

    def update(span, phase):
        x = np.linspace(0, span, 200)
        line.set_data(x, np.sin(x + phase))
        ax.set_xlim(0, span)
        title.set_text(f"span {span}, phase {phase}")

    live = LiveFigure(fig, update, {"span": spans.slider(8), "phase": PHASE.slider(0)}, animated=(line, title),
                      blit=("phase",))
    return live


def test_a_blitted_step_gives_the_pixels_of_a_whole_draw():
    live = make_blitting_live()
    for name, value in [("phase", 3), ("span", 20), ("phase", 1), ("phase", 4), ("span", 9), ("phase", 2)]:
        background = live._backgrounds[0]
        live.controls[name].value = value
        # a blit control reuses the background of the last whole draw; any other control draws anew
        assert (live._backgrounds[0] is background) == (name == "phase")
        stepped = pixels(live.png)
        assert np.array_equal(stepped, pixels(live._draw_png(blit=False)))
    # and the animated artists are really drawn: the blitted image differs from the bare background
    live.controls["phase"].value = 5
    assert not np.array_equal(pixels(live.png), np.asarray(live._backgrounds[0])[..., :3])


def make_layered_live():
    """Two lines and a title: the amplitude changes all three (blitted), the phase only the
    second line and the title, the last two animated artists (blitted over the first line)."""
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.set_xlim(0, 8)
    ax.set_ylim(-4, 4)
    (wide,) = ax.plot([], [], color="tab:blue", linewidth=6)
    (thin,) = ax.plot([], [], color="tab:red")  # crosses the wide line: drawn over it, in that order
    title = ax.set_title("")
    amplitudes = IntRange("amplitude", 1, 3)

    def update(amplitude, phase):
        x = np.linspace(0, 8, 200)
        wide.set_data(x, amplitude * np.cos(x))
        thin.set_data(x, amplitude * np.sin(x + phase))
        title.set_text(f"amplitude {amplitude}, phase {phase}")

    return LiveFigure(fig, update, {"amplitude": amplitudes.slider(1), "phase": PHASE.slider(0)},
                      animated=(wide, thin, title), blit={"amplitude": (wide, thin, title), "phase": (thin, title)})


def test_a_control_that_changes_the_last_artists_redraws_only_them():
    live = make_layered_live()
    assert live._redraw_from == {"amplitude": 0, "phase": 1}
    for name, value in [("phase", 3), ("amplitude", 3), ("phase", 1), ("amplitude", 2), ("phase", 3)]:
        live.controls[name].value = value
        if name == "phase":  # the picture with the wide line is made once, then reused
            kept = live._backgrounds[1]
            live.controls[name].value = value + 1
            assert live._backgrounds[1] is kept
        else:  # the amplitude redrew the wide line: no picture with the old one is kept
            assert set(live._backgrounds) == {0}
        stepped = pixels(live.png)
        # the same pixels as a whole draw: the wide line is there, under the thin one
        assert np.array_equal(stepped, pixels(live._draw_png(blit=False))), f"after {name} = {value}"


def test_blitting_is_checked():
    fig, ax = plt.subplots()
    (line,) = ax.plot([0, 1])
    other, other_ax = plt.subplots()
    (elsewhere,) = other_ax.plot([0, 1])
    controls = {"freq": FREQ.slider(1)}
    with pytest.raises(ValueError, match=r"blit must be a collection of control names from \['freq'\]"):
        LiveFigure(fig, lambda freq: None, controls, animated=(line,), blit=("phase",))
    with pytest.raises(ValueError, match="blit must be a collection"):
        LiveFigure(fig, lambda freq: None, controls, animated=(line,), blit="freq")
    with pytest.raises(ValueError, match="animated must hold artists of fig"):
        LiveFigure(fig, lambda freq: None, controls, animated=(elsewhere,), blit=("freq",))
    with pytest.raises(ValueError, match="blit needs the animated artists"):
        LiveFigure(fig, lambda freq: None, controls, blit=("freq",))
    (second,) = ax.plot([1, 0])
    with pytest.raises(ValueError, match=r"blit\['freq'\] must be the last artists of animated"):
        LiveFigure(fig, lambda freq: None, controls, animated=(line, second), blit={"freq": (line,)})
    plt.close(fig)
    plt.close(other)


def halved(image: np.ndarray) -> np.ndarray:
    """Each 2 × 2 block of pixels averaged: a 2× picture brought to the size of a 1× one."""
    h, w, c = image.shape
    return image[:h - h % 2, :w - w % 2].reshape(h // 2, 2, w // 2, 2, c).astype(float).mean(axis=(1, 3))


class OneToOne(LiveFigure):
    LIVE_SCALE = STILL_SCALE = 1  # a pixel drawn per pixel shown


def test_a_step_is_drawn_at_twice_the_pixels_it_is_shown_at():
    live, _, _ = make_live()
    flat, _, _ = make_live(OneToOne)
    live.set(freq=5, phase=2)
    flat.set(freq=5, phase=2)
    dpi = plt.rcParams["figure.dpi"]
    shown = {"width": round(4 * dpi), "height": round(2 * dpi)}  # 4 × 2 inches, on the page
    assert live.display_metadata() == flat.display_metadata() == {"image/png": shown}
    step = pixels(live.png)
    assert step.shape == (2 * shown["height"], 2 * shown["width"], 3)
    assert pixels(flat.png).shape == (shown["height"], shown["width"], 3)
    image = live.step_image()  # what the Output widget shows
    assert (image.width, image.height) == (shown["width"], shown["height"]) and image.data == live.png
    # the same picture, drawn sharper: averaged 2 × 2 blocks match the 1× step
    assert np.abs(halved(step) - pixels(flat.png)).mean() < 6
    assert live.view.layout.height == flat.view.layout.height  # the same room on the page
    flat.set(freq=1, phase=0)
    assert np.abs(halved(step) - pixels(flat.png)).mean() > 6  # the comparison can tell pictures apart


class SlowMachine(LiveFigure):
    SHARP_STEP_S = 0.0  # every step counts as too slow to draw sharp


class FastMachine(LiveFigure):
    SHARP_STEP_S = float("inf")


def test_steps_fall_back_to_1x_where_2x_steps_are_slow_and_stay_sharp_where_they_are_fast():
    import base64

    slow, _, _ = make_live(SlowMachine)
    fast, _, _ = make_live(FastMachine)
    shown = slow.display_metadata()["image/png"]
    for freq in range(2, 2 + LiveFigure.SHARP_AFTER + 2):
        for live in (slow, fast):
            live.controls["freq"].value = freq
        before = freq <= 1 + LiveFigure.SHARP_AFTER  # the steps measured for the choice are 2×
        assert pixels(slow.png).shape[1] == (2 if before else 1) * shown["width"], freq
        assert pixels(fast.png).shape[1] == 2 * shown["width"], freq
    assert (slow.scale, fast.scale) == (1, 2)
    # the same picture at half the pixels, shown at the same size; the saved picture stays 2×
    assert np.abs(pixels(slow.png) - halved(pixels(fast.png))).mean() < 6
    assert slow.display_metadata()["image/png"] == shown
    image = slow.step_image()
    assert (image.width, image.height) == (shown["width"], shown["height"])
    still = pixels(base64.b64decode(slow.display_bundle()["image/png"]))
    assert still.shape[1] == 2 * shown["width"]
    slow.controls["freq"].value = 1  # and steps after the still are still 1×, of the new state
    assert pixels(slow.png).shape[1] == shown["width"]


def test_display_bundle_carries_the_live_view_and_the_figure_as_a_2x_png():
    import base64

    live, _, _ = make_live()
    flat, _, _ = make_live(OneToOne)
    live.set(freq=5, phase=2)
    flat.set(freq=5, phase=2)
    bundle = live.display_bundle()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == live.widget.model_id and view["version_major"] == 2
    still = pixels(base64.b64decode(bundle["image/png"]))
    flat_step = pixels(flat.png)
    # twice the pixels each way of the page size, shown at that size; the same picture, drawn sharper
    assert still.shape == (2 * flat_step.shape[0], 2 * flat_step.shape[1], 3)
    assert live.display_metadata() == {"image/png": {"width": flat_step.shape[1], "height": flat_step.shape[0]}}
    same = np.abs(halved(still) - flat_step).mean()
    live.set(freq=1, phase=0)  # the picture follows the controls
    flat.set(freq=1, phase=0)
    other = pixels(base64.b64decode(live.display_bundle()["image/png"]))
    assert same < 6 < np.abs(halved(other) - flat_step).mean(), same
    assert np.abs(halved(other) - pixels(flat.png)).mean() < 6
    assert "VBox" not in bundle["text/plain"] and "freq" in bundle["text/plain"]


def test_the_still_draws_the_animated_artists_and_leaves_the_steps_alone():
    import base64

    fig, ax = plt.subplots(figsize=(4, 2))
    (line,) = ax.plot([0, 1], [0, 1], lw=8, color="red")
    ax.set_xlim(0, 1), ax.set_ylim(0, 1)
    fig.subplots_adjust(top=0.6)
    heading = fig.suptitle("█████", color="blue", fontsize=30)  # a figure-level text, above the axes
    live = LiveFigure(fig, lambda freq: line.set_ydata([0, freq / 8]), {"freq": FREQ.slider(8)},
                      animated=(line, heading), blit=("freq",))
    still = pixels(base64.b64decode(live.display_bundle()["image/png"]))
    red = (still[..., 0] > 200) & (still[..., 1] < 80) & (still[..., 2] < 80)
    blue = (still[..., 2] > 200) & (still[..., 0] < 80) & (still[..., 1] < 80)
    assert red.sum() > 500, "the animated line is missing from the still"
    assert blue.sum() > 500, "the animated heading is missing from the still"
    before = live.png
    live.controls["freq"].value = 4
    live.controls["freq"].value = 8  # back where it was: the same picture as before the still
    assert np.array_equal(pixels(live.png), pixels(before)), "a step after the still drew something else"


def test_picture_is_the_2x_still_shown_at_the_live_size():
    live, _, _ = make_live()
    shown = live.picture()
    assert pixels(shown.data).shape[:2] == (2 * shown.height, 2 * shown.width)
    assert live.display_metadata()["image/png"] == {"width": shown.width, "height": shown.height}
