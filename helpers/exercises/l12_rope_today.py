"""Lesson 12's exercises (notebooks/12_rope_today.ipynb), in the order the notebook asks them.

12.mrope_position_ids (implement): my_mrope_position_ids(segments, spatial_merge_size) → the (3, n)
int64 tensor of (temporal, height, width) ids that Qwen2-VL's M-RoPE gives a sequence mixing text,
images and videos (helpers.measure.l12_rope_today.mrope_position_ids, itself equal to transformers 5's
Qwen2VLModel.get_rope_index, as the lesson and tests/measure/test_l12_rope_today.py check). The stub walks
the segments: a text token gets three equal ids; the learner writes picture_ids(start, t, h, w), the ids of
a picture of t frames and h × w merged patches starting at id start: frame by frame, row by row, column by
column, token (f, r, c) gets (start + f, start + r, start + c).

12.rope_on_the_latent (predict): with RoPE on the keys, MLA's absorbed scores, rotating the only thing
it caches (the latent), against the uncompressed ones.
"""

from __future__ import annotations

import torch

from ..measure.l12_rope_today import mrope_position_ids
from .core import Case, implement, predict


def _reference(segments, spatial_merge_size=2):
    return mrope_position_ids(segments, spatial_merge_size)


def _with_picture_ids(picture):
    """The stub's walk over the segments, with ``picture(start, t, h, w)`` for the learner's part."""
    def ids(segments, spatial_merge_size=2):
        columns, start = [], 0
        for kind, size in segments:
            if kind == "text":
                columns.append(start + torch.arange(size).expand(3, size))
                start += size
            else:
                t, h, w = size
                columns.append(picture(start, t, h // spatial_merge_size, w // spatial_merge_size))
                start += max(h, w) // spatial_merge_size
        return torch.cat(columns, dim=1)
    return ids


def _grid(t, h, w, order="ij"):
    f, r, c = torch.meshgrid(torch.arange(t), torch.arange(h), torch.arange(w), indexing="ij")
    if order == "columns first":
        f, r, c = (x.transpose(1, 2) for x in (f, r, c))
    return f.flatten(), r.flatten(), c.flatten()


def _right(start, t, h, w):
    f, r, c = _grid(t, h, w)
    return start + torch.stack((f, r, c))


def _only_temporal_offset(start, t, h, w):
    f, r, c = _grid(t, h, w)
    return torch.stack((start + f, r, c))


def _no_offset(start, t, h, w):
    return torch.stack(_grid(t, h, w))


def _rows_columns_swapped(start, t, h, w):
    f, r, c = _grid(t, h, w)
    return start + torch.stack((f, c, r))


def _columns_first(start, t, h, w):
    return start + torch.stack(_grid(t, h, w, "columns first"))


def _like_text(start, t, h, w):
    return (start + torch.arange(t * h * w)).expand(3, t * h * w)


def _temporal_fixed(start, t, h, w):
    f, r, c = _grid(t, h, w)
    return start + torch.stack((torch.zeros_like(f), r, c))


def _segment_of(segments, merge, token):
    at = 0
    for kind, size in segments:
        n = size if kind == "text" else size[0] * (size[1] // merge) * (size[2] // merge)
        if token < at + n:
            if kind == "text":
                return f"text token {token - at} of {n}"
            h, w = size[1] // merge, size[2] // merge
            f, rest = divmod(token - at, h * w)
            r, c = divmod(rest, w)
            return f"the {kind} (t, h, w) = {tuple(size)}: frame {f}, merged row {r}, column {c}"
        at += n
    return f"token {token}"


def _where(args, index) -> str:
    segments, merge = args
    axis, token = index
    return f"the {('temporal', 'height', 'width')[axis]} id of token {token}, {_segment_of(segments, merge, token)}"


def _cases() -> list[Case]:
    return [
        Case("text 3, image (1, 4, 6), text 2 (spatial_merge_size 2)",
             ([("text", 3), ("image", (1, 4, 6)), ("text", 2)], 2)),
        Case("image (1, 6, 4) first, then text 2", ([("image", (1, 6, 4)), ("text", 2)], 2)),
        Case("text 2, video (2, 4, 4), text 3", ([("text", 2), ("video", (2, 4, 4)), ("text", 3)], 2)),
        Case("text 1, image (1, 2, 4), text 1, image (1, 4, 2), text 1",
             ([("text", 1), ("image", (1, 2, 4)), ("text", 1), ("image", (1, 4, 2)), ("text", 1)], 2)),
        Case("text 4, video (3, 3, 4), text 1 (spatial_merge_size 1)",
             ([("text", 4), ("video", (3, 3, 4)), ("text", 1)], 1)),
        Case("text only: 5 tokens", ([("text", 5)], 2)),
    ]


SOLUTION = '''\
import torch

def my_mrope_position_ids(segments, spatial_merge_size=2):
    columns, start = [], 0
    for kind, size in segments:
        if kind == "text":
            columns.append(start + torch.arange(size).expand(3, size))   # three equal ids
            start += size
        else:
            t, h, w = size
            columns.append(picture_ids(start, t, h // spatial_merge_size, w // spatial_merge_size))
            start += max(h, w) // spatial_merge_size                      # where the next segment starts
    return torch.cat(columns, dim=1)


def picture_ids(start, t, h, w):
    # every (frame, row, column), frame by frame, row by row; each id counted from start
    f, r, c = torch.meshgrid(torch.arange(t), torch.arange(h), torch.arange(w), indexing="ij")
    return start + torch.stack((f.flatten(), r.flatten(), c.flatten()))

H.check("12.mrope_position_ids", my_mrope_position_ids)
'''

implement(
    "12.mrope_position_ids",
    title="the three position ids M-RoPE gives a sequence of text, images and a video",
    reference=_reference,
    cases=_cases,
    mistakes={
        "only the temporal id counted from start": (
            _with_picture_ids(_only_temporal_offset),
            "all three ids of a picture count from start, the id where the picture begins: (start + f, start + r, "
            "start + c). Without start, the height and width ids restart at 0 for every picture and fall below the "
            "text before it.",
        ),
        "no id counted from start": (
            _with_picture_ids(_no_offset),
            "a picture's ids continue the sequence: add start to all three, (start + f, start + r, start + c).",
        ),
        "rows and columns swapped": (
            _with_picture_ids(_rows_columns_swapped),
            "the second id is the row (height), the third the column (width): (start + f, start + r, start + c).",
        ),
        "columns walked before rows": (
            _with_picture_ids(_columns_first),
            "the picture's tokens come row by row: within a row the column changes fastest. "
            "torch.meshgrid(…, indexing=\"ij\") over (frames, rows, columns), then .flatten(), gives that order.",
        ),
        "the picture's tokens numbered like text": (
            _with_picture_ids(_like_text),
            "a picture's tokens do not get consecutive ids: token (f, r, c) gets (start + f, start + r, start + c), "
            "so tokens in one row share their height id and tokens in one column their width id.",
        ),
        "the temporal id left at start for every frame": (
            _with_picture_ids(_temporal_fixed),
            "each frame of a video has its own temporal id: start + f for frame f (an image has one frame, f = 0).",
        ),
    },
    hints=(
        "picture_ids returns a (3, t·h·w) tensor: one column per token, frame by frame, then row by row, then "
        "column by column. Token (frame f, row r, column c) gets the ids (start + f, start + r, start + c).",
        "f, r, c = torch.meshgrid(torch.arange(t), torch.arange(h), torch.arange(w), indexing=\"ij\") gives every "
        "combination in that order; return start + torch.stack((f.flatten(), r.flatten(), c.flatten())).",
    ),
    solution=SOLUTION,
    where=_where,
    axes=("axes", "tokens"),
    dtype=lambda args: torch.int64,
    dtype_why="int64, the dtype of position ids (torch.arange's)",
    atol=0.0,
    rtol=0.0,
)


predict(
    "12.rope_on_the_latent",
    title="the absorbed scores of MLA with RoPE on the latent",
    question="MLA caches the latent c and scores a query against it through q·W_uk. With RoPE, the uncompressed "
             "score is R_m q · R_n W_uk c. The absorbed form can rotate only what it has: (R_m q)·W_uk · R_n c. "
             "a: equal at every offset (rotations keep dot products); b: equal at offset 0 (m = n) only, where "
             "the rotations cancel; c: different at offset 0 too, wherever m = n is not position 0.",
    choices={
        "a": "Rotations keep the dot product of two vectors rotated alike, but here the key's rotation acts on c "
             "before W_uk instead of after it, and R_n·W_uk ≠ W_uk·R_n: a matrix does not commute with a rotation "
             "in general.",
        "b": "At offset 0 the uncompressed score is q·W_uk c, but the absorbed one is q·R_mᵀ W_uk R_m c: the "
             "rotations sit on either side of W_uk and cancel only if W_uk commutes with them. They do not cancel.",
        "c": "R_n acts on the latent, before W_uk, and W_uk·R_n ≠ R_n·W_uk, so the scores differ even where "
             "m = n (only at position 0, where nothing turns, do they agree). That is why DeepSeek-V2 gives "
             "RoPE its own few features, outside the latent.",
    },
    answer="c",
    hints=("In the uncompressed score the key is rotated after the up-projection: R_n (W_uk c). In the absorbed one "
           "before it: W_uk (R_n c). When are those equal?",
           "Set m = n. Does q·R_mᵀ W_uk R_m c equal q·W_uk c for a W_uk that is not itself a rotation?"),
    solution='answer = "c"\nH.check("12.rope_on_the_latent", answer)\n',
)
