"""The wrong answers cold attempts of the exercises fed to the checker, each written out here as a
learner would write it (not with the modules' own codings): each is named, or its message says
which property fails; the last group runs each answer inside its lesson's stub, as the learner did."""

import math
import re
import textwrap
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch

import helpers as H
from helpers.exercises.core import HALF
from helpers.exercises.core import get as core_get


def _omega(d, base, step=2.0, sign=-1.0):
    return base ** (sign * step * torch.arange(d // 2, dtype=torch.float64) / d)


def _table(n, d, base, step=2.0, sign=-1.0, dtype=torch.float64, columns=("sin", "cos")):
    theta = torch.arange(n, dtype=dtype)[:, None] * _omega(d, base, step, sign).to(dtype)
    parts = [getattr(theta, c)() for c in columns]
    return torch.stack(parts, -1).flatten(-2).float()


def _shift(k, d, base, angle=lambda k, w: k * w, block=lambda c, s: [[c, s], [-s, c]], dtype=torch.float64):
    m = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        a = torch.tensor(angle(k, base ** (-2 * i / d)), dtype=dtype).double()
        b = block(math.cos(a), math.sin(a))
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = torch.tensor(b, dtype=torch.float64)
    return m.float()


def _rope(x, positions, base, layout, write=None, second=1.0, angle_dtype=torch.float32, pos=None):
    d = x.shape[-1]
    p = (positions if pos is None else pos).to(angle_dtype)
    theta = p[:, None] * (base ** (-torch.arange(0, d, 2, dtype=angle_dtype) / d))
    c, s = theta.cos().to(x.dtype), theta.sin().to(x.dtype)
    a, b = (x[..., 0::2], x[..., 1::2]) if layout == "interleaved" else (x[..., : d // 2], x[..., d // 2:])
    one, two = a * c - b * s, second * a * s + b * c
    if (write or layout) == "interleaved":
        return torch.stack((one, two), -1).flatten(-2)
    return torch.cat((one, two), -1)


def _llama3(d, base, factor, low, high, length, kept=lambda r, low, high: ((r - low) / (high - low)).clamp(0, 1),
            turns=lambda length, w: length * w / (2 * math.pi), divide=True):
    w = _omega(d, base)
    s = kept(turns(length, w), low, high)
    slow = w / factor if divide else w * factor
    return s * w + (1 - s) * slow


def _t5(rel, bidirectional, n, max_distance, causal_sign=-1, after=1, rounding=torch.floor, log_max=False):
    """T5's buckets, one offset at a time in plain Python, with the probe's slips as switches."""
    out = []
    for r in rel.flatten().tolist():
        buckets, extra = (n // 2, (after * r > 0) * (n // 2)) if bidirectional else (n, 0)
        distance = abs(r) if bidirectional else max(causal_sign * r, 0)
        exact = buckets // 2
        if distance < exact:
            out.append(extra + distance)
            continue
        ratio = math.log(distance / exact) / math.log(max_distance if log_max else max_distance / exact)
        out.append(extra + min(exact + int(rounding(torch.tensor(ratio * (buckets - exact), dtype=torch.float32))),
                               buckets - 1))
    return torch.tensor(out).reshape(rel.shape)


def _n0(n):
    return 2 ** int(math.log2(n))


def _alibi(n):
    geometric = [2 ** (-8 * h / _n0(n)) for h in range(1, _n0(n) + 1)]
    extra = [2 ** (-8 * h / (2 * _n0(n))) for h in range(1, 2 * _n0(n) + 1)][0::2][: n - _n0(n)]
    return np.array(geometric + extra)


PROBE = [
    # (exercise, learner's wrong answer, the mistake it is named as)
    ("01.attention_entropy", lambda w: torch.special.entr(w).sum(-1, keepdim=True),
     "the summed axis kept (keepdim=True)"),
    ("01.attention_entropy", lambda w: torch.special.entr(w.half()).sum(-1).to(w.dtype), HALF),
    ("01.attention_entropy", lambda w: -(w * torch.log1p(w)).sum(-1), "ln(1 + a) instead of ln a"),
    ("02.normalised", lambda n: torch.arange(n) // max(n - 1, 1), "integer division"),
    ("02.normalised", lambda n: torch.linspace(0, 1, n).half() if n > 1 else torch.zeros(1).half(), HALF),
    ("02.normalised", lambda n: torch.linspace(1, 0, n, dtype=torch.float64) if n > 1 else torch.zeros(1),
     "codes in reverse order"),
    ("03.smallest_gap", lambda w, n: np.diff(np.sort(np.sin(w * np.arange(n - 1)))).min() if n > 2 else
     np.diff(np.sort(np.sin(w * np.arange(n)))).min(), "one position short (0 … length − 2)"),
    ("03.smallest_gap", lambda w, n: torch.tensor(min(abs(math.cos(w * p) - math.cos(w * q)) for p in range(n)
                                                      for q in range(p + 1, n)) if n < 100 else
                                                  np.diff(np.sort(np.cos(w * np.arange(n)))).min()),
     "cos instead of sin"),
    ("03.smallest_gap", lambda w, n: torch.tensor(np.diff(np.sort(np.sin(w * np.arange(n)))).min() ** 2),
     "squared distance"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base, sign=+1.0),
     "angle p / ω_i instead of p·ω_i (the same as ω_i = base^(+2i/d))"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table_d_minus_one(n, d, base),
     "exponent −2i/(d − 1) instead of −2i/d"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, 10000.0), "base fixed at 10000"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base, step=4.0),
     "exponent doubled (−4i/d)"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base, columns=("sin", "sin")), "sin in every column"),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base, dtype=torch.float16), HALF),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base).bfloat16(), HALF),
    ("04.sinusoidal", lambda n, d, base=10000.0: _table(n, d, base).half(), HALF),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(abs(k), d, base), "|k| instead of k"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(k, d, base, block=lambda c, s: [[s, c], [-c, s]]),
     "cos and sin swapped inside the block"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(k, d, base, angle=lambda k, w: (k + 1) * w),
     "angle (k + 1)·ω_i"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(k, d, base, angle=lambda k, w: float(k)),
     "angle k instead of k·ω_i"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(k, d, 10000.0), "base fixed at 10000"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift(k, d, base).half(), HALF),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout, write="half"),
     "interleaved pairs written back with torch.cat"),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout, angle_dtype=torch.float16),
     HALF),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout,
                                                                      angle_dtype=torch.bfloat16), HALF),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, 10000.0, layout), "base fixed at 10000"),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout, second=-1.0),
     "sign wrong in the second output (b cos − a sin)"),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout,
                                                                      pos=torch.arange(x.shape[-2])),
     "row index used as the position"),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": x.clone(), "x returned unrotated"),
    ("06.rope", lambda x, p, base=10000.0, layout="interleaved": _rope(x, p, base, layout).half(), HALF),
    ("07.t5_bucket", lambda r, b, n, m: _t5(r, b, n, m, causal_sign=1), "causal buckets for keys after the query"),
    ("07.t5_bucket", lambda r, b, n, m: _t5(r, b, n, m, after=-1),
     "bidirectional: the extra half given to keys before the query"),
    ("07.t5_bucket", lambda r, b, n, m: _t5(r, b, n, m, rounding=torch.round),
     "log-spaced bucket rounded instead of floored"),
    ("07.t5_bucket", lambda r, b, n, m: _t5(r, b, n, m, rounding=torch.ceil),
     "log-spaced bucket rounded instead of floored"),
    ("07.t5_bucket", lambda r, b, n, m: _t5(r, b, n, m, log_max=True),
     "log(max_distance) instead of log(max_distance / exact)"),
    ("07.alibi_slopes", lambda n: torch.tensor(_alibi(n)[::-1].copy()), "slopes in reverse order (gentlest first)"),
    ("07.alibi_slopes", lambda n: torch.tensor(sorted(_alibi(n), reverse=True)),
     "slopes sorted from steepest to gentlest"),
    ("07.alibi_slopes", lambda n: torch.tensor([2 ** (-8 * h / _n0(n)) for h in range(1, _n0(n) + 1)]
                                               + [2 ** (-8 * h / (2 * _n0(n))) for h in range(1, n - _n0(n) + 1)]),
     "the extra heads take the first slopes of 2·n0 heads"),
    ("07.alibi_slopes", lambda n: torch.tensor(_alibi(n)).half(), HALF),
    ("08.loss_by_position", lambda z, t: -torch.stack([torch.softmax(z[b], -1)[range(z.shape[1]), t[b]]
                                                        for b in range(z.shape[0])]).mean(0),
     "−probability instead of −log probability"),
    ("08.loss_by_position", lambda z, t: -torch.take_along_dim(z, t[..., None], -1)[..., 0].mean(0),
     "the target's raw logit instead of its log-probability"),
    ("08.loss_by_position", lambda z, t: torch.nn.functional.cross_entropy(
        z[:, :-1].reshape(-1, z.shape[-1]), t[:, 1:].reshape(-1), reduction="none").view(z.shape[0], -1).mean(0),
     "targets shifted by one position"),
    ("08.loss_by_position", lambda z, t: -torch.log_softmax(z, 0).gather(-1, t[..., None])[..., 0].mean(0),
     "log-softmax over the sequences (dim 0)"),
    ("08.loss_by_position", lambda z, t: torch.nn.functional.cross_entropy(
        z.half().transpose(1, 2), t, reduction="none").float().mean(0), HALF),
    ("09.ntk_inv_freq", lambda d, base, f: _omega(d, f ** (d / (d - 2))), "×base missing (base' = factor^(d/(d−2)))"),
    ("09.ntk_inv_freq", lambda d, base, f: _omega(d, base * f ** (d / (d - 2)), sign=+1.0),
     "positive exponent, base'^(+2i/d)"),
    ("09.ntk_inv_freq", lambda d, base, f: _omega(d, base + f ** (d / (d - 2))),
     "base + factor^(d/(d−2)) instead of base · factor^(d/(d−2))"),
    ("09.ntk_inv_freq", lambda d, base, f: _omega(d, base * f ** (d / (d - 2))).half(), HALF),
    ("09.ntk_inv_freq", lambda d, base, f: _omega(d, base * f ** (d / (d - 2)), step=1.0),
     "ω'_i = base'^(−i/d) instead of base'^(−2i/d)"),
    ("09.llama3_inv_freq", lambda *a: _llama3(*a, kept=lambda r, low, high: 1 - ((r - low) / (high - low)).clamp(0, 1)),
     "the blend reversed (s and 1 − s swapped, or low and high)"),
    ("09.llama3_inv_freq", lambda *a: _llama3(*a, turns=lambda length, w: 2 * math.pi / w),
     "wavelength 2π/ω compared with the thresholds instead of the turns r"),
    ("09.llama3_inv_freq", lambda *a: _llama3(*a, divide=False),
     "slow pairs multiplied by the factor instead of divided"),
    ("09.llama3_inv_freq", lambda *a: _llama3(*a, kept=lambda r, low, high: (r >= high).double()),
     "the middle pairs not blended (one hard threshold)"),
    ("10.half_layout_rows", lambda w, n: w.reshape(w.shape[0] // n, n, -1)[:, torch.cat(
        (torch.arange(0, n, 2), torch.arange(1, n, 2)))].reshape(w.shape) if n % 2 == 0 else w.clone(),
     "head_dim and n_heads confused"),
    ("10.half_layout_rows", lambda w, n: w.reshape(n, w.shape[0] // n, -1)[:, torch.cat(
        (torch.arange(0, w.shape[0] // n, 2), torch.arange(1, w.shape[0] // n, 2)))].reshape(w.shape).half(), HALF),
]


def _table_d_minus_one(n, d, base):
    theta = torch.arange(n, dtype=torch.float64)[:, None] * base ** (-2 * torch.arange(d // 2) / (d - 1))
    return torch.stack((theta.sin(), theta.cos()), -1).flatten(-2).float()


@pytest.mark.parametrize(("exercise_id", "answer", "mistake"), PROBE,
                         ids=[f"{e}:{m[:30]}" for e, _, m in PROBE])
def test_each_probe_answer_is_named(exercise_id, answer, mistake):
    result = H.check(exercise_id, answer)
    assert result.status == "failed" and result.mistake == mistake, result.message


def test_the_probe_answers_that_passed_now_fail():
    assert H.check("06.rope", lambda x, p, base=10000.0, layout="interleaved": H.rope(x, p, base, layout).half()
                   ).mistake == HALF
    assert "dtype: the task asks for float32" in H.check(
        "06.rope", lambda x, p, base=10000.0, layout="interleaved": H.rope(x, p, base, layout).double()).message
    assert H.check("04.sinusoidal", lambda n, d, base=10000.0: H.sinusoidal(n, d, base).half()).mistake == HALF
    assert H.check("05.shift_matrix", lambda k, d, base=10000.0: H.shift_matrix(k, d, base).half()).mistake == HALF
    assert H.check("03.near_collision", "6", omega=1.0, length=50).status == "failed"
    assert H.check("03.near_collision", "repeat", omega=1.0, length=60).status == "failed"


def test_unnamed_wrong_answers_still_say_which_property_fails():
    twice = H.check("02.normalised", lambda n: 2 * H.normalised(n))
    assert twice.mistake is None and "your output is 2 × the expected one on every entry" in twice.message
    assert H.check("06.rope", lambda x, p, base=10000.0, layout="interleaved": -H.rope(x, p, base, layout)
                   ).message.count("sign flipped") == 1
    assert "reversed along the pairs" in H.check("09.ntk_inv_freq", lambda d, base, f: H.scaled_frequencies(
        d, base, "ntk", f)[0].flip(0)).message


# --- the second cold attempt: wrong answers that passed, and messages that only partly pointed ---------------

SECOND_PROBE = [
    # (exercise, the learner's wrong answer, words its message must hold)
    ("03.fixed_code", lambda pos: torch.cos(math.pi * pos.double()),
     "positions 0 and 2 get the same code 1: a code that repeats a value cannot tell them apart"),
    ("03.fixed_code", lambda pos: (pos % 10).double() / 10, "(yours repeats every 10 positions)"),
    ("03.fixed_code", lambda pos: (pos % 100) / 100, "a position code must not repeat exactly"),
    ("01.attention_entropy", lambda w: -torch.xlogy(w.double(), w.double()).sum(-1),
     "dtype: the task asks for float32 (the dtype of weights"),
    ("02.bounded_code", lambda n: torch.arange(n) / (n - 1), "a sentence of one word divides by zero"),
    ("02.bounded_code", lambda n: torch.arange(n) // n, "integer division (//) or an integer dtype"),
    ("05.shift_matrix", lambda k, d, base=10000.0: _shift_slowest_first(k, d, base),
     "known mistake: frequencies in reverse order (slowest pair first)"),
    ("05.offset_only", lambda d: torch.diag(torch.arange(1.0, d + 1)),
     "get different scales, 1 and 2: a pair must be scaled as a whole, a rotation times one number"),
    ("05.offset_only", lambda d: torch.block_diag(*[torch.tensor([[0.0, 1.0], [1.0, 0.0]])] * (d // 2)),
     "a swap is a reflection, not a rotation"),
    ("06.rotate_after", lambda v, p: v * (-1) ** p, "the score sees only the parity of the offset"),
    ("09.llama3_inv_freq", lambda *a: _llama3(*a, kept=lambda r, low, high: (r - low) / (high - low)),
     "known mistake: the blend weight s not clamped to [0, 1]"),
    ("08.loss_by_position", lambda lg, t: -torch.log(torch.softmax(lg, -1)).gather(-1, t[..., None])[..., 0].mean(0),
     "softmax underflow"),
    ("08.loss_by_position", lambda lg, t: torch.nn.functional.cross_entropy(lg, t, reduction="none").mean(0),
     "cross_entropy wants the classes on dim 1"),
    ("10.half_layout_rows", lambda w, n: w[:, torch.cat([h * (w.shape[0] // n) + torch.cat((
        torch.arange(0, w.shape[0] // n, 2), torch.arange(1, w.shape[0] // n, 2))) for h in range(n)])],
     "The numbers you permute are row numbers"),
]


def _shift_slowest_first(k, d, base):
    m = torch.zeros(d, d, dtype=torch.float64)
    for i in range(d // 2):
        a = k * base ** (-2 * (d // 2 - 1 - i) / d)
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = torch.tensor([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return m


@pytest.mark.parametrize(("exercise_id", "answer", "words"), SECOND_PROBE,
                         ids=[f"{e}:{w[:30]}" for e, _, w in SECOND_PROBE])
def test_each_second_probe_answer_fails_naming_its_cause(exercise_id, answer, words):
    result = H.check(exercise_id, answer)
    assert result.status == "failed" and words in result.message, result.message


def test_no_pass_message_says_right_twice():
    for exercise_id in H.EXERCISES:
        exercise = core_get(exercise_id)
        if exercise.kind == "predict":
            message = H.check(exercise_id, exercise.answer).message
            assert not re.search(r"is right\. Right\b", message), message


def test_the_pi_offset_answer_speaks_of_the_lessons_byte_text():
    message = H.check("09.pi_offset", "0.5").message
    assert "digit" not in message and "the key 7 bytes back" in message


# --- the third cold attempt: the eleven wrong answers that passed, each run in its lesson's own stub -------------

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def in_stub(exercise_id: str, body: str):
    """The exercise cell as its notebook ships it, with ``body`` in place of the stub's raise NotImplementedError
    (the rest of the cell kept as printed); returns the my_… function the check is given."""
    lesson = next(NOTEBOOKS.glob(f"{exercise_id[:2]}_*.ipynb"))
    cell = next(c for c in nbformat.read(lesson, as_version=4).cells
                if c.cell_type == "code" and f'H.check("{exercise_id}"' in c.source)
    lines = cell.source.splitlines()
    stub = next(n for n, line in enumerate(lines) if "raise NotImplementedError" in line)
    indent = lines[stub][: len(lines[stub]) - len(lines[stub].lstrip())]
    lines[stub: stub + 1] = [indent + line for line in textwrap.dedent(body).strip().splitlines()]
    namespace = {"H": H, "torch": torch, "math": math}
    exec("\n".join(line for line in lines if not line.startswith("H.check(")), namespace)
    (name,) = [n for n in namespace if n.startswith("my_")]
    return namespace[name]


PASSED_BEFORE = [
    # (exercise, the learner's body, words the failure message must hold)
    ("01.attention_entropy", """
        weights[weights == 0] = 1.0
        return -weights * torch.log(weights)
     """, "your function changed its input `weights` in place (entry [0, 2] was 0 and is now 1)"),
    ("01.attention_entropy", """
        safe = torch.where(weights > 0, weights, torch.ones_like(weights))
        return (-weights * torch.log(safe)).sum(-1, keepdim=True)
     """, "entropy_terms(weights) returned shape (2, 1) for weights of shape (2, 4). It should return one term "
          "per weight"),
    ("01.attention_entropy", """
        import numpy as np
        a = weights.detach().cpu().numpy(); s = np.where(a > 0, a, 1.0)
        return torch.from_numpy(-a * np.log(s))
     """, "your function's result does not carry gradients: called with `weights` requiring gradients"),
    ("02.bounded_code", "return p / 100_000",
     "in a sentence of 1 000 000 words, position 999 997 gets the code 9.99997, outside [−1, 1]"),
    ("02.bounded_code", "return torch.sin(p * math.pi)",
     "positions 0 and 1 get the codes 0 and 1.22465e-16, only 1.2e-16 apart: codes closer than 10⁻⁹ count as one"),
    ("02.bounded_code", "return (p / max(length - 1, 1))[:, None]",
     "it returned shape (1, 1); return one code per word as a flat tensor of shape (length,)"),
    ("04.apart", "return H.sinusoidal(len(positions), 16)",
     "called with the positions [5, 6, 700, 1999, 42], your code gives position 5 (row 0) another code than row 5"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]; c, s = theta.cos(), theta.sin()
        a_old = a.clone()
        a.mul_(c).sub_(b * s); b.mul_(c).add_(a_old * s)
        return a, b
     """, "your function changed its input `x` in place"),
    ("06.rotate_after", "return turn(v, p * 2 * math.pi / 9)",
     "offsets 0 and 9 score the same for every q and k tried: the score repeats every 9 steps of the offset"),
    ("07.t5_bucket",
     "return exact + (torch.log(r.half() / exact) / math.log(max_distance / exact) * (n - exact)).long()",
     "known mistake: the log computed in half precision"),
    ("10.half_layout_rows", """
        new = torch.cat([heads[:, evens], heads[:, odds]], dim=1); heads[:] = new; return heads
     """, "your function changed its input `weight` in place"),
]


@pytest.mark.parametrize(("exercise_id", "body", "words"), PASSED_BEFORE,
                         ids=[f"{e}:{w[:40]}" for e, _, w in PASSED_BEFORE])
def test_each_answer_that_passed_before_now_fails_naming_its_cause(exercise_id, body, words):
    result = H.check(exercise_id, in_stub(exercise_id, body))
    assert result.status == "failed" and words in result.message, result.message


def test_the_in_place_answers_would_have_changed_the_callers_tensor():
    """What the messages above guard against, shown on the answers themselves: the caller's tensor changes."""
    entropy = in_stub("01.attention_entropy", PASSED_BEFORE[0][1])
    weights = torch.tensor([[0.5, 0.5, 0.0]])
    entropy(weights)
    assert weights.tolist() == [[0.5, 0.5, 1.0]]
    rope = in_stub("06.rope", PASSED_BEFORE[7][1])
    q = torch.ones(2, 4, dtype=torch.float64)
    rope(q, torch.tensor([0, 1]))
    assert q[1].tolist() != [1.0, 1.0, 1.0, 1.0]
    convert = in_stub("10.half_layout_rows", PASSED_BEFORE[10][1])
    weight = torch.arange(8.0)[:, None].repeat(1, 2)
    convert(weight, 1)
    assert weight[:, 0].tolist() == [0.0, 2.0, 4.0, 6.0, 1.0, 3.0, 5.0, 7.0]


def test_the_right_answers_in_the_same_stubs_pass():
    """The harness itself: the lessons' right bodies, in the same stubs, pass (so the failures above are the
    answers', not the harness's)."""
    right = [
        ("01.attention_entropy", "return -weights * torch.where(weights > 0, weights, torch.ones_like(weights)).log()"),
        ("02.bounded_code", "return p / length"),
        ("04.apart", """
            p = positions.to(torch.float64)[:, None]
            omega = torch.tensor([1.0, 0.1, 0.01, 0.001], dtype=torch.float64)
            return torch.cat((torch.sin(p * omega), torch.cos(p * omega)), dim=-1)
         """),
        ("06.rope", "return x[..., 0::2] * theta.cos() - x[..., 1::2] * theta.sin(), "
                    "x[..., 0::2] * theta.sin() + x[..., 1::2] * theta.cos()"),
        ("06.rotate_after", "return turn(v, p * H.frequencies(len(v), dtype=torch.float64))"),
        ("07.t5_bucket",
         "return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()"),
        ("10.half_layout_rows", "return heads[:, torch.cat((evens, odds))]"),
    ]
    for exercise_id, body in right:
        result = H.check(exercise_id, in_stub(exercise_id, body))
        assert result.passed, (exercise_id, result.message)


# --- the answers whose message said only where they differ: each run in its lesson's stub, now named -----------

PARTLY_BEFORE = [
    # (exercise, the learner's body, the mistake it is named as, or None where the message names it in words,
    #  words the failure message must hold)
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        return a * theta.sin() - b * theta.cos(), a * theta.cos() + b * theta.sin()
     """, "cos and sin swapped in the turn", "angle 0 no longer leaves the pair as it was"),
    ("06.rope", """
        d = x.shape[-1]
        a, b = x[..., : d // 2], x[..., d // 2:]
        return a * theta.cos() - b * theta.sin(), a * theta.sin() + b * theta.cos()
     """, "turned_pairs pairs feature i with i + d/2 (the half layout's pairs)", "lesson 10's wrong-layout mistake"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        return a * theta.cos(), a * theta.sin() + b * theta.cos()
     """, "a term of the turn left out", "a' = a cos θ − b sin θ"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        return a * theta.cos() - b * theta.sin(), a * theta.sin()
     """, "a term of the turn left out", "b' = a sin θ + b cos θ"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        t = theta[:, :1]
        return a * t.cos() - b * t.sin(), a * t.sin() + b * t.cos()
     """, "pair 0's angle used for every pair", "each pair turns at its own frequency"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        t = 2 * theta
        return a * t.cos() - b * t.sin(), a * t.sin() + b * t.cos()
     """, "angle doubled (2θ)", "not by 2θ"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        t = theta.flip(-1)
        return a * t.cos() - b * t.sin(), a * t.sin() + b * t.cos()
     """, "frequencies in reverse order (slowest pair first)", "pair 0 is the fastest"),
    ("05.shift_matrix", """
        c, s = torch.cos(angle), torch.sin(angle)
        return torch.stack((torch.stack((c, s)), torch.stack((s, c))))
     """, "minus sign missing: [[cos, sin], [sin, cos]]", "the cos row is [−sin kω_i, cos kω_i], with a minus"),
    ("05.shift_matrix", """
        c, s = torch.cos(torch.deg2rad(angle)), torch.sin(torch.deg2rad(angle))
        return torch.stack((torch.stack((c, s)), torch.stack((-s, c))))
     """, "angle converted between degrees and radians", "torch.cos and torch.sin take radians"),
    ("05.shift_matrix", """
        a = angle * 180 / math.pi
        return torch.stack((torch.stack((torch.cos(a), torch.sin(a))), torch.stack((-torch.sin(a), torch.cos(a)))))
     """, "angle converted between degrees and radians", "torch.cos and torch.sin take radians"),
    ("05.shift_matrix", "return torch.eye(2, dtype=torch.float64)", "the identity for every block",
     "the identity is only M_0"),
    ("05.shift_matrix", """
        c, s = torch.cos(angle / 2), torch.sin(angle / 2)
        return torch.stack((torch.stack((c, s)), torch.stack((-s, c))))
     """, "half the angle", "not of kω/2"),
    ("05.shift_matrix", """
        c, s = torch.cos(angle), torch.sin(angle)
        return torch.stack((torch.stack((c, s)), torch.stack((-s, -c))))
     """, "−cos in the corner: [[cos, sin], [−sin, −cos]]", "a reflection, not a rotation"),
    ("07.t5_bucket", "return (torch.log(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()",
     "+ exact missing", "the distance exact gets the bucket exact"),
    ("07.t5_bucket", "return exact + (torch.log(r.float() / exact) / math.log(max_distance / exact) * n).long()",
     "· n instead of · (n − exact)", "multiply the ratio by (n − exact)"),
    ("07.t5_bucket", "return exact + (torch.log(r.float()) / math.log(max_distance) * (n - exact)).long()",
     "log(r) / log(max_distance) instead of log(r / exact) / log(max_distance / exact)",
     "both logs are measured from exact"),
    ("07.t5_bucket",
     "return exact + (torch.log2(r.float() / exact) / math.log(max_distance / exact) * (n - exact)).long()",
     "log2 above, natural log below", "1/ln 2 ≈ 1.44 times too large"),
    ("07.t5_bucket", "return exact + (torch.log(r // exact) / math.log(max_distance / exact) * (n - exact)).long()",
     "r // exact: the ratio rounded down before the log", "Divide floats: r.float() / exact"),
    ("07.t5_bucket", "return exact + ((r - exact) / (max_distance - exact) * (n - exact)).long()",
     "a linear ramp instead of log-spaced buckets", "far buckets widen geometrically"),
    ("01.attention_entropy",
     "return -weights * torch.log10(torch.where(weights > 0, weights, torch.ones_like(weights)))",
     "logarithm in base 10", "0.434 times too small"),
    ("01.attention_entropy", "return -torch.log(torch.where(weights > 0, weights, torch.ones_like(weights)))",
     "the weight left out of the term (−ln a instead of −a·ln a)", "4·ln 4 = 5.545 instead of ln 4 = 1.386"),
    ("01.attention_entropy", "return -weights * torch.log(weights + 1e-3)", "ε added inside the log (ln(a + ε))",
     "treat only the zero weights apart"),
    ("04.sinusoidal", """
        d = pe.shape[1]
        p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]
        w = 10000.0 ** (-torch.arange(d // 2, dtype=torch.float64) / d)
        pe[:, 0::2] = torch.sin(p * w)
        pe[:, 1::2] = torch.cos(p * w)
     """, "ω_i = base^(−i/d) instead of base^(−2i/d)", "fill_table is given these frequencies as omega"),
    ("04.sinusoidal", """
        for p in range(pe.shape[0] - 1):
            pe[p, 0::2] = torch.sin(p * omega)
            pe[p, 1::2] = torch.cos(p * omega)
     """, "the last row left empty", "range(pe.shape[0] − 1) leaves the last row zeros"),
    ("04.sinusoidal", """
        p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]
        w = omega.repeat(2)
        pe[:, 0::2] = torch.sin(p * w[0::2])
        pe[:, 1::2] = torch.cos(p * w[1::2])
     """, "a column given another pair's frequency", "columns 2i and 2i+1 both belong to pair i"),
    ("04.sinusoidal", """
        p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]
        pe[:, 0::2] = -torch.sin(p * omega)
        pe[:, 1::2] = torch.cos(p * omega)
     """, "the sines negated", "position 1's first entry is sin 1 = 0.841"),
    ("09.ntk_inv_freq", "return base ** factor", "base ** factor instead of base · factor^(d/(d−2))",
     "base ** factor raises the base itself to the factor"),
    ("09.ntk_inv_freq", "return base * factor ** (d / (d - 1))", "exponent d/(d−1) instead of d/(d−2)",
     "raises the factor to d/(d−2), not d/(d−1)"),
    ("09.ntk_inv_freq", "return base * factor ** (16 / 14)", "head_dim fixed at 16", "use d, the head_dim"),
    ("09.ntk_inv_freq", "return base * factor ** (2 / d)", "exponent 2/d instead of d/(d−2)",
     "raise both sides to the power −d/(d−2)"),
    ("09.ntk_inv_freq", "return torch.tensor(base * factor ** (d / (d - 2)), dtype=torch.float16)", HALF,
     "below float16's smallest normal number"),
    ("09.llama3_inv_freq", """
        i = torch.arange(head_dim // 2, dtype=torch.float64)
        w = base ** (-i / head_dim)
        r = original_max_len * w / (2 * math.pi)
        s = ((r - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0, 1)
        return s * w + (1 - s) * w / factor
     """, "ω_i = base^(−i/d) instead of base^(−2i/d)", "pair i gets the frequency of pair i/2"),
    ("09.llama3_inv_freq", """
        i = torch.arange(head_dim // 2, dtype=torch.float64)
        w = base ** (-2 * i / head_dim)
        wavelength = 2 * math.pi / w
        longest, shortest = original_max_len / low_freq_factor, original_max_len / high_freq_factor
        s = ((longest - wavelength) / (longest - shortest)).clamp(0, 1)
        return s * w + (1 - s) * w / factor
     """, "the blend linear in the wavelength instead of in the turns", "s = (r_i − low)/(high − low)"),
    ("09.llama3_inv_freq", """
        i = torch.arange(1, head_dim // 2 + 1, dtype=torch.float64)
        w = base ** (-2 * i / head_dim)
        r = original_max_len * w / (2 * math.pi)
        s = ((r - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0, 1)
        return s * w + (1 - s) * w / factor
     """, "pairs counted from 1", "pair 0 is the fastest, ω_0 = base⁰ = 1"),
    ("08.loss_by_position", "return torch.exp(-log_p_next).mean(0)", "perplexity instead of the loss",
     "Its exponential is the perplexity"),
    ("08.loss_by_position", "return torch.exp(-log_p_next.mean(0))", "perplexity instead of the loss",
     "Its exponential is the perplexity"),
    ("08.loss_by_position", "return (-log_p_next).median(0).values", "median over the sequences instead of the mean",
     "which the median ignores"),
    ("08.loss_by_position", "return -log_p_next[0]", "the first sequence only", "log_p_next[0] is the first"),
    ("08.loss_by_position", "return -torch.log(log_p_next.exp().mean(0))",
     "−ln of the mean probability instead of the mean of −ln p", "average the losses, not the probabilities"),
    ("10.half_layout_rows", "return heads", "rows left in the interleaved order", "half_layout must move each head's"),
    ("10.half_layout_rows", "return torch.stack([heads[:, evens], heads[:, odds]], dim=2)",
     "rows left in the interleaved order", "puts each pair's rows side by side again"),
    ("10.half_layout_rows", "return torch.stack([heads[:, evens], heads[:, odds]], dim=-1)",
     "torch.stack instead of torch.cat", "torch.stack makes a new axis"),
    ("10.half_layout_rows", "return heads[..., torch.cat((evens, odds))]", None,
     "heads[:, :, order] reorders the input columns instead"),
    ("02.normalised", """
        p = torch.arange(length, dtype=torch.float32)
        return 1 - p / max(length - 1, 1)
     """, "codes in reverse order", "or 1 − p / (L − 1)"),
    ("02.bounded_code", "return torch.linspace(0, 1, 5)", None,
     "your proposal is not shaped (length,). It fails here: for a sentence of 1 word it returned 5 codes"),
    ("03.smallest_gap", """
        codes = torch.sin(omega * torch.arange(length - 1, dtype=torch.float64))
        return codes.sort().values.diff().min()
     """, None, "it left a position out. The positions are 0 … length − 1"),
    ("03.smallest_gap", """
        codes = torch.sin(omega * torch.arange(length, dtype=torch.float64))
        return codes.sort(descending=True).values.diff().min()
     """, "codes sorted in descending order", "their min is minus the largest gap"),
    ("03.smallest_gap", """
        codes = torch.sin(torch.deg2rad(omega * torch.arange(length, dtype=torch.float64)))
        return codes.sort().values.diff().min()
     """, "angle converted between degrees and radians", "torch.sin takes radians"),
    ("03.smallest_gap", "return torch.tensor(0.0017, dtype=torch.float64)", None,
     "it is 0.0017 on every one of the 7 cases, whatever the arguments"),
    ("01.attention_entropy", "return torch.full_like(weights, math.log(weights.shape[-1]) / weights.shape[-1])",
     "every row taken as uniform (ln L)", "ln L is the entropy of a uniform row only"),
    ("02.bounded_code", "return (p / max(length - 1, 1)).half()", None,
     "positions 1253 and 1254 both get the code 0.125366: attention could not tell them apart. Your codes are "
     "float16, which keeps only about 3 significant digits"),
    ("02.bounded_code", "return p.half() / max(length - 1, 1)", None,
     "float16's largest number is 65 504, so position 65 520 stored in float16 is already inf"),
    ("04.sinusoidal", """
        table = torch.zeros(16, 50, dtype=torch.float64)
        p = torch.arange(16, dtype=torch.float64)[:, None]
        w = 10000 ** (-2 * torch.arange(25, dtype=torch.float64) / 50)
        table[:, 0::2] = torch.sin(p * w)
        table[:, 1::2] = torch.cos(p * w)
        pe[:] = table
     """, None, "Take the sizes from the table itself, pe.shape[0] positions and pe.shape[1] columns"),
    ("04.sinusoidal", """
        p = torch.arange(pe.shape[0], dtype=torch.float64)
        pe[:, 0::2] = torch.sin(p * omega)
        pe[:, 1::2] = torch.cos(p * omega)
     """, None, "the positions (128 of them) times omega (64 frequencies) entry by entry: the angles are a table"),
    ("06.rope", """
        a, b = x[..., 0::2], x[..., 1::2]
        t = theta[:, None]
        return a * t.cos() - b * t.sin(), a * t.sin() + b * t.cos()
     """, None, "An extra axis, theta[:, None] or theta[None], moves its L onto another dimension of x"),
    ("07.t5_bucket", "return 8 + (torch.log(r.float() / 8) / math.log(128 / 8) * 8).long()",
     "the lesson's sizes written into log_bucket", "log_bucket is given exact, n and max_distance"),
    ("09.llama3_inv_freq", """
        i = torch.arange(head_dim // 2, dtype=torch.float64)
        w = 500000.0 ** (-2 * i / head_dim)
        s = ((8192 * w / (2 * math.pi) - 1.0) / (4.0 - 1.0)).clamp(0, 1)
        return s * w + (1 - s) * w / 8.0
     """, "Llama 3.1's numbers written in instead of the arguments", "the cases try others"),
    ("09.llama3_inv_freq", """
        i = torch.arange(head_dim // 2, dtype=torch.float64)
        w = base ** (-2 * i / head_dim)
        r = original_max_len * w / (2 * math.pi)
        s = ((r - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0, 1)
        return 1 / (s / w + (1 - s) * factor / w)
     """, "the blend taken on the wavelengths instead of the frequencies", "blend the frequencies themselves"),
    ("10.half_layout_rows", "return torch.cat([heads[evens], heads[odds]])", None,
     "an index ran past the 4 heads, dimension 0 of heads: heads[evens] picks whole heads"),
]



@pytest.mark.parametrize(("exercise_id", "body", "mistake", "words"), PARTLY_BEFORE,
                         ids=[f"{e}:{(m or w)[:40]}" for e, _, m, w in PARTLY_BEFORE])
def test_each_answer_that_was_only_located_is_now_named(exercise_id, body, mistake, words):
    assert_fails_naming(exercise_id, body, mistake, words)
    if mistake is not None:
        assert f"this is a known mistake: {mistake}." in H.check(exercise_id, in_stub(exercise_id, body)).message


def assert_fails_naming(exercise_id: str, body: str, mistake: str | None, words: str) -> None:
    """The answer ``body``, run in its lesson's stub, fails as the catalogued ``mistake`` (None: named in
    words only) with ``words`` in its message."""
    result = H.check(exercise_id, in_stub(exercise_id, body))
    assert result.status == "failed" and result.mistake == mistake, result.message
    assert words in result.message, result.message


def _answer(mistake: str):
    """The first answer above named as ``mistake``, as the learner's function."""
    exercise_id, body = next((e, b) for e, b, m, _ in PARTLY_BEFORE if m == mistake)
    return in_stub(exercise_id, body)


def test_the_newly_named_answers_are_wrong_by_hand():
    """Some of the answers above, each shown wrong for the reason named on one small input computed by hand."""
    rope = _answer("cos and sin swapped in the turn")  # position 0 must leave x alone; this turns (1, 2) to (−2, 1)
    assert rope(torch.tensor([[1.0, 2.0]]), torch.tensor([0])).tolist() == [[-2.0, 1.0]]
    shift = _answer("minus sign missing: [[cos, sin], [sin, cos]]")  # M_1 should take (sin 2, cos 2) to (sin 3, cos 3)
    moved = shift(1, 2).double() @ torch.tensor([math.sin(2), math.cos(2)], dtype=torch.float64)
    assert moved.tolist() == pytest.approx([math.sin(3), math.cos(1)], abs=1e-6)  # sin 2·sin 1 + cos 2·cos 1 = cos 1
    assert abs(math.cos(1) - math.cos(3)) > 1
    bucket = _answer("+ exact missing")  # 16 causal buckets: distance 8 is the first far one, bucket 8, not 0
    assert int(bucket(torch.tensor([-8]), False, 16, 128)[0]) == 0
    entropy = _answer("the weight left out of the term (−ln a instead of −a·ln a)")  # 4·ln 4 instead of ln 4
    assert float(entropy(torch.full((4,), 0.25))) == pytest.approx(4 * math.log(4))
    loss = _answer("the first sequence only")  # sequence 0 scores ln 2; sequence 1 scores ln(1 + e), left out
    logits = torch.tensor([[[0.0, 0.0]], [[1.0, 0.0]]])
    targets = torch.tensor([[0], [1]])
    assert loss(logits, targets).tolist() == pytest.approx([math.log(2)])


# --- the fourth cold attempt: answers that passed or whose message blamed something the learner did not write ------

_LLAMA3_START = """
i = torch.arange(head_dim // 2, dtype=torch.float64)
omega = base ** (-2 * i / head_dim)
r = original_max_len * omega / (2 * math.pi)
k = ((r - low_freq_factor) / (high_freq_factor - low_freq_factor)).clamp(0, 1)
"""

FOURTH = [
    # (exercise, the learner's body, the mistake it is named as (None: named in words), words the message holds)
    ("01.attention_entropy",
     "return torch.where(weights > 0, -weights * torch.log(weights), torch.zeros_like(weights))", None,
     "the log of 0 is still computed"),
    ("10.half_layout_rows", "return torch.cat((heads[:, 0:64:2], heads[:, 1:64:2]), dim=1)", None,
     "half_layout returned 64 rows per head, but here each head has 128"),
    ("01.attention_entropy", "return -weights * torch.log(weights.clamp(min=1e-3))",
     "a floor on the weights inside the log (clamp)", "changes every weight below ε"),
    ("01.attention_entropy", "return -weights * torch.log(weights + 1e-6)", "ε added inside the log (ln(a + ε))",
     "treat only the zero weights apart"),
    ("01.attention_entropy", "return -weights * torch.log(weights + 1e-5)", "ε added inside the log (ln(a + ε))",
     "treat only the zero weights apart"),
    ("04.apart", """
        p = positions.to(torch.float64)[:, None]
        w = 2 * math.pi * torch.arange(1, 9, dtype=torch.float64)
        return torch.cat((torch.sin(p * w), torch.cos(p * w)), -1)
     """, None, "each circle turns a whole number of turns per step"),
    ("06.rope", """
        a, b = x[..., [0, 2, 4, 6]], x[..., [1, 3, 5, 7]]
        return a * theta.cos() - b * theta.sin(), a * theta.sin() + b * theta.cos()
     """, None, "the pairs must follow x's last dimension, a, b = x[..., 0::2], x[..., 1::2]"),
    ("09.ntk_inv_freq", "return base * factor ** (d // (d - 2))",
     "exponent d/(d−2) missing (base·factor, or d // (d − 2), which is 1)", "// is integer division"),
    ("09.llama3_inv_freq", _LLAMA3_START + "return torch.where(r <= low_freq_factor, omega / factor, omega)",
     "the middle pairs not blended (one hard threshold)", "get the blend"),
    ("09.llama3_inv_freq", _LLAMA3_START + "k = 1 - k\nreturn k * omega + (1 - k) * omega / factor",
     "the blend reversed (s and 1 − s swapped, or low and high)", "blends the wrong way round"),
    ("09.llama3_inv_freq", _LLAMA3_START + "return k * omega / factor + (1 - k) * omega",
     "the blend reversed (s and 1 − s swapped, or low and high)", "blends the wrong way round"),
    ("09.llama3_inv_freq", _LLAMA3_START + """
k = (r - high_freq_factor) / (low_freq_factor - high_freq_factor)
middle = k * omega + (1 - k) * omega / factor
return torch.where(r < low_freq_factor, omega / factor, torch.where(r > high_freq_factor, omega, middle))
""", "the blend reversed (s and 1 − s swapped, or low and high)", "blends the wrong way round"),
    ("01.attention_entropy", "return torch.nan_to_num(-weights * torch.log(weights), nan=1.0)",
     "the nan of a zero weight replaced by 1 (nan_to_num(nan=1.0))", "each zero weight added 1 to its row"),
    ("01.attention_entropy", "return -weights * torch.log1p(-weights)", "ln(1 − a) instead of ln a",
     "torch.log1p(−a) is ln(1 − a)"),
]


@pytest.mark.parametrize(("exercise_id", "body", "mistake", "words"), FOURTH,
                         ids=[f"{e}:{(m or w)[:40]}" for e, _, m, w in FOURTH])
def test_each_answer_of_the_fourth_attempt_fails_naming_its_cause(exercise_id, body, mistake, words):
    assert_fails_naming(exercise_id, body, mistake, words)


def test_the_fourth_attempts_passing_answers_are_wrong_by_hand():
    """The two answers that passed: a nan gradient at a zero weight, and a head of 128 rows cut to 64."""
    entropy = in_stub("01.attention_entropy", FOURTH[0][1])
    weights = torch.tensor([0.5, 0.5, 0.0], requires_grad=True)
    entropy(weights).backward()
    assert math.isnan(float(weights.grad[2]))  # the reference's gradient there is −(ln 1 + 1) = −1, finite
    convert = in_stub("10.half_layout_rows", FOURTH[1][1])
    with pytest.raises(RuntimeError):
        convert(torch.zeros(128, 1), 1)
    small = torch.arange(8.0)[:, None]  # at head_dim 8, 0:64:2 is every even row: it passed there
    assert convert(small, 1)[:, 0].tolist() == [0.0, 2.0, 4.0, 6.0, 1.0, 3.0, 5.0, 7.0]


def _rope_turn(first: str, second: str, angle: str = "theta") -> str:
    return (f"a, b = x[..., 0::2], x[..., 1::2]\nt = {angle}\n"
            f"return {first}, {second}")


_TURN_A, _TURN_B = "a * t.cos() - b * t.sin()", "a * t.sin() + b * t.cos()"
_LLAMA3_END = "return k * omega + (1 - k) * omega / factor"
_GAP = "codes = torch.sin(omega * torch.arange(length, dtype=torch.float64))\n"

FOURTH_PARTLY = [
    # (exercise, the learner's body, the mistake it is now named as)
    ("06.rope", _rope_turn("a * t.cos() + b * t.sin()", _TURN_B),
     "minus sign missing in the first output (a cos θ + b sin θ)"),
    ("06.rope", "a, b = x[..., 0::2], x[..., 1::2]\na = a * theta.cos() - b * theta.sin()\n"
                "b = a * theta.sin() + b * theta.cos()\nreturn a, b", "b' computed from the new a (a updated first)"),
    ("06.rope", _rope_turn(_TURN_A, "b"), "b returned unturned"),
    ("06.rope", _rope_turn(_TURN_A, _TURN_B, "theta / 2"), "half the angle (θ/2)"),
    ("06.rope", _rope_turn(_TURN_B, _TURN_A), "the two turned members returned in the wrong order (b', a')"),
    ("06.rope", _rope_turn(_TURN_A, _TURN_B, "theta.flip(0)"),
     "the positions in reverse order (theta flipped over the rows)"),
    ("06.rope", _rope_turn(_TURN_A, _TURN_B, "torch.arange(x.shape[-2], dtype=torch.float64)[:, None] * 10000.0 "
                                             "** (-2 * torch.arange(x.shape[-1] // 2, dtype=torch.float64) "
                                             "/ x.shape[-1])"),
     "row index used as the position"),
    ("09.llama3_inv_freq", _LLAMA3_START.replace("original_max_len *", "8192 *") + _LLAMA3_END,
     "original_max_len written in as 8192"),
    ("09.llama3_inv_freq", _LLAMA3_START.replace("(r - low_freq_factor) / (high_freq_factor - low_freq_factor)",
                                                 "(r - 1.0) / (high_freq_factor - 1.0)") + _LLAMA3_END,
     "low_freq_factor written in as 1"),
    ("09.llama3_inv_freq", _LLAMA3_START.replace("(high_freq_factor - low_freq_factor)", "(4.0 - low_freq_factor)")
     + _LLAMA3_END, "high_freq_factor written in as 4"),
    ("09.llama3_inv_freq", _LLAMA3_START + "return k * omega + (1 - k) * omega / 8.0", "factor written in as 8"),
    ("09.llama3_inv_freq", _LLAMA3_START.replace("base **", "500000.0 **") + _LLAMA3_END, "base written in as 500000"),
    ("09.llama3_inv_freq", _LLAMA3_START.replace("math.pi", "3.14") + _LLAMA3_END, "π rounded (3.14)"),
    ("03.smallest_gap", _GAP + "return codes.sort().values.diff().argmin()",
     "the index of the smallest gap (argmin) instead of the gap"),
    ("03.smallest_gap", "codes = torch.sin(torch.arange(length, dtype=torch.float64))\n"
                        "return codes.sort().values.diff().min()", "omega left out of the angle (sin p)"),
    ("03.smallest_gap", _GAP + "return codes.sort().values.diff().max()",
     "the largest gap (max) instead of the smallest"),
    ("03.smallest_gap", _GAP.replace("length", "1000") + "return codes.sort().values.diff().min()",
     "length fixed at 1000"),
    ("08.loss_by_position", "return -log_p_next.sum(0) / 8",
     "the batch size written in (sum divided by a fixed number)"),
    ("08.loss_by_position", "return -log_p_next.median(0).values", "median over the sequences instead of the mean"),
    ("08.loss_by_position", "return (-log_p_next.clamp(min=-5)).mean(0)", "the loss capped (clamp) before the mean"),
    ("09.ntk_inv_freq", "return base * factor ** (128 / 126)", "head_dim fixed at 128 (or 64)"),
    ("09.ntk_inv_freq", "return (base * factor) ** (d / (d - 2))", "(base·factor)^(d/(d−2)): the base raised too"),
    ("04.sinusoidal", "p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]\npe[:, 0::2] = torch.sin(p * omega)",
     "the cos columns left empty"),
    ("04.sinusoidal", "p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]\n"
                      "i = torch.arange(len(omega), dtype=torch.float64)\n"
                      "pe[:, 0::2] = torch.sin(p * i)\npe[:, 1::2] = torch.cos(p * i)",
     "the pair's index i used as its frequency"),
    ("04.sinusoidal", "for p in range(1, pe.shape[0]):\n    pe[p, 0::2] = torch.sin(p * omega)\n"
                      "    pe[p, 1::2] = torch.cos(p * omega)", "the first row left empty (loop from 1)"),
    ("04.sinusoidal", "p = torch.arange(pe.shape[0], dtype=torch.float64)[:, None]\n"
                      "pe[:, 0::2] = torch.sin(p * omega.flip(0))\npe[:, 1::2] = torch.cos(p * omega.flip(0))",
     "frequencies in reverse order (slowest pair first)"),
    ("05.shift_matrix", "c, s = torch.cos(angle), torch.sin(angle)\nreturn torch.stack((c, s, -s, c))",
     "the four entries in one flat row (stack((c, s, −s, c)))"),
    ("05.shift_matrix", "c, s = torch.cos(angle), torch.sin(angle)\n"
                        "return torch.stack((torch.stack((c, -s)), torch.stack((-s, c))))",
     "both sines negated: [[cos, −sin], [−sin, cos]]"),
    ("07.t5_bucket", "return exact + (torch.log(r.float()) * (n - exact)).long()",
     "the log not divided by log(max_distance / exact)"),
    ("07.t5_bucket", "return exact + (torch.log(r.float() / exact) / math.log(128 / exact) * (n - exact)).long()",
     "max_distance written into log_bucket"),
    ("02.normalised", "if length == 1:\n    return torch.ones(1)\n"
                      "return torch.arange(length, dtype=torch.float32) / (length - 1)",
     "a one-word sentence given the code 1"),
    ("07.alibi_slopes", "return torch.tensor([2 ** (8 * h / n_heads) for h in range(1, n_heads + 1)])",
     "minus sign missing in the exponent (2^(8h/n))"),
]


@pytest.mark.parametrize(("exercise_id", "body", "mistake"), FOURTH_PARTLY,
                         ids=[f"{e}:{m[:40]}" for e, _, m in FOURTH_PARTLY])
def test_each_located_answer_of_the_fourth_attempt_is_now_named(exercise_id, body, mistake):
    result = H.check(exercise_id, in_stub(exercise_id, body))
    assert result.status == "failed" and result.mistake == mistake, result.message
    how_to_fix = core_get(exercise_id).mistakes[mistake][1]
    assert f"this is a known mistake: {mistake}." in result.message and how_to_fix in result.message


def test_whole_turns_per_step_are_named_in_rotate_after():
    result = H.check("06.rotate_after", in_stub("06.rotate_after", "return turn(v, 2 * math.pi * p)"))
    assert result.status == "failed" and "each step turns it a whole number of turns" in result.message, \
        result.message


def test_a_code_whose_steps_shrink_below_the_threshold_fails():
    """1/(p + 1) moves by 1/((p + 1)(p + 2)) from p to p + 1: below 10⁻⁹ from about p = 31 600, inside the
    100 000-word sentences the bounded check already tries."""
    assert 1 / 31_700 - 1 / 31_701 < 1e-9 < 1 / 31_000 - 1 / 31_001
    result = H.check("02.bounded_code", in_stub("02.bounded_code", "return 1 / (p + 1)"))
    assert result.status == "failed" and "only 1e-10 apart: codes closer than 10⁻⁹ count as one" in result.message, \
        result.message


def test_math_log_on_the_distances_is_explained():
    body = "return exact + (math.log(r / exact) / math.log(max_distance / exact) * (n - exact)).long()"
    result = H.check("07.t5_bucket", in_stub("07.t5_bucket", body))
    assert result.status == "failed" and "math.log takes one Python number" in result.message, result.message


def test_some_of_the_fourth_attempts_named_answers_are_wrong_by_hand():
    """Small inputs worked by hand: the sequential update, the fixed batch and the capped loss."""
    rope = in_stub("06.rope", FOURTH_PARTLY[1][1])  # (1, 0) turned by 1 radian must become (cos 1, sin 1)
    x = torch.tensor([[1.0, 0.0], [1.0, 0.0]])
    got = rope(x, torch.tensor([0, 1]))  # d = 2: one pair, ω_0 = 1, so position 1 turns by 1 radian
    a1 = math.cos(1.0)
    assert got[1].tolist() == pytest.approx([a1, a1 * math.sin(1.0)], abs=1e-6)  # b' from the new a, not sin 1
    assert abs(a1 * math.sin(1.0) - math.sin(1.0)) > 0.3
    loss = in_stub("08.loss_by_position", FOURTH_PARTLY[17][1])  # 2 sequences: the sum over 8, not over 2
    logits, targets = torch.zeros(2, 1, 2), torch.zeros(2, 1, dtype=torch.long)
    assert loss(logits, targets).tolist() == pytest.approx([2 * math.log(2) / 8])
    capped = in_stub("08.loss_by_position", FOURTH_PARTLY[19][1])  # ln p = −(ln(1 + e^10)) ≈ −10 capped at 5
    assert capped(torch.tensor([[[10.0, 0.0]]]), torch.tensor([[1]])).tolist() == pytest.approx([5.0])
