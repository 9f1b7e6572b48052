"""helpers.plots: the course style is applied explicitly, by every lesson, and the figure helpers
return the artists a widget later updates."""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

from helpers import plots  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_use_course_style_sets_the_style_and_nothing_else():
    with matplotlib.rc_context():
        before = dict(matplotlib.rcParams)
        plots.use_course_style()
        changed = {k for k, v in matplotlib.rcParams.items() if before[k] != v}
        assert changed <= set(plots.COURSE_STYLE)
        assert all(matplotlib.rcParams[k] == v for k, v in plots.COURSE_STYLE.items())
        assert plt.figure().dpi == plots.COURSE_DPI
        plt.close("all")


def test_every_lesson_applies_the_course_style_where_it_imports_helpers():
    for path in NOTEBOOKS:
        cells = [("".join(c["source"])) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
        imports = next(i for i, src in enumerate(cells) if "import helpers as H" in src)
        assert "use_course_style()" in cells[imports], f"{path.name}: its import cell does not apply the style"


def test_heatmap_and_attention_map_return_their_image():
    fig, (a, b) = plt.subplots(1, 2)
    im = plots.heatmap(a, torch.zeros(3, 4), title="t", colorbar=False)
    assert im is a.images[0] and im.get_array().shape == (3, 4) and a.get_title() == "t"
    im = plots.attention_map(b, np.eye(2), ["x", "y"])
    assert im.get_clim() == (0.0, 1.0) and [t.get_text() for t in b.get_xticklabels()] == ["x", "y"]
    plt.close(fig)


def rendered(fig) -> np.ndarray:
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[..., :3].copy()


def test_a_heatmap_sampled_as_data_shows_the_pixels_of_one_coloured_first():
    """Nearest-neighbour sampling before the colour map gives the image Matplotlib draws when it
    colours every cell first, whether the image is shrunk or enlarged on screen."""
    data = np.random.default_rng(0).uniform(-1.2, 1.2, (128, 512))  # values beyond the colour scale too
    for rows, columns in [(128, 512), (128, 30), (7, 512), (5, 6)]:
        fig, ax = plt.subplots(figsize=(4, 3), dpi=83)
        im = plots.heatmap(ax, data[:rows, :columns], colorbar=False)
        assert im.get_interpolation_stage() == "data"
        ours = rendered(fig)
        im.set_interpolation_stage("rgba")
        assert np.array_equal(ours, rendered(fig)), (rows, columns)
        plt.close(fig)


def test_axis_names_stay_where_they_are_put():
    """Unlike an axis label, which moves aside as the tick labels widen, ``axis_names`` texts stay."""
    fig, (named, labelled) = plt.subplots(1, 2, figsize=(6, 2.5))
    plots.axis_names(named, "dimension", "position")
    labelled.set_xlabel("dimension")
    labelled.set_ylabel("position")
    texts = [t for t in named.texts if t.get_text() in ("dimension", "position")]
    assert sorted(t.get_text() for t in texts) == ["dimension", "position"]

    def places():
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        return ([t.get_window_extent(renderer).bounds for t in texts],
                labelled.yaxis.label.get_window_extent(renderer).bounds)

    before = places()
    for ax in (named, labelled):
        ax.set_ylim(0, 100_000)  # wider tick labels
    after = places()
    assert after[0] == before[0]
    assert after[1][0] < before[1][0], "the stock y label should have moved left (the check would be void)"
    plt.close(fig)
