"""Lesson 07's trained position table over more seeds than the lesson runs live: does every claim
the lesson asserts about it hold for each of them, and with what margin?

    python benchmarks/l07_seed_spread.py [--seeds 0 1 2 3 4] [--threads 2] [--write]
    ATEN_CPU_CAPABILITY=default python benchmarks/l07_seed_spread.py --write     # torch's portable kernels

For each seed: the lesson's run (``helpers.train_position_table("learned", length=32, max_len=48,
steps=300)``), then the numbers the lesson prints (loss above the floor inside the training length,
the update's similarity by offset, how far rows moved, loss and prediction entropy past row 31) and
each claim of ``helpers.table_claims``. Ends with the range of each number over the seeds. Exit
status 1 if a claim failed for any seed. A few seconds per seed on two idle cores. ``--write`` stores
the ranges and each claim's verdict per seed, under this run's kernel set, in
``helpers/measure/l07_seed_spread.py``, which the lesson prints (a run with the other kernel set
adds its own entry).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TABLE = ROOT / "helpers" / "measure" / "l07_seed_spread.py"

import helpers as H  # noqa: E402

LENGTH, ROWS, STEPS = 32, 48, 300


def literal(value, indent: int = 0) -> str:
    """Python source for ``value``: one dict entry per line, lists and tuples of plain values inline."""
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = "".join(f"{pad}{k!r}: {literal(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + items + " " * indent + "}"
    return repr(value)


def write_table(kernels: str, entry: dict) -> None:
    """Add this run's entry to the stored table, keeping the other kernel set's."""
    stored = {}
    if TABLE.exists():
        spec = importlib.util.spec_from_file_location("l07_seed_spread", TABLE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        stored = dict(module.SEED_SPREAD)
    stored[kernels] = entry
    TABLE.write_text(
        '"""Lesson 07\'s trained table over five seeds, per CPU kernel set: the summary\n'
        "``benchmarks/l07_seed_spread.py --write`` stores (``ranges``: the lowest and highest value of each\n"
        "number over the seeds, rounded outwards; ``claims``: each claim of ``helpers.table_claims`` with its\n"
        'verdict seed by seed, T or F). Written by the benchmark, not by hand."""\n'
        "# ruff: noqa: E501\n\n"
        f"SEED_SPREAD = {literal(stored)}\n", encoding="utf-8")
    print(f"wrote the entry {kernels!r} of {TABLE.relative_to(ROOT)}")


def numbers(run) -> dict[str, float]:
    profile = H.similarity_by_offset(run.update[:LENGTH], 8)
    change = run.row_change()
    return {
        "excess 0–31": run.excess(0, LENGTH),
        "update sim k=1": float(profile[1]),
        "update sim k=3": float(profile[3]),
        "most alike k": float(int(profile[1:].argmax()) + 1),
        "least row move": float(change[:LENGTH].min()),
        "loss 32–47": float(run.loss[LENGTH:].mean()),
        "entropy 32–47": float(run.entropy[LENGTH:].mean()),
        "entropy 8–31": float(run.entropy[8:LENGTH].mean()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--threads", type=int, default=2, help="torch threads while training (the lesson uses 2)")
    parser.add_argument("--write", action="store_true", help=f"store the summary in {TABLE.relative_to(ROOT)}")
    args = parser.parse_args()
    task = H.LetterDigitCopy()
    kernels = "portable (ATEN_CPU_CAPABILITY=default)" if os.environ.get("ATEN_CPU_CAPABILITY") == "default" \
        else f"best ({torch.backends.cpu.get_cpu_capability()})"
    print(f"{task.describe()}\nkernels: {kernels}, torch {torch.__version__}, {args.threads} threads; "
          f"ln 16 = {math.log(16):.3f}")
    rows, failed, verdicts = {}, [], {}
    for seed in args.seeds:
        start = time.perf_counter()
        run = H.train_position_table("learned", length=LENGTH, max_len=ROWS, steps=STEPS, seed=seed,
                                     threads=args.threads, progress=False)
        rows[seed] = numbers(run)
        claims = H.table_claims(run, task)
        failed += [(seed, c.text) for c in claims if not c.holds]
        for c in claims:
            verdicts[c.text] = verdicts.get(c.text, "") + ("T" if c.holds else "F")
        print(f"seed {seed} ({time.perf_counter() - start:.0f} s): "
              + ", ".join(f"{k} {v:+.3f}" for k, v in rows[seed].items())
              + f"; claims held: {sum(c.holds for c in claims)}/{len(claims)}", flush=True)
    print("\nrange over the seeds")
    for key in next(iter(rows.values())):
        values = [r[key] for r in rows.values()]
        print(f"  {key:>16}: {min(values):+.3f} … {max(values):+.3f}")
    for seed, text in failed:
        print(f"FAILED seed {seed}: {text}")
    print("every claim held for every seed" if not failed else f"{len(failed)} claim(s) failed")
    if args.write:
        ranges = {key: (math.floor(min(r[key] for r in rows.values()) * 1000) / 1000 + 0.0,
                        math.ceil(max(r[key] for r in rows.values()) * 1000) / 1000 + 0.0)
                  for key in next(iter(rows.values()))}  # rounded outwards
        write_table(kernels, {"seeds": list(args.seeds), "torch": torch.__version__.split("+")[0],
                              "threads": args.threads, "ranges": ranges, "claims": verdicts})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
