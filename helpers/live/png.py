"""The figure as PNG bytes, the way the Output-widget path sends it to the front end."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from .text_cache import use_text_cache


def render_png(fig, dpi: float | None = None, cache_text: bool = False) -> bytes:
    """Draw ``fig`` on its own Agg canvas (the renderer is reused between calls) and encode the
    RGB pixels with :func:`encode_png`. A figure without an Agg canvas, or another dpi, goes
    through ``savefig``. ``cache_text`` keeps text layouts and glyph bitmaps on the renderer
    between calls where Matplotlib allows it (:mod:`helpers.live.text_cache`): same pixels,
    much less work for a figure drawn again and again.
    """
    if dpi is not None and dpi != fig.dpi or not isinstance(fig.canvas, FigureCanvasAgg):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi or fig.dpi, pil_kwargs={"compress_level": 1})
        return buf.getvalue()
    if cache_text:
        use_text_cache(fig.canvas.get_renderer())
    fig.canvas.draw()
    return canvas_png(fig)


def canvas_png(fig) -> bytes:
    """What ``fig``'s Agg canvas holds now, as PNG bytes (nothing is drawn): after a draw, or after
    artists were drawn over a restored background."""
    rgba = np.asarray(fig.canvas.get_renderer().buffer_rgba())
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
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        shape = tuple(rgb.shape) if hasattr(rgb, "shape") else type(rgb).__name__
        raise ValueError(f"rgb must be a (height, width, 3) uint8 array, got {getattr(rgb, 'dtype', '')} {shape}")
    height, width = rgb.shape[:2]
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)  # leading 0 per row: filter type None
    rows[:, 1:] = rgb.reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + _png_chunk(b"IEND", b""))
