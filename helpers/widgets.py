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
