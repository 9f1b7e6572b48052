"""A text cache for the Agg renderer of a figure that is drawn again and again.

A slider step redraws the same tick labels, titles and legends at the same places, and laying
out and rasterising the same strings again is a large share of a step. The renderer classes
below remember what Matplotlib would compute again, so the pixels are those of an uncached
draw; the tests compare them pixel by pixel (``tests/live/test_text_cache.py``), in both
environments.

* Matplotlib 3.11 draws text glyph by glyph (``RendererAgg._draw_text_glyphs_and_boxes``):
  the cache keeps text layouts and glyph bitmaps, glyphs keyed by font, size, angle and exact
  1/64-pixel position.
* Matplotlib 3.10 (Colab's) rasterises a whole string into one bitmap that does not depend on
  where it is drawn, then places and rotates it (``draw_text_image``): the cache keeps that
  bitmap with its offsets, keyed by font, size, string and antialiasing.

Both rely on private Matplotlib APIs (``RendererAgg._prepare_font``, and on 3.11
``FT2Font._layout``, ``._set_transform``, ``._render_glyph``), so the cache is switched on only
for the Matplotlib versions it was checked against (:data:`CHECKED_VERSIONS`) and only where
those APIs exist. Elsewhere the stock renderer draws the text.
"""

from __future__ import annotations

import math
import re

import matplotlib
import numpy as np
from matplotlib import ft2font
from matplotlib.backends.backend_agg import RendererAgg

# Private or semi-private names: a Matplotlib that renames one only switches the cache off
# (``supported()`` is then False); it must never break importing the explorers.
try:
    from matplotlib.backends.backend_agg import get_hinting_flag
    from matplotlib.font_manager import fontManager, get_font
except ImportError:  # pragma: no cover - exercised by tests/live/test_text_cache.py with a name removed
    get_hinting_flag = fontManager = get_font = None

CHECKED_VERSIONS = ((3, 10), (3, 11))


def _version(text: str) -> tuple[int, int]:
    major, minor = re.match(r"(\d+)\.(\d+)", text).groups()
    return int(major), int(minor)


def _has_apis(version: tuple[int, int]) -> bool:
    """Whether the private APIs the cache of that Matplotlib version relies on exist here."""
    if get_hinting_flag is None or fontManager is None or not hasattr(fontManager, "_find_fonts_by_props"):
        return False
    if not hasattr(RendererAgg, "_prepare_font"):
        return False
    if version >= (3, 11):
        return (hasattr(RendererAgg, "_draw_text_glyphs_and_boxes") and hasattr(ft2font, "RenderMode")
                and all(hasattr(ft2font.FT2Font, name) for name in ("_render_glyph", "_layout", "_set_transform")))
    return all(hasattr(ft2font.FT2Font, name) for name in ("set_text", "draw_glyphs_to_bitmap", "get_bitmap_offset",
                                                            "get_descent"))


def supported(version: str | None = None) -> bool:
    """Whether the cache can be used with this Matplotlib (or the given version string)."""
    checked = _version(version or matplotlib.__version__)
    installed = _version(matplotlib.__version__)
    return checked in CHECKED_VERSIONS and checked == installed and _has_apis(installed)


def use_text_cache(renderer) -> bool:
    """Switch a stock Agg renderer to the caching one, if supported; True if it is caching now."""
    if type(renderer) is RendererAgg and supported():
        renderer.__class__ = _TextCachingRendererAgg if _version(matplotlib.__version__) >= (3, 11) \
            else _StringCachingRendererAgg
    return isinstance(renderer, (_TextCachingRendererAgg, _StringCachingRendererAgg))


class _StringCachingRendererAgg(RendererAgg):
    """Matplotlib 3.10: an Agg renderer that remembers each string's bitmap between draws."""

    _MAX_ENTRIES = 20_000

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        cache = self.__dict__.setdefault("_strings", {})
        antialiased = gc.get_antialiased()
        key = (prop.copy(), self.dpi, s, antialiased, get_hinting_flag())
        hit = cache.get(key)
        if hit is None:
            if len(cache) > self._MAX_ENTRIES:
                cache.clear()
            # the stock steps (RendererAgg.draw_text), up to the bitmap and its offsets
            font = self._prepare_font(prop)
            font.set_text(s, 0, flags=get_hinting_flag())
            font.draw_glyphs_to_bitmap(antialiased=antialiased)
            xo, yo = font.get_bitmap_offset()
            hit = cache[key] = (np.array(font), xo / 64.0, yo / 64.0, font.get_descent() / 64.0)
        bitmap, xo, yo, d = hit
        # the same expressions, in the same order, as Matplotlib's: the same pixel position
        xd = d * math.sin(math.radians(angle))
        yd = d * math.cos(math.radians(angle))
        self._renderer.draw_text_image(bitmap, round(x + xo + xd), round(y + yo + yd) + 1, angle, gc)


class _TextCachingRendererAgg(RendererAgg):
    """An Agg renderer that remembers text layouts and rasterised glyphs between draws."""

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

    def _get_font_height_metrics(self, prop):
        """(ascent, descent, line gap) in pixels, as ``Text._get_layout`` computes them from the font's
        tables when a renderer has no such method: looked up once per font, size and dpi."""
        metrics = self.__dict__.setdefault("_height_metrics", {})
        key = (prop.copy(), self.dpi)
        if key not in metrics:
            metrics[key] = (None, None, None)  # Matplotlib then measures the font itself
            font = get_font(fontManager._find_fonts_by_props(prop))
            tables = (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                      ("hhea", "lineGap", "ascent", "descent"))
            for table_name, gap_key, ascent_key, descent_key in tables:
                table = font.get_sfnt_table(table_name)
                if table is not None:
                    # the same expression, in the same order, as Matplotlib's: the same floats
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * self.dpi / 72
                    metrics[key] = (table[ascent_key] * scale, -table[descent_key] * scale, table[gap_key] * scale)
                    break
        return metrics[key]

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
