"""Train short, test long: which findings of lesson 08 hold for every seed?

Lesson 08's experiment (``helpers.SHORT_CONTEXT``: six TinyLMs, none, sinusoidal, learned, rope,
alibi and t5, trained on the same task at length L with the same budget), repeated for several
seeds; model initialisation and training data both follow the seed. For each seed it measures
what the lesson measures (``helpers.measure.l08_train_short_test_long``) and evaluates the same
claim functions the lesson asserts:

* ``short_context_claims(run)``: the band means (within L from position 8, L–2L, 2L–4L, 4L–5L),
  and the toy counterpart of Press et al.'s Table 2 beside the published one;
* ``probe_claims``: a linear probe reading the position from the last hidden state (none,
  sinusoidal, and an untrained none model);
* ``attention_claims``: where attention goes past L (RoPE's keys L or more back, T5's last
  bucket, ALiBi's keys L or more back) and how the loss follows it.

It prints every seed's numbers, each claim per seed and whether it held for every seed, and the
range over the seeds of the numbers the lesson quotes. With ``--write`` it stores that summary in
``helpers/measure/l08_train_short_test_long/seed_spread.py``, which the lesson loads and prints. Run it with the
machine's fast kernels and, where time allows, again with PyTorch's portable ones:

    nice python benchmarks/seed_spread.py [--seeds 0,1,2,3,4] [--workers 2] [--cache runs.pt] [--write]
    ATEN_CPU_CAPABILITY=default python benchmarks/seed_spread.py

``--cache FILE`` keeps the trained weights and curves: a second call with the same file reads them
instead of training again (the summary is recomputed from them). Each model trains on one torch
thread, as in the lesson (``H.train_models``): the trained weights do not depend on ``--workers``,
only the wall time does.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import helpers as H  # noqa: E402
from helpers.measure import l08_train_short_test_long as M  # noqa: E402

SETTINGS = H.SHORT_CONTEXT
L = SETTINGS.length
PROBED = ("none", "sinusoidal", "untrained none")
TABLE = ROOT / "helpers" / "measure" / "l08_train_short_test_long" / "seed_spread.py"


def train_seed(seed: int, progress: bool, workers: int) -> dict:
    """The six models of one seed, trained: their weights."""
    models = M.train_models(SETTINGS, seed=seed, progress=progress, workers=workers)
    return {name: {k: v.clone() for k, v in model.state_dict().items()} for name, model in models.items()}


def measure_seed(seed: int, weights: dict) -> dict:
    """Everything the lesson measures, for one seed's trained models, and its claims."""
    models = {}
    for name, state in weights.items():
        models[name] = M.build_model(name, SETTINGS, seed)
        models[name].load_state_dict(state)
    run = M.evaluate_models(models, SETTINGS, seed=seed)
    task = SETTINGS.task()
    probed = {"none": models["none"], "sinusoidal": models["sinusoidal"],
              "untrained none": M.build_model("none", SETTINGS, seed)}
    probes = {name: M.position_probe(model, task, train_length=L, length=run.length)
              for name, model in probed.items()}
    far = {"rope": M.far_attention(models["rope"], SETTINGS, seed=seed),
           "t5": M.far_attention(models["t5"], SETTINGS, seed=seed,
                                 min_offset=M.t5_last_bucket_start(models["t5"])),
           "alibi": M.far_attention(models["alibi"], SETTINGS, seed=seed)}
    claims = {**M.short_context_claims(run), **M.probe_claims(*(probes[n] for n in PROBED), train_length=L),
              **M.attention_claims(run, far)}
    return {"run": run, "probes": probes, "far": far, "claims": claims}


def span(values, digits: int = 2) -> tuple[float, float]:
    """(lo, hi) of the values, rounded outwards at ``digits`` decimals."""
    scale = 10**digits
    return (math.floor(min(values) * scale) / scale + 0.0, math.ceil(max(values) * scale) / scale + 0.0)


def text(lo_hi, digits: int = 2) -> str:
    lo, hi = lo_hi
    return f"{lo:.{digits}f}" if lo == hi else f"{lo:.{digits}f}–{hi:.{digits}f}"


def summarise(results: dict, seeds: list[int], meta: dict) -> dict:
    """The numbers the lesson quotes, as ranges over the seeds, and each claim's verdict per seed."""
    runs = {s: results[s]["run"] for s in seeds}
    bands = {s: runs[s].bands() for s in seeds}
    floor = runs[seeds[0]].floor_bands()
    summary = {**meta, "band_names": M.BAND_NAMES, "band_start": M.BAND_START,
               "floor": round(floor.within, 3), "bands": {}, "rises": {}}
    for name in M.TRAINED_SCHEMES:
        summary["bands"][name] = {band: span([bands[s][name][i] for s in seeds])
                                  for i, band in enumerate(M.BAND_NAMES) if not math.isnan(bands[seeds[0]][name][i])}
        summary["rises"][name] = {band: span([bands[s][name][i] - bands[s][name].within for s in seeds])
                                  for i, band in enumerate(M.BAND_NAMES) if i > 0
                                  and not math.isnan(bands[seeds[0]][name][i])}
    summary["perplexity_first_L"] = {name: span([runs[s].perplexity(name, L) for s in seeds])
                                     for name in M.TRAINED_SCHEMES}
    summary["perplexity_first_L"]["floor"] = span([math.exp(float(runs[seeds[0]].floor[:L].mean()))])
    growth = {s: M.perplexity_growth(runs[s].toy_table_2()) for s in seeds}
    summary["toy_growth"] = {name: span([growth[s][name] for s in seeds]) for name in M.PRESS_TABLE_2}
    summary["probe_r2"] = {name: span([results[s]["probes"][name].r2_within for s in seeds]) for name in PROBED}
    summary["lowest_past_L"] = {name: span([float(runs[s].curve(name)[L:].min()) for s in seeds])
                                for name in ("sinusoidal", "learned")}
    summary["far_attention"] = {
        name: {band: span([M.loss_bands(results[s]["far"][name], L)[i] for s in seeds])
               for i, band in enumerate(M.BAND_NAMES)} for name in ("rope", "t5", "alibi")}
    summary["correlation"] = {name: span([M.far_attention_correlation(runs[s], results[s]["far"][name], name)
                                          for s in seeds]) for name in ("rope", "t5")}
    summary["rope_jumps"] = {s: M.loss_jumps(runs[s].curve("rope"), L) for s in seeds}
    summary["claims"] = {claim: "".join("T" if results[s]["claims"][claim] else "F" for s in seeds)
                         for claim in results[seeds[0]]["claims"]}
    return summary


def report(results: dict, seeds: list[int], summary: dict) -> int:
    runs = {s: results[s]["run"] for s in seeds}
    bands = {s: runs[s].bands() for s in seeds}
    print(f"\nmean loss (nats) per band; every band's floor {summary['floor']:.3f}")
    for i, band in enumerate(M.BAND_NAMES):
        print(f"band {band}")
        for name in M.TRAINED_SCHEMES:
            print(f"  {name:<11}" + "".join(f"{bands[s][name][i]:9.3f}" for s in seeds))
    print("\ntoy counterpart of Press et al.'s Table 2: perplexity over the first "
          + " / ".join(map(str, M.toy_lengths(L))) + " tokens")
    for s in seeds:
        toy = runs[s].toy_table_2()
        print(f"  seed {s}: " + "; ".join(f"{n} " + " ".join(f"{v:.2f}" for v in toy[n]) for n in M.TRAINED_SCHEMES))
    print("\nlinear probe on the last hidden state: R² within L; mean reading in bands ≤ L / L–2L / 2L–4L")
    for s in seeds:
        for name in PROBED:
            p = results[s]["probes"][name]
            b = H.band_means(p.reading, L)
            print(f"  seed {s} {name:<15} R² {p.r2_within:5.2f}   "
                  f"reading {b.within:5.1f} {b.to_2l:5.1f} {b.to_4l:5.1f}")

    print("\nclaims (lesson 08 asserts each one):")
    failed = 0
    for claim, held in summary["claims"].items():
        failed += "F" in held
        print(f"  {'does NOT hold for every seed' if 'F' in held else 'holds for every seed'}: {claim} {held}")

    print("\nranges over the seeds")
    print(f"  {'mean loss':<11}" + "".join(f"{b:>13}" for b in M.BAND_NAMES))
    for name, row in summary["bands"].items():
        print(f"  {name:<11}" + "".join(f"{text(v):>13}" for v in row.values()))
    print(f"  {'rise':<11}" + "".join(f"{b:>13}" for b in M.BAND_NAMES[1:]))
    for name, row in summary["rises"].items():
        print(f"  {name:<11}" + "".join(f"{text(v):>13}" for v in row.values()))
    for key in ("perplexity_first_L", "toy_growth", "probe_r2", "lowest_past_L", "correlation"):
        print(f"  {key}: " + ", ".join(f"{k} {text(v)}" for k, v in summary[key].items()))
    for name, row in summary["far_attention"].items():
        print(f"  attention on far keys, {name}: " + ", ".join(f"{k} {text(v)}" for k, v in row.items()))
    print(f"  rope's largest jumps past L: {summary['rope_jumps']}")
    return failed


def literal(value, indent: int = 0) -> str:
    """Python source for ``value``: one dict entry per line, lists and tuples of plain values inline."""
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = "".join(f"{pad}{k!r}: {literal(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + items + " " * indent + "}"
    return repr(value)


def write_table(summary: dict) -> None:
    TABLE.write_text(
        '"""Lesson 08\'s findings over five training seeds: the summary ``benchmarks/seed_spread.py --write``\n'
        "stores (ranges are (lowest, highest) over the seeds, rounded outwards; ``claims`` gives each claim's\n"
        'verdict seed by seed, T or F). Written by the benchmark, not by hand."""\n'
        "# ruff: noqa: E501\n\n"
        f"SEED_SPREAD = {literal(summary)}\n", encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2,3,4", help="comma-separated seeds (default 0,1,2,3,4)")
    parser.add_argument("--workers", type=int, default=2,
                        help="models trained at once, one torch thread each (default 2; results do not depend on it)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar per model")
    parser.add_argument("--cache", type=Path, help="a file keeping the trained weights: read if present, else written")
    parser.add_argument("--write", action="store_true", help=f"store the summary in {TABLE.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # evaluation and probes too, as lesson 08 runs them
    seeds = [int(s) for s in args.seeds.split(",")]

    task = SETTINGS.task()
    capability = os.environ.get("ATEN_CPU_CAPABILITY") or torch.backends.cpu.get_cpu_capability()
    print(f"task: {task.describe()}; entropy floor {task.entropy_floor:.3f} nats per token")
    print(f"settings: {SETTINGS}; curves to {M.CURVE_FACTOR}L = {M.CURVE_FACTOR * L} "
          f"(learned: its {SETTINGS.scheme_options('learned')['max_len']} rows); seeds {seeds}; "
          f"torch {torch.__version__}, CPU capability {capability}")
    cached = torch.load(args.cache) if args.cache and args.cache.exists() else {}
    if cached and cached["meta"]["capability"] != capability:
        raise SystemExit(f"{args.cache} holds models trained with CPU capability {cached['meta']['capability']}")
    weights = cached.get("weights", {})
    start = time.perf_counter()
    for seed in seeds:
        if seed not in weights:
            weights[seed] = train_seed(seed, args.progress, args.workers)
            print(f"seed {seed} trained after {time.perf_counter() - start:.0f} s", flush=True)
    meta = {"seeds": seeds, "torch": torch.__version__.split("+")[0], "capability": capability,
            "threads": 1, "train_length": L, "steps": SETTINGS.steps}
    if args.cache:
        torch.save({"meta": meta, "weights": weights}, args.cache)
    results = {seed: measure_seed(seed, weights[seed]) for seed in seeds}
    wall = time.perf_counter() - start
    summary = summarise(results, seeds, meta)
    failed = report(results, seeds, summary)
    if args.write:
        write_table(summary)
    print(f"\nwall time {wall:.0f} s for {len(seeds)} seed(s) × {len(M.TRAINED_SCHEMES)} schemes "
          f"(training where not cached, evaluation and probes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
