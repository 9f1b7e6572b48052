"""One matplotlib figure, built once, driven by controls that update its artists in place.

A lesson builds its figure once, writes an ``update`` function that only changes artists
(``im.set_data``, ``line.set_ydata``, titles, limits) and hands both to :class:`LiveFigure`:

* with the interactive backend (ipympl, ``%matplotlib widget``) the figure's own canvas is
  shown and redrawn;
* otherwise (Colab, classic notebook, nbconvert) the updated figure is rendered to PNG
  (:mod:`helpers.live.png`) and re-displayed in an Output widget of fixed height, replacing the
  previous image (no flicker, no stacked copies).

Steps are drawn with twice the pixels they are shown at (sharp on a 2× screen) while that stays
fast: if the first steps take over ``LiveFigure.SHARP_STEP_S`` (their median, so one cold first
step does not decide), the figure draws its steps at one pixel per pixel shown from then on (a
slow machine keeps the sliders fluid).

Slow figures throttle: once steps take longer than ``LiveFigure.SLOW_STEP_S``, sliders report
only on release (``continuous_update=False``) instead of queueing every intermediate position.

A figure whose sliders mostly change a few artists can name them (``animated``) and the controls
that change nothing else (``blit``): a move of such a control restores the rest of the figure
from the last full draw and draws only those artists over it (Matplotlib's blitting), instead of
laying out every axis, tick and label again. A control that changes only the last few animated
artists redraws only those, over a kept picture of the others.

Works with ipywidgets 7.7 (Colab) and 8.x (JupyterLab 4).
"""

from __future__ import annotations

import base64
import inspect
import statistics
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import contextmanager

import ipywidgets as W
import matplotlib.pyplot as plt
import torch
from IPython import get_ipython
from IPython.display import Image, display
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ..plots import watch_figure
from .png import canvas_png, render_png
from .text_cache import use_text_cache


def uses_interactive_backend(fig) -> bool:
    """True when ``fig`` draws on an ipympl canvas (a widget of its own)."""
    return type(fig.canvas).__module__.startswith("ipympl")


@contextmanager
def one_thread():
    """Run torch on one thread inside the block. Explorer updates work on small tensors, where
    intra-op threads gain nothing and, on a busy 2-core machine (Colab's), can turn a 0.3 ms
    computation into tens of milliseconds of threads waiting for each other."""
    threads = torch.get_num_threads()
    if threads == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (where display() reaches a front end)."""
    return getattr(get_ipython(), "kernel", None) is not None


class LiveFigure:
    """Controls (sliders, dropdowns) driving in-place updates of one matplotlib figure.

    Parameters
    ----------
    fig : the figure, already built with all its artists.
    update : called as ``update(**values)`` with the current value of every control; its
        parameters must be exactly the controls' names. It must only modify the figure's artists.
    controls : name → ipywidgets value widget (see :mod:`helpers.live.controls`).
    limits : optional ``limits(values) → {name: largest value}`` for controls whose upper bound
        follows another control (a position slider that ends at the chosen length − 1). Applied
        before every update, so a value beyond its new bound is clamped once, by its slider.
    continuous : True: sliders report every movement; False: only when released (or moved
        with the keyboard) — for slow figures. None (default): decided from measured steps.
    animated : artists of ``fig`` that ``update`` changes; they are drawn last, over the rest.
    blit : names of controls whose moves change only ``animated`` artists (no limits, ticks or
        layout): such a move redraws just those artists over the figure of the last full draw.
        Or a mapping from such names to the artists each one changes, which must be the last
        ones of ``animated``: that move redraws only them. Any other move, and ``set``, draws
        everything again.

    ``widget`` is the VBox to display; ``set(**values)`` moves controls from code with one
    redraw; ``png`` holds the bytes last sent to the front end (Output path) and
    ``step_png()`` applies the current values and renders them, which the benchmark times.

    On the Output path the figure is drawn at ``LIVE_SCALE`` times the dpi it was built with
    (``page_dpi``) and shown at its page size, so a step is as sharp on a 2× screen as the
    figures around it; sizes in points (text, lines, markers) and the layout do not change.
    If the median of the first ``SHARP_AFTER`` slider steps is over ``SHARP_STEP_S``, later steps
    are drawn at 1× (``scale`` says which); the saved picture stays 2×.
    """

    SLOW_STEP_S = 0.15
    LIVE_SCALE = 2  # pixels drawn per pixel shown, for a slider step: sharp on a 2× screen
    SHARP_STEP_S = 0.045  # a figure whose 2× steps take longer (median) draws its steps at 1× instead:
    # a margin under the benchmark's 60 ms bar, which one step's timing can miss by 20 ms on a busy machine
    SHARP_AFTER = 5  # steps measured before that choice
    STILL_SCALE = 2  # the same for the picture a saved notebook keeps
    CACHE_TEXT = True  # keep text layouts and glyphs between steps where Matplotlib allows (live.text_cache)

    def __init__(self, fig, update: Callable[..., None], controls: dict[str, W.ValueWidget],
                 limits: Callable[[dict], dict[str, int]] | None = None, continuous: bool | None = None,
                 animated: Sequence = (), blit: Collection[str] | Mapping[str, Sequence] = ()):
        parameters = set(inspect.signature(update).parameters)
        if parameters != set(controls):
            raise TypeError(f"update takes {sorted(parameters)} but the controls are {sorted(controls)}: "
                            "each control must be one parameter of update, by name")
        if isinstance(blit, str) or not set(blit) <= set(controls):
            raise ValueError(f"blit must be a collection of control names from {sorted(controls)}, got {blit!r}")
        if any(artist.get_figure(root=True) is not fig for artist in animated):
            raise ValueError("animated must hold artists of fig")
        if blit and not animated:
            raise ValueError("blit needs the animated artists that those controls change")
        changes = dict(blit) if isinstance(blit, Mapping) else dict.fromkeys(blit, tuple(animated))
        for name, artists in changes.items():
            if not artists or tuple(artists) != tuple(animated)[len(animated) - len(artists):]:
                raise ValueError(f"blit[{name!r}] must be the last artists of animated (they are drawn last)")
        self.fig = fig
        self.update = update
        self.controls = controls
        self.limits = limits
        self.continuous = continuous
        self.interactive = uses_interactive_backend(fig)
        self.page_dpi = fig.dpi  # the figure's pixels per inch on the page
        # an interactive canvas never draws animated artists: there every move draws everything
        self.animated = () if self.interactive else tuple(animated)
        self.blit = frozenset(blit)
        # a blitted move of a control redraws animated[i:], i = _redraw_from[control]
        self._redraw_from = {name: len(animated) - len(artists) for name, artists in changes.items()}
        for artist in self.animated:
            artist.set_animated(True)
        # i → the figure with animated[:i] drawn, from the last full draw; with the renderer it is for
        self._backgrounds: dict[int, object] = {}
        self._renderer = None
        self._names = {id(control): name for name, control in controls.items()}
        self.png = b""
        self.step_seconds: float | None = None  # moving average of slider steps
        self._first_steps: list[float] = []  # seconds of the first SHARP_AFTER steps
        self.scale = 1 if self.interactive else self.LIVE_SCALE  # pixels drawn per pixel shown
        self._holding = False
        if self.interactive:
            self.view = fig.canvas
        else:
            plt.close(fig)  # keep the inline backend from showing a static copy
            if not isinstance(fig.canvas, FigureCanvasAgg):
                FigureCanvasAgg(fig)  # a canvas of its own: drawn in place, renderer reused
            height = f"{int(fig.get_figheight() * self.page_dpi) + 12}px"
            self.view = W.Output(layout=W.Layout(height=height, min_height=height, overflow="hidden"))
        if continuous is not None:
            self._set_continuous(continuous)
        for control in controls.values():
            control.observe(self._on_change, names="value")
        box = W.HBox(list(controls.values()), layout=W.Layout(flex_flow="row wrap"))
        self.widget = W.VBox([box, self.view])
        self._render()
        watch_figure(fig, self.page_dpi)  # checked with the lesson's figures in the course's own runs

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def set(self, **values) -> None:
        """Move controls from code; the figure is updated once, after all of them moved."""
        with self._hold():
            for name, value in values.items():
                self.controls[name].value = value
        self._render()

    def step_png(self) -> bytes:
        """Apply the current values and render to PNG: one slider step on the Output path."""
        self._use_scale()
        with one_thread():
            self.update(**self.values())
        return self._draw_png(blit=False)

    @contextmanager
    def _hold(self):
        """Controls moved inside the block do not redraw (the caller redraws once)."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False

    def _set_continuous(self, on: bool) -> None:
        for control in self.controls.values():
            if hasattr(control, "continuous_update") and control.continuous_update != on:
                control.continuous_update = on

    def _on_change(self, change=None) -> None:
        if self._holding:
            return
        start = time.perf_counter()
        owner = change.get("owner") if isinstance(change, dict) else getattr(change, "owner", None)
        self._render(moved=self._names.get(id(owner)))
        seconds = time.perf_counter() - start
        self.step_seconds = seconds if self.step_seconds is None else 0.5 * (self.step_seconds + seconds)
        if len(self._first_steps) < self.SHARP_AFTER:
            self._first_steps.append(seconds)
            if (len(self._first_steps) == self.SHARP_AFTER and self.scale > 1
                    and statistics.median(self._first_steps) > self.SHARP_STEP_S):
                self.scale = 1  # too slow to draw sharp here: fluid first, from the next step on
        if self.continuous is None:  # throttle: slow figures update on release, fast ones live
            self._set_continuous(self.step_seconds <= self.SLOW_STEP_S)

    def _apply_limits(self) -> None:
        if self.limits is None:
            return
        with self._hold():
            for name, largest in self.limits(self.values()).items():
                self.controls[name].max = largest  # the slider clamps its value if it was beyond

    def _use_scale(self) -> None:
        """Draw from now on at ``scale``: a change of dpi makes a new renderer, so the next draw is whole.
        Applied when a step starts, so ``png`` always matches the figure as it stands between steps."""
        if not self.interactive and self.fig.dpi != self.scale * self.page_dpi:
            self.fig.set_dpi(self.scale * self.page_dpi)

    def _render(self, moved: str | None = None) -> None:
        self._apply_limits()
        self._use_scale()
        with one_thread():
            self.update(**self.values())
        if self.interactive:
            self.fig.canvas.draw_idle()
            return
        self.png = self._draw_png(blit=moved if moved in self.blit else False)
        if _in_kernel():
            with self.view:  # replace, never append: the old image stays until the new one arrives
                self.view.clear_output(wait=True)
                display(self.step_image())

    def step_image(self) -> Image:
        """The last step's PNG as the Output widget shows it: ``scale`` times the pixels,
        at the figure's page size."""
        size = self.display_metadata()["image/png"]
        return Image(data=self.png, format="png", width=size["width"], height=size["height"])

    def _draw_png(self, blit: bool | str) -> bytes:
        """The figure as PNG: drawn whole (``blit`` False), or, after a move of the blitted control
        named by ``blit``, the animated artists it changes drawn over a kept picture of the rest."""
        if not self.animated:
            return render_png(self.fig, cache_text=self.CACHE_TEXT)
        canvas = self.fig.canvas
        renderer = canvas.get_renderer()
        if self.CACHE_TEXT:
            use_text_cache(renderer)
        start = self._redraw_from.get(blit) if blit else None
        if start is None or renderer is not self._renderer or 0 not in self._backgrounds:
            canvas.draw()  # everything but the animated artists
            self._renderer, self._backgrounds, start = renderer, {0: canvas.copy_from_bbox(self.fig.bbox)}, 0
        elif start in self._backgrounds:
            canvas.restore_region(self._backgrounds[start])
        else:  # the artists this control leaves alone, drawn once over the nearest kept picture
            kept = max(i for i in self._backgrounds if i < start)
            canvas.restore_region(self._backgrounds[kept])
            for artist in self.animated[kept:start]:
                self.fig.draw_artist(artist)
            self._backgrounds[start] = canvas.copy_from_bbox(self.fig.bbox)
        for i in [i for i in self._backgrounds if i > start]:  # they show artists redrawn now
            del self._backgrounds[i]
        for artist in self.animated[start:]:
            self.fig.draw_artist(artist)
        return canvas_png(self.fig)

    def still_png(self) -> bytes:
        """The figure at its current settings with ``STILL_SCALE`` times the pixels it is shown
        at, every artist drawn: the picture a saved notebook keeps, sharp on a 2× screen.
        ``savefig`` leaves out animated artists of the figure itself (a ``suptitle``), so they are
        drawn as ordinary artists for this one picture."""
        for artist in self.animated:
            artist.set_animated(False)
        try:
            return render_png(self.fig, dpi=self.STILL_SCALE * self.page_dpi)
        finally:
            for artist in self.animated:
                artist.set_animated(True)

    def picture(self) -> Image:
        """The figure at its current settings as a plain picture (no sliders), sharp on a 2× screen:
        :meth:`still_png` shown at the live view's size."""
        size = self.display_metadata()["image/png"]
        return Image(data=self.still_png(), format="png", width=size["width"], height=size["height"])

    def display_bundle(self) -> dict:
        """What a cell showing this explorer saves: the live widget view and, beside it, the figure
        at its current settings as a PNG. A front end with the kernel's widgets shows the sliders;
        one without them (GitHub, nbviewer, a static site, an untrusted notebook) shows the picture,
        at the live view's size (:meth:`display_metadata`)."""
        bundle = {
            "text/plain": f"<explorer: {', '.join(self.controls)}>",
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id},
        }
        if self.png:
            bundle["image/png"] = base64.b64encode(self.still_png()).decode("ascii")
        return bundle

    def display_metadata(self) -> dict:
        """The picture's size on the page: the figure's inches at ``page_dpi``, so a 2× picture
        shows as sharp, not as large."""
        width, height = (round(inches * self.page_dpi) for inches in self.fig.get_size_inches())
        return {"image/png": {"width": width, "height": height}}

    def _ipython_display_(self):
        if self.interactive:  # ipympl's canvas is itself a widget with a static fallback of its own
            display(self.widget)
        else:
            display(self.display_bundle(), raw=True, metadata=self.display_metadata())
