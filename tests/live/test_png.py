"""PNG rendering: the fast encoder round-trips, and render_png gives savefig's pixels."""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from helpers.live import encode_png, render_png  # noqa: E402


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_png_encoder_round_trips_and_rejects_bad_input():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, size=(7, 11, 3), dtype=np.uint8)
    assert np.array_equal(pixels(encode_png(rgb)), rgb)
    for bad in (rgb.astype(np.float32), rgb[..., :2], [[0, 0, 0]]):
        with pytest.raises(ValueError, match=r"rgb must be a \(height, width, 3\) uint8 array"):
            encode_png(bad)


def test_render_png_gives_the_pixels_of_savefig():
    fig, ax = plt.subplots(figsize=(3, 2), dpi=80)
    ax.imshow(np.arange(12.0).reshape(3, 4))
    ax.set_title("twelve")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi)
    assert np.array_equal(pixels(render_png(fig)), pixels(buf.getvalue()))
    assert pixels(render_png(fig, dpi=40)).shape == (80, 120, 3)  # another dpi: through savefig
    plt.close(fig)


def test_transparent_figure_is_composited_onto_white():
    fig, ax = plt.subplots(figsize=(2, 1))
    fig.patch.set_alpha(0.0)
    ax.set_axis_off()
    assert (pixels(render_png(fig)) == 255).all()
    plt.close(fig)
