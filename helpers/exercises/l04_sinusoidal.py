"""Lesson 04's exercises (notebooks/04_sinusoidal.ipynb), in the order the notebook asks them.

04.sinusoidal (implement, core): my_sinusoidal(n_positions, d_model, base=10000.0) → (n_positions, d_model),
PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i), ω_i = base^(−2i/d_model); the stub makes the frequencies
and the empty table, the learner writes fill_table, the angles into the interleaved columns (the check
tests the whole function).
04.apart (design, Going deeper, after the formula: the sinusoidal code passes too): propose
    my_code(positions) → (L, d ≤ 64), from the position alone (the same code for a position in any sentence
    and wherever it sits in positions), entries within [−1, 1], the first 2000 codes at least 0.01 apart.
04.fastest_pair (predict, a recap in Going deeper): which dimension pair turns fastest? Pair 0.
04.dot_sign (predict, a recap in Going deeper): is PE(p)·PE(p + k) the same k before and after? The same.
"""

from __future__ import annotations

import re

import torch

from ..encodings import sinusoidal
from .compare import float32_angle_slack
from .core import Case, WrongOutput, design, explore, implement, predict  # noqa: F401
from .l03_single_sine import why_not_finite

# --- 04.apart (design; asked in Going deeper, after the formula) ---------------------------------------


def _vectors(fn, positions: torch.Tensor) -> torch.Tensor:
    out = fn(positions.clone())
    if not isinstance(out, torch.Tensor):
        out = torch.as_tensor(out)
    out = out.detach().to(torch.float64).cpu()
    if out.dim() != 2 or out.shape[0] != len(positions) or not 1 <= out.shape[1] <= 64:
        raise WrongOutput(f"my_code(positions) should return a (len(positions), d) tensor with d from 1 to 64, "
                         f"got shape {tuple(out.shape)}")
    return out


SCATTERED = (5, 6, 700, 1999, 42)  # positions that do not start at 0, out of order


def _vector_per_position(fn) -> tuple[bool, str]:
    run = _vectors(fn, torch.arange(3000))
    short = _vectors(fn, torch.arange(10))
    if short.shape[1] != run.shape[1] or not torch.allclose(short, run[:10], rtol=1e-9, atol=1e-12):
        return False, ("the first 10 positions get other codes in a 3000-word sentence than in a 10-word one: use "
                       "the position alone (lesson 02's stale keys).")
    scattered = _vectors(fn, torch.tensor(SCATTERED))
    rows = run[list(SCATTERED)]
    if scattered.shape != rows.shape or not torch.allclose(scattered, rows, rtol=1e-9, atol=1e-12):
        k = int((~torch.isclose(scattered, rows, rtol=1e-9, atol=1e-12)).any(-1).nonzero()[0]) \
            if scattered.shape == rows.shape else 0
        listed = ", ".join(str(p) for p in SCATTERED)
        return False, (f"called with the positions [{listed}], your code gives position {SCATTERED[k]} (row {k}) "
                       f"another code than row {SCATTERED[k]} of a run over 0 … 2999. The code of a position must "
                       "come from its value in positions, not from where it sits in the tensor or how many "
                       "positions there are (len(positions) or torch.arange(len(positions)) count them; "
                       "positions itself holds them).")
    return True, "Each position's code depends on the position alone, wherever it sits in positions."


def _entries_bounded(fn) -> tuple[bool, str]:
    positions = torch.arange(0, 1_000_001, 997)
    codes = _vectors(fn, positions)
    finite = torch.isfinite(codes).all(-1)
    if not bool(finite.all()):
        k = int((~finite).nonzero()[0])
        j = int((~torch.isfinite(codes[k])).nonzero()[0])
        return False, (f"position {int(positions[k])}, entry {j} is {float(codes[k, j]):.6g}: "
                       f"{why_not_finite(positions, finite)}")
    outside = codes.abs() > 1
    if bool(outside.any()):
        k, j = (int(i) for i in outside.nonzero()[0])
        return False, (f"position {int(positions[k])}, entry {j} is {float(codes[k, j]):.6g}, outside [−1, 1]: "
                       "the raw index's growth again.")
    return True, f"Every entry stays within [−1, 1] out to position 1 000 000 (d = {codes.shape[1]})."


def _moves_between_steps(fn, start: torch.Tensor) -> bool:
    """Whether the code at position 0.5 differs from position 0's: the code turns between whole positions."""
    try:
        half = _vectors(fn, torch.tensor([0.5], dtype=torch.float64))[0]
    except Exception:  # positions taken as integers only: the plain message stands
        return False
    return half.shape == start.shape and float((half - start).norm()) > 0.01


def _every_position_apart(fn) -> tuple[bool, str]:
    codes = _vectors(fn, torch.arange(2000))
    distance = torch.cdist(codes, codes)
    distance.fill_diagonal_(float("inf"))
    flat = int(distance.argmin())
    p, q = sorted(divmod(flat, distance.shape[1]))
    gap = float(distance[p, q])
    if gap < 0.01 and float((codes - codes[0]).norm(dim=-1).max()) < 0.01 and _moves_between_steps(fn, codes[0]):
        return False, ("every position from 0 to 1999 gets the same code (within 0.01), yet between two whole "
                       "positions your code does move: each circle turns a whole number of turns per step (a speed "
                       "that is a multiple of 2π), so every position lands back where position 0 is. That is "
                       "aliasing. Keep each speed below π per step, and not a multiple of 2π.")
    if gap < 0.01 and q - p == 1:
        return False, (f"neighbours {p} and {q} have codes only {gap:.2g} apart (below 0.01): a circle slow enough not "
                       "to come round within 2000 positions moves each step by at most 2π/2000 ≈ 0.003. Add a "
                       "faster circle to keep neighbours apart.")
    if gap < 0.01:
        return False, (f"positions {p} and {q} have codes only {gap:.2g} apart (below 0.01): as with one sine, two "
                       "positions land almost on top of each other.")
    return True, (f"The two closest of the first 2000 codes, positions {p} and {q}, are {gap:.2g} apart. The lesson "
                  "stacks (sin, cos) pairs whose frequencies fall geometrically.")


APART_SOLUTION = '''\
import torch


def my_code(positions):
    """(len(positions), 8): a (sin, cos) pair for each of four frequencies, fast to slow."""
    p = positions.to(torch.float64)[:, None]
    omega = torch.tensor([1.0, 0.1, 0.01, 0.001], dtype=torch.float64)
    return torch.cat((torch.sin(p * omega), torch.cos(p * omega)), dim=-1)


H.check("04.apart", my_code)
'''

design(
    "04.apart",
    title="propose a code that keeps every position apart",
    question="One sine brings far-apart positions back to almost the same height. Propose a code of d ≤ 64 numbers "
             "per position, from the position alone and each within [−1, 1], whose first 2000 codes are all at "
             "least 0.01 apart (Euclidean distance). One slow circle is not enough: 2000 positions spread round "
             "one circle are only 2π/2000 ≈ 0.003 apart.",
    properties=(("computed from the position alone", _vector_per_position), ("bounded", _entries_bounded),
                ("apart for every two positions", _every_position_apart)),
    hints=(
        "Lesson 03 found two reasons for a collision: two sines at mirror points (the same height, going opposite "
        "ways) and whole turns. What extra number would tell mirror points apart?",
        "A cosine of the same angle tells the way up from the way down; several frequencies make a repeat of "
        "all of them at once unlikely.",
    ),
    solution=APART_SOLUTION,
)


def _omega(d_model: int, base: float, step: float = 2.0) -> torch.Tensor:
    i = torch.arange(d_model // 2, dtype=torch.float64)
    return float(base) ** (-step * i / d_model)


def _interleave(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.stack((a, b), dim=-1).flatten(-2).float()


def _reference(n_positions, d_model, base=10000.0):
    return sinusoidal(n_positions, d_model, base)


def _angles(n_positions, d_model, base, first=0, step=2.0):
    p = torch.arange(first, first + n_positions, dtype=torch.float64)
    return p[:, None] * _omega(d_model, base, step)


def _sin_cos_swapped(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base)
    return _interleave(theta.cos(), theta.sin())


def _exponent_i_over_d(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base, step=1.0)
    return _interleave(theta.sin(), theta.cos())


def _positions_from_one(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base, first=1)
    return _interleave(theta.sin(), theta.cos())


def _concatenated(n_positions, d_model, base=10000.0):
    return sinusoidal(n_positions, d_model, base, layout="concatenated")


def _frequency_per_column(n_positions, d_model, base=10000.0):
    j = torch.arange(d_model, dtype=torch.float64)
    theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * float(base) ** (-j / d_model)
    return torch.where(j % 2 == 0, theta.sin(), theta.cos()).float()


def _omega_sign_flipped(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base, step=-2.0)
    return _interleave(theta.sin(), theta.cos())


def _exponent_over_d_minus_one(n_positions, d_model, base=10000.0):
    i = torch.arange(d_model // 2, dtype=torch.float64)
    theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * float(base) ** (-2 * i / (d_model - 1))
    return _interleave(theta.sin(), theta.cos())


def _base_ignored(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, 10000.0)
    return _interleave(theta.sin(), theta.cos())


def _exponent_doubled(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base, step=4.0)
    return _interleave(theta.sin(), theta.cos())


def _sin_everywhere(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base)
    return _interleave(theta.sin(), theta.sin())


def _exponent_i_over_d_base_fixed(n_positions, d_model, base=10000.0):
    # the frequencies computed again inside fill_table, which is not given base: 10000^(−i/d)
    theta = _angles(n_positions, d_model, 10000.0, step=1.0)
    return _interleave(theta.sin(), theta.cos())


def _last_row_left_empty(n_positions, d_model, base=10000.0):
    table = _reference(n_positions, d_model, base).clone()
    table[-1] = 0
    return table


def _pairs_frequency_repeated(n_positions, d_model, base=10000.0):
    # omega.repeat(2) (ω_0 … ω_(d/2−1), ω_0 … again) read column by column: column j gets ω_(j mod d/2)
    j = torch.arange(d_model)
    theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * _omega(d_model, base)[j % (d_model // 2)]
    return torch.where(j % 2 == 0, theta.sin(), theta.cos()).float()


def _sine_negated(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base)
    return _interleave(-theta.sin(), theta.cos())


def _cos_columns_empty(n_positions, d_model, base=10000.0):
    theta = _angles(n_positions, d_model, base)
    return _interleave(theta.sin(), torch.zeros_like(theta))


def _pair_index_as_frequency(n_positions, d_model, base=10000.0):
    theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * torch.arange(d_model // 2, dtype=torch.float64)
    return _interleave(theta.sin(), theta.cos())


def _first_row_left_empty(n_positions, d_model, base=10000.0):
    table = _reference(n_positions, d_model, base).clone()
    table[0] = 0
    return table


def _frequencies_reversed(n_positions, d_model, base=10000.0):
    theta = torch.arange(n_positions, dtype=torch.float64)[:, None] * _omega(d_model, base).flip(0)
    return _interleave(theta.sin(), theta.cos())


def _angles_in(dtype):
    def table(n_positions, d_model, base=10000.0):
        i = torch.arange(d_model // 2, dtype=dtype)
        omega = float(base) ** (-2 * i / d_model)
        theta = torch.arange(n_positions, dtype=dtype)[:, None] * omega
        return torch.stack((theta.sin(), theta.cos()), dim=-1).flatten(-2).float()
    return table


def _error_explained(args, err) -> str | None:
    """Two size errors: the positions times omega entry by entry (no outer product), and a table of fixed size."""
    n_positions, d_model = args[0], args[1]
    text = str(err)
    sizes = {int(n) for n in re.findall(r"size of tensor [ab] \((\d+)\)", text)}
    if sizes == {n_positions, d_model // 2}:
        return (f"the positions ({n_positions} of them) times omega ({d_model // 2} frequencies) entry by entry: "
                "the angles are a table, one row per position and one column per pair, "
                "torch.arange(pe.shape[0])[:, None] * omega, shape (n_positions, d_model/2).")
    if "must match the existing size" in text or "must match the size" in text:
        return (f"fill_table was given a table of {n_positions} position{'s' * (n_positions != 1)} × {d_model} "
                "columns, and wrote one of "
                "another size into it. Take the sizes from the table itself, pe.shape[0] positions and pe.shape[1] "
                "columns (omega has one frequency per pair): numbers written into the code fit one table only.")
    return None


def _where(args, index) -> str:
    d_model, base = args[1], float(args[2]) if len(args) > 2 else 10000.0
    p, c = index
    i = c // 2
    return (f"position {p}, column {c}: the {'sin' if c % 2 == 0 else 'cos'} of pair {i} "
            f"(ω_{i} = {base ** (-2 * i / d_model):.4g})")


def _case(label, args) -> Case:
    # the largest angle is the last position times ω_0 = 1
    return Case(label, args, slack=float32_angle_slack(args[0] - 1))


def _cases() -> list[Case]:
    return [
        _case("n_positions=1, d_model=2 (position 0 only)", (1, 2)),
        _case("n_positions=16, d_model=32", (16, 32)),
        _case("n_positions=128, d_model=128", (128, 128)),
        _case("n_positions=10, d_model=6 (d_model not a power of two)", (10, 6)),
        _case("n_positions=12, d_model=10, base=100.0", (12, 10, 100.0)),
        _case("n_positions=8192, d_model=4 (large positions, as in the lesson's long tables)", (8192, 4, 10000.0)),
    ]


SINUSOIDAL_SOLUTION = '''\
import torch

def my_sinusoidal(n_positions, d_model, base=10000.0):
    omega = base ** (-2 * torch.arange(d_model // 2, dtype=torch.float64) / d_model)  # ω_i
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)  # the empty table
    fill_table(pe, omega)
    return pe.float()


def fill_table(pe, omega):
    """Row p of pe (p = 0, 1, …) gets sin(p·ω_i) in column 2i and cos(p·ω_i) in column 2i+1."""
    theta = torch.arange(pe.shape[0], dtype=torch.float64)[:, None] * omega  # the angles p·ω_i
    pe[:, 0::2] = torch.sin(theta)  # even columns: the sines
    pe[:, 1::2] = torch.cos(theta)  # odd columns: the cosines

H.check("04.sinusoidal", my_sinusoidal)
'''

def _table_left_empty(n_positions, d_model, base=10000.0):
    return torch.zeros(n_positions, d_model)


implement(
    "04.sinusoidal",
    title="write the sinusoidal encoding, interleaved layout",
    reference=_reference,
    cases=_cases,
    mistakes={
        "sin and cos swapped": (
            _sin_cos_swapped,
            "column 2i holds sin(p·ω_i) and column 2i+1 holds cos(p·ω_i); position 0 reads 0, 1, 0, 1, …",
        ),
        "ω_i = base^(−i/d) instead of base^(−2i/d)": (
            (_exponent_i_over_d, _exponent_i_over_d_base_fixed),
            "pair i (columns 2i and 2i+1) uses ω_i = base^(−2i/d_model), with i = 0 … d_model/2 − 1. fill_table is "
            "given these frequencies as omega: use them rather than computing others.",
        ),
        "positions counted from 1": (
            _positions_from_one,
            "the first row is position 0: torch.arange(n_positions) starts at 0.",
        ),
        "concatenated instead of interleaved": (
            _concatenated,
            "put sin(p·ω_i) at column 2i and cos(p·ω_i) at column 2i+1 (pe[:, 0::2] and pe[:, 1::2]), "
            "not all sines first and then all cosines.",
        ),
        "angle p / ω_i instead of p·ω_i (the same as ω_i = base^(+2i/d))": (
            _omega_sign_flipped,
            "the angle of pair i at position p is p·ω_i: multiply the positions by omega, "
            "torch.arange(…)[:, None] * omega, do not divide. Dividing by ω_i = base^(−2i/d_model) multiplies by "
            "base^(+2i/d_model) (as a positive exponent would), so the pairs turn faster and faster, up to about "
            "base radians per position, where they should slow down from ω_0 = 1.",
        ),
        "exponent −2i/(d − 1) instead of −2i/d": (
            _exponent_over_d_minus_one,
            "the exponent is −2i/d_model (d_model itself), so that the last pair's ω is base^(−(d−2)/d), just "
            "above 1/base.",
        ),
        "base fixed at 10000": (
            _base_ignored,
            "use the base argument: ω_i = base^(−2i/d_model); the case with base=100.0 shows the difference.",
        ),
        "exponent doubled (−4i/d)": (
            _exponent_doubled,
            "pair i has the exponent −2i/d_model with i = 0, 1, 2, …; if i already runs over the even columns "
            "0, 2, 4, … use −i/d_model, not −2i/d_model.",
        ),
        "sin in every column": (
            _sin_everywhere,
            "the odd columns hold the cosines: pe[:, 1::2] = cos(p·ω_i).",
        ),
        "each column its own frequency": (
            _frequency_per_column,
            "the two columns of a pair share one frequency: columns 2i and 2i+1 both use ω_i = base^(−2i/d_model).",
        ),
        "the table left empty (all zeros)": (
            _table_left_empty,
            "fill_table must write into the table it is given, in place: pe[:, 0::2] = …, pe[:, 1::2] = …. "
            "Writing pe = … makes a new local name, and my_sinusoidal's table stays zeros.",
        ),
        "the last row left empty": (
            _last_row_left_empty,
            "fill every row, positions 0 … n_positions − 1: range(pe.shape[0]) already ends at the last position, "
            "n_positions − 1, so range(pe.shape[0] − 1) leaves the last row zeros.",
        ),
        "a column given another pair's frequency": (
            _pairs_frequency_repeated,
            "columns 2i and 2i+1 both belong to pair i and use omega[i]: the sines are pe[:, 0::2] with omega, "
            "the cosines pe[:, 1::2] with omega. omega.repeat(2) read column by column gives column j the "
            "frequency ω_(j mod d/2) instead of ω_(j // 2); omega.repeat_interleave(2) would be right.",
        ),
        "the cos columns left empty": (
            _cos_columns_empty,
            "fill both columns of each pair: pe[:, 0::2] = sin(p·ω) and pe[:, 1::2] = cos(p·ω). Left as the "
            "table was made, the odd columns stay zeros (position 0 must read 0, 1, 0, 1, …).",
        ),
        "the pair's index i used as its frequency": (
            _pair_index_as_frequency,
            "pair i turns at ω_i, the i-th entry of the omega fill_table is given, not at i itself: multiply the "
            "positions by omega, p * omega, not by torch.arange(d/2).",
        ),
        "the first row left empty (loop from 1)": (
            _first_row_left_empty,
            "fill every row from position 0: range(pe.shape[0]), not range(1, …). Row 0 is sin 0 = 0 and "
            "cos 0 = 1 in turn, 0, 1, 0, 1, …, not zeros.",
        ),
        "frequencies in reverse order (slowest pair first)": (
            _frequencies_reversed,
            "pair i uses omega[i] in the order given: ω_0 = 1 is the fastest, in columns 0 and 1. omega.flip(0) "
            "puts the slowest pair first.",
        ),
        "the sines negated": (
            _sine_negated,
            "column 2i holds sin(p·ω_i), with a plus: position 1's first entry is sin 1 = 0.841. −sin(p·ω_i) is "
            "the sine of −p·ω_i, as if the positions ran backwards.",
        ),
    },
    hints=(
        "The angles p·ω_i are an outer product: torch.arange(pe.shape[0])[:, None] * omega has shape "
        "(n_positions, d_model/2), one row per position, one column per pair.",
        "Fill the even columns with the sines and the odd ones with the cosines: pe[:, 0::2] = torch.sin(…), "
        "pe[:, 1::2] = torch.cos(…).",
    ),
    solution=SINUSOIDAL_SOLUTION,
    explain_error=_error_explained,
    where=_where,
    axes=("positions", "columns"),
    half_why="The angle of pair 0 at position p is p radians: float16 stores numbers from 1024 to 2048 in "
             "steps of 1 and from 8192 on in steps of 8 (bfloat16: steps of 8 from 1024), so the fast pairs' "
             "sin and cos of a long table are wrong in their first digit.",
    half=(_angles_in(torch.float16), _angles_in(torch.bfloat16)),
)

predict(
    "04.fastest_pair",
    title="the fastest dimension pair",
    question="As the position p grows, which pair of dimensions turns fastest: pair 0 (dimensions 0 and 1), "
             "the last pair (dimensions d − 2 and d − 1), or do all pairs turn at the same speed?",
    choices={
        "first": "ω_0 = base⁰ = 1 is the largest frequency: pair 0 turns one radian per position, and its sine "
                 "changes sign about every π positions. The frequencies then fall geometrically, down to almost "
                 "1/base for the last pair.",
        "last": "No: that is the popular description, reversed. ω_i = base^(−2i/d) falls as i grows, so pair 0 "
                "(ω = 1) is the fastest and the last pair (ω close to 1/base) the slowest.",
        "same": "No: each pair has its own frequency ω_i = base^(−2i/d), from 1 for pair 0 down to almost 1/base "
                "for the last pair.",
    },
    answer="first",
    hints=(
        "Pair i turns by ω_i = base^(−2i/d) radians per position. Which i gives the largest ω_i?",
        "base^0 = 1, and a negative power of 10 000 is smaller than 1.",
    ),
    solution='answer = "first"\nH.check("04.fastest_pair", answer)\n',
)

predict(
    "04.dot_sign",
    title="the dot product for +k and −k",
    question="Is PE(p)·PE(p+k) different for +k and −k, that is for the position k steps after p and the one "
             "k steps before it?",
    choices={
        "same": "cos is even, cos(−kω_i) = cos(kω_i), so every term of Σ_i cos(kω_i) is unchanged when k changes "
                "sign: the dot product says how far, not which way.",
        "different": "No: Σ_i cos(kω_i) depends on k only through cosines, and cos(−x) = cos(x). So "
                     "PE(p)·PE(p−k) = PE(p)·PE(p+k): the raw dot product cannot tell before from after.",
    },
    answer="same",
    hints=(
        "Use the formula above: PE(p)·PE(p+k) = Σ_i cos(k·ω_i). Replace k by −k.",
        "Is cos an even or an odd function?",
    ),
    solution='answer = "same"\nH.check("04.dot_sign", answer)\n',
)
