"""Lesson 07's exercises (notebooks/07_learned_and_relative.ipynb), in the order the notebook asks them.

07.t5_bucket (implement): my_t5_bucket(relative_position, bidirectional, num_buckets, max_distance) →
integer bucket ids of the same shape, relative_position = key − query. Distances below num_buckets/2
(of the buckets for one direction) get a bucket each, larger ones share log-spaced buckets up to
max_distance, beyond which all land in the last; bidirectional gives keys after the query their own half.
The stub does the bookkeeping (n, the halves, the distance, the exact buckets, the cap); the learner
writes log_bucket, the one line of the log-spaced bucket (the check tests the whole function, at the
lesson's sizes and at others, such as 32 buckets up to 1000 and 128 up to 4096, where a log computed in
float16 moves some distances into another bucket).
07.none_column (predict): which verdict does the probe give the scheme "none" (shift and stretch the
positions)? None: no score depends on the positions.
07.alibi_slopes (implement): my_alibi_slopes(n_heads) → (n_heads,). The task gives the power-of-two rule
2^(−8h/n), h = 1 … n, and the five properties the rule for any n was made to have; the learner finds the
rule they pin down (the published one): those of the largest power of two n0 ≤ n, then the first n − n0 of
the odd-indexed slopes (1st, 3rd, …) of 2·n0 heads. A wrong answer is told which property it lacks.
"""

from __future__ import annotations

import math

import torch

from ..relative import alibi_slopes, t5_bucket
from .core import Case, explore, implement, predict  # noqa: F401

# --- 07.t5_bucket -----------------------------------------------------------------------------


def _t5(rel, bidirectional, num_buckets, max_distance, halve=True, causal_abs=False, cap=True, causal_side=-1,
        extra_side=1, rounding=None, log_of_max=False, log_dtype=torch.float32, divisor_rounded=False):
    """T5's bucketing written out independently of helpers.relative, with knobs for the mistakes."""
    rel = rel.long()
    bucket = torch.zeros_like(rel)
    if bidirectional:
        if halve:
            num_buckets //= 2
        bucket = bucket + (extra_side * rel > 0).long() * num_buckets
        distance = rel.abs()
    else:
        distance = rel.abs() if causal_abs else (causal_side * rel).clamp(min=0)
    exact = num_buckets // 2
    divisor = math.log(max_distance if log_of_max else max_distance / exact)
    if divisor_rounded:  # as numpy does with a Python number beside a float16 array: the number rounded first
        divisor = torch.tensor(divisor, dtype=log_dtype)
    ratio = torch.log(distance.clamp(min=1).to(log_dtype) / exact) / divisor
    scaled = ratio * (num_buckets - exact)
    far = exact + (scaled.long() if rounding is None else rounding(scaled).long())
    if cap:
        far = far.clamp(max=num_buckets - 1)
    return bucket + torch.where(distance < exact, distance, far)


def _sign_flipped(rel, bidirectional, num_buckets, max_distance):
    return t5_bucket(-rel, bidirectional, num_buckets, max_distance)


def _modes_swapped(rel, bidirectional, num_buckets, max_distance):
    return t5_bucket(rel, not bidirectional, num_buckets, max_distance)


def _not_halved(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, halve=False)


def _causal_absolute(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, causal_abs=True)


def _no_cap(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, cap=False)


def _causal_wrong_side(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, causal_side=1)


def _extra_half_before(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, extra_side=-1)


def _rounded(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, rounding=torch.round)


def _ceiled(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, rounding=torch.ceil)


def _log_of_max_distance(rel, bidirectional, num_buckets, max_distance):
    return _t5(rel, bidirectional, num_buckets, max_distance, log_of_max=True)


def _log_in(dtype, divisor_rounded=False):
    def buckets(rel, bidirectional, num_buckets, max_distance):
        return _t5(rel, bidirectional, num_buckets, max_distance, log_dtype=dtype, divisor_rounded=divisor_rounded)
    return buckets


# The slips a learner makes in log_bucket (the stub's part), each run through the stub's bookkeeping.


def _with_log_bucket(log_bucket):
    def buckets(rel, bidirectional, num_buckets, max_distance):
        rel = rel.long()
        n = num_buckets // 2 if bidirectional else num_buckets
        half = (rel > 0).long() * n if bidirectional else 0
        r = rel.abs() if bidirectional else (-rel).clamp(min=0)
        exact = n // 2
        far = log_bucket(r.clamp(min=exact), exact, n, max_distance).clamp(max=n - 1)
        return half + torch.where(r < exact, r, far)
    return buckets


def _exact_not_added(r, exact, n, max_distance):
    return (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()


def _times_n(r, exact, n, max_distance):
    return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * n).long()


def _logs_from_zero(r, exact, n, max_distance):
    return exact + (torch.log(r.float()) / math.log(max_distance) * (n - exact)).long()


def _log2_above(r, exact, n, max_distance):
    return exact + (torch.log2(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()


def _whole_ratio(r, exact, n, max_distance):
    return exact + (torch.log((r // exact).float()) / math.log(max_distance / exact) * (n - exact)).long()


def _linear_ramp(r, exact, n, max_distance):
    return exact + ((r - exact) / (max_distance - exact) * (n - exact)).long()


def _sizes_written_in(exact, n, max_distance):
    def log_bucket(r, _exact, _n, _max_distance):
        return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()
    return log_bucket


def _log_alone(divided):
    # the log's ratio kept, the division by log(max_distance / exact) left out
    def log_bucket(r, exact, n, max_distance):
        ratio = r.float() / exact if divided else r.float()
        return exact + (torch.log(ratio) * (n - exact)).long()
    return log_bucket


def _max_distance_written_in(max_distance):
    def log_bucket(r, exact, n, _max_distance):
        return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()
    return log_bucket


def _t5_error_explained(args, err) -> str | None:
    """math.log given the tensor of distances: it takes one Python number."""
    said = str(err)
    if isinstance(err, TypeError | ValueError | RuntimeError) and (
            "only one element tensors can be converted to Python scalars" in said
            or "must be real number, not Tensor" in said):
        return ("math.log takes one Python number, and r is a tensor of distances: use torch.log on the tensor, "
                "torch.log(r.float() / exact). math.log is right for the single number log(max_distance / exact).")
    return None


def _minus(number: int) -> str:
    return str(number).replace("-", "−")


def _t5_where(args, index) -> str:
    rel, bidirectional = args[0], args[1]
    said = f"offset {_minus(int(rel[index]))} (key − query) with bidirectional={bidirectional}"
    if rel.dim() == 2:
        said += f", query {index[0]} and key {index[1]}"
    return said


def _t5_cases() -> list[Case]:
    offsets = torch.arange(-300, 301)
    far = torch.arange(-5000, 5001)
    grid = torch.arange(12)[None, :] - torch.arange(12)[:, None]  # key − query for 12 positions
    return [
        Case("offsets −300…300, bidirectional=True, num_buckets=32, max_distance=128", (offsets, True, 32, 128)),
        Case("offsets −300…300, bidirectional=False, num_buckets=32, max_distance=128", (offsets, False, 32, 128)),
        Case("offsets −300…300, bidirectional=True, num_buckets=16, max_distance=64", (offsets, True, 16, 64)),
        Case("offsets −300…300, bidirectional=False, num_buckets=8, max_distance=20", (offsets, False, 8, 20)),
        Case("a (12, 12) grid of key − query, int32, bidirectional=False, num_buckets=6, max_distance=10",
             (grid.to(torch.int32), False, 6, 10)),
        # other sizes, whose buckets' edges fall where a low-precision log moves a distance across them
        Case("offsets −5000…5000, bidirectional=False, num_buckets=32, max_distance=1000",
             (far, False, 32, 1000)),
        Case("offsets −5000…5000, bidirectional=False, num_buckets=128, max_distance=4096",
             (far, False, 128, 4096)),
        Case("offsets −300…300, bidirectional=True, num_buckets=64, max_distance=256", (offsets, True, 64, 256)),
    ]


T5_SOLUTION = '''\
import math
import torch

def my_t5_bucket(relative_position, bidirectional, num_buckets, max_distance):
    """Bucket ids (integers) for relative_position = key − query."""
    rel = relative_position.long()
    n = num_buckets // 2 if bidirectional else num_buckets  # buckets on one side
    half = (rel > 0).long() * n if bidirectional else 0    # keys after the query: the second half
    r = rel.abs() if bidirectional else (-rel).clamp(min=0)  # the distance
    exact = n // 2                                         # r < exact: bucket r
    far = log_bucket(r.clamp(min=exact), exact, n, max_distance).clamp(max=n - 1)
    return half + torch.where(r < exact, r, far)


def log_bucket(r, exact, n, max_distance):
    """The bucket of each distance r ≥ exact (integers)."""
    return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()


H.check("07.t5_bucket", my_t5_bucket)
'''

implement(
    "07.t5_bucket",
    title="write T5's relative-position buckets",
    reference=t5_bucket,
    cases=_t5_cases,
    mistakes={
        "offset sign flipped (query − key)": (
            _sign_flipped,
            "relative_position is key − query: a key before the query has a negative offset. Its distance "
            "in the causal case is −relative_position, and bidirectional gives the extra half to offsets > 0.",
        ),
        "causal and bidirectional swapped": (
            _modes_swapped,
            "bidirectional=True splits the buckets in two halves, one per direction; bidirectional=False (a "
            "decoder) keeps them all for keys at or before the query.",
        ),
        "buckets not halved when bidirectional": (
            _not_halved,
            "with bidirectional=True each direction gets num_buckets // 2 buckets: halve num_buckets before "
            "computing the exact and the log-spaced ranges.",
        ),
        "causal distance taken as |offset|": (
            _causal_absolute,
            "in the causal case keys after the query all go to bucket 0: distance = max(−relative_position, 0), "
            "not its absolute value.",
        ),
        "causal buckets for keys after the query": (
            _causal_wrong_side,
            "in a decoder only keys at or before the query are seen: their offset key − query is ≤ 0, and the "
            "distance is −relative_position (clamped at 0), so offset −90 is distance 90 and every later key "
            "goes to bucket 0.",
        ),
        "bidirectional: the extra half given to keys before the query": (
            _extra_half_before,
            "the second half of the buckets (+num_buckets // 2) goes to keys after the query, relative_position > 0; "
            "keys before it use the first half.",
        ),
        "log-spaced bucket rounded instead of floored": (
            (_rounded, _ceiled),
            "T5 truncates: exact + ⌊log(distance/exact)/log(max_distance/exact) · (num_buckets − exact)⌋, "
            "with .long() (or floor) on a non-negative number; round or ceil moves some distances one bucket up.",
        ),
        "log(max_distance) instead of log(max_distance / exact)": (
            _log_of_max_distance,
            "the log-spaced buckets run from distance exact to max_distance, so the ratio is "
            "log(distance/exact) / log(max_distance/exact): the last bucket is reached at max_distance.",
        ),
        "the log computed in half precision": (
            (_log_in(torch.float16), _log_in(torch.bfloat16), _log_in(torch.float16, divisor_rounded=True),
             _log_in(torch.bfloat16, divisor_rounded=True)),
            "float16 keeps 11 significant bits (bfloat16 8), so log(r / exact) comes out about 10⁻³ off (bfloat16: "
            "10⁻²), enough to move a distance just below a bucket's edge into the next bucket (with 32 buckets and "
            "max_distance 1000: distances 212, 460 and 772). Compute the log in float32, r.float(), as T5 does.",
        ),
        "far buckets not capped at the last bucket": (
            _no_cap,
            "distances beyond max_distance all share the last bucket: clamp the log-spaced bucket at "
            "num_buckets − 1 (of the buckets for one direction).",
        ),
        "+ exact missing": (
            _with_log_bucket(_exact_not_added),
            "the log-spaced buckets come after the exact ones: exact + ⌊…⌋, so that the distance exact gets "
            "the bucket exact. Without + exact the far distances reuse the buckets 0, 1, 2, … of the near ones.",
        ),
        "· n instead of · (n − exact)": (
            _with_log_bucket(_times_n),
            "the log-spaced range holds the n − exact buckets left after the exact ones: multiply the ratio by "
            "(n − exact), so that max_distance reaches bucket n. Multiplied by n, the buckets fill up too fast and "
            "every distance from about √(exact·max_distance) on lands in the last one.",
        ),
        "log(r) / log(max_distance) instead of log(r / exact) / log(max_distance / exact)": (
            _with_log_bucket(_logs_from_zero),
            "both logs are measured from exact: log(r / exact) / log(max_distance / exact) is 0 at r = exact and 1 "
            "at r = max_distance. log(r) / log(max_distance) is already well above 0 at r = exact.",
        ),
        "log2 above, natural log below": (
            _with_log_bucket(_log2_above),
            "the ratio of two logs is the same in every base only when both use that base: torch.log2 above and "
            "math.log below make it 1/ln 2 ≈ 1.44 times too large. Use torch.log and math.log (or log2 for both).",
        ),
        "r // exact: the ratio rounded down before the log": (
            _with_log_bucket(_whole_ratio),
            "r / exact is a fraction, and its log must keep it: r // exact rounds it down to a whole number, so "
            "distances from exact·k to exact·(k + 1) − 1 share one bucket. Divide floats: r.float() / exact.",
        ),
        "the lesson's sizes written into log_bucket": (
            (_with_log_bucket(_sizes_written_in(8, 16, 128)), _with_log_bucket(_sizes_written_in(16, 32, 128))),
            "log_bucket is given exact, n and max_distance, which change with num_buckets, bidirectional and "
            "max_distance: use them, not the lesson's numbers (8, 16, 32, 128), which fit one setting only.",
        ),
        "the log not divided by log(max_distance / exact)": (
            (_with_log_bucket(_log_alone(True)), _with_log_bucket(_log_alone(False))),
            "the log is measured against its value at max_distance: exact + ⌊log(r / exact) / log(max_distance / "
            "exact) · (n − exact)⌋, so that the far buckets reach n − 1 just at max_distance. Without the division "
            "they fill up within a few steps of exact.",
        ),
        "max_distance written into log_bucket": (
            tuple(_with_log_bucket(_max_distance_written_in(m)) for m in (128, 64, 256)),
            "use the max_distance argument log_bucket is given: 128 is the lesson's setting, and the cases try "
            "others.",
        ),
        "a linear ramp instead of log-spaced buckets": (
            _with_log_bucket(_linear_ramp),
            "T5's far buckets widen geometrically: exact + ⌊log(r / exact) / log(max_distance / exact) · (n − exact)⌋. "
            "A linear ramp (r − exact) / (max_distance − exact) makes the near distances share buckets as wide as "
            "the far ones.",
        ),
    },
    hints=(
        "log_bucket gets distances r ≥ exact only. Its bucket is exact plus the whole part of "
        "ln(r / exact) / ln(max_distance / exact) · (n − exact): r = exact gives exact, r = max_distance gives n "
        "(the stub caps that at n − 1).",
        "In torch: torch.log(r.float() / exact) is a tensor, math.log(max_distance / exact) a number; multiply by "
        "(n − exact), then .long() keeps the whole part (a floor, since the number is ≥ 0) and makes the buckets "
        "integers.",
    ),
    solution=T5_SOLUTION,
    explain_error=_t5_error_explained,
    where=_t5_where,
    axes=("offsets",),
)


# --- 07.alibi_slopes --------------------------------------------------------------------------


def _geometric(n: int, first: int = 1) -> list[float]:
    return [2.0 ** (-8.0 * h / n) for h in range(first, first + n)]


def _power_of_two_formula(n_heads):
    return torch.tensor(_geometric(n_heads), dtype=torch.float32)


def _exponent_positive(n_heads):
    return 1 / alibi_slopes(n_heads)


def _exponent_positive_for_every_count(n_heads):
    return 1 / _power_of_two_formula(n_heads)


def _next_power_truncated(n_heads):
    return torch.tensor(_geometric(2 ** math.ceil(math.log2(n_heads)))[:n_heads], dtype=torch.float32)


def _heads_from_zero(n_heads):
    n0 = 2 ** int(math.log2(n_heads))
    slopes = _geometric(n0, first=0) + _geometric(2 * n0, first=0)[0::2][: n_heads - n0]
    return torch.tensor(slopes, dtype=torch.float32)


def _even_indexed_extras(n_heads):
    n0 = 2 ** int(math.log2(n_heads))
    return torch.tensor(_geometric(n0) + _geometric(2 * n0)[1::2][: n_heads - n0], dtype=torch.float32)


def _reversed_slopes(n_heads):
    return alibi_slopes(n_heads).flip(0)


def _sorted_slopes(n_heads):
    return alibi_slopes(n_heads).sort(descending=True).values


def _first_extras(n_heads):
    n0 = 2 ** int(math.log2(n_heads))
    return torch.tensor(_geometric(n0) + _geometric(2 * n0)[: n_heads - n0], dtype=torch.float32)


def _slopes_in(dtype):
    def slopes(n_heads):
        n0 = 2 ** int(math.log2(n_heads))

        def geometric(n):
            return 2 ** (-8 * torch.arange(1, n + 1, dtype=dtype) / n)
        return torch.cat((geometric(n0), geometric(2 * n0)[0::2][: n_heads - n0])).float()
    return slopes


def _alibi_where(args, index) -> str:
    n, h = args[0], index[0]
    n0 = 2 ** int(math.log2(n))
    part = f"slope {h + 1} of the {n0}-head sequence" if h < n0 else \
        f"an extra head: slope {2 * (h - n0) + 1} of the {2 * n0}-head sequence"
    return f"head {h} of {n} (counted from 0; {part})"


def _same_slope(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * abs(b)


def _power(n: int, h: int) -> str:
    """The slope of head h (from 1) of n heads, written 2^(−8h/n) = value."""
    return f"2^(−{8 * h}/{n}) = {2.0 ** (-8.0 * h / n):.4g}"


def _alibi_explain(args, output) -> str | None:
    """Which of the task's five properties the learner's slopes have, and the first they lack."""
    n = args[0]
    got = [float(v) for v in output.to(torch.float64).flatten()]
    if len(got) != n or not all(math.isfinite(v) and v > 0 for v in got):
        return None
    n0 = 2 ** int(math.log2(n))
    if n == n0:
        for h, v in enumerate(got):
            if not _same_slope(v, 2.0 ** (-8.0 * (h + 1) / n)):
                return (f"{n} is a power of two, where the rule must be 2^(−8h/n) itself (property 1): head {h} "
                        f"should have {_power(n, h + 1)}, yours has {v:.4g}.")
        return None
    for h in range(n0):
        if not _same_slope(got[h], 2.0 ** (-8.0 * (h + 1) / n0)):
            return (f"with {n} heads, heads 0–{n0 - 1} must keep the slopes of {n0} heads (property 2): head {h} "
                    f"should keep {_power(n0, h + 1)}, yours has {got[h]:.4g}.")
    held = f"heads 0–{n0 - 1} keep the slopes of {n0} heads (property 2 holds)"
    for b in range(1, n):
        for a in range(b):
            if _same_slope(got[b], got[a]):
                return (f"{held}, but heads {a} and {b} share the slope {got[a]:.4g}: two heads with one slope "
                        f"attend alike (property 4).")
    ladder = [2.0 ** (-8.0 * h / (2 * n0)) for h in range(1, 2 * n0 + 1)]
    for h in range(n0, n):
        if not any(_same_slope(got[h], s) for s in ladder):
            return (f"{held}, and no two heads share a slope (property 4 holds), but head {h}'s slope {got[h]:.4g} "
                    f"is not one of the {2 * n0}-head slopes 2^(−8h/{2 * n0}) (property 3).")
    free = ladder[0::2]
    for h in range(n0, n):
        if not _same_slope(got[h], free[h - n0]):
            listed = ", ".join(f"{s:.4g}" for s in free[: n - n0])
            return (f"{held}; the extra heads take {2 * n0}-head slopes that no head had (properties 3 and 4 "
                    f"hold), but not steepest first (property 5): the free ones, steepest first, are {listed}, "
                    f"so head {h} should have {_power(2 * n0, 2 * (h - n0) + 1)}, yours has {got[h]:.4g}.")
    return None


def _alibi_cases() -> list[Case]:
    return [Case(f"n_heads={n}{note}", (n,)) for n, note in (
        (8, ""), (12, " (not a power of two)"), (6, " (not a power of two)"), (1, " (one head)"), (3, ""), (16, ""),
        (24, ""))]


ALIBI_SOLUTION = '''\
import math
import torch

def my_alibi_slopes(n_heads):
    """(n_heads,) slopes: 2^(−8h/n0), h = 1 … n0 for the largest power of two n0 ≤ n_heads (properties 1
    and 2), then the slopes of 2·n0 heads that no head has yet, the 1st, 3rd, 5th …, steepest first
    (properties 3 to 5), until there are n_heads."""
    def geometric(n):
        return [2 ** (-8 * h / n) for h in range(1, n + 1)]
    n0 = 2 ** math.floor(math.log2(n_heads))
    slopes = geometric(n0) + geometric(2 * n0)[0::2][: n_heads - n0]
    return torch.tensor(slopes)

H.check("07.alibi_slopes", my_alibi_slopes)
'''

implement(
    "07.alibi_slopes",
    title="find ALiBi's head slopes for any number of heads",
    reference=alibi_slopes,
    cases=_alibi_cases,
    mistakes={
        "minus sign missing in the exponent (2^(8h/n))": (
            (_exponent_positive, _exponent_positive_for_every_count),
            "the slopes shrink from head to head: 2^(−8h/n), with a minus, so that head 0 has 2^(−8/n) < 1 (0.5 "
            "for 8 heads). With +8h/n every slope is above 1 and grows.",
        ),
        "the power-of-two formula for every head count": (
            _power_of_two_formula,
            "2^(−8h/n) with n = 12 gives slopes no power-of-two model has. Property 2: the first n0 heads "
            "(n0 = 8 for 12 heads) keep the slopes of an 8-head model, 2^(−8h/8).",
        ),
        "slopes of the next power of two, cut short": (
            _next_power_truncated,
            "the first 12 slopes of 16 heads leave out the 8-head model's gentlest slopes (property 2: heads "
            "0 … n0 − 1 keep all n0 of them), and use 16-head slopes that 8 heads already have.",
        ),
        "heads counted from 0": (
            _heads_from_zero,
            "h runs from 1 to n: the steepest slope is 2^(−8/n), never 2^0 = 1.",
        ),
        "slopes in reverse order (gentlest first)": (
            _reversed_slopes,
            "head 0 has the steepest slope, 2^(−8/n0) (0.5 for 8 heads), and the slopes fall from there: "
            "h runs from 1 up, 2^(−8h/n), not down.",
        ),
        "slopes sorted from steepest to gentlest": (
            _sorted_slopes,
            "the first n0 heads keep the n0-head model's slopes in its order (property 2), and the extra heads "
            "come after them: the list as a whole is not sorted.",
        ),
        "the extra heads take the first slopes of 2·n0 heads": (
            _first_extras,
            "every other slope of 2·n0 heads (the 2nd, 4th, …) is one the first n0 heads already have, so taking "
            "them in a row gives two heads one slope (property 4): the extra heads take only the free ones.",
        ),
        "the extra heads take the 2nd, 4th, … slopes of 2·n0 heads": (
            _even_indexed_extras,
            "the 2nd, 4th, … slopes of 2·n0 heads are exactly the n0 slopes already used (2^(−8·2h/(2·n0)) = "
            "2^(−8h/n0)), so two heads would share a slope (property 4): the free ones are the others.",
        ),
    },
    hints=(
        "Write out the slopes of 8 heads and of 16 heads, 2^(−8h/16), h = 1 … 16, side by side. Which of the 16 "
        "does an 8-head model already have, and which are free?",
        "The 16-head slopes of even h are the 8-head ones (2^(−16k/16) = 2^(−8k/8)); those of odd h, the 1st, "
        "3rd, 5th …, are free. So 12 heads: the 8 slopes of 8 heads, then the first 4 free ones, steepest first.",
        "n0 = 2 ** math.floor(math.log2(n_heads)); the slopes are geometric(n0) + geometric(2 * n0)[0::2][:n_heads "
        "− n0], with geometric(n) = [2 ** (−8h/n) for h = 1 … n].",
    ),
    solution=ALIBI_SOLUTION,
    where=_alibi_where,
    axes=("heads",),
    half_why="float16 rounds a slope by up to 2.4·10⁻⁴ of itself and the bias is slope × distance, so at distance "
             "4000 the head of slope 2^−0.5 ≈ 0.707 is off by 0.30 in its logits (7.55·10⁻⁵ × 4000), a sizeable "
             "share of a score; bfloat16's worst case over the slopes is about 7 times float16's (1.4·10⁻³ "
             "against 2.1·10⁻⁴ of a slope; 2^−0.5 itself happens to round the same in both).",
    half=(_slopes_in(torch.float16), _slopes_in(torch.bfloat16)),
    explain=_alibi_explain,
    atol=1e-12,
)


# --- 07.none_column (predict) -----------------------------------------------------------------

predict(
    "07.none_column",
    title="what attention sees of position with no scheme",
    question="The probe scores random tokens at positions 0 … 11, at the same positions shifted by 100, and "
             "stretched (0, 2, 4, …). Which verdict will it give the scheme 'none': 'absolute' (the shift changes "
             "the scores), 'relative' (the shift changes nothing, the stretch does) or 'none' (neither does)?",
    choices={
        "absolute": "Not so: 'none' adds nothing to x, turns nothing and biases nothing, so no score can depend on "
                    "the positions, and shifting them changes nothing. (A causal mask lets a decoder work out where "
                    "it is, lesson 08, but that comes from the mask, not from a position scheme.)",
        "relative": "Half right: the shift changes nothing. But neither does the stretch, which changes every offset: "
                    "the scores depend on no offset either. Attention sees no position at all.",
        "none": "Nothing in the scores depends on the positions, so neither the shift nor the stretch "
                "changes them. 'none' is neither absolute nor relative.",
    },
    answer="none",
    hints=(
        "Look at the three hooks of the 'none' scheme: each returns its input unchanged (embed, rotate) or None "
        "(bias). What is left in the scores that could depend on a position?",
        "A score that depends on no position cannot change under a shift, and cannot change under a stretch either.",
    ),
    solution='''\
answer = "none"  # one of: "absolute", "relative", "none"
H.check("07.none_column", answer)
''',
)
