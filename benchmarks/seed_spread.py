"""Train short, test long: which findings of lesson 08 hold for every seed?

Lesson 08's experiment (``helpers.SHORT_CONTEXT``: six TinyLMs, none, sinusoidal, learned, rope,
alibi and t5, trained on the same task at length L with the same budget), repeated for several
seeds; model initialisation and training data both follow the seed. For each seed it measures
what the lesson measures (``helpers.measure.l08_train_short_test_long``) and evaluates the same
claim functions the lesson asserts:

* ``H.short_context_claims(run)``: the band means within L and past it, and the toy counterpart of
  Press et al.'s Table 2 beside the published one;
* ``H.probe_claims``: a linear probe reading the position from the last hidden state (none,
  sinusoidal, and an untrained none model);
* RoPE's loss past L against its attention on keys L or more back (``far_attention_correlation``).

It prints every seed's numbers, each claim per seed and whether it held for every seed, and the
range over the seeds of the numbers the lesson quotes (its table of ranges). Run it with the
machine's fast kernels and again with PyTorch's portable ones; a claim the lesson asserts must hold
for every seed in both:

    python benchmarks/seed_spread.py [--seeds 0,1,2,3,4] [--workers 2] [--progress]
    ATEN_CPU_CAPABILITY=default python benchmarks/seed_spread.py

Each model trains on one torch thread, as in the lesson (``H.train_models``): the trained
weights do not depend on ``--workers``, only the wall time does.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers as H  # noqa: E402
from helpers.measure import l08_train_short_test_long as M  # noqa: E402

SETTINGS = H.SHORT_CONTEXT
TRAIN_LENGTH = SETTINGS.length
# The training and evaluation budget per model, as benchmarks/train_speed.py times it.
BUDGET = {"steps": SETTINGS.steps, "batch": SETTINGS.batch, "length": SETTINGS.length, "lr": SETTINGS.lr}
EVAL = {"length": SETTINGS.eval_length, "batches": SETTINGS.eval_batches, "batch": SETTINGS.batch}
SCHEMES = {name: SETTINGS.scheme_options(name) for name in M.TRAINED_SCHEMES}
PROBED = ("none", "sinusoidal", "untrained none")


def run_seed(seed: int, progress: bool, workers: int) -> dict:
    """Everything the lesson measures, for one seed, and its claims."""
    models = M.train_models(SETTINGS, seed=seed, progress=progress, workers=workers)
    run = M.evaluate_models(models, SETTINGS, seed=seed)
    task = SETTINGS.task()
    probed = {"none": models["none"], "sinusoidal": models["sinusoidal"],
              "untrained none": M.build_model("none", SETTINGS, seed)}
    probes = {name: M.position_probe(model, task, train_length=TRAIN_LENGTH, length=run.length)
              for name, model in probed.items()}
    far = M.far_attention(models["rope"], SETTINGS, seed=seed)
    correlation = M.far_attention_correlation(run, far)
    claims = {**M.short_context_claims(run), **M.probe_claims(*(probes[n] for n in PROBED), train_length=TRAIN_LENGTH),
              f"rope's loss past L follows its attention on keys ≥ L back (correlation > {M.FAR_CORRELATION})":
                  correlation > M.FAR_CORRELATION}
    return {"run": run, "probes": probes, "correlation": correlation, "claims": claims}


def span(values, digits: int = 2) -> str:
    """'lo–hi' of the values, rounded outwards at ``digits`` decimals, or one number if they agree."""
    scale = 10**digits
    lo, hi = math.floor(min(values) * scale) / scale, math.ceil(max(values) * scale) / scale
    return f"{lo:.{digits}f}" if lo == hi else f"{lo:.{digits}f}–{hi:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2,3,4", help="comma-separated seeds (default 0,1,2,3,4)")
    parser.add_argument("--workers", type=int, default=2,
                        help="models trained at once, one torch thread each (default 2; results do not depend on it)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar per model")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # evaluation and probes too, as lesson 08 runs them
    seeds = [int(s) for s in args.seeds.split(",")]

    task = SETTINGS.task()
    L = TRAIN_LENGTH
    print(f"task: {task.describe()}; entropy floor {task.entropy_floor:.3f} nats per token")
    print(f"settings: {SETTINGS}; curves to {M.CURVE_FACTOR}L = {M.CURVE_FACTOR * L} "
          f"(learned: its {SETTINGS.scheme_options('learned')['max_len']} rows); seeds {seeds}; "
          f"one torch thread per model, {args.workers} at a time; "
          f"torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}")
    start = time.perf_counter()
    results = {}
    for seed in seeds:
        results[seed] = run_seed(seed, args.progress, args.workers)
        print(f"seed {seed} done after {time.perf_counter() - start:.0f} s", flush=True)
    wall = time.perf_counter() - start
    runs = {seed: r["run"] for seed, r in results.items()}

    # --- per-seed numbers ------------------------------------------------------------------------
    bands = {seed: run.bands() for seed, run in runs.items()}
    floor = runs[seeds[0]].floor_bands()
    for i, band in enumerate(M.BAND_NAMES):
        print(f"\nmean loss (nats), band {band}; floor {floor[i]:.3f}")
        print(f"{'scheme':<11}" + "".join(f"{'seed ' + str(s):>9}" for s in seeds))
        for name in M.TRAINED_SCHEMES:
            print(f"{name:<11}" + "".join(f"{bands[s][name][i]:9.3f}" for s in seeds))
    print("\nrise from ≤ L to 2L–4L (nats)")
    for name in M.TRAINED_SCHEMES:
        print(f"{name:<11}" + "".join(f"{bands[s][name].to_4l - bands[s][name].within:9.3f}" for s in seeds))
    print("\ntoy counterpart of Press et al.'s Table 2: perplexity over the first "
          + " / ".join(map(str, M.toy_lengths(L))) + " tokens")
    for seed in seeds:
        toy = runs[seed].toy_table_2()
        print(f"seed {seed}: " + "; ".join(f"{n} " + " ".join(f"{v:.2f}" for v in toy[n]) for n in M.TRAINED_SCHEMES))
    print("\nlinear probe on the last hidden state: R² within L; mean reading in bands ≤ L / L–2L / 2L–4L")
    for seed in seeds:
        for name in PROBED:
            p = results[seed]["probes"][name]
            b = M.band_means(p.reading, L)
            print(f"  seed {seed} {name:<15} R² {p.r2_within:5.2f}   reading {b.within:5.1f} {b.to_2l:5.1f} "
                  f"{b.to_4l:5.1f}")
    print("\nrope: correlation past L of the loss above the floor with the attention on keys ≥ L back: "
          + " ".join(f"{results[s]['correlation']:.2f}" for s in seeds))

    # --- the claims -----------------------------------------------------------------------------
    print("\nclaims (lesson 08 asserts each one):")
    failed = 0
    for claim in results[seeds[0]]["claims"]:
        held = [results[s]["claims"][claim] for s in seeds]
        failed += not all(held)
        print(f"  {'holds for every seed' if all(held) else 'does NOT hold for every seed'}: {claim} "
              + " ".join("T" if h else "F" for h in held))

    # --- the ranges the lesson quotes -----------------------------------------------------------
    print("\nranges over the seeds (the lesson's table): mean loss (nats) ≤ L | L–2L | 2L–4L | rise | "
          "perplexity over the first L tokens")
    for name in M.TRAINED_SCHEMES:
        b = [bands[s][name] for s in seeds]
        print(f"  {name:<11}" + " | ".join(span(v) for v in ([x.within for x in b], [x.to_2l for x in b],
                                                               [x.to_4l for x in b], [x.to_4l - x.within for x in b],
                                                               [math.exp(x.within) for x in b])))
    print(f"  {'floor':<11}" + " | ".join(f"{v:.2f}" for v in floor) + f" | – | {math.exp(floor.within):.2f}")
    growth = {s: M.perplexity_growth(runs[s].toy_table_2()) for s in seeds}
    print("  toy growth of perplexity, first column to last: "
          + ", ".join(f"{n} ×{span([growth[s][n] for s in seeds])}" for n in M.PRESS_TABLE_2))
    for name in PROBED:
        print(f"  probe R² within L, {name}: {span([results[s]['probes'][name].r2_within for s in seeds])}")
    print(f"  rope correlation: {span([results[s]['correlation'] for s in seeds])}")

    print(f"\nwall time {wall:.0f} s for {len(seeds)} seed(s) × {len(M.TRAINED_SCHEMES)} schemes "
          f"(training, evaluation and probes; {args.workers} models at a time)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
