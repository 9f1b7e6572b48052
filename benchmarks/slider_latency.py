"""Slider latency: one step of each explorer in ``helpers.widgets`` next to the naive approach.

    python benchmarks/slider_latency.py [--rounds N] [--only NAME ...]

A *step* is what happens when a learner moves a slider by one notch: the explorer recomputes
its data, updates the artists of the figure it built once, and renders the PNG that the front
end receives (``LiveFigure``'s Output-widget path, the one Colab and nbconvert use). The
*naive* step is what popular tutorials do: compute the encoding, draw a fresh seaborn heatmap
on a new figure of the same size and ``savefig`` it. Both are timed in the same run,
interleaved round by round, so machine load affects both alike.

Explorers are discovered: every function ``*_explorer`` in ``helpers.widgets``, or annotated
to return a ``LiveFigure``. Arguments a
builder needs come from ``BENCH_ARGS`` (or its defaults); ``d_model=512`` and ``length=128``
are passed wherever the builder accepts them. The step moves the d_model slider between 512
and its neighbour notch where the explorer has one, else its first control.

Bar (every explorer): median step under 60 ms and at least 4x faster than naive. The bar is
set at lesson 04's ``sinusoidal_explorer``, which must exist. Exit status 1 when missed.
"""

from __future__ import annotations

import argparse
import inspect
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers  # noqa: E402
from helpers import widgets  # noqa: E402

D_MODEL, LENGTH = 512, 128
MAX_MS, MIN_RATIO = 60.0, 4.0
REQUIRED = "sinusoidal_explorer"


def _order_explorer_args() -> dict:
    torch.manual_seed(0)
    tokens = ["dog", "bites", "man"]
    mha = torch.nn.MultiheadAttention(16, 2, batch_first=True).eval()
    return {"mha": mha, "x": torch.randn(len(tokens), 16), "tokens": tokens,
            "position": helpers.sinusoidal(len(tokens), 16)}


# Builders whose arguments have no defaults: how to call them for the benchmark.
BENCH_ARGS: dict[str, Callable[[], dict]] = {
    "order_explorer": _order_explorer_args,
}


def discover() -> dict[str, Callable]:
    """Explorer builders: functions of helpers.widgets named ``*_explorer`` or annotated to
    return a LiveFigure."""
    found = {}
    for name, fn in sorted(vars(widgets).items()):
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != widgets.__name__:
            continue
        returns = inspect.signature(fn).return_annotation
        if name.endswith("_explorer") or returns in ("LiveFigure", widgets.LiveFigure):
            found[name] = fn
    return found


def build(name: str, fn: Callable):
    """The LiveFigure, or the reason it cannot be built without arguments."""
    params = inspect.signature(fn).parameters
    kwargs = BENCH_ARGS[name]() if name in BENCH_ARGS else {}
    for key, value in (("d_model", D_MODEL), ("length", LENGTH)):
        if key in params:
            kwargs[key] = value
    missing = [p for p, spec in params.items() if spec.default is inspect.Parameter.empty
               and spec.kind not in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD) and p not in kwargs]
    if missing:
        return f"needs {', '.join(missing)} (add an entry to BENCH_ARGS)"
    live = fn(**kwargs)
    if not isinstance(live, widgets.LiveFigure):
        return f"returned {type(live).__name__}, not a LiveFigure"
    return live


def step_values(live) -> tuple[str, list]:
    """The control a step moves, and two values to alternate between (one notch apart)."""
    name = next((n for n in live.controls if "d_model" in n.lower()), next(iter(live.controls)))
    control = live.controls[name]
    if hasattr(control, "options") and len(control.options) > 1:
        values = [control.value, next(v for v in (_option_value(o) for o in control.options) if v != control.value)]
    else:
        step = getattr(control, "step", 1) or 1
        other = control.value - step if control.value - step >= control.min else control.value + step
        values = [control.value, other]
    return name, values


def _option_value(option):
    return option[1] if isinstance(option, tuple) and len(option) == 2 else option


def naive_step(d_model: int, figsize, dpi) -> bytes:
    with widgets.one_thread():  # the same threading as the course's step: compare drawing, not thread contention
        pe = helpers.sinusoidal(LENGTH, d_model).numpy()
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi)
    sns.heatmap(pe, ax=ax, cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xlabel("dimension")
    ax.set_ylabel("position")
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12, help="timed rounds (after 2 warm-up rounds)")
    parser.add_argument("--only", nargs="*", help="benchmark only these explorers")
    args = parser.parse_args(argv)

    found = discover()
    names = [n for n in found if not args.only or n in args.only]
    print(f"slider step at d_model={D_MODEL}, length={LENGTH}: median of {args.rounds} rounds, "
          f"interleaved with the naive step (seaborn heatmap re-plotted from scratch + savefig)")
    print(f"matplotlib {matplotlib.__version__}, seaborn {sns.__version__}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} torch threads")
    lives, problems = {}, []
    for name in names:
        result = build(name, found[name])
        if isinstance(result, str):
            problems.append(f"{name}: not benchmarked, {result}")
        else:
            lives[name] = result
    if REQUIRED not in found:
        problems.append(f"{REQUIRED}: missing from helpers.widgets (the bar is set at lesson 04's explorer)")

    plans = {name: step_values(live) for name, live in lives.items()}
    course = {name: [] for name in lives}
    naive = {name: [] for name in lives}
    changed = dict.fromkeys(lives, True)
    for r in range(args.rounds + 2):
        for name, live in lives.items():
            control, values = plans[name]
            before = live.png
            start = time.perf_counter()
            live.controls[control].value = values[(r + 1) % 2]
            elapsed = time.perf_counter() - start
            changed[name] &= live.png != before and live.png.startswith(b"\x89PNG")
            start = time.perf_counter()
            naive_step(D_MODEL - 2 * (r % 2), live.fig.get_size_inches(), live.fig.dpi)
            naive_elapsed = time.perf_counter() - start
            if r >= 2:
                course[name].append(elapsed)
                naive[name].append(naive_elapsed)

    failed = list(problems)
    width = max([len(n) for n in lives] + [8])
    print(f"{'explorer':<{width}}  {'control':<10} {'step ms':>8} {'naive ms':>9} {'ratio':>6}  png KiB  verdict")
    for name, live in lives.items():
        step_ms = statistics.median(course[name]) * 1e3
        naive_ms = statistics.median(naive[name]) * 1e3
        ratio = naive_ms / step_ms
        ok = step_ms < MAX_MS and ratio >= MIN_RATIO and changed[name]
        verdict = "ok" if ok else "MISSED" + ("" if changed[name] else " (figure did not change)")
        print(f"{name:<{width}}  {plans[name][0]:<10} {step_ms:8.1f} {naive_ms:9.1f} {ratio:5.1f}x"
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
