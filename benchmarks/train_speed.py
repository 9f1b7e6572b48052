"""How fast does TinyLM train, with every position scheme, and does lesson 08's budget fit?

One training step (forward, backward, AdamW) of TinyLM (d_model 64, 4 heads, 2 layers,
vocabulary 16) on a batch of 32 × 64 tokens, for every scheme, next to a plain implementation
of the same model with the same weights: explicit softmax attention, the causal mask and the
scheme's bias built in every layer of every step. Times are medians of round-robin rounds in
one run. Bars: every scheme at most 1.3× the "none" scheme, and at least 1.5× faster than its
plain implementation. Logits of the two implementations are checked equal before timing.
For comparison (not judged) it also times one attention layer alone, both ways: attention is
only part of a step, the rest (projections, MLP, layer norms, optimiser) is common to both.

Then the wall time of lesson 08's budget (six schemes trained and evaluated as the lesson does,
two at a time): it must leave the lesson under 60 s.
Exit status 1 if a check or a bar fails.

    python benchmarks/train_speed.py [--repeats N] [--threads T] [--skip-budget]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed_spread import BUDGET, SCHEMES, TRAIN_LENGTH  # noqa: E402

import helpers as H  # noqa: E402

BATCH, LENGTH = 32, 64
MAX_VS_NONE = 1.3
MIN_VS_PLAIN = 1.5
LESSON_LIMIT_S = 60.0
# What the rest of lesson 08 may take besides training and evaluating the six models
# (imports, the task sample, figures, the probe): the budget must leave this much.
REST_OF_LESSON_S = 15.0


def plain_attention(attention, x: torch.Tensor, scheme, heads: int) -> torch.Tensor:
    """One attention layer written out: scores, the scheme's bias and the causal mask rebuilt on
    every call. x: (batch, length, heads·d) → (batch, length, heads·d)."""
    batch, length, width = x.shape
    d = width // heads
    positions = torch.arange(length)
    q, k, v = attention.qkv(x).split(width, dim=-1)
    q, k, v = (t.reshape(batch, length, heads, d).transpose(1, 2) for t in (q, k, v))
    q, k = scheme.rotate(q, k, positions)
    scores = q @ k.transpose(-1, -2) / math.sqrt(d)
    bias = scheme.bias(positions, positions)
    if bias is not None:
        scores = scores + bias
    future = torch.triu(torch.ones(length, length, dtype=torch.bool), diagonal=1)
    mixed = scores.masked_fill(future, float("-inf")).softmax(dim=-1) @ v
    return attention.out(mixed.transpose(1, 2).reshape(batch, length, width))


def plain_forward(model: H.TinyLM, tokens: torch.Tensor) -> torch.Tensor:
    """The same model, attention written out (:func:`plain_attention`) in every layer."""
    scheme = model.scheme
    h = scheme.embed(model.token_embedding(tokens), torch.arange(tokens.shape[1]))
    for block in model.blocks:
        h = h + plain_attention(block.attention, block.norm1(h), scheme, model.config.n_heads)
        h = h + block.mlp(block.norm2(h))
    return model.head(model.norm(h))


def make_step(model, forward, inputs, targets):
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)  # as helpers.train uses

    def step():
        loss = F.cross_entropy(forward(inputs).flatten(0, 1), targets.flatten())
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()

    return step


def build(name: str, seed: int = 0) -> H.TinyLM:
    torch.manual_seed(seed)
    model = H.TinyLM(16, name, max_len=LENGTH if name == "learned" else None)
    with torch.no_grad():  # T5 and Shaw start at zero; random tables make the check meaningful
        for p in model.scheme.parameters():
            p.normal_()
    return model


def step_times(repeats: int, warmup: int) -> tuple[dict[str, float], list[str]]:
    task = H.LetterDigitCopy()
    inputs, targets = task.sample(BATCH, LENGTH, torch.Generator().manual_seed(0))
    fns, failures = {}, []
    for name in H.SCHEMES:
        fast, plain = build(name), build(name)
        with torch.no_grad():
            err = (fast(inputs) - plain_forward(plain, inputs)).abs().max().item()
        if not err < 1e-4:
            failures.append(f"{name}: TinyLM and the plain implementation differ by {err:.3g}")
        fns[name] = make_step(fast, fast, inputs, targets)
        fns[f"{name} plain"] = make_step(plain, lambda x, m=plain: plain_forward(m, x), inputs, targets)
    times = H.round_robin_times(fns, repeats=repeats, warmup=warmup)
    return {name: statistics.median(t) for name, t in times.items()}, failures


def attention_times(repeats: int, warmup: int) -> dict[str, float]:
    """Forward + backward of one attention layer alone, for every scheme: the block as TinyLM runs
    it (cached mask, SDPA) and written out plainly (scores, bias and mask rebuilt each call)."""
    heads, d = 4, 16
    x = torch.randn(BATCH, LENGTH, heads * d, generator=torch.Generator().manual_seed(1), requires_grad=True)
    fns = {}
    for name in H.SCHEMES:
        model = build(name)
        scheme, block = model.scheme, model.blocks[0].attention

        def fast(scheme=scheme, block=block):
            mask = scheme.attention_mask(None, LENGTH, x.dtype, x.device)
            block(x, scheme, None, mask).sum().backward()

        def plain(scheme=scheme, block=block):
            plain_attention(block, x, scheme, heads).sum().backward()

        fns[name], fns[f"{name} plain"] = fast, plain
    times = H.round_robin_times(fns, repeats=repeats, warmup=warmup)
    return {name: statistics.median(t) for name, t in times.items()}


def lesson_budget_seconds() -> float:
    """Train and evaluate lesson 08's six models once, as the lesson does: ``H.train_models`` with
    two workers of one thread each, then ``H.evaluate_models`` to 5L, one torch thread (no progress bar)."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.perf_counter()
        models = H.train_models(H.SHORT_CONTEXT, workers=2, progress=False)
        H.evaluate_models(models, H.SHORT_CONTEXT)
        return time.perf_counter() - start
    finally:
        torch.set_num_threads(previous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed rounds (default 30)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first (default 3)")
    parser.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's choice)")
    parser.add_argument("--skip-budget", action="store_true", help="time the steps only")
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)

    med, failures = step_times(args.repeats, args.warmup)
    for f in failures:
        print(f"FAIL  {f}")
    print(f"TinyLM training step, batch {BATCH} × length {LENGTH}, {torch.get_num_threads()} torch threads, "
          f"median of {args.repeats} round-robin rounds")
    print(f"{'scheme':<12}{'TinyLM ms':>10}{'plain ms':>10}{'× none':>8}{'plain ÷ TinyLM':>16}")
    none = med["none"]
    for name in H.SCHEMES:
        fast, plain = med[name], med[f"{name} plain"]
        vs_none, speedup = fast / none, plain / fast
        marks = ("" if vs_none <= MAX_VS_NONE else f"  > {MAX_VS_NONE}× none") + (
            "" if speedup >= MIN_VS_PLAIN else f"  < {MIN_VS_PLAIN}× faster than plain")
        print(f"{name:<12}{fast * 1e3:10.1f}{plain * 1e3:10.1f}{vs_none:8.2f}{speedup:16.2f}{marks}")
        if marks:
            failures.append(f"{name}:{marks}")

    attention = attention_times(args.repeats, args.warmup)
    print("\nfor comparison, one attention layer alone (forward + backward), not judged:")
    print(f"{'scheme':<12}{'block ms':>10}{'plain ms':>10}{'plain ÷ block':>15}")
    for name in H.SCHEMES:
        fast, plain = attention[name], attention[f"{name} plain"]
        print(f"{name:<12}{fast * 1e3:10.2f}{plain * 1e3:10.2f}{plain / fast:15.2f}")

    if not args.skip_budget:
        wall = lesson_budget_seconds()
        left = LESSON_LIMIT_S - wall
        print(f"\nlesson 08 budget: {len(SCHEMES)} schemes × {BUDGET['steps']} steps (batch {BUDGET['batch']}, "
              f"length {TRAIN_LENGTH}, two at a time) + loss by position to 5L: {wall:.1f} s; "
              f"{left:.1f} s of the lesson's {LESSON_LIMIT_S:.0f} s left for the rest (needs {REST_OF_LESSON_S:.0f})")
        if left < REST_OF_LESSON_S:
            failures.append(f"lesson 08 budget takes {wall:.1f} s")

    if failures:
        print("\nFAIL  " + "\nFAIL  ".join(failures))
        return 1
    print("\nall bars met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
