"""Slider latency: one step of every registered explorer next to the naive approach.

    python benchmarks/slider_latency.py [--rounds N] [--only NAME ...]

A *step* is what happens when a learner moves a slider by one notch: the explorer recomputes
its data, updates the artists of the figure it built once, and renders the PNG that the front
end receives (``LiveFigure``'s Output-widget path, the one Colab and nbconvert use). The
*naive* step is what popular tutorials do: compute the encoding, draw a fresh seaborn heatmap
on a new figure of the same size and ``savefig`` it. Both are timed in the same run,
interleaved round by round, so machine load affects both alike.

The explorers, the control each step moves and the arguments each is built with come from the
registry (``helpers.live.REGISTRY``, filled by ``helpers.explorers``). Where this Matplotlib
supports the text cache (``helpers.live.text_cache``: Matplotlib 3.11, and Colab's 3.10), the
same step is also timed with the cache off, so both paths are measured; where it does not, the
step *is* the fallback.

Steps are drawn at ``LiveFigure.LIVE_SCALE`` (2) times the pixels they are shown at, sharp on a 2×
screen, unless the first steps average over ``LiveFigure.SHARP_STEP_S``: then the explorer draws
its steps at 1× from there on (the "drawn" column says which this machine got; the timed step is
the one a learner gets). The same step always drawn at 2× and always at 1× is timed beside it,
so the price of the sharp picture shows, and the naive step draws as many pixels as a 2× step.

Bar (every explorer): median step under 60 ms and at least 4x faster than naive. The bar is
set at lesson 04's ``sinusoidal_explorer``, which must be registered. Exit status 1 when missed.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402
import torch  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers  # noqa: E402
import helpers.explorers  # noqa: E402, F401 (importing it registers every explorer)
from helpers.live import REGISTRY, LiveFigure, one_thread, text_cache  # noqa: E402

D_MODEL, LENGTH = 512, 128  # the naive step's heatmap: the size lesson 04's explorer is benchmarked at
MAX_MS, MIN_RATIO = 60.0, 4.0
REQUIRED = "sinusoidal_explorer"


def notch(control) -> list:
    """The control's value and one notch away from it (down if it is at its top)."""
    if hasattr(control, "options"):
        values = [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in control.options]
        i = values.index(control.value)
        return [control.value, values[i + 1] if i + 1 < len(values) else values[i - 1]]
    if hasattr(control, "base"):  # a log slider: min, max and step are exponents
        up = control.value * control.base**control.step
        return [control.value, up if up <= control.base**control.max else control.value / control.base**control.step]
    up = control.value + control.step
    return [control.value, up if up <= control.max else control.value - control.step]


def naive_step(d_model: int, figsize, dpi) -> bytes:
    with one_thread():  # the same threading as the course's step: compare drawing, not thread contention
        pe = helpers.sinusoidal(LENGTH, d_model).numpy()
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi)
    sns.heatmap(pe, ax=ax, cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xlabel("dimension")
    ax.set_ylabel("position")
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def timed_step(live, control: str, value) -> tuple[float, bool]:
    before = live.png
    start = time.perf_counter()
    live.controls[control].value = value
    elapsed = time.perf_counter() - start
    return elapsed, live.png != before and live.png.startswith(b"\x89PNG")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12, help="timed rounds (after 2 warm-up rounds)")
    parser.add_argument("--only", nargs="*", help="benchmark only these explorers")
    args = parser.parse_args(argv)

    cache = text_cache.supported()
    names = [n for n in sorted(REGISTRY) if not args.only or n in args.only]
    print(f"slider step of each registered explorer: median of {args.rounds} rounds, interleaved with the "
          f"naive step (seaborn heatmap {LENGTH} × {D_MODEL} re-plotted from scratch + savefig)")
    print(f"matplotlib {matplotlib.__version__}, seaborn {sns.__version__}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} torch threads; text cache "
          + ("on (also timed off)" if cache else "off: the stock renderer draws text (the fallback)"))
    lives = {name: REGISTRY[name].build_example() for name in names}
    scale, budget = LiveFigure.LIVE_SCALE, LiveFigure.SHARP_STEP_S
    try:
        LiveFigure.LIVE_SCALE = 1  # the same explorers, a pixel drawn per pixel shown
        flats = {name: REGISTRY[name].build_example() for name in names}
        LiveFigure.LIVE_SCALE, LiveFigure.SHARP_STEP_S = scale, float("inf")  # always 2×, however slow
        sharps = {name: REGISTRY[name].build_example() for name in names}
    finally:
        LiveFigure.LIVE_SCALE, LiveFigure.SHARP_STEP_S = scale, budget
    twins = {}  # the same explorer rendering without the text cache
    if cache:
        for name in names:
            twin = twins[name] = REGISTRY[name].build_example()
            twin.CACHE_TEXT = False
            FigureCanvasAgg(twin.fig)  # a fresh canvas, so a stock renderer
    plans = {name: (REGISTRY[name].moves, notch(live.controls[REGISTRY[name].moves])) for name, live in lives.items()}
    course = {name: [] for name in lives}
    uncached = {name: [] for name in twins}
    naive = {name: [] for name in lives}
    flat = {name: [] for name in lives}
    sharp = {name: [] for name in lives}
    changed = dict.fromkeys(lives, True)
    for r in range(args.rounds + 2):
        for name, live in lives.items():
            control, values = plans[name]
            value = values[(r + 1) % 2]
            elapsed, moved = timed_step(live, control, value)
            changed[name] &= moved
            if name in twins:
                twin_elapsed, twin_moved = timed_step(twins[name], control, value)
                changed[name] &= twin_moved
            flat_elapsed, flat_moved = timed_step(flats[name], control, value)
            sharp_elapsed, sharp_moved = timed_step(sharps[name], control, value)
            changed[name] &= flat_moved and sharp_moved
            start = time.perf_counter()
            naive_step(D_MODEL - 2 * (r % 2), live.fig.get_size_inches(), live.fig.dpi)
            naive_elapsed = time.perf_counter() - start
            if r >= 2:
                course[name].append(elapsed)
                naive[name].append(naive_elapsed)
                flat[name].append(flat_elapsed)
                sharp[name].append(sharp_elapsed)
                if name in twins:
                    uncached[name].append(twin_elapsed)

    failed = [] if REQUIRED in REGISTRY else [f"{REQUIRED}: not registered (the bar is set at lesson 04's explorer)"]
    width = max([len(n) for n in lives] + [8])
    cwidth = max([len(plan[0]) for plan in plans.values()] + [7])
    print(f"{'explorer':<{width}}  {'control':<{cwidth}} {'step ms':>8} {'drawn':>5} {'no cache':>9} {'2x ms':>6}"
          f" {'1x ms':>6}"
          f" {'naive ms':>9} {'ratio':>6}  png KiB  verdict")
    for name, live in lives.items():
        step_ms = statistics.median(course[name]) * 1e3
        naive_ms = statistics.median(naive[name]) * 1e3
        plain = f"{statistics.median(uncached[name]) * 1e3:9.1f}" if name in twins else f"{'—':>9}"
        ratio = naive_ms / step_ms
        flat_ms = statistics.median(flat[name]) * 1e3
        sharp_ms = statistics.median(sharp[name]) * 1e3
        ok = step_ms < MAX_MS and ratio >= MIN_RATIO and changed[name]
        verdict = "ok" if ok else "MISSED" + ("" if changed[name] else " (figure did not change)")
        print(f"{name:<{width}}  {plans[name][0]:<{cwidth}} {step_ms:8.1f} {live.scale:4d}x {plain}"
              f" {sharp_ms:6.1f} {flat_ms:6.1f} {naive_ms:9.1f} {ratio:5.1f}x"
              f"  {len(live.png) / 1024:7.0f}  {verdict}")
        if not ok:
            failed.append(f"{name}: step {step_ms:.1f} ms (bar < {MAX_MS:.0f}), {ratio:.1f}x faster than naive "
                          f"(bar >= {MIN_RATIO:.0f}x)")
    for line in failed:
        print("FAIL " + line)
    if not lives:
        print("FAIL no explorer was benchmarked")
        return 1
    print("bar met" if not failed else "bar missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
