"""The text cache of helpers.live.text_cache: on only for the Matplotlib versions it was checked
against, and pixel for pixel the same as a stock draw wherever it is on.

Runs in both environments: Matplotlib 3.11 (glyphs cached) and the Colab-like 3.10 (whole
strings cached); where the cache is off, the stock renderer draws.
"""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg  # noqa: E402
from PIL import Image  # noqa: E402

from helpers.live import render_png, text_cache  # noqa: E402


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def text_heavy_figure():
    """Ticks, titles, a legend, rotated and mathtext labels, at a dpi that puts glyphs at
    fractional pixel positions."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(5, 2.5), dpi=83)
    a.plot(np.arange(10), np.sin(np.arange(10)), label="sin(p·ω)")
    a.set_title("PE[20]  (norm 8 = √(d/2))", fontsize=9)
    a.legend(fontsize=7)
    a.set_xticks(range(0, 10, 3), ["zero", "three", "six", "nine"], rotation=33)
    b.text(0.5, 0.5, r"$\omega_i = b^{-2i/d}$ and plain", ha="center", rotation=-71)
    b.set_xlabel("dimension", fontsize=11.5)
    fig.suptitle("k = 10.   grey: PE(0),   red: M_k·PE(0) = PE(10)")
    return fig


def stock_pixels(fig) -> np.ndarray:
    """The figure drawn by a stock Agg renderer of its own (never one that caches)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    assert type(canvas.get_renderer()) is RendererAgg
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


def test_the_gate_follows_the_checked_versions():
    installed = text_cache._version(matplotlib.__version__)
    assert text_cache.supported() == (installed in text_cache.CHECKED_VERSIONS and text_cache._has_apis(installed))
    assert text_cache.supported(), f"Matplotlib {matplotlib.__version__}: both course environments cache text"
    # each version's cache copies that version's way of drawing text: never used with another
    other = "3.10.0" if installed == (3, 11) else "3.11.0"
    for version in (other, "3.9.0", "3.12.0", "4.0.0rc1"):
        assert not text_cache.supported(version), version


def test_cached_draws_are_pixel_identical_to_stock_draws():
    """The same figure built twice: one drawn again and again through the cache, the other by a
    fresh stock renderer after each change."""
    fig, reference = text_heavy_figure(), text_heavy_figure()
    assert np.array_equal(pixels(render_png(fig, cache_text=True)), stock_pixels(reference))
    assert (type(fig.canvas.get_renderer()) is not RendererAgg) == text_cache.supported()
    for title in ("another title", "PE[20]  (norm 8 = √(d/2))", "another title"):  # new text, then cached text
        for f in (fig, reference):
            f.axes[0].set_title(title, fontsize=9)
        assert np.array_equal(pixels(render_png(fig, cache_text=True)), stock_pixels(reference))
    plt.close(fig)
    plt.close(reference)


def test_the_cache_is_used_where_supported():
    fig = text_heavy_figure()
    render_png(fig, cache_text=True)
    render_png(fig, cache_text=True)
    renderer = fig.canvas.get_renderer()
    if not text_cache.supported():
        pytest.skip(f"no text cache with Matplotlib {matplotlib.__version__}: the stock renderer draws")
    if text_cache._version(matplotlib.__version__) >= (3, 11):
        assert renderer.__dict__["_layouts"] and renderer.__dict__["_glyphs"]
    else:
        assert renderer.__dict__["_strings"]
    plt.close(fig)


def test_without_cache_text_the_renderer_stays_stock():
    fig = text_heavy_figure()
    render_png(fig)
    assert type(fig.canvas.get_renderer()) is RendererAgg
    plt.close(fig)


@pytest.mark.skipif(text_cache._version(matplotlib.__version__) < (3, 11),
                    reason="Matplotlib 3.10 measures text itself: no font height metrics are cached")
@pytest.mark.parametrize("dpi", [72, 83, 144])
def test_font_height_metrics_give_the_stock_text_extents(dpi):
    fig = plt.figure(figsize=(3, 2), dpi=dpi)
    texts = [fig.text(0.1, 0.2 * i, "two\nlines Äg" if i % 2 else "one line gy", fontsize=size, family=family,
                      weight=weight)
             for i, (size, family, weight) in enumerate([(7, "sans-serif", "normal"), (9.5, "serif", "bold"),
                                                         (12, "monospace", "normal"), (17.3, "sans-serif", "light")])]
    stock = RendererAgg(300, 200, dpi)
    cached = RendererAgg(300, 200, dpi)
    assert text_cache.use_text_cache(cached)
    for text in texts:
        assert text.get_window_extent(cached).bounds == text.get_window_extent(stock).bounds
    plt.close(fig)


REMOVE_AND_IMPORT = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.backends.backend_agg as backend_agg
import matplotlib.font_manager as font_manager
# Matplotlib itself still uses the name, so it is hidden only while the course's modules import.
saved = getattr({module}, "{name}")
delattr({module}, "{name}")
from helpers import explorers
from helpers.live import text_cache, LiveFigure
setattr({module}, "{name}", saved)
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.set_title("drawn by the stock renderer")
renderer = fig.canvas.get_renderer()
assert not text_cache.supported() and not text_cache.use_text_cache(renderer)
fig.canvas.draw()
print("explorers imported; cache off")
"""


@pytest.mark.parametrize("module, name", [("backend_agg", "get_hinting_flag"), ("font_manager", "get_font")])
def test_a_missing_private_name_only_turns_the_cache_off(module, name):
    """A future Matplotlib that renames a private name the cache uses must not break the explorers."""
    import subprocess
    import sys

    code = REMOVE_AND_IMPORT.format(module=module, name=name)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "explorers imported; cache off" in done.stdout
