"""Plotting for the lessons: the course's figure style, the checks every figure a lesson shows
passes, and small functions that draw on a given Axes and return the artists a widget later
updates in place.

Importing this module changes nothing global. A lesson applies the style once, in its setup
cell, with :func:`use_course_style`; explorers build their figures inside :func:`course_style`
at :data:`COURSE_DPI` themselves, so every lesson renders at the same size whatever the
notebook's settings.

The style, and why:

* **Size on screen.** A figure is shown at :data:`COURSE_DPI` CSS pixels per inch (JupyterLab
  at 100 %; the inline backend sends twice the pixels, "retina", so it stays sharp on 2×
  screens). A point of text is ``COURSE_DPI / 72`` CSS px: 9 pt is 12.5 px. The course's web
  site shows output images at most :data:`COLUMN_PX` wide and shrinks a wider figure, with its
  text; so every figure is at most that wide (7.84 inches at 100 dpi) and its smallest text is
  at least :data:`MIN_TEXT_PX` as shown.
* **Colour.** The series colours are Okabe and Ito's palette, chosen to stay apart under the
  common colour-vision deficiencies (:data:`COLORS`, in :data:`SERIES_COLORS` order; yellow
  last, as it is faint on white). The default cycle gives each series a colour *and* a dash
  pattern (:data:`LINESTYLES`), so curves are told apart in greyscale too. Coloured text uses
  :data:`TEXT_COLORS`, darker versions with a contrast of at least 4.5:1 on white. Signed
  values use :data:`SIGNED_CMAP`, whose lightness rises from negative to positive, so the
  sign survives greyscale and colour-vision deficiency.

The checks (:func:`figure_problems`), run on every figure a lesson shows in the course's own
runs (set :data:`CHECK_TEXT_ENV`) and reported in the cell's output, where the regression run
sees them: text under :data:`MIN_TEXT_PX` as shown; a figure wider than :data:`COLUMN_PX`; two
series of one Axes alike in colour under simulated deuteranopia, line style and marker at once
(:func:`look_alike_series`); a legend over plotted data (:func:`legends_over_data`).
"""

from __future__ import annotations

import itertools
import os
import sys
from contextlib import contextmanager

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import torch
from cycler import cycler
from matplotlib.cbook import STEP_LOOKUP_MAP
from matplotlib.collections import Collection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

COURSE_DPI = 100
COLUMN_PX = 784  # the web site's article column: a wider output image is shrunk to fit
MIN_TEXT_PX = 12  # smallest text, in CSS px as shown (about 9 CSS pt)

# Okabe & Ito (2008), "Color Universal Design": told apart under protanopia, deuteranopia, tritanopia
COLORS = {"blue": "#0072B2", "vermillion": "#D55E00", "green": "#009E73", "purple": "#CC79A7",
          "orange": "#E69F00", "sky": "#56B4E9", "black": "#000000", "yellow": "#F0E442"}
SERIES_COLORS = tuple(COLORS.values())  # the order of the default cycle
# one dash pattern per colour of the cycle: solid, dashed, dash-dot, dotted, dash-dot-dot,
# dense dots, long dashes, dense dash-dot
LINESTYLES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)), (0, (10, 3)), (0, (3, 1, 1, 1)))
# the same hues, darkened until their contrast on white is at least 4.5:1 (WCAG AA for small text)
TEXT_COLORS = {"blue": "#0072B2", "vermillion": "#BE5400", "green": "#008460", "purple": "#BB4D8A",
               "orange": "#9C6C00", "sky": "#177AB2", "black": "#000000"}
EMPHASIS = COLORS["vermillion"]  # what a figure points at: a chosen point, a cursor, a marked row
GREY = "0.45"  # reference lines and context
SIGNED_CMAP = "cividis"  # dark blue (negative) → grey (0) → yellow (positive): lightness rises throughout
# Lesson 08's schemes (its static figures and its explorer): one colour and one dash pattern each; no two
# share a dash pattern, so they differ in greyscale too (sinusoidal and rope turn the same grey)
SCHEME_COLORS = {"none": "0.35", "sinusoidal": COLORS["blue"], "learned": COLORS["purple"],
                 "rope": COLORS["vermillion"], "alibi": COLORS["green"], "t5": COLORS["orange"]}
# as seaborn's ``dashes`` takes them ("" solid, else on/off lengths in line widths)
SCHEME_DASHES = {"none": (1, 1.5), "sinusoidal": "", "learned": (3.7, 1.6), "rope": (9, 2.5),
                 "alibi": (6.4, 1.6, 1, 1.6), "t5": (5, 1.5, 1, 1.5, 1, 1.5)}
# and as Matplotlib's ``linestyle``
SCHEME_LINESTYLES = {name: (0, dashes) if dashes else "-" for name, dashes in SCHEME_DASHES.items()}

COURSE_STYLE = {
    "figure.dpi": COURSE_DPI,
    "figure.figsize": [7.0, 3.6],
    "axes.grid": False,
    "axes.prop_cycle": cycler(color=list(SERIES_COLORS)) + cycler(linestyle=list(LINESTYLES)),
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "figure.titlesize": 11,
    "image.cmap": "viridis",
}

# Set (to anything) in the course's own runs (regeneration, the notebook tests): every figure a
# lesson shows is checked (figure_problems) and each problem is reported in the cell's output.
CHECK_TEXT_ENV = "COURSE_CHECK_FIGURE_TEXT"
FIGURE_REPORT = "figure check"
# two colours closer than this (CIELAB ΔE*76) after simulated deuteranopia count as one colour for a
# thin line: see look_alike_series
ALIKE_DELTA_E = 20.0


def use_course_style() -> None:
    """Apply :data:`COURSE_STYLE` (dpi, sizes, colours and dashes) to every figure drawn from now on.
    In a notebook, figures are also sent at twice their pixels and shown at the same size
    ("retina"), so they stay sharp on 2× screens."""
    plt.rcParams.update(COURSE_STYLE)
    shell = _notebook_shell()
    if shell is None:
        return
    try:  # ipykernel's inline backend (JupyterLab, Colab); another front end keeps its own formats
        from matplotlib_inline.backend_inline import InlineBackend, set_matplotlib_formats
    except ImportError:
        return
    InlineBackend.instance().figure_formats = {"retina"}  # kept when the inline backend starts later
    set_matplotlib_formats("retina")
    if os.environ.get(CHECK_TEXT_ENV) and not getattr(shell, "_course_checks_text", False):
        shell._course_checks_text = True
        # every figure the inline backend shows goes through this formatter, whether plt.show() shows it
        # in the middle of a cell or the backend does after it: checked there, as it is shown
        from matplotlib.figure import Figure
        formatter = shell.display_formatter.formatters["image/png"]
        formatter.for_type(Figure, _checked(formatter.lookup_by_type(Figure)))
        # an explorer's figure is no open pyplot figure: checked after the cell that made it
        shell.events.register("post_execute", report_problems_in_watched_figures)


def _checked(print_figure):
    """``print_figure`` (a figure → PNG formatter) that first reports what :func:`figure_problems`
    finds in the figure, to the cell's error stream."""
    def checked(fig, *args, **kwargs):
        try:
            problems = figure_problems(fig, None, _shown_width(fig))
        except Exception as error:  # the check must never keep a figure from showing
            problems = [f"{FIGURE_REPORT}: could not check this figure ({type(error).__name__})"]
        for line in problems:
            print(line, file=sys.stderr)
        return print_figure(fig, *args, **kwargs)
    return checked


@contextmanager
def course_style():
    """The course style for the artists made inside the block, whatever the notebook's settings
    (explorers build their figures in it)."""
    with matplotlib.rc_context(COURSE_STYLE):
        yield


def _notebook_shell():
    """The IPython shell of a Jupyter kernel, or None (plain Python, a terminal IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return shell if getattr(shell, "kernel", None) is not None else None


# ---------------------------------------------------------------------------------------------
# The checks


def shown_scale(width_px: float) -> float:
    """How much the site shrinks an output image ``width_px`` CSS px wide: 1 up to :data:`COLUMN_PX`."""
    return min(1.0, COLUMN_PX / width_px)


def small_texts(fig, dpi: float | None = None, width_px: float | None = None,
                min_px: float = MIN_TEXT_PX) -> list[tuple[float, str]]:
    """Every visible, non-empty text of ``fig`` (titles, labels, ticks, legends, annotations) whose
    size as shown is under ``min_px`` CSS px, as sorted (size in px, first 40 characters) pairs.

    Size as shown: points × ``dpi`` / 72 (``dpi``: CSS px per inch, the figure's own by default),
    times :func:`shown_scale` of the figure's width (``width_px``, CSS px; by default the figure's
    inches × ``dpi``). Draws the figure first, since tick labels get their text at draw time."""
    dpi = dpi or fig.dpi
    width_px = width_px or fig.get_figwidth() * dpi
    factor = dpi / 72 * shown_scale(width_px)
    fig.canvas.draw()
    return sorted({(round(float(t.get_fontsize() * factor), 1), t.get_text()[:40]) for t in fig.findobj(Text)
                   if t.get_visible() and t.get_text().strip() and t.get_fontsize() * factor < min_px})


def _linear(rgb: np.ndarray) -> np.ndarray:
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _encoded(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1, applied to linear RGB
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])


def deuteranopia(color) -> np.ndarray:
    """The sRGB colour (0–1) that ``color`` looks like to a deuteranope (no working green cones)."""
    rgb = np.asarray(to_rgba(color)[:3] if not isinstance(color, np.ndarray) else color, dtype=float)
    return _encoded(_linear(rgb) @ DEUTERANOPIA.T)


def cielab(color) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour (0–1 triple or any Matplotlib colour)."""
    rgb = np.asarray(to_rgba(color)[:3] if not isinstance(color, np.ndarray) else color, dtype=float)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ _linear(rgb)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a, b) -> float:
    """CIELAB ΔE*76 between two colours."""
    return float(np.linalg.norm(cielab(a) - cielab(b)))


def contrast(color, background="white") -> float:
    """WCAG contrast ratio of ``color`` on ``background`` (1 to 21; small text asks ≥ 4.5)."""
    def luminance(c):
        return float(_linear(np.asarray(to_rgba(c)[:3])) @ np.array([0.2126, 0.7152, 0.0722]))
    high, low = sorted((luminance(color), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _on_white(rgba) -> np.ndarray:
    """An RGBA colour as it shows on a white page: its alpha blended with white."""
    r, g, b, a = rgba
    return np.array([r, g, b]) * a + (1 - a)


def _line_look(line: Line2D) -> tuple:
    """(colour on white, dash pattern or None, marker or None) of a line."""
    rgba = to_rgba(line.get_color(), line.get_alpha())
    drawn = line.get_linestyle() not in ("None", " ", "") and line.get_linewidth() > 0
    dashes = None
    if drawn:
        offset, pattern = getattr(line, "_unscaled_dash_pattern", (0, line.get_linestyle()))
        dashes = tuple(pattern) if pattern is not None else "solid"
    marker = line.get_marker()
    marker = None if marker in (None, "None", " ", "", "none") else \
        (str(marker), str(line.get_markerfacecolor()) == "none")
    return _on_white(rgba), dashes, marker


def _collection_look(collection: Collection) -> tuple:
    faces, edges = collection.get_facecolor(), collection.get_edgecolor()
    rgba = faces[0] if len(faces) and faces[0][3] > 0 else (edges[0] if len(edges) else (0, 0, 0, 0))
    paths = collection.get_paths()
    shape = tuple(np.round(paths[0].vertices, 2).ravel()) if len(paths) and type(collection).__name__ == \
        "PathCollection" else type(collection).__name__
    return _on_white(rgba), ("collection", str(collection.get_linestyle())), shape


def _patch_look(patch: Patch) -> tuple:
    return _on_white(patch.get_facecolor()), ("patch", patch.get_hatch()), None


def _look(artist) -> tuple | None:
    if isinstance(artist, Line2D):
        return _line_look(artist)
    if isinstance(artist, Collection):
        return _collection_look(artist)
    if isinstance(artist, Patch):
        return _patch_look(artist)
    return None


def _series(ax) -> dict[str, tuple]:
    """label → look of each series of ``ax``: its labelled lines, and what its legend shows."""
    found = {}
    for line in ax.get_lines():
        label = str(line.get_label())
        if line.get_visible() and label and not label.startswith("_"):
            found[label] = _line_look(line)
    legend = ax.get_legend()
    if legend is not None and legend.get_visible():
        for handle, text in zip(legend.legend_handles, legend.get_texts(), strict=False):
            look = _look(handle) if handle is not None else None
            if look is not None and text.get_text().strip():
                found[text.get_text()] = look
    return found


def look_alike_series(fig, threshold: float = ALIKE_DELTA_E) -> list[tuple[str, str, float]]:
    """Pairs of series of one Axes (or of one figure legend) that share colour, dash pattern and
    marker, as (label, label, ΔE) with ΔE their colours' distance after simulated deuteranopia.

    A series: a line with a label of its own, or an entry of a legend (line, patch or collection).
    Colours count as shared when their CIELAB ΔE*76 after deuteranopia (Machado et al. 2009,
    severity 1) is under ``threshold``: 2.3 is just noticeable between large patches, but thin
    lines need several times more (colour discrimination falls with the size of the mark), and
    the closest pairs of Okabe and Ito's palette, made for this, sit at 17–19 (orange/yellow,
    orange/vermillion, green/purple): such pairs also need a dash pattern or a marker apart.
    Matplotlib's tab10 pairs that deuteranopes confuse (green/red, orange/olive) are 7–8 apart."""
    groups = [_series(ax) for ax in fig.axes]
    for legend in fig.legends:
        groups.append({t.get_text(): _look(h) for h, t in zip(legend.legend_handles, legend.get_texts(), strict=False)
                       if h is not None and _look(h) is not None and t.get_text().strip()})
    found = []
    for series in groups:
        for (a, (ca, da, ma)), (b, (cb, db, mb)) in itertools.combinations(series.items(), 2):
            distance = delta_e(deuteranopia(ca), deuteranopia(cb))
            if distance < threshold and da == db and ma == mb:
                found.append((a, b, round(distance, 1)))
    return found


def _segments_cross_box(points: np.ndarray, box) -> bool:
    """True when the polyline through ``points`` (n × 2, display coordinates; NaN splits it)
    enters the rectangle ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    finite = np.isfinite(points).all(axis=1)
    inside = finite & (points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0) & (points[:, 1] <= y1)
    if inside.any():
        return True
    a, b = points[:-1], points[1:]
    ok = finite[:-1] & finite[1:]
    a, b = a[ok], b[ok]
    if not len(a):
        return False
    d = b - a
    # Liang–Barsky: clip each segment a + t·d, t in [0, 1], to the box
    low, high = np.zeros(len(a)), np.ones(len(a))
    for p, q in ((-d[:, 0], a[:, 0] - x0), (d[:, 0], x1 - a[:, 0]), (-d[:, 1], a[:, 1] - y0), (d[:, 1], y1 - a[:, 1])):
        parallel = p == 0
        low = np.where(parallel & (q < 0), 2.0, low)  # parallel and outside: never inside
        with np.errstate(divide="ignore", invalid="ignore"):
            t = q / p
        low = np.where(~parallel & (p < 0), np.maximum(low, t), low)
        high = np.where(~parallel & (p > 0), np.minimum(high, t), high)
    return bool((low <= high).any())


def _display_points(line: Line2D) -> np.ndarray:
    xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
    style = line.get_drawstyle()
    if style in STEP_LOOKUP_MAP and style != "default" and len(xy) > 1:
        xy = np.column_stack(STEP_LOOKUP_MAP[style](xy[:, 0], xy[:, 1]))
    return xy


def legends_over_data(fig, margin: float = 2.0) -> list[tuple[str, str]]:
    """(legend, what it covers) for every legend whose box (less ``margin`` px on each side) a line
    of the figure crosses or a scatter point falls in, within that line's Axes: a line by its
    label (or "a line"), a legend by its first entry."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [leg for leg in [ax.get_legend() for ax in fig.axes] + list(fig.legends)
               if leg is not None and leg.get_visible()]
    found = []
    for legend in legends:
        box = legend.get_window_extent(renderer)
        texts = [t.get_text() for t in legend.get_texts()]
        name = f"legend '{texts[0]}'" if texts else "a legend"
        for ax in fig.axes:
            inner = (max(box.x0, ax.bbox.x0) + margin, max(box.y0, ax.bbox.y0) + margin,
                     min(box.x1, ax.bbox.x1) - margin, min(box.y1, ax.bbox.y1) - margin)
            if inner[0] >= inner[2] or inner[1] >= inner[3]:
                continue
            for line in ax.get_lines():
                if not line.get_visible() or line.get_alpha() == 0 or not len(line.get_xydata()):
                    continue
                if _segments_cross_box(_display_points(line), inner):
                    label = str(line.get_label())
                    found.append((name, label if not label.startswith("_") else "a line"))
            for collection in ax.collections:
                if type(collection).__name__ != "PathCollection" or not collection.get_visible():
                    continue
                offsets = collection.get_offset_transform().transform(np.asarray(collection.get_offsets(), float))
                x0, y0, x1, y1 = inner
                if len(offsets) and ((offsets[:, 0] >= x0) & (offsets[:, 0] <= x1) & (offsets[:, 1] >= y0)
                                     & (offsets[:, 1] <= y1)).any():
                    label = str(collection.get_label())
                    found.append((name, label if not label.startswith("_") else "scatter points"))
    return sorted(set(found))


def figure_problems(fig, dpi: float | None = None, width_px: float | None = None) -> list[str]:
    """What the course's runs report for ``fig`` as it is shown, one short line each: text
    under :data:`MIN_TEXT_PX` as shown, a width over :data:`COLUMN_PX`, look-alike series, legends
    over data. ``dpi``: CSS px per inch (the figure's own by default); ``width_px``: its width as
    shown, in CSS px (by default its inches × ``dpi``)."""
    dpi = dpi or fig.dpi
    width_px = width_px or fig.get_figwidth() * dpi
    problems = []
    if width_px > COLUMN_PX + 0.5:
        problems.append(f"{width_px:.0f} px wide, over the {COLUMN_PX} px column")
    small = small_texts(fig, dpi, width_px)
    if small:
        problems.append(f"text under {MIN_TEXT_PX} px: {small[:3]}")
    for a, b, distance in look_alike_series(fig):
        problems.append(f"series {a!r} and {b!r} look alike (ΔE {distance} in deuteranopia, same dashes)")
    for legend, covered in legends_over_data(fig):
        problems.append(f"{legend} covers {covered!r}")
    return [f"{FIGURE_REPORT}: {p}"[:90] for p in problems]


_watched: list[tuple[object, float]] = []


def watch_figure(fig, dpi: float) -> None:
    """In the course's own runs, have the next check (after the running cell) look at ``fig``,
    which is shown at ``dpi`` CSS px per inch without being an open pyplot figure (an explorer's)."""
    if os.environ.get(CHECK_TEXT_ENV):
        _watched.append((fig, dpi))


def _shown_width(fig) -> float:
    """The width, in CSS px, of the picture the inline backend shows: cropped to the drawn artists
    ("tight", its default) and padded, or the whole figure."""
    try:
        from matplotlib_inline.backend_inline import InlineBackend
        tight = InlineBackend.instance().print_figure_kwargs.get("bbox_inches") == "tight"
    except ImportError:
        tight = False
    if not tight:
        return fig.get_figwidth() * fig.dpi
    fig.canvas.draw()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    return (box.width + 2 * matplotlib.rcParams["savefig.pad_inches"]) * fig.dpi


def report_problems_in_watched_figures() -> None:
    """Print, to the cell's error stream, what :func:`figure_problems` finds in each figure
    :func:`watch_figure` named since the last call (the explorers a cell built)."""
    watched = list(_watched)
    _watched.clear()
    for fig, dpi in watched:
        for line in figure_problems(fig, dpi, fig.get_figwidth() * dpi):
            print(line, file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# Figure helpers


def as_numpy(x):
    """A tensor (or array) as a NumPy array on the CPU."""
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else x


def axis_names(ax, x: str | None, y: str | None, y_gap: float = 30) -> None:
    """Name the axes with plain texts below and left of them, ``y_gap`` points from the y axis.

    For figures redrawn on every slider step: unlike ``set_xlabel``/``set_ylabel``, whose place is
    worked out around the tick labels at every draw, these texts stay where they are put."""
    if x:
        ax.annotate(x, (0.5, 0), xycoords="axes fraction", xytext=(0, -19), textcoords="offset points",
                    ha="center", va="top")
    if y:
        ax.annotate(y, (0, 0.5), xycoords="axes fraction", xytext=(-y_gap, 0), textcoords="offset points",
                    ha="right", va="center", rotation=90)


def heatmap(ax, data, title: str = "", xlabel: str = "", ylabel: str = "", cmap: str = SIGNED_CMAP,
            vmin: float | None = -1.0, vmax: float | None = 1.0, colorbar: bool = True):
    """Draw ``data`` (rows × columns) as an image; returns the AxesImage (update it with set_data).
    Signed values by default (:data:`SIGNED_CMAP`, −1 to 1).

    Nearest-neighbour sampling picks the same cells before colour mapping as after it, so the
    image is sampled as data: the same pixels, without colouring every cell first."""
    im = ax.imshow(as_numpy(data), aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest",
                   interpolation_stage="data")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return im


def attention_map(ax, weights, tokens: list[str], title: str = "", colorbar: bool = True):
    """Attention weights (queries × keys) with token labels; returns the AxesImage."""
    im = heatmap(ax, weights, title=title, xlabel="key", ylabel="query", cmap="viridis", vmin=0.0, vmax=1.0,
                 colorbar=colorbar)
    ax.set_xticks(range(len(tokens)), tokens, rotation=45)
    ax.set_yticks(range(len(tokens)), tokens)
    return im
