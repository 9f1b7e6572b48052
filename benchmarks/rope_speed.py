"""Does helpers.rope run at memory speed?

On x of shape (4, 16, 1024, 128) float32, times in one run, round robin, medians of repeated
calls after a warm-up:
    clone     x.clone()                         one read + one write: the floor for any op
                                                that returns a new tensor
    interleaved / half   helpers.rope(x, layout=…)
    textbook  x*cos + rotate_half(x)*sin with precomputed cos/sin (Hugging Face style)
    compiled  (with --compile) the textbook function through torch.compile, which may fuse its five
              operations into fewer passes; compiling takes a minute or more on a small CPU
Bars, from the memory traffic each kernel needs (in units of one pass over x; clone = 2 passes):
    interleaved  one complex multiply: read x, write out (2 passes)        at most 1.6× clone,
                                                                           at least 2.5× faster than textbook
    half         out = x·[cos|cos] (2 passes), then two in-place half-updates
                 reading x and out and writing out (3 passes)            at most 2.5× clone,
                                                                           at least 1.5× faster than textbook
    textbook     five full-size ops (about 9 passes, 4.5× clone)
The compiled textbook form (--compile) is reported, with no bar. Timings are CPU timings.
Outputs are checked against the textbook formulation before anything is timed.
Exit status 1 if a check or a bar fails.

    python benchmarks/rope_speed.py [--repeats N] [--threads T] [--compile]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import helpers as H  # noqa: E402
from helpers.measure.common import round_robin_times  # noqa: E402
from helpers.rotary import rope_cos_sin, rope_textbook  # noqa: E402

SHAPE = (4, 16, 1024, 128)
MAX_VS_CLONE = {"interleaved": 1.6, "half": 2.5}
MIN_VS_TEXTBOOK = {"interleaved": 2.5, "half": 1.5}


def check_outputs(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> list[str]:
    """Both layouts against the textbook formulation (the interleaved one through the permutation)."""
    failures = []
    want = rope_textbook(x, cos, sin)
    got = H.rope(x, layout="half")
    err = (got - want).abs().max().item()
    if not err < 1e-5:
        failures.append(f"half layout differs from the textbook by {err:.3g}")
    p = H.rope_permutation(x.shape[-1])
    inverse = torch.argsort(p)
    want_interleaved = rope_textbook(x[..., p], cos, sin)[..., inverse]
    err = (H.rope(x, layout="interleaved") - want_interleaved).abs().max().item()
    if not err < 1e-5:
        failures.append(f"interleaved layout differs from the permuted textbook by {err:.3g}")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed rounds (default 30)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first (default 3)")
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's choice)")
    parser.add_argument("--compile", action="store_true",
                        help="also time the textbook form compiled by torch.compile (slow to compile)")
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)

    x = torch.randn(SHAPE, generator=torch.Generator().manual_seed(0))
    cos, sin = rope_cos_sin(SHAPE[-2], SHAPE[-1])

    failures = check_outputs(x, cos, sin)
    if failures:
        for f in failures:
            print(f"FAIL  {f}")
        return 1

    fns = {
        "clone": lambda: x.clone(),
        "interleaved": lambda: H.rope(x, layout="interleaved"),
        "half": lambda: H.rope(x, layout="half"),
        "textbook": lambda: rope_textbook(x, cos, sin),
    }
    if args.compile:
        compiled = torch.compile(rope_textbook)
        err = (compiled(x, cos, sin) - rope_textbook(x, cos, sin)).abs().max().item()  # compiles here
        if not err < 1e-5:
            print(f"FAIL  the compiled textbook form differs from the textbook by {err:.3g}")
            return 1
        fns["compiled"] = lambda: compiled(x, cos, sin)
    times = round_robin_times(fns, repeats=args.repeats, warmup=args.warmup)
    med = {name: statistics.median(t) for name, t in times.items()}

    mib = x.numel() * x.element_size() / 2**20
    print(f"x {tuple(SHAPE)} float32 ({mib:.0f} MiB), torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, {args.repeats} rounds after {args.warmup} warm-up")
    print(f"{'':12s} {'median':>9s} {'min':>9s} {'max':>9s}  {'vs clone':>8s}")
    for name, t in times.items():
        print(f"{name:12s} {med[name] * 1e3:7.2f}ms {min(t) * 1e3:7.2f}ms {max(t) * 1e3:7.2f}ms  "
              f"{med[name] / med['clone']:7.2f}×")
    print(f"clone moves {2 * mib / 1024 / med['clone']:.1f} GiB/s (one read + one write)")

    ok = True
    for layout in ("interleaved", "half"):
        vs_clone = med[layout] / med["clone"]
        speedup = med["textbook"] / med[layout]
        bar1 = vs_clone <= MAX_VS_CLONE[layout]
        bar2 = speedup >= MIN_VS_TEXTBOOK[layout]
        ok &= bar1 and bar2
        print(f"{'PASS' if bar1 else 'FAIL'}  {layout}: {vs_clone:.2f}× clone (bar ≤ {MAX_VS_CLONE[layout]}×)")
        print(f"{'PASS' if bar2 else 'FAIL'}  {layout}: {speedup:.2f}× faster than textbook "
              f"(bar ≥ {MIN_VS_TEXTBOOK[layout]}×)")
    if "compiled" in med:
        print(f"INFO  compiled textbook: {med['compiled'] / med['clone']:.2f}× clone, "
              f"{med['textbook'] / med['compiled']:.2f}× faster than textbook (no bar)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
