"""Lesson 09's experiment over more seeds than the lesson runs live: does every ordering it asserts
hold for each of them?

    python benchmarks/l09_seed_spread.py [--seeds 0 1 2 3 4 5] [--threads 1]

For each seed: lesson 08's RoPE TinyLM is trained at L (``helpers.SHORT_CONTEXT``), every
stretch of ``helpers.STRETCHES`` is applied at factor 4 with no training and evaluated at 4L, and
three copies are fine-tuned at 4L (plain RoPE, position interpolation, YaRN). Prints the mean
excess loss over the task's floor per band (≤ L, L–2L, 2L–4L), per method and seed, then each of
the lesson's claims (``helpers.stretch_claims``) seed by seed. Exit status 1 if a claim failed for
any seed. Takes about a minute per seed on two idle cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers as H  # noqa: E402

FACTOR = 4.0
BANDS = ("≤ L", "L–2L", "2L–4L")


def table(runs, which: str, methods) -> None:
    width = 6 * len(runs) + 2
    print(f"{'':>8}" + "".join(f"{band:^{width}}" for band in BANDS))
    print(f"{'seed':>8}" + ("  " + "".join(f"{r.seed:>6}" for r in runs)) * len(BANDS))
    for m in methods:
        bands = [r.excess(which, m) for r in runs]
        print(f"{m:>8}" + "".join("  " + "".join(f"{b[k] + 0.0:>6.2f}" for b in bands) for k in range(3)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4, 5])
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1, as the lesson runs)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    settings, fine_tuning = H.SHORT_CONTEXT, H.FineTuning()
    task = settings.task()
    print(task)
    print(f"training: {settings.train_kwargs()} (seed replaced by each seed); "
          f"fine-tuning at {int(FACTOR * settings.length)}: {fine_tuning}")
    runs = []
    for seed in args.seeds:
        start = time.perf_counter()
        runs.append(H.stretch_run(task, seed, factor=FACTOR, settings=settings, fine_tuning=fine_tuning,
                                  progress=False))
        print(f"seed {seed}: {time.perf_counter() - start:.0f} s", flush=True)

    print("\nexcess loss over the floor (nats), no training, factor 4, evaluated at 4L")
    table(runs, "training_free", H.STRETCHES)
    print(f"\nafter {fine_tuning.steps} fine-tuning steps at 4L")
    table(runs, "tuned", runs[0].tuned)

    print("\nYaRN's attention factor, no training: attention entropy and excess loss past 2L, with / without")
    effects = [H.yarn_temperature_effect(r.base, task, factor=FACTOR, original_max_len=settings.length,
                                         length=int(FACTOR * settings.length)) for r in runs]
    for r, e in zip(runs, effects, strict=True):
        print(f"  seed {r.seed}: entropy {e.entropy_on:.2f} / {e.entropy_off:.2f}, "
              f"loss {e.loss_on:.2f} / {e.loss_off:.2f}")

    print("\nthe lesson's claims, seed by seed")
    claims = [{**H.stretch_claims(r), "YaRN's attention factor lowers the attention entropy past 2L":
               e.entropy_on < e.entropy_off} for r, e in zip(runs, effects, strict=True)]
    failed = False
    for claim in claims[0]:
        held = [c[claim] for c in claims]
        failed |= not all(held)
        print(f"  {'holds' if all(held) else 'FAILS'}  {claim}: {held}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
