"""Lesson 06's exercises (notebooks/06_rope.ipynb), in the order the notebook asks them.

06.rotate_after (design): propose my_position_in(v, p) applied after the projections whose scores
    depend on the offset alone, differ between the offsets 0 … 64 and keep the content (asked before RoPE
    is shown; the stub gives turn(v, angles), a rotation of v's pairs, so the learner decides where the
    position goes and how, without writing a rotation).
06.shift_sentence (predict, right after RoPE's rule, before the lesson shows why): do RoPE's scores change
    when the sentence moves by 1000? No.
06.rope (implement, scaffolded: the stub gives the angles, the write-back and the half layout through the
permutation identity; the learner writes turned_pairs, the interleaved pairing and the turn, two lines):
my_rope(x, positions, base=10000.0, layout="interleaved") → x rotated, same shape;
x (..., L, d), positions (L,) integers. Pair i turns by +p·ω_i, ω_i = base^(−2i/d):
(a, b) ↦ (a cos − b sin, a sin + b cos); "interleaved" pairs features (2i, 2i+1), "half" pairs (i, i + d/2).
06.decay (predict, in Going deeper): typical |score| of unrelated q, k at distance 4000 against 0? About the same.
"""

from __future__ import annotations

import re

import torch

from ..rotary import rope, rope_permutation
from .compare import float32_angle_slack
from .core import Case, design, explore, implement, predict  # noqa: F401

# --- 06.rotate_after (design; asked before the lesson shows RoPE) --------------------------------------


def _score(fn, q: torch.Tensor, m: int, k: torch.Tensor, n: int) -> float:
    a, b = fn(q.clone(), m), fn(k.clone(), n)
    a, b = (torch.as_tensor(v).detach().to(torch.float64).cpu().flatten() for v in (a, b))
    if a.shape != q.shape or b.shape != k.shape:
        raise ValueError(f"my_position_in(v, p) should return a vector of v's shape {tuple(q.shape)}, got "
                         f"{tuple(a.shape)}")
    return float(a @ b)


def _pairs(count: int = 6, d: int = 8):
    g = torch.Generator().manual_seed(6)
    return [(torch.randn(d, generator=g, dtype=torch.float64), torch.randn(d, generator=g, dtype=torch.float64))
            for _ in range(count)]


def _offset_only_after(fn) -> tuple[bool, str]:
    for q, k in _pairs():
        for m, n in ((0, 3), (5, 1), (2, 9)):
            base = _score(fn, q, m, k, n)
            for shift in (1, 37, 1000):
                moved = _score(fn, q, m + shift, k, n + shift)
                if abs(moved - base) > 1e-6 * max(1.0, abs(base)):
                    return False, (f"the query at {m} and the key at {n} score {base:.6g}; moved to {m + shift} and "
                                   f"{n + shift} (the same offset) they score {moved:.6g}. The score must depend "
                                   "on n − m alone.")
    return True, "For random q and k, moving both positions by 1, 37 or 1000 leaves every score as it was."


OFFSETS_SEEN = 65  # offsets 0 … 64 must score differently: far enough that a code repeating every 9 or 10 shows


def _whole_turns(fn) -> str:
    """Said when the proposal does move v between whole positions (at p = 0.5) but not from one to the next: each
    step turns by a whole number of turns, 2π·p."""
    v = torch.arange(1.0, 9.0, dtype=torch.float64)
    try:
        start, half = (torch.as_tensor(fn(v.clone(), p)).to(torch.float64) for p in (0, 0.5))
    except Exception:  # positions taken as integers only: the plain message stands
        return ""
    if half.shape != start.shape or float((half - start).abs().max()) < 1e-6:
        return ""
    return (" Your turn does move v between whole positions (at p = 0.5), but each step turns it a whole number of "
            "turns (an angle of 2π·p), so every position lands where position 0 is. Keep the angle per step below π: "
            "p·ω with ω < π, as lesson 04's frequencies (ω_0 = 1).")


def _position_seen(fn) -> tuple[bool, str]:
    """Offsets 0 … 64 (the query at 0, the key at 0 … 64) must not score alike for every q and k tried."""
    scores = torch.tensor([[_score(fn, q, 0, k, offset) for offset in range(OFFSETS_SEEN)] for q, k in _pairs()])
    same = ((scores[:, :, None] - scores[:, None, :]).abs() <= 1e-6 * scores.abs().clamp(min=1.0)[:, :, None]).all(0)
    alike = [(a, b) for a in range(OFFSETS_SEEN) for b in range(a + 1, OFFSETS_SEEN) if bool(same[a, b])]
    if not alike:
        return True, (f"Offsets 0 … {OFFSETS_SEEN - 1} all give different scores: the position reaches attention, "
                      "and attention can tell them apart. (The check asks no more: turn(v, p), one angle p for every "
                      "pair, passes too; RoPE gives pair i its own angle, p·ω_i, with lesson 04's frequencies.)")
    if len(alike) == OFFSETS_SEEN * (OFFSETS_SEEN - 1) // 2:
        return False, (f"the keys at offsets 0 … {OFFSETS_SEEN - 1} all score the same for every q and k tried: the "
                       "position never reaches the score." + _whole_turns(fn))
    a, b = min(alike, key=lambda ab: (ab[1], ab[0]))
    periods = [t for t in range(2, OFFSETS_SEEN - 1) if all(bool(same[o, o + t]) for o in range(OFFSETS_SEEN - t))]
    period = periods[0] if periods else None
    said = {None: f"so attention cannot tell a key {a} back from one {b} back",
            2: "the score sees only the parity of the offset (whether n − m is even or odd)"}.get(
        period, f"the score repeats every {period} steps of the offset, so it sees only n − m modulo {period}: "
                f"a turn of 2π/{period} per position comes back to where it started after {period} positions "
                "(lesson 03's one turn per sentence). Turn by angles that no small number of steps brings back to "
                "whole turns, such as lesson 04's frequencies")
    return False, (f"offsets {a} and {b} score the same for every q and k tried: {said}. Different offsets must "
                   f"give different scores (offsets 0 … {OFFSETS_SEEN - 1} checked).")


def _content_kept(fn) -> tuple[bool, str]:
    scores = [_score(fn, q, 2, k, 2) for q, k in _pairs()]
    if max(scores) - min(scores) < 1e-6:
        return False, ("at the same offset every query and key score the same: the position drowned the content, "
                       "so attention can no longer match tokens.")
    return True, "Different queries and keys still score differently at the same offset: the content survives."


ROTATE_AFTER_SOLUTION = '''\
import torch


def turn(v, angles):
    """Given: turn each pair (v[2i], v[2i+1]) by angles, one angle for all pairs or d/2 of them (float64)."""
    angles = torch.as_tensor(angles, dtype=torch.float64).expand(len(v) // 2)
    return H.rotate(v.double(), angles)


def my_position_in(v, p):
    """Turn pair i of v by p·ω_i, an angle that grows with the position: a turn changes no length, and after
    turning q by m·ω_i and k by n·ω_i the angle between them has changed by (n − m)·ω_i, the offset alone."""
    omega = H.frequencies(len(v), dtype=torch.float64)  # lesson 04's ω_i
    return turn(v, p * omega)


H.check("06.rotate_after", my_position_in)
'''

design(
    "06.rotate_after",
    title="propose how to put the position into q and k after the projections",
    question="Adding PE before W_q and W_k lets the score depend on where the query and the key sit. Propose "
             "my_position_in(v, p), applied to a query or key v after the projections, such that "
             "⟨my_position_in(q, m), my_position_in(k, n)⟩ depends on the offset n − m alone, different offsets "
             "score differently (offsets 0 … 64 checked), and different q and k still score differently.",
    properties=(("offset-only", _offset_only_after), ("position-aware", _position_seen),
                ("content-keeping", _content_kept)),
    hints=(
        "Lesson 05: a dot product of two turned vectors depends only on their lengths and the angle between "
        "them. What if q and k are each turned, with `turn`, by an angle that grows with their position?",
        "return turn(v, p * omega), with omega = H.frequencies(len(v), dtype=torch.float64): pair i of q turns by "
        "m·ω_i, of k by n·ω_i, so the angle between them changes by (n − m)·ω_i, the offset alone.",
    ),
    solution=ROTATE_AFTER_SOLUTION,
)

predict(
    "06.shift_sentence",
    title="predict whether RoPE's scores change when the whole sentence moves",
    question="With RoPE, do the scores change when every position of the sentence moves by 1000?",
    choices={
        "a lot": "That is what the added code does. RoPE rotates q by R_m and k by R_n after the projections, "
                 "and ⟨R_m q, R_n k⟩ = ⟨q, R_(n−m) k⟩ depends only on n − m, which a shift leaves alone.",
        "a little": "Not even a little: ⟨R_m q, R_n k⟩ = ⟨q, R_(n−m) k⟩ depends only on n − m, which a shift "
                    "leaves alone, so only float rounding (below 1e-10 here) can differ.",
        "unchanged": "⟨R_m q, R_n k⟩ = ⟨q, R_(n−m) k⟩ depends only on n − m, whatever W_q and W_k are, so "
                     "shifting every position by 1000 leaves every score as it was, up to float rounding.",
    },
    answer="unchanged",
    hints=("Take one pair: q is turned by m·ω, k by n·ω. What happens to the angle between them when both "
           "positions grow by the same amount?",
           "A dot product sees only the angle between the two vectors (and their lengths), pair by pair."),
    solution='answer = "unchanged"\nH.check("06.shift_sentence", answer)\n',
)


def _reference(x, positions, base=10000.0, layout="interleaved"):
    return rope(x, positions, base, layout)


def _turn(x, positions, base, layout, sign=1.0, step=2.0, shift=0, write=None, second=1.0, angle_dtype=None):
    """Rotation written out independently of helpers.rotary, with knobs for the mistakes."""
    d = x.shape[-1]
    dtype = angle_dtype or torch.float64
    i = torch.arange(d // 2, dtype=dtype)
    theta = sign * (positions.to(dtype) + shift)[:, None] * float(base) ** (-step * i / d)
    c, s = theta.cos().double(), theta.sin().double()
    xd = x.to(torch.float64)
    if layout == "interleaved":
        a, b = xd[..., 0::2], xd[..., 1::2]
    else:
        a, b = xd[..., : d // 2], xd[..., d // 2:]
    first, other = a * c - b * s, second * (a * s) + b * c
    if (write or layout) == "interleaved":
        out = torch.stack((first, other), dim=-1).flatten(-2)
    else:
        out = torch.cat((first, other), dim=-1)
    return out.to(x.dtype)


def _written_back_with_cat(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, write="half")


def _written_back_with_stack(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, write="interleaved")


def _second_sign(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, second=-1.0)


def _base_ignored(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, 10000.0, layout)


def _row_index_as_position(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, torch.arange(len(positions)), base, layout)


def _unrotated(x, positions, base=10000.0, layout="interleaved"):
    return x.clone()


def _angles_in(dtype):
    def rotate(x, positions, base=10000.0, layout="interleaved"):
        return _turn(x, positions, base, layout, angle_dtype=dtype)
    return rotate


def _where(args, index) -> str:
    x, positions, layout = args[0], args[1], args[3]
    d = x.shape[-1]
    *lead, row, feature = index
    if layout == "interleaved":
        pair, features = feature // 2, (feature // 2 * 2, feature // 2 * 2 + 1)
    else:
        pair = feature % (d // 2)
        features = (pair, pair + d // 2)
    where = (f"position {int(positions[row])} (row {row}), feature {feature}: pair {pair} = features "
             f"{features[0]}, {features[1]} ({layout} layout)")
    return where + (f", in x[{', '.join(str(i) for i in lead)}]" if lead else "")


def _case(label, args) -> Case:
    x, positions = args[0], args[1]
    return Case(label, args, slack=float32_angle_slack(int(positions.abs().max()), float(x.abs().max())))


def _minus_theta(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, sign=-1.0)


def _always_half(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, "half")


def _always_interleaved(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, "interleaved")


def _exponent_i_over_d(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, step=1.0)


def _positions_from_one(x, positions, base=10000.0, layout="interleaved"):
    return _turn(x, positions, base, layout, shift=1)


# The slips a learner makes inside turned_pairs (the stub's part), each run through the stub's own lines: the
# half layout reordered to interleaved pairs, the angles, the turned pairs put back at features (2i, 2i+1).


def _through_stub(turned):
    def rotate(x, positions, base=10000.0, layout="interleaved"):
        d = x.shape[-1]
        if layout == "half":
            order = rope_permutation(d)
            return rotate(x[..., torch.argsort(order)], positions, base, "interleaved")[..., order]
        i = torch.arange(d // 2, dtype=torch.float64)
        theta = positions.to(torch.float64)[:, None] * float(base) ** (-2 * i / d)
        a_new, b_new = turned(x.to(torch.float64), theta)
        return torch.stack((a_new, b_new), dim=-1).flatten(-2).to(x.dtype)
    return rotate


def _pairs_of(x):
    return x[..., 0::2], x[..., 1::2]


def _cos_sin_swapped_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.sin() - b * theta.cos(), a * theta.cos() + b * theta.sin()


def _halves_as_pairs_turn(x, theta):
    d = x.shape[-1]
    a, b = x[..., : d // 2], x[..., d // 2:]
    return a * theta.cos() - b * theta.sin(), a * theta.sin() + b * theta.cos()


def _first_without_b_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.cos(), a * theta.sin() + b * theta.cos()


def _second_without_b_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.cos() - b * theta.sin(), a * theta.sin()


def _pair_zero_angle_turn(x, theta):
    a, b = _pairs_of(x)
    first = theta[:, :1]
    return a * first.cos() - b * first.sin(), a * first.sin() + b * first.cos()


def _doubled_angle_turn(x, theta):
    a, b = _pairs_of(x)
    return a * (2 * theta).cos() - b * (2 * theta).sin(), a * (2 * theta).sin() + b * (2 * theta).cos()


def _frequencies_reversed_turn(x, theta):
    a, b = _pairs_of(x)
    flipped = theta.flip(-1)
    return a * flipped.cos() - b * flipped.sin(), a * flipped.sin() + b * flipped.cos()


def _plus_in_first_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.cos() + b * theta.sin(), a * theta.sin() + b * theta.cos()


def _sequential_turn(x, theta):
    a, b = _pairs_of(x)
    a = a * theta.cos() - b * theta.sin()
    return a, a * theta.sin() + b * theta.cos()


def _b_unchanged_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.cos() - b * theta.sin(), b


def _half_angle_turn(x, theta):
    a, b = _pairs_of(x)
    half = theta / 2
    return a * half.cos() - b * half.sin(), a * half.sin() + b * half.cos()


def _outputs_swapped_turn(x, theta):
    a, b = _pairs_of(x)
    return a * theta.sin() + b * theta.cos(), a * theta.cos() - b * theta.sin()


def _positions_reversed_turn(x, theta):
    a, b = _pairs_of(x)
    flipped = theta.flip(0)
    return a * flipped.cos() - b * flipped.sin(), a * flipped.sin() + b * flipped.cos()


def _row_index_turn(x, theta):
    # positions ignored: row l turned by l·ω_i, with ω_i = 10000^(−2i/d) written in (turned_pairs has no base)
    a, b = _pairs_of(x)
    pairs = theta.shape[-1]
    omega = 10000.0 ** (-torch.arange(pairs, dtype=torch.float64) / pairs)
    rows = torch.arange(theta.shape[0], dtype=torch.float64)[:, None] * omega
    return a * rows.cos() - b * rows.sin(), a * rows.sin() + b * rows.cos()


def _error_explained(args, err) -> str | None:
    """A broadcasting error inside the turn: theta given an extra axis (theta[:, None]) or another shape."""
    sizes = re.search(r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at non-singleton "
                      r"dimension (\d+)", str(err))
    x = args[0]
    pairs = x.shape[-1] // 2
    if isinstance(err, RuntimeError) and sizes and int(sizes.group(3)) == x.dim() - 1 \
            and pairs in (int(sizes.group(1)), int(sizes.group(2))) and sizes.group(1) != sizes.group(2):
        other = int(sizes.group(1)) + int(sizes.group(2)) - pairs
        return (f"your pairs hold {other} features where this x has d = {x.shape[-1]}, so d/2 = {pairs} pairs, one "
                "for each angle in theta's last dimension. Pair indices written in for one d (x[..., [0, 2, 4, 6]] "
                "is d = 8) fail at any other: the pairs must follow x's last dimension, a, b = x[..., 0::2], "
                "x[..., 1::2].")
    if isinstance(err, RuntimeError) and "must match the size of tensor" in str(err):
        return ("theta has shape (L, d/2), the shape of the last two dimensions of a and b, (..., L, d/2): torch lines "
                "shapes up from the right, so use theta as it is and it applies to every leading dimension (batch, "
                "heads). An extra axis, theta[:, None] or theta[None], moves its L onto another dimension of x, "
                "which fails as soon as x has more than two dimensions.")
    return None


def _cases() -> list[Case]:
    g = torch.Generator().manual_seed(6)
    Case = _case  # noqa: N806 (every case gets its float32-angle slack)
    return [
        Case("x (4, 8) float32, positions 0…3, interleaved", (torch.randn(4, 8, generator=g), torch.arange(4),
                                                             10000.0, "interleaved")),
        Case("x (4, 8) float32, positions 0…3, half", (torch.randn(4, 8, generator=g), torch.arange(4),
                                                      10000.0, "half")),
        Case("x (2, 3, 6, 16) float64 (batch, heads, L, d), positions 0…5, half",
             (torch.randn(2, 3, 6, 16, generator=g, dtype=torch.float64), torch.arange(6), 10000.0, "half")),
        Case("x (2, 5, 16) float64, positions 0…4, interleaved",
             (torch.randn(2, 5, 16, generator=g, dtype=torch.float64), torch.arange(5), 10000.0, "interleaved")),
        Case("x (5, 10) float32 (d not a power of two), positions 0, 1, 100, 1000, 4095, interleaved",
             (torch.randn(5, 10, generator=g), torch.tensor([0, 1, 100, 1000, 4095]), 10000.0, "interleaved")),
        Case("x (5, 10) float32 (d not a power of two), positions 0, 1, 100, 1000, 4095, half",
             (torch.randn(5, 10, generator=g), torch.tensor([0, 1, 100, 1000, 4095]), 10000.0, "half")),
        Case("x (3, 12) float32, positions 7, 3, 7, base=500.0, half",
             (torch.randn(3, 12, generator=g), torch.tensor([7, 3, 7]), 500.0, "half")),
    ]


ROPE_SOLUTION = '''\
import torch

def my_rope(x, positions, base=10000.0, layout="interleaved"):
    d = x.shape[-1]
    if layout == "half":  # the identity above, read backwards
        P = H.rope_permutation(d)
        return my_rope(x[..., torch.argsort(P)], positions, base, "interleaved")[..., P]
    theta = H.angles(positions, d, base)                   # θ[l, i] = positions[l]·ω_i, (L, d/2), float64
    a_new, b_new = turned_pairs(x.to(torch.float64), theta)
    return torch.stack((a_new, b_new), dim=-1).flatten(-2).to(x.dtype)  # pair i back at features (2i, 2i+1)


def turned_pairs(x, theta):
    """Pair i of x, (a, b) = (x[..., 2i], x[..., 2i+1]), turned by theta[:, i]: two tensors (..., L, d/2)."""
    a, b = x[..., 0::2], x[..., 1::2]                                   # pair i = features (2i, 2i+1)
    return a * theta.cos() - b * theta.sin(), a * theta.sin() + b * theta.cos()  # broadcast over leading dims


H.check("06.rope", my_rope)
'''

implement(
    "06.rope",
    title="write RoPE's turn of each pair",
    reference=_reference,
    cases=_cases,
    mistakes={
        "rotation by −θ": (
            _minus_theta,
            "turn by +p·ω_i: (a, b) ↦ (a cos − b sin, a sin + b cos). Your signs turn the other way, so scores "
            "depend on −(m − n): still relative, but not the course's (or any checkpoint's) convention.",
        ),
        "half layout used for both layouts": (
            _always_half,
            'with layout="interleaved", pair i is features (2i, 2i+1) (x[..., 0::2] and x[..., 1::2]), not '
            "(i, i + d/2). Both run without an error, which is why checkpoints loaded with the wrong one fail "
            "silently.",
        ),
        "interleaved layout used for both layouts": (
            _always_interleaved,
            'with layout="half", pair i is features (i, i + d/2) (x[..., :d//2] and x[..., d//2:]), as in '
            "GPT-NeoX and Hugging Face's rotate_half.",
        ),
        "ω_i = base^(−i/d) instead of base^(−2i/d)": (
            _exponent_i_over_d,
            "pair i turns at ω_i = base^(−2i/d), i = 0 … d/2 − 1.",
        ),
        "interleaved pairs written back with torch.cat": (
            _written_back_with_cat,
            'with layout="interleaved" the rotated pair i goes back to features (2i, 2i+1): '
            "torch.stack((a', b'), dim=-1).flatten(-2). torch.cat((a', b'), dim=-1) puts all first halves "
            "first, the half layout.",
        ),
        "half-layout pairs written back with stack and flatten": (
            _written_back_with_stack,
            'with layout="half" the rotated pair i goes back to features (i, i + d/2): torch.cat((a\', b\'), '
            "dim=-1), not stack and flatten, which interleaves them.",
        ),
        "sign wrong in the second output (b cos − a sin)": (
            _second_sign,
            "a rotation keeps the pair's length: (a, b) ↦ (a cos θ − b sin θ, a sin θ + b cos θ). With "
            "−a sin θ in the second output it is not a rotation, and scores stop depending on the offset alone.",
        ),
        "base fixed at 10000": (
            _base_ignored,
            "use the base argument in ω_i = base^(−2i/d); the case with base=500.0 shows the difference.",
        ),
        "row index used as the position": (
            (_row_index_as_position, _through_stub(_row_index_turn)),
            "turn row l by positions[l], the position given for it (0, 1, 100, 1000, 4095 in one case), not by l.",
        ),
        "x returned unrotated": (
            _unrotated,
            "every pair turns by p·ω_i: only rows at position 0 stay as they were.",
        ),
        "positions counted from 1": (
            _positions_from_one,
            "turn each row by its own position p as given in positions (the first is 0, which leaves it unchanged).",
        ),
        "cos and sin swapped in the turn": (
            _through_stub(_cos_sin_swapped_turn),
            "the turn is (a, b) ↦ (a cos θ − b sin θ, a sin θ + b cos θ): cos θ multiplies the member's own value. "
            "With cos and sin exchanged, angle 0 no longer leaves the pair as it was, and a row at position 0 must "
            "come back unchanged.",
        ),
        "turned_pairs pairs feature i with i + d/2 (the half layout's pairs)": (
            _through_stub(_halves_as_pairs_turn),
            "turned_pairs is given x with its pairs side by side: pair i is features (2i, 2i+1), "
            "a, b = x[..., 0::2], x[..., 1::2]. x[..., :d//2] and x[..., d//2:] pair feature i with i + d/2, the "
            "half layout's pairs, and the given lines then put the results back as interleaved pairs: lesson 10's "
            "wrong-layout mistake, which raises no error.",
        ),
        "a term of the turn left out": (
            (_through_stub(_first_without_b_turn), _through_stub(_second_without_b_turn)),
            "each turned member mixes both members of the pair: a' = a cos θ − b sin θ and b' = a sin θ + b cos θ. "
            "Without b's term in one of them the pair's length changes, and the scores stop depending on the "
            "offset alone.",
        ),
        "pair 0's angle used for every pair": (
            _through_stub(_pair_zero_angle_turn),
            "theta[:, i] is pair i's own angle p·ω_i, shape (L, d/2): use theta as it is, so that each pair turns "
            "at its own frequency, not theta[:, 0] (or theta[:, :1]) for all of them.",
        ),
        "angle doubled (2θ)": (
            _through_stub(_doubled_angle_turn),
            "theta already holds the whole angle p·ω_i: turn by θ itself, cos θ and sin θ, not by 2θ.",
        ),
        "frequencies in reverse order (slowest pair first)": (
            _through_stub(_frequencies_reversed_turn),
            "pair i turns by theta[:, i] = p·ω_i, and ω_i falls with i: pair 0 is the fastest (ω_0 = 1). Use "
            "theta in the order given, not flipped.",
        ),
        "minus sign missing in the first output (a cos θ + b sin θ)": (
            _through_stub(_plus_in_first_turn),
            "the first turned member is a' = a cos θ − b sin θ, with a minus: with + it is no rotation, the pair's "
            "length changes, and scores stop depending on the offset alone.",
        ),
        "b' computed from the new a (a updated first)": (
            _through_stub(_sequential_turn),
            "both turned members come from the old pair: compute a' and b' from a and b before replacing either, "
            "return a * c - b * s, a * s + b * c. Once a is overwritten, b' = a' sin θ + b cos θ mixes in the "
            "turned value.",
        ),
        "b returned unturned": (
            _through_stub(_b_unchanged_turn),
            "both members turn: b' = a sin θ + b cos θ. Returned as it is, b keeps its old value and the pair is "
            "no longer turned as a whole.",
        ),
        "half the angle (θ/2)": (
            _through_stub(_half_angle_turn),
            "theta already holds the whole angle p·ω_i: turn by θ itself, cos θ and sin θ, not by θ/2.",
        ),
        "the two turned members returned in the wrong order (b', a')": (
            _through_stub(_outputs_swapped_turn),
            "return the first member's new value first: a' = a cos θ − b sin θ, then b' = a sin θ + b cos θ. "
            "The given lines put the first tensor at feature 2i and the second at 2i + 1.",
        ),
        "the positions in reverse order (theta flipped over the rows)": (
            _through_stub(_positions_reversed_turn),
            "row l of theta is the angle of row l of x, positions[l]·ω_i: use theta in the order given. "
            "theta.flip(0) turns the first row by the last position.",
        ),
    },
    hints=(
        "The two members of each interleaved pair: a, b = x[..., 0::2], x[..., 1::2], each (..., L, d/2); "
        "theta, shape (L, d/2), broadcasts over x's leading dimensions.",
        "theta.cos() and theta.sin() have the shape of a and b's last two dimensions, so the task's formula, "
        "written with *, + and − on whole tensors, turns every pair at once (no loop over i). Return the two "
        "turned tensors, first members then second; the given lines put them back at features (2i, 2i+1).",
        'The half layout needs nothing more: the given lines reorder x so that its pairs (i, i + d/2) sit at '
        '(2i, 2i+1), call the interleaved rotation, and reorder back with P.',
    ),
    solution=ROPE_SOLUTION,
    explain_error=_error_explained,
    where=_where,
    axes=("positions", "features"),
    dtype=lambda args: args[0].dtype,
    half_why="The angle of pair 0 at position p is p radians: at position 4095 float16 stores it in steps of "
             "2 (bfloat16 in steps of 16), so the fast pairs turn by the wrong angle, which is lesson 10's "
             "reason for computing RoPE's angles in float32; and the task keeps x's dtype.",
    half=(_angles_in(torch.float16), _angles_in(torch.bfloat16)),
    autograd=True,
)


predict(
    "06.decay",
    title="predict whether unrelated queries and keys score less far apart",
    question="For random, unrelated queries and keys (d = 128), is the typical |score| at distance 4000 much "
             "smaller than at distance 0, about the same, or larger?",
    choices={
        "smaller": "That is the popular reading of RoPE's \"long-term decay\", but only an upper bound decays. "
                   "For unrelated q and k each pair contributes a term with a random phase at every distance, "
                   "so the typical |score| stays the same; only correlated q and k (such as k = q) fade.",
        "same": "For unrelated q and k each pair contributes a term with a random phase at every distance, so "
                "the typical |score| stays the same. Only the bound decays, and only correlated q and k (such "
                "as k = q) show falling scores.",
        "larger": "Nothing makes it grow on average: for unrelated q and k each pair contributes a term with a "
                  "random phase at every distance, so the typical |score| stays about the same.",
    },
    answer="same",
    hints=("For random q and k, is the phase of each pair's term q̃_j·conj(k̃_j)·e^(iδω_j) any more "
           "random at δ = 4000 than at δ = 0?",
           "The bound is an upper limit on |score|; it says nothing about how large a score actually is."),
    solution='answer = "same"\nH.check("06.decay", answer)\n',
)
