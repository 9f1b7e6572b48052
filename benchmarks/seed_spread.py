"""Train short, test long: which results of lesson 08 hold for every seed?

Lesson 08's experiment (``helpers.SHORT_CONTEXT``: six TinyLMs, none, sinusoidal, learned, rope,
alibi and t5, trained on the same task at length L with the same budget), repeated for several
seeds; model initialisation and training data both follow the seed. For each seed it measures,
as the lesson does (``helpers.measure.l08_train_short_test_long``):

* the mean loss in three bands of positions (≤ L, L–2L, 2L–4L), beside the task's entropy floor;
* the toy counterpart of Press et al.'s Table 2: perplexity over the first n tokens for
  n = L·(512, 1012, 1512, 2512)/512, and which of the paper's orderings it reproduces;
* a linear probe reading the position from the last hidden state (none, sinusoidal, and an
  untrained none model).

It prints every seed's numbers and what held for every seed: the pairwise orderings "a < b"
(gaps above MARGIN nats), the comparisons with the paper, and the probe's findings. Lesson 08
quotes this output and asserts, on the seed it trains live, only what held here.

    python benchmarks/seed_spread.py [--seeds 0,1,2,3,4] [--workers 2] [--progress]

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
# A gap in mean loss (nats) smaller than this is not called an ordering.
MARGIN = 0.02
# Press et al. give one run per model: gaps below this (nats of log-perplexity, about 5 %) in their
# table are not called orderings either.
PUBLISHED_MARGIN = 0.05
# A band mean this much (nats) above the in-length one is called a rise.
RISE = 0.1
PROBED = ("none", "sinusoidal", "untrained none")


def run_seed(seed: int, progress: bool, workers: int) -> dict:
    """Everything the lesson measures, for one seed."""
    models = M.train_models(SETTINGS, seed=seed, progress=progress, workers=workers)
    run = M.evaluate_models(models, SETTINGS, seed=seed)
    task = SETTINGS.task()
    probed = {"none": models["none"], "sinusoidal": models["sinusoidal"],
              "untrained none": M.build_model("none", SETTINGS, seed)}
    probes = {name: M.position_probe(model, task, train_length=TRAIN_LENGTH, length=run.length)
              for name, model in probed.items()}
    return {"run": run, "probes": probes}


def log_table(table: dict) -> dict:
    """Perplexities → mean losses (nats), so that one margin in nats applies to every column."""
    return {name: tuple(math.log(v) for v in row) for name, row in table.items()}


def show_pairs(pairs) -> str:
    return ", ".join(f"{a} < {b}" for a, b in pairs) if pairs else "nothing"


def probe_findings(probes: dict) -> dict[str, bool]:
    """The probe's findings the lesson states, for one seed (``helpers.probe_claims``)."""
    return M.probe_claims(*(probes[n] for n in PROBED), train_length=TRAIN_LENGTH)


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
          f"one torch thread per model, {args.workers} at a time")
    start = time.perf_counter()
    results = {}
    for seed in seeds:
        results[seed] = run_seed(seed, args.progress, args.workers)
        print(f"seed {seed} done after {time.perf_counter() - start:.0f} s", flush=True)
    wall = time.perf_counter() - start
    runs = {seed: r["run"] for seed, r in results.items()}

    # --- bands ------------------------------------------------------------------------------
    bands = {seed: run.bands() for seed, run in runs.items()}
    floor = runs[seeds[0]].floor_bands()
    for i, band in enumerate(M.BAND_NAMES):
        print(f"\nmean loss (nats), band {band}; floor {floor[i]:.3f}")
        print(f"{'scheme':<11}" + "".join(f"{'seed ' + str(s):>9}" for s in seeds) + f"{'spread':>9}")
        for name in M.TRAINED_SCHEMES:
            row = [bands[s][name][i] for s in seeds]
            spread = max(row) - min(row) if not any(map(math.isnan, row)) else math.nan
            print(f"{name:<11}" + "".join(f"{v:9.3f}" for v in row) + f"{spread:9.3f}")
        held = H.held_for_every([H.orderings({n: b[i] for n, b in bands[s].items()}, MARGIN) for s in seeds])
        print(f"holds for every seed ({band}): {show_pairs(held)}")
    print(f"\nrise from ≤ L to 2L–4L (nats), per seed; 'rises' if above {RISE} for every seed, "
          f"'flat' if within ±{RISE}")
    for name in M.TRAINED_SCHEMES:
        rise = [bands[s][name].to_4l - bands[s][name].within for s in seeds]
        verdict = "rises" if all(r > RISE for r in rise) else "flat" if all(abs(r) <= RISE for r in rise) else "mixed"
        print(f"{name:<11}" + "".join(f"{r:9.3f}" for r in rise) + f"  {verdict}")

    # --- Press et al.'s Table 2 and its toy counterpart ---------------------------------------
    lengths = M.toy_lengths(L)
    print(f"\nPress et al. 2021, Table 2 (WikiText-103, trained on {M.PRESS_TRAINED_ON}): perplexity at "
          + " / ".join(map(str, M.PRESS_LENGTHS)) + " tokens")
    for name, row in M.PRESS_TABLE_2.items():
        print(f"  {M.PRESS_ROW_NAMES[name]:<11}" + "".join(f"{v:9.2f}" for v in row))
    toy = {seed: run.toy_table_2() for seed, run in runs.items()}
    press_log = log_table(M.PRESS_TABLE_2)
    print("\ntoy counterpart: perplexity over the first " + " / ".join(map(str, lengths)) + " tokens")
    for seed in seeds:
        print(f"seed {seed}")
        for name in M.TRAINED_SCHEMES:
            print(f"  {name:<11}" + "".join(f"{v:9.2f}" for v in toy[seed][name]))
    for j, n in enumerate(lengths):
        toy_columns = {s: M.table_column(log_table(toy[s]), j) for s in seeds}
        held = H.held_for_every([H.orderings(toy_columns[s], MARGIN) for s in seeds])
        print(f"\nfirst {n} tokens (Press: {M.PRESS_LENGTHS[j]}): holds for every seed: {show_pairs(held)}")
        published = M.table_column(press_log, j)
        print(f"  published orderings: {show_pairs(H.orderings(published, PUBLISHED_MARGIN))}")
        comparisons = [H.compare_orderings(toy_columns[s], published, MARGIN, PUBLISHED_MARGIN) for s in seeds]
        for kind in H.OrderingComparison._fields:
            print(f"  {kind} for every seed: "
                  f"{show_pairs(H.held_for_every([getattr(c, kind) for c in comparisons]))}")
    # log of the ratio: the rise in mean loss (nats), so that MARGIN applies
    growth = {s: {n: math.log(v) for n, v in M.perplexity_growth(toy[s]).items()} for s in seeds}
    press_growth = {n: math.log(v) for n, v in M.perplexity_growth(M.PRESS_TABLE_2).items()}
    print("\ngrowth of perplexity from the first to the last column (toy, per seed):")
    for name in M.TRAINED_SCHEMES:
        print(f"  {name:<11}" + "".join(f"{math.exp(growth[s][name]):9.2f}" for s in seeds))
    comparisons = [H.compare_orderings(growth[s], press_growth, MARGIN, PUBLISHED_MARGIN) for s in seeds]
    for kind in H.OrderingComparison._fields:
        print(f"  growth: {kind} for every seed: "
              f"{show_pairs(H.held_for_every([getattr(c, kind) for c in comparisons]))}")

    # --- the probe ------------------------------------------------------------------------------
    print("\nlinear probe on the last hidden state: R² within L; mean reading in bands ≤ L / L–2L / 2L–4L")
    for seed in seeds:
        for name in PROBED:
            p = results[seed]["probes"][name]
            b = M.band_means(p.reading, L)
            print(f"  seed {seed} {name:<15} R² {p.r2_within:5.2f}   reading {b.within:5.1f} {b.to_2l:5.1f} "
                  f"{b.to_4l:5.1f}   highest past L {float(p.reading[L:4 * L].max()):5.1f}")
    findings = [probe_findings(results[s]["probes"]) for s in seeds]
    for claim in findings[0]:
        held = [f[claim] for f in findings]
        print(f"  {'holds for every seed' if all(held) else 'does NOT hold for every seed'}: {claim} {held}")

    print(f"\nwall time {wall:.0f} s for {len(seeds)} seed(s) × {len(M.TRAINED_SCHEMES)} schemes "
          f"(training, evaluation and probes; {args.workers} models at a time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
