"""Lesson 10's exercises (notebooks/10_rope_in_practice.ipynb), in the order the notebook asks them.

10.half_layout_rows (implement): my_half_layout_rows(weight, n_heads) → weight with its rows reordered
head by head from the interleaved to the half layout (what Hugging Face's Llama conversion does).
weight: (n_heads·head_dim, d_in), the rows of head h are h·head_dim … (h+1)·head_dim − 1; within each
head the new row order is [0, 2, 4, …, head_dim − 2, 1, 3, …, head_dim − 1]. Then
rope(x @ W_new.T, layout="half") equals rope(x @ W.T, layout="interleaved") up to that reordering, so
the scores q·k do not change. The stub splits weight into heads (n_heads, head_dim, d_in) and names each
pair's first rows (evens) and second rows (odds); the learner writes half_layout(heads, evens, odds), one
index line: the order in which the half layout wants them (the check tests the whole function; heads is a
view of weight, so writing into it changes the caller's weight, which the check refuses; the result keeps
weight's dtype and its gradient).
"""

from __future__ import annotations

import re

import torch

from ..rotary import rope_permutation
from .core import Case, explore, implement, predict  # noqa: F401


def _reference(weight, n_heads):
    head_dim = weight.shape[0] // n_heads
    return weight.reshape(n_heads, head_dim, -1)[:, rope_permutation(head_dim)].reshape(weight.shape)


def _whole_projection(weight, n_heads):
    return weight[rope_permutation(weight.shape[0])]


def _inverse(weight, n_heads):
    head_dim = weight.shape[0] // n_heads
    order = torch.argsort(rope_permutation(head_dim))
    return weight.reshape(n_heads, head_dim, -1)[:, order].reshape(weight.shape)


def _columns(weight, n_heads):
    d_in = weight.shape[1]
    per_head = d_in // n_heads
    order = torch.cat([h * per_head + rope_permutation(per_head) for h in range(n_heads)])
    return weight[:, order]


def _halves_swapped(weight, n_heads):
    # the half layout's two halves in the wrong order: [odd rows | even rows] inside each head
    head_dim = weight.shape[0] // n_heads
    order = torch.cat((torch.arange(1, head_dim, 2), torch.arange(0, head_dim, 2)))
    return weight.reshape(n_heads, head_dim, -1)[:, order].reshape(weight.shape)


def _sizes_confused(weight, n_heads):
    head_dim = weight.shape[0] // n_heads
    return _reference(weight, head_dim) if head_dim % 2 == 0 and weight.shape[0] % head_dim == 0 \
        and (weight.shape[0] // head_dim) % 2 == 0 else weight.clone()


def _rows_kept(weight, n_heads):
    return weight.clone()


def _stacked(dim):
    # torch.stack((heads[:, evens], heads[:, odds]), dim) instead of torch.cat: a new axis, read back row by row
    def convert(weight, n_heads):
        head_dim = weight.shape[0] // n_heads
        heads = weight.reshape(n_heads, head_dim, -1)
        return torch.stack((heads[:, 0::2], heads[:, 1::2]), dim=dim).reshape(weight.shape)
    return convert


def _where(args, index) -> str:
    weight, n_heads = args
    head_dim = weight.shape[0] // n_heads
    r, c = index
    h, j = divmod(r, head_dim)
    old = 2 * j if j < head_dim // 2 else 2 * (j - head_dim // 2) + 1
    return (f"row {r} = head {h} of {n_heads}, its row {j} (which should hold that head's old row {old}), "
            f"column {c}")


def _error_explained(args, err) -> str | None:
    """A learner who permutes weight's columns with row numbers runs past its input dimension."""
    weight, n_heads = args
    size = re.search(r"(?:with size |axis_dim=)(\d+)", str(err))  # torch's words for an index out of range
    if isinstance(err, IndexError | RuntimeError) and size and int(size.group(1)) == weight.shape[1] != weight.shape[0]:
        return (f"an index ran past the {weight.shape[1]} input columns of weight (its dimension 1). The numbers you "
                f"permute are row numbers, 0 … {weight.shape[0] - 1} (n_heads·head_dim rows): the output features "
                "of q = x @ W.T are W's rows, so reorder dimension 0, weight[order] (or weight[order, :]), not "
                "weight[:, order].")
    heads = re.search(r"for dimension 0 with size (\d+)", str(err))
    if isinstance(err, IndexError) and heads and int(heads.group(1)) == n_heads:
        return (f"an index ran past the {n_heads} heads, dimension 0 of heads: heads[evens] picks whole heads. Each "
                "head's rows are dimension 1: heads[:, evens], and heads[:, torch.cat((evens, odds))] reorders them in "
                "every head at once.")
    size = re.search(r"is invalid for input of size (\d+)", str(err))
    head_dim, d_in = weight.shape[0] // n_heads, weight.shape[1]
    if isinstance(err, RuntimeError) and size and int(size.group(1)) != n_heads * head_dim * head_dim \
            and int(size.group(1)) % (n_heads * d_in) == 0 \
            and int(size.group(1)) // (n_heads * d_in) < head_dim:
        kept = int(size.group(1)) // (n_heads * d_in)
        return (f"half_layout returned {kept} rows per head, but here each head has {head_dim} (head_dim "
                f"{head_dim}, as in Llama): a head size written into the code covers only part of the head. Take "
                "every row from evens and odds, which the stub builds from this weight's head_dim: "
                "heads[:, torch.cat((evens, odds))].")
    if isinstance(err, RuntimeError) and "is invalid for input of size" in str(err):  # the stub's reshape back
        return ("half_layout's result no longer has the shape of heads, (n_heads, head_dim, d_in), so it cannot be "
                "reshaped back to weight's. Reorder each head's rows, dimension 1 (heads[:, order]), and keep every "
                "row and every input column: heads[:, :, order] reorders the input columns instead.")
    return None


def _cases() -> list[Case]:
    g = torch.Generator().manual_seed(10)
    return [
        Case("weight (32, 16) float32, n_heads=4 (head_dim 8)", (torch.randn(32, 16, generator=g), 4)),
        Case("weight (8, 8) float32, n_heads=1 (one head)", (torch.randn(8, 8, generator=g), 1)),
        Case("weight (16, 32) float64, n_heads=2 (a k projection with fewer heads than q)",
             (torch.randn(16, 32, generator=g, dtype=torch.float64), 2)),
        Case("weight (18, 12) float32, n_heads=3 (head_dim 6)", (torch.randn(18, 12, generator=g), 3)),
        Case("weight (24, 24) float32, n_heads=6 (head_dim 4)", (torch.randn(24, 24, generator=g), 6)),
        Case("weight (256, 4) float32, n_heads=2 (head_dim 128, Llama's)", (torch.randn(256, 4, generator=g), 2)),
    ]


SOLUTION = '''\
import torch

def my_half_layout_rows(weight, n_heads):
    head_dim = weight.shape[0] // n_heads
    heads = weight.reshape(n_heads, head_dim, -1)  # heads[h, j] is row j of head h
    evens = torch.arange(0, head_dim, 2)  # 0, 2, 4, …: each pair's first row
    odds = torch.arange(1, head_dim, 2)   # 1, 3, 5, …: each pair's second row
    return half_layout(heads, evens, odds).reshape(weight.shape)


def half_layout(heads, evens, odds):
    # pair i moves to rows (i, i + head_dim/2): all first members, then all second members, in every head
    return heads[:, torch.cat((evens, odds))]

H.check("10.half_layout_rows", my_half_layout_rows)
'''

implement(
    "10.half_layout_rows",
    title="reorder a q/k projection from the interleaved to the half layout",
    reference=_reference,
    cases=_cases,
    mistakes={
        "permutation over the whole projection instead of head by head": (
            _whole_projection,
            "RoPE rotates pairs inside each head, so every head's rows must stay in that head. In half_layout, "
            "pick and join rows along dimension 1 (each head's rows: heads[:, …], torch.cat(…, dim=1)), not "
            "dimension 0, the heads (torch.cat's default).",
        ),
        "the inverse permutation (half → interleaved)": (
            _inverse,
            "this undoes the conversion. In the half layout, row j < head_dim/2 of a head is the old row 2j, and "
            "row head_dim/2 + j is the old row 2j + 1: new order [0, 2, 4, …, 1, 3, 5, …].",
        ),
        "columns reordered instead of rows": (
            _columns,
            "the output features of q = x @ W.T are W's rows: reorder weight's rows (its first dimension), "
            "and leave the input columns alone.",
        ),
        "head_dim and n_heads confused": (
            _sizes_confused,
            "head_dim = weight.shape[0] // n_heads is the size of one head, n_heads the number of heads: "
            "weight.reshape(n_heads, head_dim, d_in), in that order.",
        ),
        "the two halves of each head swapped": (
            _halves_swapped,
            "the first half of each head's rows holds the even-indexed rows (0, 2, 4, …), the second half the "
            "odd-indexed ones (1, 3, 5, …).",
        ),
        "rows left in the interleaved order": (
            _rows_kept,
            "half_layout must move each head's rows: every pair's first row (evens), then every pair's second row "
            "(odds), heads[:, torch.cat((evens, odds))]. Returning heads as it is, or "
            "torch.stack((heads[:, evens], heads[:, odds]), dim=2), which puts each pair's rows side by side again, "
            "leaves the interleaved order.",
        ),
        "torch.stack instead of torch.cat": (
            _stacked(-1),
            "torch.stack makes a new axis, and reshaped back its entries land in other rows and columns: join the "
            "two sets of rows along the existing row axis, heads[:, torch.cat((evens, odds))] (or "
            "torch.cat((heads[:, evens], heads[:, odds]), dim=1)).",
        ),
    },
    hints=(
        "Interleaved pair i is rows (2i, 2i+1) of a head: evens[i] and odds[i]. In the half layout it must be rows "
        "(i, i + head_dim/2), so the first half of each head's new rows holds every pair's first member, the "
        "second half every pair's second member.",
        "heads[:, order] reorders dimension 1 (each head's rows) in every head at once; the order is "
        "torch.cat((evens, odds)): return heads[:, torch.cat((evens, odds))].",
    ),
    solution=SOLUTION,
    explain_error=_error_explained,
    where=_where,
    axes=("rows", "columns"),
    half_why="Reordering rows moves numbers without computing anything: the weights must come back bit for bit, "
             "in weight's own dtype.",
    dtype=lambda args: args[0].dtype,
    dtype_why="weight's own dtype: reordering rows moves numbers without computing anything, so they must come "
              "back bit for bit; a cast (.float(), .double()) rounds them or changes their type",
    autograd=True,
    atol=0.0,
    rtol=0.0,
)


predict(
    "10.wrong_layout",
    title="a checkpoint loaded with the wrong layout",
    question="An interleaved checkpoint's W_q and W_k are run under the half layout, unconverted. Which is true? "
             "a: the scores still depend on the offset δ alone and equal the trained ones; "
             "b: they still depend on δ alone, but are another function of δ; "
             "c: they now depend on the absolute positions, not on δ alone.",
    choices={
        "a": "Only at δ = 0, where nothing turns. Elsewhere the features trained to turn together at one "
             "frequency are now paired with other features and turn at other frequencies, so the scores differ.",
        "b": "q and k are still turned by one consistent family of rotations, so ⟨R_m q, R_n k⟩ still "
             "depends on m − n alone; but the pairs are the wrong ones, so the score is the wrong function of δ. "
             "Nothing raises an error.",
        "c": "That happens only when q and k are rotated with different layouts (a cache written by one code, "
             "queries rotated by another). Here both use the half layout, so the scores still depend on δ alone.",
    },
    answer="b",
    hints=("Both q and k go through the same rotation code. What did lesson 06 prove about ⟨R_m q, R_n k⟩ for "
           "any single family of rotations?",
           "Offset-only is kept. Is the pairing the model was trained with kept too?"),
    solution='answer = "b"\nH.check("10.wrong_layout", answer)\n',
)


predict(
    "10.bfloat16_position",
    title="the position bfloat16 stores for 1003",
    question="bfloat16 keeps 8 significant bits, and a number it cannot store is rounded to the nearest one it "
             "can. Which number does it store for position 1003?",
    choices={
        "1003": "1003 needs 10 significant bits (binary 1111101011). With 8, the numbers from 512 to 1024 are "
                "spaced 4 apart (1000, 1004, …), so 1003 cannot be stored.",
        "1002": "From 512 = 2^9 to 1024, 8 significant bits leave steps of 2^(9 + 1 − 8) = 4, not 2: 1002 cannot be "
                "stored either. The neighbours of 1003 are 1000 and 1004.",
        "1000": "1000 is a neighbour (the spacing is 4 there), but 1003 is 3 away from it and 1 away from 1004. "
                "Conversion rounds to the nearest number; it does not chop off the low bits.",
        "1004": "From 512 to 1024 bfloat16's numbers are 4 apart, 1003 lies between 1000 and 1004, and it "
                "goes to the nearer one, 1004.",
    },
    answer="1004",
    hints=("With 8 significant bits, how far apart are neighbouring numbers between 512 = 2^9 and 1024?",
           "They are 4 apart there: which two of them surround 1003, and which is nearer?"),
    solution='answer = "1004"\nH.check("10.bfloat16_position", answer)\n',
)
