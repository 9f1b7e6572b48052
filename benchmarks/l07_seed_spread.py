"""Lesson 07's trained position table over more seeds than the lesson runs live: does every claim
the lesson asserts about it hold for each of them, and with what margin?

    python benchmarks/l07_seed_spread.py [--seeds 0 1 2 3 4] [--threads 2]
    ATEN_CPU_CAPABILITY=default python benchmarks/l07_seed_spread.py     # torch's portable kernels

For each seed: the lesson's run (``helpers.train_position_table("learned", length=32, max_len=48,
steps=300)``), then the numbers the lesson prints (loss above the floor inside the training length,
the update's similarity by offset, how far rows moved, loss and prediction entropy past row 31) and
each claim of ``helpers.table_claims``. Ends with the range of each number over the seeds. Exit
status 1 if a claim failed for any seed. A few seconds per seed on two idle cores.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers as H  # noqa: E402

LENGTH, ROWS, STEPS = 32, 48, 300


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
    args = parser.parse_args()
    task = H.LetterDigitCopy()
    print(f"{task.describe()}\nkernels: ATEN_CPU_CAPABILITY={os.environ.get('ATEN_CPU_CAPABILITY', '(best)')}, "
          f"torch {torch.__version__}, {args.threads} threads; ln 16 = {math.log(16):.3f}")
    rows, failed = {}, []
    for seed in args.seeds:
        start = time.perf_counter()
        run = H.train_position_table("learned", length=LENGTH, max_len=ROWS, steps=STEPS, seed=seed,
                                     threads=args.threads, progress=False)
        rows[seed] = numbers(run)
        claims = H.table_claims(run, task)
        failed += [(seed, c.text) for c in claims if not c.holds]
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
