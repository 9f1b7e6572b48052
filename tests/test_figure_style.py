"""The course's figure style and the checks every figure a lesson shows passes (helpers.plots).

Each check is shown to catch its fault on a small figure made for it, and to pass a good one:
two series alike in colour (also under simulated deuteranopia), dashes and marker; a legend over
plotted data; text too small as shown; a figure wider than the site's column. In the course's own
runs the same checks run after every cell, on every figure it shows (tests/test_figures_in_kernel.py,
and below), and the regression run compares their silence; every explorer is checked at its example
settings in tests/explorers/test_legibility.py."""

import inspect
import itertools
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib import colormaps  # noqa: E402

from helpers import plots  # noqa: E402

from .kernel import execute, kernel  # noqa: E402


@pytest.fixture
def figure():
    """A fresh figure in the course style, closed after the test."""
    with plots.course_style():
        fig, ax = plt.subplots(figsize=(6, 3))
        yield fig, ax
    plt.close(fig)


# --- look-alike series


def test_two_solid_lines_of_one_colour_look_alike(figure):
    fig, ax = figure
    ax.plot([0, 1], [0, 1], color="tab:blue", linestyle="-", label="a")
    ax.plot([0, 1], [1, 0], color="tab:blue", linestyle="-", label="b")
    assert plots.look_alike_series(fig) == [("a", "b", 0.0)]


def test_red_and_green_look_alike_to_a_deuteranope(figure):
    fig, ax = figure
    red, green = "#d62728", "#2ca02c"  # Matplotlib's tab:red and tab:green
    assert plots.delta_e(red, green) > 60  # far apart to trichromats
    ax.plot([0, 1], color=red, linestyle="-", label="red")
    ax.plot([1, 0], color=green, linestyle="-", label="green")
    [(a, b, distance)] = plots.look_alike_series(fig)
    assert (a, b) == ("red", "green") and distance < 10


def test_a_second_cue_tells_series_apart(figure):
    fig, ax = figure
    red, green = "#d62728", "#2ca02c"
    ax.plot([0, 1], color=red, linestyle="-", label="solid")
    ax.plot([1, 0], color=green, linestyle="--", label="dashed")
    ax.plot([1, 1], color=red, linestyle="-", marker="o", label="with a marker")
    ax.plot([0, 0], color="0.1", linestyle="-", label="black")  # far from red and green in any vision
    ax.plot([0.5, 0.5], color=red, linestyle="-", label="_an unlabelled line")  # not a series
    assert plots.look_alike_series(fig) == []


def test_legend_entries_and_scatter_points_are_series_too(figure):
    fig, ax = figure
    ax.scatter([0, 1], [0, 1], color="#d62728", label="red points")
    ax.scatter([0, 1], [1, 0], color="#2ca02c", label="green points")
    ax.scatter([0, 1], [0.5, 0.5], color="#2ca02c", marker="s", label="green squares")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    assert [pair[:2] for pair in plots.look_alike_series(fig)] == [("red points", "green points")]


def test_a_faint_line_is_compared_as_it_shows_on_white(figure):
    fig, ax = figure
    ax.plot([0, 1], color="black", label="ink")
    ax.plot([1, 0], color="black", alpha=0.15, label="shadow")  # light grey on the page
    assert plots.look_alike_series(fig) == []


def test_every_pair_of_the_course_cycle_differs_in_dashes():
    cycle = list(plots.COURSE_STYLE["axes.prop_cycle"])
    assert len(cycle) == 8 and [c["color"] for c in cycle] == list(plots.SERIES_COLORS)
    assert len({str(c["linestyle"]) for c in cycle}) == len(cycle)
    with plots.course_style():
        fig, ax = plt.subplots()
        for i in range(len(cycle)):
            ax.plot([0, 1], [i, i], label=f"series {i}")
        assert plots.look_alike_series(fig) == []
        plt.close(fig)


def test_the_okabe_ito_colours_stay_apart_under_deuteranopia():
    # the palette's closest pairs (orange/yellow, orange/vermillion, green/purple) sit just under the
    # threshold: they need a dash pattern apart, which the cycle gives them
    distances = {(a, b): plots.delta_e(plots.deuteranopia(plots.COLORS[a]), plots.deuteranopia(plots.COLORS[b]))
                 for a, b in itertools.combinations(plots.COLORS, 2)}
    assert min(distances.values()) > 15
    close = {pair for pair, d in distances.items() if d < plots.ALIKE_DELTA_E}
    assert close == {("vermillion", "orange"), ("green", "purple"), ("orange", "yellow")}


def test_the_deuteranopia_simulation_keeps_greys_and_merges_red_with_green():
    for grey in (0.0, 0.3, 0.7, 1.0):
        assert np.allclose(plots.deuteranopia((grey, grey, grey)), grey, atol=2e-3)
    # pure red and green keep a difference in lightness only: their hues merge
    red, green = plots.cielab(plots.deuteranopia("red")), plots.cielab(plots.deuteranopia("lime"))
    assert abs(red[2] - green[2]) < 20 and np.hypot(*(red[1:] - green[1:])) < 20


# --- legends over data


def test_a_legend_over_a_line_is_found(figure):
    fig, ax = figure
    ax.plot([0, 10], [0, 10], label="rising")
    ax.plot([0, 10], [10, 10], label="flat top")
    ax.legend(loc="upper left")
    assert plots.legends_over_data(fig) == [("legend 'rising'", "flat top")]


def test_a_segment_crossing_the_legend_with_no_vertex_in_it_is_found(figure):
    fig, ax = figure
    ax.plot([0, 10], [0, 0], label="a")
    ax.axvline(1.0, color="0.5")  # a reference line from bottom to top, under the legend
    ax.set_xlim(0, 10)
    ax.legend(loc="upper left")
    assert plots.legends_over_data(fig) == [("legend 'a'", "a line")]


def test_scatter_points_under_a_legend_are_found(figure):
    fig, ax = figure
    ax.scatter([0.5, 9.5], [9.5, 0.5], label="points")
    ax.set(xlim=(0, 10), ylim=(0, 10))
    ax.legend(loc="upper left")
    assert plots.legends_over_data(fig) == [("legend 'points'", "points")]


def test_a_legend_clear_of_the_data_or_outside_the_axes_passes(figure):
    fig, ax = figure
    ax.plot([0, 10], [0, 3], label="low")
    ax.plot(np.arange(10), np.full(10, np.nan), label="nothing drawn")
    ax.set_ylim(0, 10)
    ax.legend(loc="upper left")
    assert plots.legends_over_data(fig) == []
    ax.get_legend().remove()
    ax.plot([0, 10], [10, 10], label="top")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the axes, over nothing
    assert plots.legends_over_data(fig) == []


def test_a_step_line_is_checked_as_drawn(figure):
    fig, ax = figure
    # drawn as steps, the line runs along the top before it drops: through the legend's corner
    ax.plot([0, 10], [10, 0], drawstyle="steps-post", label="steps")
    ax.set(xlim=(0, 10), ylim=(-1, 11))
    ax.legend(loc="upper right")
    assert plots.legends_over_data(fig) == [("legend 'steps'", "steps")]


# --- text and width


def test_text_is_measured_as_shown(figure):
    fig, ax = figure
    ax.set_title("title", fontsize=12)
    ax.tick_params(labelsize=9)
    assert plots.small_texts(fig) == []  # 9 pt at 100 dpi: 12.5 px
    ax.tick_params(labelsize=8)
    assert {size for size, _ in plots.small_texts(fig)} == {11.1}
    # 9 pt text on a figure the site shrinks from 1000 px to 784: 9.8 px
    ax.tick_params(labelsize=9)
    assert {size for size, _ in plots.small_texts(fig, width_px=1000)} == {9.8}


def test_a_figure_wider_than_the_column_is_reported():
    with plots.course_style():
        wide, narrow = plt.figure(figsize=(8.5, 2)), plt.figure(figsize=(7.84, 2))
    assert plots.figure_problems(wide) == [f"{plots.FIGURE_REPORT}: 850 px wide, over the 784 px column"]
    assert plots.figure_problems(narrow) == []
    plt.close(wide)
    plt.close(narrow)


def test_a_good_figure_passes_every_check(figure):
    fig, ax = figure
    x = np.linspace(0, 10, 50)
    for k in range(6):  # the course cycle: six colours, six dash patterns
        ax.plot(x, np.sin(x + k), label=f"phase {k}")
    ax.set(xlabel="x", ylabel="sin", title="six phases")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.tight_layout()
    assert plots.figure_problems(fig) == []
    assert all(len(line) <= 90 for line in plots.figure_problems(plt.figure(figsize=(30, 1))))


# --- the style's colours


def test_coloured_text_is_dark_enough_to_read():
    for name, colour in plots.TEXT_COLORS.items():
        assert plots.contrast(colour) >= 4.5, name
        assert name in plots.COLORS
    assert plots.contrast("black") == pytest.approx(21)


def test_the_signed_map_keeps_its_sign_in_greyscale():
    lightness = [plots.cielab(colormaps[plots.SIGNED_CMAP](v)[:3])[0] for v in np.linspace(0, 1, 33)]
    assert all(b > a for a, b in itertools.pairwise(lightness))  # −1 darkest, +1 lightest
    # and in deuteranopia too
    seen = [plots.cielab(plots.deuteranopia(np.array(colormaps[plots.SIGNED_CMAP](v)[:3])))[0]
            for v in np.linspace(0, 1, 33)]
    assert all(b > a for a, b in itertools.pairwise(seen))
    assert inspect.signature(plots.heatmap).parameters["cmap"].default == plots.SIGNED_CMAP


# --- in a kernel, as the course's runs check every cell

BAD_FIGURE = """
import matplotlib.pyplot as plt
from helpers import plots
plots.use_course_style()
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot([0, 1], [0, 1], color="#d62728", linestyle="-", label="red")
ax.plot([0, 1], [1, 1], color="#2ca02c", linestyle="-", label="green")
ax.legend(loc="upper left")
"""


def test_a_lessons_run_reports_look_alike_series_and_a_legend_over_data():
    env = {**os.environ, plots.CHECK_TEXT_ENV: "1"}
    with kernel(env) as client:
        reply, outputs = execute(client, BAD_FIGURE)
    assert reply["status"] == "ok", reply
    text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
    assert "figure check: series 'red' and 'green' look alike" in text
    assert "figure check: legend 'red' covers 'green'" in text
    assert all(len(line) <= 90 for line in text.splitlines())
