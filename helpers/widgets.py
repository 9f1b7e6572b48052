"""Slider widgets over figures that are built once and updated in place.

A lesson builds its matplotlib figure once, writes an ``update(**values)`` function that only
changes artists (``im.set_data``, ``line.set_ydata``, titles, limits), and hands both to
:class:`LiveFigure`. Rendering:

* with the interactive backend (ipympl, ``%matplotlib widget``) the figure's own canvas is
  shown and redrawn;
* otherwise (Colab, classic notebook, nbconvert) the updated figure is rendered to PNG and
  re-displayed in an Output widget of fixed height, replacing the previous image (no flicker,
  no stacked copies). The figure keeps its own Agg canvas, whose renderer caches text layouts
  and glyphs between steps, and the PNG is encoded for speed (``benchmarks/slider_latency.py``).

Slow figures throttle: once steps take longer than ``LiveFigure.SLOW_STEP_S``, sliders report
only on release (``continuous_update=False``) instead of queueing every intermediate position.

Works with ipywidgets 7.7 (Colab) and 8.x (JupyterLab 4).
"""

from __future__ import annotations

import io
import math
import struct
import time
import zlib
from collections.abc import Callable
from contextlib import contextmanager

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import torch
from IPython.display import Image, display
from matplotlib import ft2font
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag


def uses_interactive_backend(fig) -> bool:
    """True when ``fig`` draws on an ipympl canvas (a widget of its own)."""
    return type(fig.canvas).__module__.startswith("ipympl")


class _TextCachingRendererAgg(RendererAgg):
    """An Agg renderer that remembers text layouts and rasterised glyphs between draws.

    A slider step redraws the same tick labels, titles and legends at the same places; with
    Matplotlib's glyph-by-glyph text path (3.11+) laying them out and rasterising them again is
    a large share of a step. Glyphs are keyed by font, size, angle and exact 1/64-pixel position,
    so the pixels are identical to an uncached draw. Only figures of a ``LiveFigure`` use it.
    """

    _MAX_ENTRIES = 20_000

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        font = self._prepare_font(prop)
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        size = prop.get_size_in_points()
        layouts = self.__dict__.setdefault("_layouts", {})
        key = (font.fname, size, self.dpi, s, str(features), str(language), get_hinting_flag())
        items = layouts.get(key)
        if items is None:
            if len(layouts) > self._MAX_ENTRIES:
                layouts.clear()
            items = layouts[key] = [(item.ft_object, item.glyph_index, item.x, item.y) for item in
                                    font._layout(s, flags=get_hinting_flag(), features=features, language=language)]
        self._draw_text_glyphs_and_boxes(gc, x, y, angle, ((f, size, g, 0, 1, dx, dy) for f, g, dx, dy in items), [])

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        if boxes:  # mathtext rules: the stock path
            return super()._draw_text_glyphs_and_boxes(gc, x, y, angle, glyphs, boxes)
        cache = self.__dict__.setdefault("_glyphs", {})
        if len(cache) > self._MAX_ENTRIES:
            cache.clear()
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        antialiased = gc.get_antialiased()
        load_flags = get_hinting_flag()
        height = self.height
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:
            tx = round(0x40 * (x + dx * cos - dy * sin))
            ty = round(0x40 * (height - y + dx * sin + dy * cos))
            key = (font.fname, id(font), size, self.dpi, glyph_index, slant, extend, angle, tx, ty,
                   antialiased, load_flags)
            hit = cache.get(key)
            if hit is None:
                font.set_size(size, self.dpi)
                font._set_transform((0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]])
                                    .round().astype(int), [tx, ty])
                bitmap = font._render_glyph(glyph_index, load_flags,
                                            ft2font.RenderMode.NORMAL if antialiased else ft2font.RenderMode.MONO)
                buffer = np.array(bitmap.buffer)
                if not antialiased:
                    buffer *= 0xFF
                hit = cache[key] = (buffer, bitmap.left, bitmap.top)
            buffer, left, top = hit
            self._renderer.draw_text_image(buffer, left, int(height) - top + buffer.shape[0], 0, gc)


_CACHE_TEXT = (hasattr(RendererAgg, "_draw_text_glyphs_and_boxes") and hasattr(ft2font, "RenderMode")
               and hasattr(ft2font.FT2Font, "_render_glyph"))


def render_png(fig, dpi: float | None = None, cache_text: bool = False) -> bytes:
    """The figure as PNG bytes: what the Output-widget path sends to the front end.

    Draws on the figure's own Agg canvas (its renderer is reused between steps) and encodes
    the RGB pixels with :func:`encode_png`. A figure without an Agg canvas, or another dpi, goes
    through ``savefig``. ``cache_text`` keeps text layouts and glyph bitmaps on the figure's
    renderer between calls (same pixels, much less work for a figure drawn again and again).
    """
    if dpi is not None and dpi != fig.dpi or not isinstance(fig.canvas, FigureCanvasAgg):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi or fig.dpi, pil_kwargs={"compress_level": 1})
        return buf.getvalue()
    renderer = fig.canvas.get_renderer()
    if cache_text and _CACHE_TEXT and type(renderer) is RendererAgg:
        renderer.__class__ = _TextCachingRendererAgg
    fig.canvas.draw()
    rgba = np.asarray(renderer.buffer_rgba())
    alpha = rgba[..., 3:]
    if not (alpha == 255).all():  # a transparent figure: composite onto white, as a page shows it
        return encode_png((rgba[..., :3] * (alpha / 255.0) + 255.0 * (1.0 - alpha / 255.0)).round().astype(np.uint8))
    return encode_png(rgba[..., :3])


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgb: np.ndarray) -> bytes:
    """A (height, width, 3) uint8 array as PNG bytes: no row filter, zlib level 1.

    For plots (large flat areas) this is about twice as fast as Pillow's adaptive encoder at
    its fastest level and no larger: encoding, not drawing, is much of what makes a naive
    ``savefig`` per step slow.
    """
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected a (height, width, 3) uint8 array, got {rgb.dtype} {tuple(rgb.shape)}")
    height, width = rgb.shape[:2]
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)  # leading 0 per row: filter type None
    rows[:, 1:] = rgb.reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + _png_chunk(b"IEND", b""))


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
    from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None) is not None


class LiveFigure:
    """Sliders (or any value widgets) driving in-place updates of one matplotlib figure.

    Parameters
    ----------
    fig : the figure, already built with all its artists.
    update : called as ``update(**values)`` with the current value of every control; it must
        only modify the figure's artists (``set_data``, ``set_ydata``, titles, limits).
    controls : name → ipywidgets value widget (IntSlider, FloatSlider, Dropdown, …).
    continuous : True: sliders report every movement; False: only when released (or moved
        with the keyboard) — for slow figures. None (default): decided from measured steps —
        once steps take longer than ``SLOW_STEP_S`` on average, continuous updates are turned
        off, so the kernel never works through a queue of stale slider positions.

    ``widget`` is the VBox to display; ``set(**values)`` moves controls from code with one
    redraw; ``png`` holds the bytes last sent to the front end (Output path) and
    ``step_png()`` applies the current values and renders them, which the benchmark times.
    """

    SLOW_STEP_S = 0.15

    def __init__(self, fig, update: Callable[..., None], controls: dict[str, W.ValueWidget],
                 continuous: bool | None = None):
        self.fig = fig
        self.update = update
        self.controls = controls
        self.continuous = continuous
        self.interactive = uses_interactive_backend(fig)
        self.png = b""
        self.step_seconds: float | None = None  # moving average of slider steps
        self._holding = False
        if self.interactive:
            self.view = fig.canvas
        else:
            plt.close(fig)  # keep the inline backend from showing a static copy
            if not isinstance(fig.canvas, FigureCanvasAgg):
                FigureCanvasAgg(fig)  # a canvas of its own: drawn in place, renderer reused
            height = f"{int(fig.get_figheight() * fig.dpi) + 12}px"
            self.view = W.Output(layout=W.Layout(height=height, min_height=height, overflow="hidden"))
        if continuous is not None:
            self._set_continuous(continuous)
        for control in controls.values():
            control.observe(self._on_change, names="value")
        box = W.HBox(list(controls.values()), layout=W.Layout(flex_flow="row wrap"))
        self.widget = W.VBox([box, self.view])
        self._render()

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def set(self, **values) -> None:
        """Move controls from code; the figure is updated once, after all of them moved."""
        self._holding = True
        try:
            for name, value in values.items():
                self.controls[name].value = value
        finally:
            self._holding = False
        self._render()

    def step_png(self) -> bytes:
        """Apply the current values and render to PNG: one slider step on the Output path."""
        with one_thread():
            self.update(**self.values())
        return render_png(self.fig, cache_text=True)

    def _set_continuous(self, on: bool) -> None:
        for control in self.controls.values():
            if hasattr(control, "continuous_update") and control.continuous_update != on:
                control.continuous_update = on

    def _on_change(self, change=None) -> None:
        if self._holding:
            return
        start = time.perf_counter()
        self._render()
        seconds = time.perf_counter() - start
        self.step_seconds = seconds if self.step_seconds is None else 0.5 * (self.step_seconds + seconds)
        if self.continuous is None:  # throttle: slow figures update on release, fast ones live
            self._set_continuous(self.step_seconds <= self.SLOW_STEP_S)

    def _render(self) -> None:
        with one_thread():
            self.update(**self.values())
        if self.interactive:
            self.fig.canvas.draw_idle()
            return
        self.png = render_png(self.fig, cache_text=True)
        if _in_kernel():
            with self.view:  # replace, never append: the old image stays until the new one arrives
                self.view.clear_output(wait=True)
                display(Image(data=self.png, format="png"))

    def _ipython_display_(self):
        display(self.widget)


def int_slider(description: str, value: int, min: int, max: int, step: int = 1, **kw) -> W.IntSlider:
    """An IntSlider with a readable label width."""
    return W.IntSlider(value=value, min=min, max=max, step=step, description=description,
                       style={"description_width": "initial"}, **kw)


def float_slider(description: str, value: float, min: float, max: float, step: float, **kw) -> W.FloatSlider:
    """A FloatSlider with a readable label width."""
    return W.FloatSlider(value=value, min=min, max=max, step=step, description=description,
                         style={"description_width": "initial"}, **kw)


def order_explorer(mha, x, tokens: list[str], position) -> LiveFigure:
    """Lesson 00: choose an order of the tokens; see attention without and with a position
    signal, and how far the mean-pooled output moves from the original order's.

    mha: batch-first nn.MultiheadAttention; x: (length, d) token embeddings in the original
    order; position: (length, d) position signal added per slot.
    """
    import itertools

    import numpy as np

    from .attention import reorder_and_attend
    from .plots import attention_map

    n = len(tokens)
    orders = list(itertools.permutations(range(n)))
    options = [(" ".join(tokens[i] for i in o), o) for o in orders]
    _, _, pooled_plain = reorder_and_attend(mha, x, range(n))
    _, _, pooled_pos = reorder_and_attend(mha, x, range(n), position)

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4), gridspec_kw={"width_ratios": [1, 1, 0.8]})
    blank = np.zeros((n, n))
    ims = [attention_map(axes[0], blank, tokens, "no position signal"),
           attention_map(axes[1], blank, tokens, "with a position signal")]
    bars = axes[2].bar(["no position", "with position"], [0.0, 0.0], color=["tab:gray", "tab:blue"])
    largest = max(float((reorder_and_attend(mha, x, o, position)[2] - pooled_pos).abs().max()) for o in orders)
    axes[2].set_ylim(0, 1.15 * largest + 1e-6)
    axes[2].set_title("|pooled − pooled(original)|")
    fig.tight_layout()

    def update(order):
        names = [tokens[i] for i in order]
        for im, bar, pos, ref in zip(ims, bars, (None, position), (pooled_plain, pooled_pos), strict=True):
            _, w, pooled = reorder_and_attend(mha, x, order, pos)
            im.set_data(w.numpy())
            im.axes.set_xticks(range(n), names, rotation=45)
            im.axes.set_yticks(range(n), names)
            bar.set_height(float((pooled - ref).abs().max()))

    control = W.Dropdown(options=options, value=orders[0], description="order")
    return LiveFigure(fig, update, {"order": control})


def _short_number(x: float) -> str:
    """A compact label for a positive number: 6.28, 628, 54.5k, 5.95M."""
    if x < 999.5:
        return f"{x:.3g}"
    if x < 999.5e3:
        return f"{x / 1e3:.3g}k"
    return f"{x / 1e6:.3g}M"


def _wave_pairs(n_pairs: int, count: int = 4) -> list[int]:
    """Up to ``count`` frequency pairs spread from the fastest (0) to the slowest (n_pairs − 1)."""
    picks = [round(f * (n_pairs - 1)) for f in (0.0, 1 / 8, 1 / 3, 1.0)[:count]]
    return sorted(set(picks))


def sinusoidal_explorer(d_model: int = 128, position: int = 20, length: int = 128, base: float = 10000.0,
                        max_length: int = 1024) -> LiveFigure:
    """Lesson 04's main figure: the sinusoidal encoding with sliders over d_model, position,
    sequence length and base.

    Left, the (length × d_model) heatmap of ``helpers.sinusoidal`` with the selected position's
    row marked; top right, that row (the position's vector) as two curves, sin(p·ω_i) at columns
    2i and cos(p·ω_i) at 2i + 1; bottom right, the sine column of a few frequency pairs (fastest,
    two middle ones, slowest) over all positions, stacked, with the selected position marked.
    Built once; each slider step replaces data and limits only.
    """
    import numpy as np
    import torch
    from matplotlib.ticker import MaxNLocator

    from ._checks import check_base, check_even, check_int
    from .encodings import frequencies, sinusoidal
    from .plots import heatmap

    d_model = check_even("d_model", d_model)
    max_length = check_int("max_length", max_length, 8)
    length = check_int("length", length, 2)
    position = check_int("position", position, 0)
    base = check_base(base)
    if not 2 <= d_model <= 1024:
        raise ValueError(f"d_model must be an even integer from 2 to 1024, got {d_model}")
    if length > max_length:
        raise ValueError(f"length must be at most max_length = {max_length}, got {length}")
    if position >= length:
        raise ValueError(f"position must be between 0 and length − 1 = {length - 1}, got {position}")

    fig = plt.figure(figsize=(11, 4.6))
    grid = fig.add_gridspec(2, 2, width_ratios=(1.15, 1), hspace=0.55, wspace=0.25,
                            left=0.06, right=0.98, top=0.92, bottom=0.11)
    ax_map = fig.add_subplot(grid[:, 0])
    ax_vec = fig.add_subplot(grid[0, 1])
    ax_wave = fig.add_subplot(grid[1, 1])

    im = heatmap(ax_map, np.zeros((length, d_model)), xlabel="dimension", ylabel="position", colorbar=False)
    fig.colorbar(im, ax=ax_map, fraction=0.046, pad=0.03, ticks=[-1, 0, 1])
    row = ax_map.axhline(position, color="black", linewidth=1.6)
    colors = ("tab:blue", "tab:orange", "tab:green", "tab:red")
    # a coloured triangle above the heatmap at each column drawn as a wave on the right
    column_marks = [ax_map.plot([], [], "v", color=c, markersize=7, clip_on=False)[0] for c in colors]

    (sin_line,) = ax_vec.plot([], [], color="tab:blue", linewidth=1.2, label="sin (dims 0, 2, 4, …)")
    (cos_line,) = ax_vec.plot([], [], color="tab:orange", linewidth=1.2, label="cos (dims 1, 3, 5, …)")
    ax_vec.set_ylim(-1.15, 1.15)
    ax_vec.set_xlabel("dimension")
    ax_vec.legend(loc="lower right", fontsize=8, ncol=2, framealpha=0.8)

    gap = 2.4
    waves = [ax_wave.plot([], [], color=c, linewidth=1.2)[0] for c in colors]
    cursor = ax_wave.axvline(position, color="black", linewidth=1.0)
    ax_wave.set_ylim(-gap * 3 - 1.3, 1.3)
    ax_wave.set_xlabel("position")
    ax_wave.set_title("sin(p·ω_i) of a few pairs, fastest on top", fontsize=10)
    for ax in (ax_map, ax_vec, ax_wave):
        ax.xaxis.set_major_locator(MaxNLocator(5, integer=True))
    ax_map.yaxis.set_major_locator(MaxNLocator(5, integer=True))
    ax_vec.set_yticks([-1, 0, 1])

    def update(d_model, position, length, base):
        position = min(position, length - 1)
        pe = sinusoidal(length, d_model, base).numpy()
        omega = frequencies(d_model, base, torch.float64).numpy()
        im.set_data(pe)
        im.set_extent((-0.5, d_model - 0.5, length - 0.5, -0.5))
        row.set_ydata([position, position])
        ax_map.set_title(f"PE: {length} positions × {d_model} dims, base {base:g}", fontsize=10, pad=12)

        dims = np.arange(d_model)
        sin_line.set_data(dims[0::2], pe[position, 0::2])
        cos_line.set_data(dims[1::2], pe[position, 1::2])
        ax_vec.set_xlim(-0.5, d_model - 0.5)
        norm = float(np.linalg.norm(pe[position]))
        ax_vec.set_title(f"the vector PE[{position}]   (norm {norm:.3g} = √(d/2))", fontsize=10)

        pairs = _wave_pairs(d_model // 2)
        positions = np.arange(length)
        ticks, labels = [], []
        for j, (line, mark) in enumerate(zip(waves, column_marks, strict=True)):
            visible = j < len(pairs)
            line.set_visible(visible)
            mark.set_visible(visible)
            if visible:
                i = pairs[j]
                line.set_data(positions, pe[:, 2 * i] - gap * j)
                mark.set_data([2 * i], [-0.5 - 0.012 * length])
                ticks.append(-gap * j)
                labels.append(f"dim {2 * i}\nλ={_short_number(2 * np.pi / omega[i])}")
        ax_wave.set_yticks(ticks, labels, fontsize=8)
        ax_wave.set_xlim(-0.5, length - 0.5)
        cursor.set_xdata([position, position])

    controls = {
        "d_model": int_slider("d_model", d_model, 2, 1024, step=2),
        "position": int_slider("position", position, 0, length - 1),
        "length": int_slider("length", length, 8, max_length, step=8),
        "base": W.FloatLogSlider(value=base, base=10, min=1, max=6, step=0.05, description="base",
                                 style={"description_width": "initial"}),
    }

    def follow_length(change):
        controls["position"].max = change["new"] - 1

    controls["length"].observe(follow_length, names="value")  # registered first: runs before the redraw
    return LiveFigure(fig, update, controls)


def clock_hands(d_model: int = 16, k: int = 10, position: int = 0, base: float = 10000.0,
                max_k: int = 200, n_clocks: int = 8) -> LiveFigure:
    """Lesson 05's figure: each frequency pair of PE as a clock hand, moved by the shift matrix.

    For a few pairs i (spread from fastest to slowest), the point (sin pω_i, cos pω_i) is drawn
    on the unit circle: 12 o'clock at p = 0, turning clockwise as p grows. The grey hand is
    PE(p); the coloured hand is M_k·PE(p) = PE(p + k), turned by the angle k·ω_i (the arc).
    Sliders: the offset k (negative turns back) and the start position p.
    """
    import numpy as np
    import torch

    from ._checks import check_base, check_even, check_int
    from .encodings import frequencies, shift_matrix, sinusoidal

    d_model = check_even("d_model", d_model)
    max_k = check_int("max_k", max_k, 1)
    n_clocks = check_int("n_clocks", n_clocks, 1)
    position = check_int("position", position, 0)
    base = check_base(base)
    if isinstance(k, bool) or not isinstance(k, int) or not -max_k <= k <= max_k:
        raise ValueError(f"k must be an integer from −max_k to max_k = {max_k}, got {k!r}")
    if position > max_k:
        raise ValueError(f"position must be between 0 and max_k = {max_k}, got {position}")
    n_pairs = d_model // 2
    pairs = sorted({round(i) for i in np.linspace(0, n_pairs - 1, min(n_clocks, n_pairs))})
    omega = frequencies(d_model, base, torch.float64).numpy()
    table = sinusoidal(max_k + 1, d_model, base)  # positions 0 … max_k for the start slider

    cols = min(len(pairs), 4)
    rows = -(-len(pairs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.4 * cols, 2.6 * rows), squeeze=False)
    fig.subplots_adjust(left=0.02, right=0.98, top=0.86, bottom=0.08, wspace=0.1, hspace=0.45)
    circle = np.linspace(0, 2 * np.pi, 121)
    artists = []
    for ax in axes.flat[len(pairs):]:
        ax.set_visible(False)
    for ax, i in zip(axes.flat, pairs, strict=False):
        ax.plot(np.sin(circle), np.cos(circle), color="0.75", linewidth=1)
        ax.plot([0], [0], "o", color="0.3", markersize=3)
        (start,) = ax.plot([], [], color="0.6", linewidth=2)
        (arc,) = ax.plot([], [], color="tab:red", linewidth=2.5, alpha=0.5)
        (hand,) = ax.plot([], [], color="tab:red", linewidth=2.5, marker="o", markevery=[1], markersize=6)
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.25, 1.25)
        ax.set_aspect("equal")
        ax.set_axis_off()
        label = ax.set_title("", fontsize=9)
        artists.append((i, start, arc, hand, label))
    heading = fig.suptitle("", fontsize=11)

    def update(k, position):
        moved = (shift_matrix(k, d_model, base) @ table[position]).numpy()  # = PE(position + k)
        here = table[position].numpy()
        for i, start, arc, hand, label in artists:
            start.set_data([0, here[2 * i]], [0, here[2 * i + 1]])
            hand.set_data([0, moved[2 * i]], [0, moved[2 * i + 1]])
            turn = k * omega[i]
            sweep = np.linspace(0, float(np.clip(turn, -2 * np.pi, 2 * np.pi)), 60)
            t0 = position * omega[i]
            arc.set_data(1.1 * np.sin(t0 + sweep), 1.1 * np.cos(t0 + sweep))
            label.set_text(f"pair {i}: ω={omega[i]:.3g}\nk·ω = {turn / (2 * np.pi):+.3g} turns")
        heading.set_text(f"k = {k}.   grey: PE({position}),   red: M_k·PE({position}) = PE({position + k})")

    controls = {
        "k": int_slider("offset k", k, -max_k, max_k),
        "position": int_slider("start p", position, 0, max_k),
    }
    return LiveFigure(fig, update, controls)


# Lessons 01–03 ------------------------------------------------------------------------------

COUNTING_LENGTHS = (4, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


def counting_explorer(length: int = 1000, shown_keys: int = 20) -> LiveFigure:
    """Lesson 01: the raw index as a position signal, with a slider over the sequence length
    L = 4 … 100 000 (values 1-2-5 per decade; other lengths snap to the nearest of them).

    Left, on a log scale: a typical embedding entry (RMS of N(0, 1) entries), the largest index
    L − 1 and the largest attention logit of the last token with the index in q and k ("index as
    a feature"). Middle: that token's attention weights on the last ``shown_keys`` keys, without
    a position signal and with the index. Right: the entropy of the row against L for no index,
    the index as a feature and added to every entry, with log L (uniform attention) for
    reference. Every number comes from :func:`helpers.positions.counting_snapshot`.
    """
    import math

    import numpy as np
    from matplotlib.ticker import NullLocator

    from ._checks import check_int
    from .positions import counting_snapshot

    length = check_int("length", length, 1)
    shown_keys = check_int("shown_keys", shown_keys, 2)
    length = min(COUNTING_LENGTHS, key=lambda n: abs(math.log(n) - math.log(length)))
    curves = {mode: [counting_snapshot(n, mode=mode)["entropy"] for n in COUNTING_LENGTHS]
              for mode in ("none", "feature", "added")}

    fig, (ax_size, ax_row, ax_ent) = plt.subplots(1, 3, figsize=(11.5, 3.5),
                                                  gridspec_kw={"width_ratios": [0.8, 1, 1.1]})
    fig.subplots_adjust(left=0.06, right=0.985, top=0.84, bottom=0.17, wspace=0.32)
    bars = ax_size.bar(["embedding\nentry (RMS)", "largest\nindex", "largest logit\n(index in q, k)"],
                       [1.0, 1.0, 1.0], color=["tab:gray", "tab:orange", "tab:red"])
    ax_size.set_yscale("log")
    ax_size.set_ylim(0.1, 1e11)
    ax_size.set_yticks([1e0, 1e2, 1e4, 1e6, 1e8, 1e10])
    ax_size.yaxis.set_minor_locator(NullLocator())
    ax_size.tick_params(axis="x", labelsize=8)
    ax_size.set_title("sizes (log scale)", fontsize=10)
    labels = [ax_size.text(i, 1.0, "", ha="center", va="bottom", fontsize=8) for i in range(3)]

    back = np.arange(shown_keys)
    (plain,) = ax_row.plot(back, np.zeros(shown_keys), "o-", color="tab:gray", markersize=3)
    (indexed,) = ax_row.plot(back, np.zeros(shown_keys), "o-", color="tab:blue", markersize=3)
    uniform = ax_row.axhline(0.0, color="black", linestyle=":", linewidth=1)
    ax_row.set_ylim(-0.03, 1.03)
    ax_row.set_xlim(-0.5, shown_keys - 0.5)
    ax_row.set_xlabel("keys back from the last token (0 = itself)")
    ax_row.set_ylabel("attention weight")  # colours as in the legend on the right
    row_title = ax_row.set_title("", fontsize=10)

    lengths = np.array(COUNTING_LENGTHS)
    ax_ent.plot(lengths, np.log(lengths), ":", color="black", label="log L (uniform)")
    for ys, color, name in zip(curves.values(), ("tab:gray", "tab:blue", "tab:orange"),
                               ("no index", "index as a feature", "index added"), strict=True):
        ax_ent.plot(lengths, ys, "o-", color=color, markersize=3, label=name)
    cursor = ax_ent.axvline(length, color="tab:red", linewidth=1.2)
    ax_ent.set_xscale("log")
    ax_ent.xaxis.set_minor_locator(NullLocator())  # fewer ticks to draw on every step
    ax_ent.set_xlabel("sequence length L")
    ax_ent.set_ylabel("entropy of the last row (nats)")
    ax_ent.legend(fontsize=8, loc="upper left")
    ent_title = ax_ent.set_title("", fontsize=10)
    heading = fig.suptitle("", fontsize=11)

    def update(length):
        plain_snap = counting_snapshot(length, mode="none")
        snap = counting_snapshot(length, mode="feature")
        sizes = (snap["embedding_rms"], snap["position"], snap["max_logit"])
        for bar, label, size in zip(bars, labels, sizes, strict=True):
            bar.set_height(max(size, 0.1))
            label.set_position((label.get_position()[0], max(size, 0.1) * 1.3))
            label.set_text(f"{size:.3g}")
        n = min(shown_keys, length)
        for line, s in ((plain, plain_snap), (indexed, snap)):
            ys = np.full(shown_keys, np.nan)
            ys[:n] = s["weights"].flip(0)[:n].numpy()
            line.set_ydata(ys)
        uniform.set_ydata([1 / length, 1 / length])
        row_title.set_text(f"weight on itself: {plain_snap['weight_on_last']:.2g} → {snap['weight_on_last']:.3g}")
        cursor.set_xdata([length, length])
        ent_title.set_text(f"entropy {plain_snap['entropy']:.3g} → {snap['entropy']:.3g}  "
                           f"(log L = {math.log(length):.3g})")
        heading.set_text(f"L = {length:,}: the last token's index is {length - 1:,}, "
                         f"{snap['ratio']:.3g}× a typical embedding entry")

    control = W.SelectionSlider(options=list(COUNTING_LENGTHS), value=length, description="length L",
                                continuous_update=True, style={"description_width": "initial"},
                                layout=W.Layout(width="420px"))
    return LiveFigure(fig, update, {"length": control})


def normalised_explorer(length_a: int = 5, length_b: int = 12, max_length: int = 40) -> LiveFigure:
    """Lesson 02: the normalised codes p / (L − 1) of two sentences, side by side, with a slider
    for each length (2 … ``max_length``).

    Each row shows a sentence's codes on [0, 1] with indices under the dots; the second word
    (index 1) is red; dashed lines join codes the two sentences share exactly. The title gives
    the step between neighbours, 1 / (L − 1). Numbers from :func:`helpers.positions.compare_lengths`.
    """
    import numpy as np
    from matplotlib.collections import LineCollection

    from ._checks import check_int
    from .positions import compare_lengths

    max_length = check_int("max_length", max_length, 2)
    length_a = check_int("length_a", length_a, 2)
    length_b = check_int("length_b", length_b, 2)
    for name, value in (("length_a", length_a), ("length_b", length_b)):
        if value > max_length:
            raise ValueError(f"{name} must be between 2 and max_length = {max_length}, got {value}")

    fig, ax = plt.subplots(figsize=(10, 3.0))
    fig.subplots_adjust(left=0.1, right=0.97, top=0.8, bottom=0.17)
    rows = {"a": 1.0, "b": 0.0}
    shared = LineCollection([], colors="tab:green", linestyles="--", linewidths=1)
    ax.add_collection(shared)
    dots, seconds, texts = {}, {}, {}
    for key, y in rows.items():
        ax.axhline(y, color="0.85", linewidth=1, zorder=0)
        (dots[key],) = ax.plot([], [], "o", color="tab:blue", markersize=6)
        (seconds[key],) = ax.plot([], [], "o", color="tab:red", markersize=9)
        texts[key] = [ax.text(0, y - 0.2, "", ha="center", va="top", fontsize=7) for _ in range(max_length)]
    ax.set_xlim(-0.04, 1.04)
    ax.set_ylim(-0.45, 1.3)
    ax.set_xlabel("normalised position p / (L − 1)")
    ylabels = [ax.text(-0.06, y, "", ha="right", va="center", fontsize=10, transform=ax.get_yaxis_transform())
               for y in rows.values()]
    ax.set_yticks([])
    title = ax.set_title("", fontsize=10)

    def update(length_a, length_b):
        c = compare_lengths(length_a, length_b)
        for key, length, label in (("a", length_a, ylabels[0]), ("b", length_b, ylabels[1])):
            y = rows[key]
            codes = c[f"codes_{key}"].numpy()
            dots[key].set_data(codes, np.full(length, y))
            seconds[key].set_data([codes[1]], [y])
            every = 1 if length <= 20 else 5
            for p, text in enumerate(texts[key]):
                visible = p < length and (p % every == 0 or p == 1)
                text.set_visible(visible)
                if visible:
                    text.set_position((codes[p], y - 0.12))
                    text.set_text(str(p))
            label.set_text(f"L = {length}")
        shared.set_segments([[(c["codes_a"][i].item(), 1.0), (c["codes_b"][j].item(), 0.0)] for i, j in c["shared"]])
        title.set_text(f"second word: {c['second_a']:.3g} vs {c['second_b']:.3g}    step between neighbours: "
                       f"{c['step_a']:.3g} vs {c['step_b']:.3g}    codes in common: {len(c['shared'])}")

    controls = {
        "length_a": int_slider("length A", length_a, 2, max_length),
        "length_b": int_slider("length B", length_b, 2, max_length),
    }
    return LiveFigure(fig, update, controls)


def sine_explorer(omega: float = 1.0, length: int = 50, max_length: int = 200) -> LiveFigure:
    """Lesson 03: positions 0 … L − 1 on the wave sin(ω·p) and on the circle (cos ω·p, sin ω·p),
    with sliders over ω (0.001 … π, log scale) and L (2 … ``max_length``).

    The closest pair of distinct positions is marked in red on each: on the wave they share
    (nearly) the same height; on the circle (nearly) the same point. Titles give the smallest
    gaps. Numbers from :func:`helpers.positions.sine_snapshot`.
    """
    import math

    import numpy as np

    from ._checks import check_finite, check_int
    from .positions import sine_snapshot

    max_length = check_int("max_length", max_length, 2)
    length = check_int("length", length, 2)
    omega = check_finite("omega", omega)
    if length > max_length:
        raise ValueError(f"length must be between 2 and max_length = {max_length}, got {length}")
    if not 1e-3 <= omega <= math.pi:
        raise ValueError(f"omega must be between 0.001 and π, got {omega}")

    fig, (ax_wave, ax_circle) = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [2.2, 1]})
    fig.subplots_adjust(left=0.06, right=0.98, top=0.86, bottom=0.14, wspace=0.15)
    (curve,) = ax_wave.plot([], [], color="0.7", linewidth=1)
    (wave_dots,) = ax_wave.plot([], [], "o", color="tab:blue", markersize=3)
    (wave_pair,) = ax_wave.plot([], [], "o", color="tab:red", markersize=8, markerfacecolor="none", markeredgewidth=2)
    pair_level = ax_wave.axhline(0.0, color="tab:red", linestyle=":", linewidth=1)
    ax_wave.set_ylim(-1.15, 1.15)
    ax_wave.set_xlabel("position p")
    ax_wave.set_ylabel("sin(ω·p)")
    wave_title = ax_wave.set_title("", fontsize=10)

    theta = np.linspace(0, 2 * np.pi, 241)
    ax_circle.plot(np.cos(theta), np.sin(theta), color="0.8", linewidth=1)
    circle_dots = ax_circle.scatter(np.zeros(max_length), np.zeros(max_length), c=np.arange(max_length),
                                    cmap="viridis", s=14, vmin=0, vmax=max_length - 1)
    (circle_pair,) = ax_circle.plot([], [], "o", color="tab:red", markersize=9, markerfacecolor="none",
                                    markeredgewidth=2)
    ax_circle.set_xlim(-1.3, 1.3)
    ax_circle.set_ylim(-1.3, 1.3)
    ax_circle.set_aspect("equal")
    ax_circle.set_xlabel("cos(ω·p)")
    ax_circle.set_ylabel("sin(ω·p)")
    circle_title = ax_circle.set_title("", fontsize=10)
    heading = fig.suptitle("", fontsize=11)

    def update(omega, length):
        s = sine_snapshot(omega, length)
        p = np.arange(length)
        t = np.linspace(0, length - 1, 2000)
        curve.set_data(t, np.sin(omega * t))
        wave_dots.set_data(p, s["values"].numpy())
        i, j, gap = s["wave_pair"]
        wave_pair.set_data([i, j], [s["values"][i].item(), s["values"][j].item()])
        pair_level.set_ydata([s["values"][i].item()] * 2)
        ax_wave.set_xlim(-0.5, length - 0.5)
        wave_title.set_text(f"on the wave: closest pair {i}, {j} (gap {gap:.2g}); "
                            f"smallest step to a neighbour {s['neighbour_gap']:.2g}")
        points = np.full((max_length, 2), np.nan)
        points[:length] = s["circle"].numpy()
        circle_dots.set_offsets(points)
        circle_dots.set_clim(0, length - 1)
        ci, cj, cdist = s["circle_pair"]
        circle_pair.set_data(s["circle"][[ci, cj], 0].numpy(), s["circle"][[ci, cj], 1].numpy())
        circle_title.set_text(f"on the circle: closest {ci}, {cj} ({cdist:.2g})")
        heading.set_text(f"ω = {omega:.3g}, L = {length}: the positions go round {s['turns']:.3g} times "
                         f"(period 2π/ω = {2 * math.pi / omega:.3g} positions)")

    controls = {
        "omega": W.FloatLogSlider(value=omega, base=10, min=-3, max=math.log10(math.pi), step=0.01,
                                  description="ω", readout_format=".3g", style={"description_width": "initial"}),
        "length": int_slider("length L", length, 2, max_length),
    }
    return LiveFigure(fig, update, controls)


# Lesson 06 ----------------------------------------------------------------------------------


def rope_explorer(q=None, k=None, m: int = 3, n: int = 1, pair: int = 0, base: float = 10000.0,
                  max_position: int = 64) -> LiveFigure:
    """Lesson 06: a query at position m and a key at position n, rotated by RoPE (interleaved pairs).

    Left: the plane of one pair (2i, 2i+1). Faint arrows are q's and k's pair before rotation;
    solid arrows are the same pair turned by m·ω_i and n·ω_i. Their dot product is this pair's
    share of the score. Right: the full score ⟨R_m q, R_n k⟩ against the offset m − n (computed
    once), with the current point marked — moving m and n together leaves it where it is.
    Sliders: m, n (0 … max_position) and the pair i. q and k are (d,) tensors; by default a
    fixed random pair with d = 32.
    """
    import numpy as np
    import torch

    from ._checks import check_base, check_int
    from .encodings import frequencies
    from .rope_analysis import rope_pair_view, scores_by_offset

    base = check_base(base)
    max_position = check_int("max_position", max_position, 1)
    m, n, pair = check_int("m", m, 0), check_int("n", n, 0), check_int("pair", pair, 0)
    if max(m, n) > max_position:
        raise ValueError(f"m and n must be between 0 and max_position = {max_position}, got {m} and {n}")
    if q is None or k is None:
        q, k = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    rope_pair_view(q, k, m, n, pair, base)  # validates q, k and pair
    q, k = q.detach().double(), k.detach().double()
    d = q.shape[0]
    omega = frequencies(d, base, torch.float64).numpy()
    offsets = np.arange(-max_position, max_position + 1)
    profile = scores_by_offset(q, k, torch.from_numpy(offsets), base).numpy()

    fig, (plane, curve) = plt.subplots(1, 2, figsize=(9.0, 3.8), gridspec_kw={"width_ratios": [1, 1.5]})
    fig.subplots_adjust(left=0.04, right=0.98, top=0.83, bottom=0.14, wspace=0.25)
    circle = np.linspace(0, 2 * np.pi, 121)
    (ring,) = plane.plot(np.cos(circle), np.sin(circle), color="0.85", linewidth=1)
    plane.axhline(0, color="0.9", linewidth=0.8)
    plane.axvline(0, color="0.9", linewidth=0.8)
    arrows = {}
    for name, color in (("q", "tab:blue"), ("k", "tab:orange")):
        (faint,) = plane.plot([], [], color=color, alpha=0.3, linewidth=2)
        (solid,) = plane.plot([], [], color=color, linewidth=2.5, marker="o", markevery=[1], markersize=6,
                              label=f"{name}")
        arrows[name] = (faint, solid)
    plane.set_aspect("equal")
    plane.set_xticks([])
    plane.set_yticks([])
    plane.legend(loc="lower left", fontsize=8, frameon=False)
    plane_title = plane.set_title("", fontsize=9)
    curve.plot(offsets, profile, color="0.4", linewidth=1.2)
    curve.axhline(0, color="0.85", linewidth=0.8)
    (marker,) = curve.plot([], [], "o", color="tab:red", markersize=8)
    curve.set_xlabel("offset m − n")
    curve.set_ylabel("score ⟨R_m q, R_n k⟩")
    curve.set_xlim(offsets[0], offsets[-1])
    curve_title = curve.set_title("", fontsize=9)
    heading = fig.suptitle("", fontsize=11)

    def update(m, n, pair):
        view = rope_pair_view(q, k, m, n, pair, base)
        start = {"q": q[2 * pair : 2 * pair + 2].numpy(), "k": k[2 * pair : 2 * pair + 2].numpy()}
        radius = 1.15 * max(float(np.hypot(*start["q"])), float(np.hypot(*start["k"])), 1e-6)
        ring.set_data(radius / 1.15 * np.cos(circle), radius / 1.15 * np.sin(circle))
        for name, (faint, solid) in arrows.items():
            faint.set_data([0, start[name][0]], [0, start[name][1]])
            x, y = view[f"{name}_xy"]
            solid.set_data([0, x], [0, y])
        plane.set_xlim(-radius, radius)
        plane.set_ylim(-radius, radius)
        plane_title.set_text(f"pair {pair}: ω = {omega[pair]:.3g}; q turned {m * omega[pair]:.3g} rad, "
                             f"k {n * omega[pair]:.3g} rad\nthis pair's share of the score: {view['pair_score']:.3f}")
        marker.set_data([view["offset"]], [view["score"]])
        curve_title.set_text(f"score = {view['score']:.4f} at m − n = {view['offset']}")
        heading.set_text(f"query at m = {m}, key at n = {n}")

    controls = {
        "m": int_slider("query position m", m, 0, max_position),
        "n": int_slider("key position n", n, 0, max_position),
        "pair": int_slider("pair i", pair, 0, d // 2 - 1),
    }
    return LiveFigure(fig, update, controls)
