"""What every browser-drawn explorer built on the course's bundles shares (``bundle/lNN_<lesson>.js``,
built by ``make bundle`` from ``js/src/``): an anywidget whose values are checked as the builder
checks them, and a saved output that works everywhere.

The saved output carries, beside the widget view:

* ``text/html``: a still picture with a line of text, and a module script that loads the bundle
  (inlined) and mounts it on a model kept in the page (``stubModel``), so a static page that runs
  scripts (the course's web site) shows the live explorer with no kernel; GitHub, nbviewer and an
  untrusted notebook show the still picture;
* ``image/png``: the same still picture, drawn by Matplotlib at twice the page's pixels.

Test contract (js/src/explorer.js): the root element has the class ``pe-explorer`` and the
attributes ``data-explorer``, ``data-pe-id`` and ``data-draws``; ``globalThis.__pe_explorers[id]``
holds the values and the numbers of the last draw.
"""

from __future__ import annotations

import base64
import html
import io
import json
import uuid
from pathlib import Path
from typing import ClassVar

import anywidget
from IPython.display import display
from matplotlib.figure import Figure

from ...plots import COURSE_DPI, watch_figure

BUNDLE_DIR = Path(__file__).with_name("bundle")


def bundle_source(name: str) -> str:
    """The shipped bundle ``bundle/<name>.js`` (an ES module exporting ``default.render`` and ``stubModel``)."""
    path = BUNDLE_DIR / f"{name}.js"
    if not path.exists():
        raise FileNotFoundError(f"{path.name} is not in helpers/explorers/browser/bundle: run `make bundle`")
    return path.read_text(encoding="utf-8")


STILL_COLOURS = 96  # a still's palette: its lines, dots and colour maps need no more


def compact_png(fig: Figure, dpi: float, colours: int = STILL_COLOURS) -> bytes:
    """``fig`` as a PNG of at most ``colours`` colours: a quarter of the bytes of a full-colour one,
    which a saved notebook carries twice (the picture, and inside the page's HTML)."""
    from PIL import Image  # Matplotlib's own dependency

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, facecolor="white")
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


class BrowserExplorer(anywidget.AnyWidget):
    """A browser-drawn explorer. A subclass sets ``_esm`` (its bundle), its synced traits, ``names``
    (the traits the sliders move, in order), ``still_inches``, and defines ``still_figure()`` and
    ``describe()``."""

    names: ClassVar[tuple[str, ...]] = ()
    still_inches: ClassVar[tuple[float, float]] = (7.8, 4.0)

    def values(self) -> dict:
        return {name: getattr(self, name) for name in self.names}

    def state(self) -> dict:
        """What the page's model starts with: the sliders' values and any other synced trait."""
        return {name: getattr(self, name) for name in self.trait_names(sync=True) if not name.startswith("_")
                and name not in ("layout", "tabbable", "tooltip", "comm", "keys", "log")}

    def describe(self) -> str:
        raise NotImplementedError

    def still_figure(self) -> Figure:
        raise NotImplementedError

    def still_png(self) -> bytes:
        fig = self.still_figure()
        watch_figure(fig, COURSE_DPI)  # checked with the lesson's figures in the course's own runs
        return compact_png(fig, 2 * COURSE_DPI)

    def still_size(self) -> dict:
        width, height = self.still_inches
        return {"width": round(width * COURSE_DPI), "height": round(height * COURSE_DPI)}

    def static_html(self, png: bytes | None = None) -> str:
        png = self.still_png() if png is None else png
        host = f"pe-static-{uuid.uuid4().hex[:12]}"
        picture = base64.b64encode(png).decode("ascii")
        text = self.describe()
        loader = (
            f"const source = {json.dumps(self._esm)};\n"
            "const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));\n"
            "import(url).then((explorer) => {\n"
            f"  const host = document.getElementById({json.dumps(host)});\n"
            "  for (const fallback of host.querySelectorAll('.pe-fallback')) fallback.remove();\n"
            f"  explorer.default.render({{ model: explorer.stubModel({json.dumps(self.state())}), el: host }});\n"
            "});\n"
        )
        return (
            f'<div id="{host}" class="pe-explorer-static">\n'
            f'<div class="pe-fallback"><img src="data:image/png;base64,{picture}" '
            f'width="{self.still_size()["width"]}" style="max-width: 100%; height: auto" alt="{html.escape(text)}">\n'
            f"<p><em>{html.escape(text)} The explorer's sliders move where the page runs its script (the course's "
            "web site), or in Jupyter once the cell has run.</em></p></div>\n</div>\n"
            f'<script type="module">\n{loader}</script>\n'
        )

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)  # the widget view (and Colab's metadata)
        png = self.still_png()
        data["text/plain"] = f"<explorer drawn by the browser: {self.describe()}>"
        data["image/png"] = base64.b64encode(png).decode("ascii")
        data["text/html"] = self.static_html(png)
        return data, {**(metadata or {}), "image/png": self.still_size()}

    def _ipython_display_(self) -> None:
        # ipywidgets 7 (Colab) displays a widget through this method: send the same bundle
        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)
