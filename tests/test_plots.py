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
