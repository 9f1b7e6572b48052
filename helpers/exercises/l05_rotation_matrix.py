"""Lesson 05's exercises (notebooks/05_rotation_matrix.ipynb), in the order the notebook asks them.

05.offset_only (design, core, after the projections break the offset structure): propose A = W_qᵀW_k with
    PE(m)ᵀ·A·PE(n) a function of the offset m − n alone that tells the key k positions before the query from
    the one k after; a failing A is told which part breaks it (a pair mixed with another, a pair's two
    members scaled apart, a reflection, no turn at all).
05.shift_matrix (implement, Going deeper): my_shift_matrix(k, d_model, base=10000.0) → (d_model, d_model)
M_k with PE(p + k) = M_k · PE(p) for the interleaved sinusoidal encoding: block i acts on (sin, cos) of ω_i
as [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]]; the stub loops over the pairs and calls torch.block_diag,
the learner writes pair_block(angle), the 2×2 block (the check tests the whole M_k).
05.sine_only (predict, Going deeper): does a linear map take the sine dimensions of PE(p) to those of
    PE(p + k)? No.
05.projected (predict, asked as a recap in Going deeper after the core's figure): after random W_q, W_k,
    one score per offset or a spread? A spread.
"""

from __future__ import annotations

import torch

from ..encodings import shift_matrix, sinusoidal
from .compare import float32_angle_slack
from .core import Case, WrongOutput, design, explore, implement, predict  # noqa: F401


def _reference(k, d_model, base=10000.0):
    return shift_matrix(k, d_model, base)


def _blocks(theta: torch.Tensor, transpose: bool = False) -> list[torch.Tensor]:
    c, s = theta.cos(), theta.sin()
    blocks = [torch.stack((torch.stack((ci, si)), torch.stack((-si, ci)))) for ci, si in zip(c, s, strict=True)]
    return [b.T for b in blocks] if transpose else blocks


def _theta(k, d_model, base, step=2.0):
    i = torch.arange(d_model // 2, dtype=torch.float64)
    return k * float(base) ** (-step * i / d_model)


def _frequencies_reversed(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(k, d_model, base).flip(0))).float()


def _transposed(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(k, d_model, base), transpose=True)).float()


def _exponent_i_over_d(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(k, d_model, base, step=1.0))).float()


def _concatenated_layout(k, d_model, base=10000.0):
    h = d_model // 2
    m = torch.zeros(d_model, d_model, dtype=torch.float64)
    for i, b in enumerate(_blocks(_theta(k, d_model, base))):
        for r, row in enumerate((i, i + h)):
            for c, col in enumerate((i, i + h)):
                m[row, col] = b[r, c]
    return m.float()


def _angle_without_k(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(1, d_model, base))).float()


def _cos_sin_swapped(k, d_model, base=10000.0):
    blocks = [torch.stack((torch.stack((s, c)), torch.stack((-c, s))))
              for c, s in zip(_theta(k, d_model, base).cos(), _theta(k, d_model, base).sin(), strict=True)]
    return torch.block_diag(*blocks).float()


def _absolute_k(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(abs(k), d_model, base))).float()


def _k_plus_one(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(k + 1, d_model, base))).float()


def _angle_without_omega(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(torch.full((d_model // 2,), float(k), dtype=torch.float64))).float()


def _base_ignored(k, d_model, base=10000.0):
    return torch.block_diag(*_blocks(_theta(k, d_model, 10000.0))).float()


def _angles_in(dtype):
    def matrix(k, d_model, base=10000.0):
        i = torch.arange(d_model // 2, dtype=dtype)
        theta = torch.tensor(k, dtype=dtype) * float(base) ** (-2 * i / d_model)
        return torch.block_diag(*_blocks(theta.double())).float()
    return matrix


# The slips a learner makes inside pair_block (the stub's part), each run through the stub's loop over the pairs.


def _with_block(block):
    def matrix(k, d_model, base=10000.0):
        blocks = [block(torch.tensor(k * base ** (-2 * i / d_model), dtype=torch.float64))
                  for i in range(d_model // 2)]
        return torch.block_diag(*blocks).float()
    return matrix


def _rotation(c, s):
    return torch.stack((torch.stack((c, s)), torch.stack((-s, c))))


def _minus_missing_block(angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack((torch.stack((c, s)), torch.stack((s, c))))


def _degrees_block(angle):
    return _rotation(torch.cos(torch.deg2rad(angle)), torch.sin(torch.deg2rad(angle)))


def _to_degrees_block(angle):
    return _rotation(torch.cos(torch.rad2deg(angle)), torch.sin(torch.rad2deg(angle)))


def _identity_block(angle):
    return torch.eye(2, dtype=torch.float64)


def _half_angle_block(angle):
    return _rotation(torch.cos(angle / 2), torch.sin(angle / 2))


def _minus_cos_block(angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack((torch.stack((c, s)), torch.stack((-s, -c))))


def _both_sines_negated_block(angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack((torch.stack((c, -s)), torch.stack((-s, c))))


def _flat_block(angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack((c, s, -s, c))


def _where(args, index) -> str:
    r, c = index
    d_model, base = args[1], float(args[2]) if len(args) > 2 else 10000.0
    if r // 2 != c // 2:
        return (f"row {r}, column {c}: off the diagonal blocks (row of pair {r // 2}, column of pair {c // 2}), "
                f"where M_k is 0")
    i = r // 2
    return (f"row {r}, column {c}: block {i} (pair {i}, ω_{i} = {base ** (-2 * i / d_model):.4g}), its "
            f"{'sin' if r % 2 == 0 else 'cos'} row and {'sin' if c % 2 == 0 else 'cos'} column")


def _case(label, args) -> Case:
    return Case(label, args, slack=float32_angle_slack(abs(args[0])))  # the largest angle is |k|·ω_0 = |k|


def _cases() -> list[Case]:
    return [
        _case("k=0, d_model=4 (the identity)", (0, 4)),
        _case("k=1, d_model=16", (1, 16)),
        _case("k=10, d_model=16", (10, 16)),
        _case("k=-9, d_model=8 (a negative offset)", (-9, 8)),
        _case("k=7, d_model=6, base=100.0 (d_model not a power of two)", (7, 6, 100.0)),
        _case("k=1000, d_model=10 (a large offset)", (1000, 10, 10000.0)),
    ]


SHIFT_MATRIX_SOLUTION = '''\
import torch

def my_shift_matrix(k, d_model, base=10000.0):
    """M_k, (d_model, d_model), with PE(p + k) = M_k · PE(p): pair i's block on the diagonal."""
    blocks = []
    for i in range(d_model // 2):
        angle = torch.tensor(k * base ** (-2 * i / d_model), dtype=torch.float64)  # k·ω_i: how far pair i turns
        blocks.append(pair_block(angle))
    return torch.block_diag(*blocks).float()


def pair_block(angle):
    """The 2×2 block taking (sin pω, cos pω) to (sin (p+k)ω, cos (p+k)ω), for angle = k·ω."""
    c, s = torch.cos(angle), torch.sin(angle)
    # sin(a+b) = sin a cos b + cos a sin b, cos(a+b) = cos a cos b − sin a sin b
    return torch.stack((torch.stack((c, s)), torch.stack((-s, c))))

H.check("05.shift_matrix", my_shift_matrix)
'''

implement(
    "05.shift_matrix",
    title="build the shift matrix M_k",
    reference=_reference,
    cases=_cases,
    mistakes={
        "M_k transposed": (
            _transposed,
            "your matrix moves back by k (it is M_−k). The pair is (sin, cos), so the sin row is "
            "[cos kω_i, sin kω_i] and the cos row is [−sin kω_i, cos kω_i] (the angle-addition formulas).",
        ),
        "ω_i = base^(−i/d) instead of base^(−2i/d)": (
            _exponent_i_over_d,
            "block i belongs to the pair (2i, 2i+1) whose frequency is ω_i = base^(−2i/d_model).",
        ),
        "blocks on the concatenated layout": (
            _concatenated_layout,
            "in the interleaved layout pair i is columns (2i, 2i+1), so block i sits on the diagonal at rows "
            "and columns 2i, 2i+1, not at (i, i + d_model/2).",
        ),
        "cos and sin swapped inside the block": (
            _cos_sin_swapped,
            "the diagonal of each block holds cos kω_i (k = 0 must give the identity) and the off-diagonal "
            "±sin kω_i: [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]].",
        ),
        "|k| instead of k": (
            _absolute_k,
            "a negative offset moves back: M_−k is M_k transposed, not M_k. Use k with its sign in the angle "
            "k·ω_i.",
        ),
        "angle (k + 1)·ω_i": (
            _k_plus_one,
            "M_k moves by exactly k positions, so k = 0 gives the identity: the angle is k·ω_i.",
        ),
        "angle k instead of k·ω_i": (
            _angle_without_omega,
            "each pair turns at its own frequency: block i's angle is k·ω_i with ω_i = base^(−2i/d_model), not k.",
        ),
        "frequencies in reverse order (slowest pair first)": (
            _frequencies_reversed,
            "block i belongs to pair i, features 2i and 2i + 1, whose frequency ω_i = base^(−2i/d_model) falls "
            "with i: pair 0 is the fastest (ω_0 = 1), the last pair the slowest. Your blocks run from the slowest "
            "to the fastest.",
        ),
        "base fixed at 10000": (
            _base_ignored,
            "use the base argument in ω_i = base^(−2i/d_model); the case with base=100.0 shows the difference.",
        ),
        "angle ω_i instead of k·ω_i": (
            _angle_without_k,
            "the block for an offset of k turns by k·ω_i; with ω_i alone you built M_1 for every k.",
        ),
        "minus sign missing: [[cos, sin], [sin, cos]]": (
            _with_block(_minus_missing_block),
            "cos(a + b) = cos a cos b − sin a sin b: the cos row is [−sin kω_i, cos kω_i], with a minus. Without it "
            "the block is not a rotation, and M_k stretches some codes instead of moving them.",
        ),
        "angle converted between degrees and radians": (
            (_with_block(_degrees_block), _with_block(_to_degrees_block)),
            "angle = k·ω_i is in radians, and torch.cos and torch.sin take radians: use it as it is, with no "
            "deg2rad, rad2deg or factor 180/π.",
        ),
        "the identity for every block": (
            _with_block(_identity_block),
            "the identity is only M_0: for k ≠ 0 each block turns its pair by the angle it is given, "
            "[[cos angle, sin angle], [−sin angle, cos angle]].",
        ),
        "half the angle": (
            _with_block(_half_angle_block),
            "turn by the whole angle k·ω_i: sin((p + k)ω) = sin(pω) cos(kω) + cos(pω) sin(kω) needs cos and sin "
            "of kω itself, not of kω/2.",
        ),
        "−cos in the corner: [[cos, sin], [−sin, −cos]]": (
            _with_block(_minus_cos_block),
            "both diagonal entries are +cos kω_i, so that k = 0 gives the identity. With −cos in the corner the "
            "block is a reflection, not a rotation: cos(pω + kω) = −sin(pω) sin(kω) + cos(pω) cos(kω).",
        ),
        "both sines negated: [[cos, −sin], [−sin, cos]]": (
            _with_block(_both_sines_negated_block),
            "one sine carries the minus, the other not: the block is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]], "
            "so that sin(pω + kω) = sin pω·cos kω + cos pω·sin kω. With both negated it is no rotation.",
        ),
        "the four entries in one flat row (stack((c, s, −s, c)))": (
            _with_block(_flat_block),
            "the block is 2×2: a stack of two rows, torch.stack((torch.stack((c, s)), torch.stack((-s, c)))). "
            "torch.stack((c, s, -s, c)) makes one row of 4 entries, and block_diag then lays the rows side by "
            "side instead of on the diagonal.",
        ),
    },
    hints=(
        "Write sin(p·ω + k·ω) and cos(p·ω + k·ω) with the angle-addition formulas: each is a combination of "
        "sin(p·ω) and cos(p·ω) whose weights do not depend on p. The 2 × 2 matrix of these weights is the block.",
        "The first row (the sin) is [cos kω, sin kω], the second (the cos) is [−sin kω, cos kω]: with "
        "c, s = torch.cos(angle), torch.sin(angle), return torch.stack((torch.stack((c, s)), torch.stack((-s, c)))).",
    ),
    solution=SHIFT_MATRIX_SOLUTION,
    where=_where,
    axes=("rows", "columns"),
    half_why="The block of pair 0 turns by k radians: float16 stores 1000 in steps of 0.5 (bfloat16 in "
             "steps of 4), so M_1000's cos and sin are wrong in their first digit, and M_k applied again and "
             "again piles up float16's 3-digit errors.",
    half=(_angles_in(torch.float16), _angles_in(torch.bfloat16)),
)


predict(
    "05.sine_only",
    title="predict whether a linear map shifts the sine dimensions alone",
    question="From the sine dimensions of PE(p) alone, does some linear map give the sine dimensions of "
             "PE(p + k) exactly?",
    choices={
        "yes": "sin((p+k)ω) = sin(pω)cos(kω) + cos(pω)sin(kω) needs cos(pω) too, and the sine alone does not "
               "fix it: sin θ = sin(π − θ) while their cosines have opposite signs, and k steps later the two "
               "have different sines. The next cell's best linear fit leaves a clear residual.",
        "no": "sin((p+k)ω) = sin(pω)cos(kω) + cos(pω)sin(kω) needs cos(pω) too, and the sine alone does not fix "
              "it (sin θ = sin(π − θ), with cosines of opposite sign). So even the best linear map leaves a "
              "clear residual, and with the cosines added the fit is exact: the next cell computes both.",
    },
    answer="no",
    hints=("Write sin((p+k)ω) with the angle-addition identity: which quantities of position p does it need?",
           "Two positions can have the same sine and different cosines (sin θ = sin(π − θ)). Do they still "
           "have the same sine k steps later?"),
    solution='answer = "no"\nH.check("05.sine_only", answer)\n',
)

predict(
    "05.projected",
    title="recap: one score per offset after random projections, or a spread",
    question="After random query and key projections W_q, W_k, does every offset still have one score, or a "
             "spread of scores?",
    choices={
        "one": "Not after random projections. The score (W_q·PE(p))·(W_k·PE(r)) = PE(p)ᵀ·A·PE(r) with "
               "A = W_qᵀW_k depends on the offset alone only when A commutes with the shift M_1, and a random A "
               "does not: the core's figure of scores by offset shows a whole cloud of scores at each offset.",
        "spread": "Random projections mix the frequency pairs, so A = W_qᵀW_k does not commute with the shift "
                  "M_1 and the score depends on where the two positions are, not only on their offset: the core's "
                  "figure of scores by offset shows a whole cloud of scores at each offset.",
    },
    answer="spread",
    hints=("The score is PE(p)ᵀ·A·PE(r) with A = W_qᵀW_k. Shifting both positions by one step multiplies both "
           "codes by M_1: when is the score unchanged?",
           "It is unchanged when M_1ᵀ·A·M_1 = A. Would a random 64 × 64 matrix satisfy that?"),
    solution='answer = "spread"\nH.check("05.projected", answer)\n',
)


# --- 05.offset_only (design; asked after the projections break the offset structure) -------------------


def _matrix(fn, d_model: int) -> torch.Tensor:
    out = fn(d_model)
    if not isinstance(out, torch.Tensor):
        out = torch.as_tensor(out)
    out = out.detach().to(torch.float64).cpu()
    if tuple(out.shape) != (d_model, d_model):
        raise WrongOutput(f"my_projection(d_model) should return a ({d_model}, {d_model}) matrix, got shape "
                         f"{tuple(out.shape)}")
    return out


def _scores(fn, d_model: int, length: int = 200) -> torch.Tensor:
    pe = sinusoidal(length, d_model).double()
    return pe @ _matrix(fn, d_model) @ pe.T


def _what_breaks_it(a: torch.Tensor) -> str:
    """Which part of A breaks offset-only scores: each frequency pair (features 2i, 2i + 1) must be mapped to
    itself by a rotation times one number, a block [[x, y], [−y, x]]."""
    tol = 1e-6 * float(a.abs().max())
    d = a.shape[0]
    pair = torch.arange(d) // 2
    outside = (pair[:, None] != pair[None, :]) & (a.abs() > tol)
    if bool(outside.any()):
        r, c = (int(v) for v in outside.nonzero()[0])
        return (f"A[{r}, {c}] = {float(a[r, c]):.4g} mixes pair {r // 2} (features {2 * (r // 2)}, {2 * (r // 2) + 1}) "
                f"with pair {c // 2}, which turns at another frequency: A must map each frequency pair to itself "
                "(zero outside the 2 × 2 blocks on its diagonal).")
    for i in range(d // 2):
        (x, y), (z, w) = a[2 * i:2 * i + 2, 2 * i:2 * i + 2].tolist()
        if abs(x - w) > tol:
            return (f"The two members of pair {i} (features {2 * i}, {2 * i + 1}) get different scales, {x:.4g} and "
                    f"{w:.4g}: a pair must be scaled as a whole, a rotation times one number, "
                    "[[x, y], [−y, x]].")
        if abs(y + z) > tol:
            kind = "a swap is a reflection, not a rotation" if abs(y - z) <= tol else \
                "its off-diagonal entries are not opposite, so it is part reflection, not a rotation"
            return (f"The block of pair {i} (features {2 * i}, {2 * i + 1}) is "
                    f"[[{x:.4g}, {y:.4g}], [{z:.4g}, {w:.4g}]]: {kind}. A rotation times one number is "
                    "[[x, y], [−y, x]].")
    return "A must map each frequency pair to itself, by a rotation times one number."


def _offset_only_scores(fn) -> tuple[bool, str]:
    for d_model in (16, 64):
        s = _scores(fn, d_model)
        scale = float(s.abs().max())
        if scale < 1e-9:
            return False, f"with d_model = {d_model} every score is 0: the position tells attention nothing."
        for offset in (1, 5, -3, 40):
            along = torch.diagonal(s, offset)
            spread = float(along.max() - along.min())
            if spread > 1e-6 * scale:
                p_lo, p_hi = int(along.argmin()), int(along.argmax())
                q_lo, q_hi = (max(p_lo, p_lo - offset), max(p_hi, p_hi - offset)) if offset < 0 else (p_lo, p_hi)
                return False, (f"with d_model = {d_model}, the offset δ = {-offset} scores "
                               f"from {float(along.min()):.4g} (query at {q_lo}) to {float(along.max()):.4g} "
                               f"(query at {q_hi}), so the score "
                               "depends on where the two positions sit, not only on their offset. "
                               + _what_breaks_it(_matrix(fn, d_model)))
    return True, "Every offset has one score for d_model = 16 and 64, whatever the position."


def _before_from_after(fn) -> tuple[bool, str]:
    for d_model in (16, 64):
        s = _scores(fn, d_model)
        gap = (s - s.T).abs()  # s[p, r] against s[r, p]: the offsets δ and −δ
        if float(gap.max()) > 1e-6 * max(float(s.abs().max()), 1e-12):
            p, r = (int(v) for v in divmod(int(gap.argmax()), s.shape[1]))
            return True, (f"With d_model = {d_model}, positions {p} and {r} score {float(s[p, r]):.4g} with the query "
                          f"at {p} and {float(s[r, p]):.4g} with the query at {r}: offsets {p - r} and {r - p} differ, "
                          "which the raw codes of lesson 04 could not tell. Lesson 06 gets the same property for "
                          "learned projections by rotating after them.")
    return False, ("every score is the same for the key k positions before the query and the one k positions after "
                   "(A acts as a symmetric matrix, e.g. the identity or a scale of each pair): like the raw codes of "
                   "lesson 04, it cannot tell before from after. Turn the pairs, too.")


OFFSET_ONLY_SOLUTION = '''\
import torch


def my_projection(d_model):
    """A = W_qᵀ·W_k: here 2·M_3, a scaled rotation of every frequency pair, which commutes with every shift."""
    return 2 * H.shift_matrix(3, d_model).double()


H.check("05.offset_only", my_projection)
'''

design(
    "05.offset_only",
    title="propose projections that keep one score per offset",
    question="Propose A = W_qᵀ·W_k, a (d_model, d_model) matrix, such that the score PE(m)ᵀ·A·PE(n) depends on "
             "the offset δ = m − n alone (and is not 0 everywhere). And, unlike lesson 04's raw dot product, it must "
             "score the key k positions before the query and the one k after differently, for some k.",
    properties=(("offset-only", _offset_only_scores), ("able to tell before from after", _before_from_after)),
    hints=(
        "Moving both positions one step on multiplies both codes by M_1, so the score keeps its value when "
        "M_1ᵀ·A·M_1 = A. Aim for a block-diagonal A whose 2 × 2 blocks each turn (and may scale) one (sin, cos) "
        "pair, like M_k's.",
        "Which matrices of this lesson turn and scale each pair on its own? Every M_k does, and so does the "
        "identity; any block [[a, b], [−b, a]] turns by an angle and scales by √(a² + b²).",
        "The identity keeps the offset but, like lesson 04's raw dot product, scores +δ and −δ alike. A turn "
        "of the pairs (b ≠ 0 in some block) moves the peak off offset 0.",
    ),
    solution=OFFSET_ONLY_SOLUTION,
)
