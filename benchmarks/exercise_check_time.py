"""How long a learner waits for ``H.check`` on an implement exercise.

For every implement exercise, in one run: the time of one call of the course's reference on all of
its cases (what any check must at least do), and the time of a whole ``H.check`` on an answer that
is wrong everywhere (every case compared, every catalogued mistake tried). Both are medians of
repeated calls after a warm-up (cases, the reference's and the mistakes' outputs, torch's first calls).
Bar: every check answers in under a second on a 2-core machine, the time a learner does not notice.
Exit status 1 if a bar fails.

    python benchmarks/exercise_check_time.py [--repeats N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import helpers as H  # noqa: E402
from helpers.exercises import core  # noqa: E402

BAR_S = 1.0


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_exercise(exercise, repeats: int) -> tuple[float, float]:
    """(the reference on all cases, one H.check of an answer wrong everywhere), in seconds."""
    cases, _, _ = exercise.prepared()

    def reference():
        for case in cases:
            exercise.reference(*case.args)

    def check():
        H.check(exercise.id, lambda *args: exercise.reference(*args) * 0 + 1)

    check()  # warm
    return median_time(reference, repeats), median_time(check, repeats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    failed = []
    print(f"{'exercise':24} {'reference (s)':>14} {'H.check (s)':>12} {'ratio':>7}")
    for exercise in (core.get(i) for i in H.EXERCISES):
        if exercise.kind != "implement":
            continue
        reference_s, check_s = time_exercise(exercise, repeats)
        print(f"{exercise.id:24} {reference_s:14.4f} {check_s:12.4f} {check_s / max(reference_s, 1e-9):7.1f}")
        if check_s >= BAR_S:
            failed.append(f"{exercise.id}: {check_s:.2f} s ≥ {BAR_S} s")
    for line in failed:
        print("BAR FAILED:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
