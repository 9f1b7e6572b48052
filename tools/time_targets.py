"""Run make targets one after another and print how long each took.

    python tools/time_targets.py lint test-unit test-notebooks …

Each target runs as ``make <target>``, with its output as usual. At the end (and at the first
target that fails) a table of targets and seconds is printed, so that a contributor sees where
the time of ``make test`` goes. The exit status is the first failing target's, or 0.
"""

from __future__ import annotations

import subprocess
import sys
import time


def table(rows: list[tuple[str, float, str]]) -> str:
    width = max([len("target")] + [len(name) for name, _, _ in rows])
    lines = [f"{'target':<{width}}  {'seconds':>8}  result", f"{'-' * width}  {'-' * 8}  ------"]
    lines += [f"{name:<{width}}  {seconds:8.0f}  {result}" for name, seconds, result in rows]
    lines.append(f"{'total':<{width}}  {sum(s for _, s, _ in rows):8.0f}")
    return "\n".join(lines)


def main(targets: list[str]) -> int:
    if not targets:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    rows: list[tuple[str, float, str]] = []
    status = 0
    for target in targets:
        start = time.monotonic()
        status = subprocess.run(["make", "--no-print-directory", target]).returncode
        rows.append((target, time.monotonic() - start, "ok" if status == 0 else f"FAILED ({status})"))
        if status:
            break
    print("\nWhere the time went:\n" + table(rows), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
