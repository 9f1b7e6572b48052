"""Slider widgets over figures that are built once and updated in place.

A lesson builds its matplotlib figure once, writes an ``update(**values)`` function that only
changes artists (``im.set_data``, ``line.set_ydata``, titles, limits), and hands both to
:class:`LiveFigure`. Rendering:

* with the interactive backend (ipympl, ``%matplotlib widget``) the figure's own canvas is
  shown and redrawn;
* otherwise (Colab, classic notebook, nbconvert) the updated figure is rendered to PNG and
  re-displayed in an Output widget of fixed height, replacing the previous image.

Works with ipywidgets 7.7 (Colab) and 8.x (JupyterLab 4).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable

import ipywidgets as W
import matplotlib.pyplot as plt
from IPython.display import Image, display
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image as PILImage


def uses_interactive_backend(fig) -> bool:
    """True when ``fig`` draws on an ipympl canvas (a widget of its own)."""
    return type(fig.canvas).__module__.startswith("ipympl")


def render_png(fig, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes: what the Output-widget path sends to the front end.

    Draws on the figure's own Agg canvas (its renderer and text layouts are reused between
    steps) and encodes RGB with light compression: PNG encoding, not drawing, is what makes
    a naive ``savefig`` slow.
    """
    if dpi is not None and dpi != fig.dpi or not isinstance(fig.canvas, FigureCanvasAgg):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi or fig.dpi, pil_kwargs={"compress_level": 1})
        return buf.getvalue()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    size = (int(renderer.width), int(renderer.height))
    rgba = PILImage.frombuffer("RGBA", size, renderer.buffer_rgba(), "raw", "RGBA", 0, 1)
    buf = io.BytesIO()
    rgba.convert("RGB").save(buf, format="png", compress_level=1)
    return buf.getvalue()


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
        self.update(**self.values())
        return render_png(self.fig)

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
        self.update(**self.values())
        if self.interactive:
            self.fig.canvas.draw_idle()
            return
        self.png = render_png(self.fig)
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

    im = heatmap(ax_map, np.zeros((length, d_model)), xlabel="dimension", ylabel="position")
    row = ax_map.axhline(position, color="black", linewidth=1.6)
    column_marks = [ax_map.axvline(0, color="black", linewidth=0.8, linestyle=":") for _ in range(4)]

    (sin_line,) = ax_vec.plot([], [], color="tab:blue", linewidth=1.2, label="sin (dims 0, 2, 4, …)")
    (cos_line,) = ax_vec.plot([], [], color="tab:orange", linewidth=1.2, label="cos (dims 1, 3, 5, …)")
    ax_vec.set_ylim(-1.15, 1.15)
    ax_vec.set_xlabel("dimension")
    ax_vec.legend(loc="lower right", fontsize=8, ncol=2, framealpha=0.8)

    gap = 2.4
    waves = [ax_wave.plot([], [], linewidth=1.2)[0] for _ in range(4)]
    cursor = ax_wave.axvline(position, color="black", linewidth=1.0)
    ax_wave.set_ylim(-gap * 3 - 1.3, 1.3)
    ax_wave.set_xlabel("position")
    ax_wave.set_title("sin(p·ω_i) of a few pairs, fastest on top", fontsize=10)

    def update(d_model, position, length, base):
        position = min(position, length - 1)
        pe = sinusoidal(length, d_model, base).numpy()
        omega = frequencies(d_model, base, torch.float64).numpy()
        im.set_data(pe)
        im.set_extent((-0.5, d_model - 0.5, length - 0.5, -0.5))
        row.set_ydata([position, position])
        ax_map.set_title(f"PE: {length} positions × {d_model} dims, base {base:g}", fontsize=10)

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
                mark.set_xdata([2 * i, 2 * i])
                ticks.append(-gap * j)
                labels.append(f"dim {2 * i}\nλ={2 * np.pi / omega[i]:.3g}")
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
        ax.set_xticks([])
        ax.set_yticks([])
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
        heading.set_text(f"grey: PE({position}),  red: M_{{{k}}}·PE({position}) = PE({position + k})")

    controls = {
        "k": int_slider("offset k", k, -max_k, max_k),
        "position": int_slider("start p", position, 0, max_k),
    }
    return LiveFigure(fig, update, controls)
