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
from collections.abc import Callable

import ipywidgets as W
import matplotlib.pyplot as plt
from IPython.display import Image, display


def uses_interactive_backend(fig) -> bool:
    """True when ``fig`` draws on an ipympl canvas (a widget of its own)."""
    return type(fig.canvas).__module__.startswith("ipympl")


def render_png(fig, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes (what the Output-widget path sends to the front end)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi or fig.dpi, pil_kwargs={"compress_level": 1})
    return buf.getvalue()


class LiveFigure:
    """Sliders (or any value widgets) driving in-place updates of one matplotlib figure.

    Parameters
    ----------
    fig : the figure, already built with all its artists.
    update : called as ``update(**values)`` with the current value of every control; it must
        only modify the figure's artists.
    controls : name → ipywidgets value widget (IntSlider, FloatSlider, Dropdown, …).
    continuous : if False, sliders report only when released (for slow figures).

    ``widget`` is the VBox to display; ``set(**values)`` moves controls from code, and
    ``step_png()`` renders the current state, which the latency benchmark times.
    """

    def __init__(self, fig, update: Callable[..., None], controls: dict[str, W.ValueWidget], continuous: bool = True):
        self.fig = fig
        self.update = update
        self.controls = controls
        self.interactive = uses_interactive_backend(fig)
        height = f"{int(fig.get_figheight() * fig.dpi) + 10}px"
        if self.interactive:
            self.view = fig.canvas
        else:
            plt.close(fig)  # keep the inline backend from showing a static copy
            self.view = W.Output(layout=W.Layout(height=height, overflow="hidden"))
        for control in controls.values():
            if not continuous and hasattr(control, "continuous_update"):
                control.continuous_update = False
            control.observe(self._on_change, names="value")
        box = W.HBox(list(controls.values()), layout=W.Layout(flex_flow="row wrap"))
        self.widget = W.VBox([box, self.view])
        self._on_change()

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def set(self, **values) -> None:
        """Move controls from code (several at once trigger one update per control)."""
        for name, value in values.items():
            self.controls[name].value = value

    def step_png(self) -> bytes:
        """Apply the current values and render to PNG: one slider step on the Output path."""
        self.update(**self.values())
        return render_png(self.fig)

    def _on_change(self, change=None) -> None:
        self.update(**self.values())
        if self.interactive:
            self.fig.canvas.draw_idle()
        else:
            with self.view:
                self.view.clear_output(wait=True)
                display(Image(data=render_png(self.fig)))

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
    axes[2].set_ylim(0, 1)
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
