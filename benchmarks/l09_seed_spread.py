"""Lesson 09's experiment over more seeds than the lesson runs live: does every claim it asserts
hold for each of them, and by how much?

    python benchmarks/l09_seed_spread.py [--seeds 0 1 2 3 4 5] [--threads 1] [--write]
    ATEN_CPU_CAPABILITY=default python benchmarks/l09_seed_spread.py --write

For each seed: lesson 08's RoPE TinyLM is trained at L (``helpers.SHORT_CONTEXT``), every
stretch of ``helpers.STRETCHES`` is applied at factor 4 with no training and evaluated at 4L, and
three copies are fine-tuned at 4L (plain RoPE, position interpolation, YaRN). Prints the mean
excess loss over the task's floor per band (≤ L, L–2L, 2L–4L), per method and seed, the range over
seeds that the lesson quotes, YaRN's attention factor seed by seed, then each of the lesson's claims
(``helpers.stretch_margins``, the same function the lesson calls) with its margin seed by seed. A
claim holds where its margin exceeds ``helpers.STRETCH_MARGIN``. Exit status 1 if a claim failed for
any seed. Run it also with ``ATEN_CPU_CAPABILITY=default`` (PyTorch's portable kernels) to check that
the claims do not depend on the CPU. Takes about a minute per seed on two idle cores.

With ``--write`` it stores what it measured, seed by seed and rounded to 3 decimals, as the entry of its
kernel set (the machine's best, or portable) in ``helpers/measure/l09_seed_spread.py``, keeping the other
kernel set's entry; lesson 09's Going deeper prints its ranges from there.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import helpers as H  # noqa: E402

FACTOR = 4.0
BANDS = ("≤ L", "L–2L", "2L–4L")
TABLE = ROOT / "helpers" / "measure" / "l09_seed_spread.py"


def literal(value, indent: int = 0) -> str:
    """Python source for ``value``: one dict entry per line, lists and tuples of plain values inline."""
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = "".join(f"{pad}{k!r}: {literal(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + items + " " * indent + "}"
    return repr(value)


def entry(runs, effects, margins, threads: int) -> dict:
    """What one kernel set measured, seed by seed, rounded to 3 decimals: the excess loss per band of each
    stretch without training and after fine-tuning, what YaRN's attention factor did to the excess loss
    past 2L (loss with it − loss without it), and each claim's margin."""
    def bands(b):
        return tuple(round(float(v) + 0.0, 3) for v in b)

    seeds = [r.seed for r in runs]
    return {
        "seeds": seeds, "torch": torch.__version__.split("+")[0], "threads": threads, "factor": FACTOR,
        "fine_tune_steps": H.FineTuning().steps, "bands": BANDS,
        "training_free": {m: {r.seed: bands(r.excess("training_free", m)) for r in runs} for m in H.STRETCHES},
        "tuned": {m: {r.seed: bands(r.excess("tuned", m)) for r in runs} for m in runs[0].tuned},
        "yarn_factor_effect": {r.seed: round(e.loss_on - e.loss_off, 3) for r, e in zip(runs, effects, strict=True)},
        "margins": {claim: {s: round(m[claim], 3) for s, m in zip(seeds, margins, strict=True)}
                    for claim in margins[0]},
    }


def write_table(kernels: str, new: dict) -> None:
    """Add this run's entry to the stored table, keeping the other kernel set's."""
    stored = {}
    if TABLE.exists():
        spec = importlib.util.spec_from_file_location("l09_seed_spread", TABLE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        stored = dict(module.SEED_SPREAD)
    stored[kernels] = new
    TABLE.write_text(
        '"""Lesson 09\'s toy experiment over six seeds, per CPU kernel set: what\n'
        "``benchmarks/l09_seed_spread.py --write`` measured, seed by seed, rounded to 3 decimals (``training_free``\n"
        "and ``tuned``: the excess loss over the task's floor in the bands ≤ L, L–2L, 2L–4L of each stretch;\n"
        "``yarn_factor_effect``: the excess loss past 2L with YaRN's attention factor minus without it;\n"
        "``margins``: each claim of ``helpers.stretch_margins``, in nats). Written by the benchmark, not by\n"
        'hand."""\n'
        "# ruff: noqa: E501\n\n"
        f"SEED_SPREAD = {literal(stored)}\n", encoding="utf-8")
    print(f"wrote the entry {kernels!r} of {TABLE.relative_to(ROOT)}")


def table(runs, which: str, methods) -> None:
    width = 6 * len(runs) + 2
    print(f"{'':>8}" + "".join(f"{band:^{width}}" for band in BANDS))
    print(f"{'seed':>8}" + ("  " + "".join(f"{r.seed:>6}" for r in runs)) * len(BANDS))
    for m in methods:
        bands = [r.excess(which, m) for r in runs]
        print(f"{m:>8}" + "".join("  " + "".join(f"{b[k] + 0.0:>6.2f}" for b in bands) for k in range(3)))


def ranges(runs, which: str, methods) -> None:
    print(f"{'':>8}" + "".join(f"{band:>13}" for band in BANDS))
    for m in methods:
        bands = [r.excess(which, m) for r in runs]
        print(f"{m:>8}" + "".join(f"{min(b[k] for b in bands) + 0.0:>8.2f}–{max(b[k] for b in bands) + 0.0:<4.2f}"
                                  for k in range(3)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4, 5])
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1, as the lesson runs)")
    parser.add_argument("--write", action="store_true", help=f"store the results in {TABLE.relative_to(ROOT)}")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    kernels = "portable (ATEN_CPU_CAPABILITY=default)" if os.environ.get("ATEN_CPU_CAPABILITY") == "default" \
        else f"best ({torch.backends.cpu.get_cpu_capability()})"
    print(f"kernels: {kernels}, torch {torch.__version__}, {args.threads} thread(s)")

    settings, fine_tuning = H.SHORT_CONTEXT, H.FineTuning()
    task = settings.task()
    L, n = settings.length, int(FACTOR * settings.length)
    print(task)
    print(f"training: {settings.train_kwargs()} (seed replaced by each seed); fine-tuning at {n}: {fine_tuning}")
    runs = []
    for seed in args.seeds:
        start = time.perf_counter()
        runs.append(H.stretch_run(task, seed, factor=FACTOR, settings=settings, fine_tuning=fine_tuning,
                                  progress=False))
        print(f"seed {seed}: {time.perf_counter() - start:.0f} s", flush=True)

    print(f"\nexcess loss over the floor (nats), no training, factor {FACTOR:g}, evaluated at {n}")
    table(runs, "training_free", H.STRETCHES)
    print(f"\nafter {fine_tuning.steps} fine-tuning steps at {n}")
    table(runs, "tuned", runs[0].tuned)
    print(f"\nrange over seeds {args.seeds[0]}–{args.seeds[-1]}: no training")
    ranges(runs, "training_free", H.STRETCHES)
    print("range over seeds: fine-tuned")
    ranges(runs, "tuned", runs[0].tuned)

    print("\nYaRN's attention factor, no training, past 2L: attention entropy and excess loss with the factor on "
          "q and k / off / on the logits once")
    effects = [H.yarn_temperature_effect(r.base, task, factor=FACTOR, original_max_len=L, length=n) for r in runs]
    for r, e in zip(runs, effects, strict=True):
        print(f"  seed {r.seed}: entropy {e.entropy_on:.3f} / {e.entropy_off:.3f} / {e.entropy_logits_once:.3f}, "
              f"loss {e.loss_on:.3f} / {e.loss_off:.3f} / {e.loss_logits_once:.3f}, "
              f"the factor {'raises' if e.loss_on > e.loss_off else 'lowers'} the loss")

    print(f"\nthe lesson's claims, seed by seed: the margin (nats) by which each holds; it must exceed "
          f"{H.STRETCH_MARGIN:g}")
    margins = [H.stretch_margins(r, e) for r, e in zip(runs, effects, strict=True)]
    failed = False
    for claim in margins[0]:
        by = [m[claim] for m in margins]
        held = min(by) > H.STRETCH_MARGIN
        failed |= not held
        print(f"  {'holds' if held else 'FAILS'}  smallest {min(by):6.3f}  {claim}: "
              + " ".join(f"{b:.3f}" for b in by))
    if args.write:
        write_table(kernels, entry(runs, effects, margins, args.threads))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
