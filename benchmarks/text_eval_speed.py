"""How long evaluating one shipped text model on the whole validation split at 8·L takes.

    .venv/bin/python benchmarks/text_eval_speed.py [threads]

The target: under 2 s on two CPU cores (the lessons evaluate several models per run). Prints the best
of a few repeats for each scheme's seed-0 model: loss by position over every window of 8·L = 1024
bytes of the validation split (48 windows, 49,152 bytes), in batches of 16.
"""

from __future__ import annotations

import pathlib
import sys
import time

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import helpers as H  # noqa: E402

REPEATS = 3
TARGET_S = 2.0


def best_time(model, length: int) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        H.text_loss_by_position(model, length)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    if len(sys.argv) > 1:  # an optional thread count: on a machine shared with other work, 1 is steadier
        torch.set_num_threads(int(sys.argv[1]))
    H.text_corpus("valid")  # read and check the corpus once, outside the timing
    length = H.TEXT_MAX_LENGTH
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; validation split "
          f"{H.text_corpus('valid').numel():,} bytes, windows of {length}")
    worst = 0.0
    for scheme in H.TEXT_SCHEMES:
        seconds = best_time(H.load_text_model(scheme, 0), length)
        worst = max(worst, seconds)
        print(f"  {scheme:<11} {seconds:.2f} s")
    print(f"slowest {worst:.2f} s: {'under' if worst < TARGET_S else 'OVER'} the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
