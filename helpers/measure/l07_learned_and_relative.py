"""Lesson 07, learned tables and relative schemes: a learned position table trained and looked
at, the rows training never reached, how a model's position signal is stored, T5's buckets and
ALiBi's slopes seen whole, the test that a score bias depends on k − q alone, what a bias costs
in memory, and one map of every scheme of the course.

Conventions: a table is a (rows, d) tensor whose row p belongs to position p; a score bias is a
(..., Lq, Lk) tensor whose entry [i, j] is added to the score of query i and key j. Offsets are
key position − query position (T5's and Shaw's convention): a key δ tokens *before* the query
has offset −δ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import nn

from .._checks import check_choice, check_int, check_matrix
from ..model import TinyLM
from ..position_scheme import PositionScheme
from ..relative import alibi_slopes, t5_offset_buckets
from ..schemes import SCHEMES, scheme
from ..tasks import LetterDigitCopy, Task
from ..training import loss_by_position, train

# ---------------------------------------------------------------------------------------------
# Looking at a table: cosine similarity of its rows, by offset.


def cosine_similarity(table: torch.Tensor) -> torch.Tensor:
    """S[p, q] = cos(row p, row q) = t_p·t_q / (‖t_p‖‖t_q‖) for a (rows, d) table: (rows, rows),
    float64. A zero row has similarity 0 with every row."""
    return _cosine_similarity(check_matrix("table", table))


def _cosine_similarity(table: torch.Tensor) -> torch.Tensor:
    norms = table.norm(dim=1, keepdim=True)
    unit = table / torch.where(norms > 0, norms, torch.ones_like(norms))
    return unit @ unit.T


def similarity_by_offset(table: torch.Tensor, max_offset: int) -> torch.Tensor:
    """Mean cosine similarity of rows k apart, k = 0 … max_offset: (max_offset + 1,) float64.

    Entry k averages cos(row p, row p + k) over every p; entry 0 is 1 for a table without zero
    rows. A table that "knows" that neighbours belong together has its largest values at small k.
    """
    table = check_matrix("table", table, min_rows=2)
    max_offset = check_int("max_offset", max_offset, 0)
    if max_offset > table.shape[0] - 1:
        raise ValueError(f"max_offset must be at most rows − 1 = {table.shape[0] - 1}, got {max_offset}")
    similarity = _cosine_similarity(table)
    return torch.stack([torch.diagonal(similarity, k).mean() for k in range(max_offset + 1)])


# ---------------------------------------------------------------------------------------------
# A position table trained on the course's task.


@dataclass(frozen=True)
class TableRun:
    """A TinyLM with an added position table, trained at ``length`` tokens and evaluated by
    position up to ``max_len`` (the number of rows of a learned table)."""

    scheme: str
    model: TinyLM
    length: int  # training length: positions 0 … length − 1 were seen in training
    max_len: int  # evaluated positions 0 … max_len − 1
    initial: torch.Tensor  # (max_len, d_model) the table before training
    loss: torch.Tensor  # (max_len,) float64 mean next-token loss at each position
    floor: torch.Tensor  # (max_len,) float64 the task's exact least loss at each position

    @property
    def table(self) -> torch.Tensor:
        """(max_len, d_model) the table now (for a fixed encoding, the same as ``initial``)."""
        return _table(self.model.scheme, self.max_len)

    @property
    def update(self) -> torch.Tensor:
        """(max_len, d_model) what training wrote into the table: table − initial."""
        return self.table - self.initial

    def row_change(self) -> torch.Tensor:
        """(max_len,) float64: ‖table − initial‖ of each row."""
        return self.update.double().norm(dim=1)

    def excess(self, start: int, stop: int) -> float:
        """Mean loss above the floor over positions start … stop − 1 (nats)."""
        start, stop = check_int("start", start, 0), check_int("stop", stop, 1)
        if not start < stop <= self.max_len:
            raise ValueError(f"need 0 ≤ start < stop ≤ max_len = {self.max_len}, got start {start}, stop {stop}")
        return float((self.loss[start:stop] - self.floor[start:stop]).mean())


def _table(position_scheme: PositionScheme, rows: int) -> torch.Tensor:
    if position_scheme.name == "learned":
        return position_scheme.table.table.weight.detach()[:rows].clone()
    if position_scheme.name == "sinusoidal":
        return position_scheme.encoding(torch.arange(rows))
    raise ValueError("scheme must be one that adds a table to x ('learned' or 'sinusoidal'), "
                     f"got {position_scheme.name!r}")


def train_position_table(
    scheme_name: str = "learned",
    *,
    length: int = 32,
    max_len: int = 48,
    steps: int = 300,
    seed: int = 0,
    task: Task | None = None,
    d_model: int = 64,
    lr: float = 1e-2,
    eval_batches: int = 8,
    progress: bool = True,
    threads: int = 1,
) -> TableRun:
    """Train a ``TinyLM`` (d_model, 4 heads, 2 layers) whose position signal is a table added to
    the input, on ``task`` (default ``LetterDigitCopy()``) at ``length`` tokens, then measure its
    loss at every position 0 … max_len − 1.

    ``torch.manual_seed(seed)`` fixes the initialisation, ``seed`` the training batches. For the
    learned scheme the table has ``max_len`` rows, so rows length … max_len − 1 exist but are never
    used in training. ``threads``: torch's CPU threads while training (the last digits depend on it).
    """
    scheme_name = check_choice("scheme_name", scheme_name, ("learned", "sinusoidal"))
    length, max_len = check_int("length", length, 1), check_int("max_len", max_len, 1)
    if max_len < length:
        raise ValueError(f"max_len must be ≥ length = {length}, got {max_len}")
    steps, seed = check_int("steps", steps, 1), check_int("seed", seed, 0)
    eval_batches = check_int("eval_batches", eval_batches, 1)
    task = LetterDigitCopy() if task is None else task
    if not isinstance(task, Task):
        raise TypeError(f"task must be a helpers.Task, got {type(task).__name__}")
    torch.manual_seed(seed)
    model = TinyLM(task.vocab_size, scheme_name, d_model=d_model, max_len=max_len)
    initial = _table(model.scheme, max_len)
    train(model, task, steps=steps, length=length, lr=lr, seed=seed, progress=progress,
          description=f"{scheme_name} table", threads=threads)
    loss = loss_by_position(model, task, length=max_len, batches=eval_batches)
    return TableRun(scheme_name, model, length, max_len, initial, loss, task.floor_by_position(max_len))


# ---------------------------------------------------------------------------------------------
# Where a model keeps its position signal.


class StoredTable(NamedTuple):
    """One ``nn.Embedding`` of a model: a table of rows × dim numbers."""

    name: str
    rows: int
    dim: int
    trainable: bool  # a parameter that requires a gradient


class StoredFrequencies(NamedTuple):
    """A buffer named ``inv_freq``: the frequencies of a rotary embedding, saved with the model
    but not a parameter, so never trained."""

    name: str
    size: int


def position_storage(model: nn.Module) -> tuple[list[StoredTable], list[StoredFrequencies]]:
    """Every embedding table of ``model`` (token, position, segment or bucket tables alike), and
    every rotary frequency buffer (a buffer whose name ends in ``inv_freq``), in module order.

    The tables are what a learned scheme trains; a rotary model keeps only its frequencies.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be a torch.nn.Module, got {type(model).__name__}")
    parameters = {id(p) for p in model.parameters()}
    tables = [StoredTable(name, m.num_embeddings, m.embedding_dim,
                          id(m.weight) in parameters and m.weight.requires_grad)
              for name, m in model.named_modules() if isinstance(m, nn.Embedding)]
    freqs = [StoredFrequencies(name, b.numel()) for name, b in model.named_buffers()
             if name.split(".")[-1] == "inv_freq"]
    return tables, freqs


# ---------------------------------------------------------------------------------------------
# What makes a bias relative.


def offset_spread(bias: torch.Tensor) -> float:
    """How far a score bias is from depending on k − q alone.

    bias: (..., L, L), entry [i, j] for query position i and key position j. Returns the largest
    (max − min) along any diagonal j − i = const (over all leading indices): 0 exactly when every
    entry is a function of the offset j − i, i.e. the matrix is constant along its diagonals.
    """
    if not isinstance(bias, torch.Tensor) or bias.dim() < 2 or bias.shape[-1] != bias.shape[-2]:
        shape = tuple(bias.shape) if isinstance(bias, torch.Tensor) else type(bias).__name__
        raise ValueError(f"bias must be a tensor of shape (..., L, L), got {shape}")
    if not bias.is_floating_point() or not bool(torch.isfinite(bias).all()):
        raise ValueError("bias must hold finite floating-point values (leave the causal mask out)")
    bias = bias.detach().double()
    n = bias.shape[-1]
    spread = 0.0
    for k in range(-(n - 1), n):
        diagonal = torch.diagonal(bias, offset=k, dim1=-2, dim2=-1)
        spread = max(spread, float((diagonal.amax(-1) - diagonal.amin(-1)).max()))
    return spread


# ---------------------------------------------------------------------------------------------
# T5's buckets and ALiBi's heads, for tables, plots and the explorers.


@dataclass(frozen=True)
class T5BucketView:
    """T5's bucket of every offset in a window, how many offsets each bucket holds, and where
    each bucket of keys *before* the query starts."""

    offsets: torch.Tensor  # (K,) int64, −span … 0 or −span … span
    buckets: torch.Tensor  # (K,) int64 the bucket of each offset
    widths: torch.Tensor  # (num_buckets,) int64 how many of those offsets fall in each bucket
    starts: torch.Tensor  # (n,) float64 smallest distance of each bucket before the query; NaN if empty
    edges: torch.Tensor  # (n,) float64 where the formula puts those starts (see t5_bucket_view)
    exact: int  # distances below ``exact`` have a bucket of their own (per direction)
    num_buckets: int
    max_distance: int
    bidirectional: bool


def t5_bucket_view(num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = False,
                   span: int = 512) -> T5BucketView:
    """The buckets of offsets −span … 0 (causal) or −span … span (bidirectional).

    Each direction has n = num_buckets (causal) or num_buckets / 2 (bidirectional) buckets. The
    first ``exact`` = n / 2 distances get a bucket each; bucket b ≥ exact starts at the first
    distance ≥ exact·(max_distance/exact)^((b − exact)/(n − exact)), a geometric sequence, so
    bucket widths grow by a constant factor up to max_distance; everything further shares the
    last bucket. A bucket whose range holds no integer distance stays empty (its start is NaN).
    """
    offsets, buckets = t5_offset_buckets(num_buckets, max_distance, bidirectional, span)
    num_buckets, max_distance = int(num_buckets), int(max_distance)
    widths = torch.bincount(buckets, minlength=num_buckets)
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    exact = per_direction // 2
    before = offsets <= 0
    starts = torch.full((per_direction,), math.nan, dtype=torch.float64)
    for b in torch.unique(buckets[before]).tolist():
        starts[b] = float(-offsets[before & (buckets == b)].max())
    b = torch.arange(per_direction, dtype=torch.float64)
    edges = torch.where(b < exact, b, exact * (max_distance / exact) ** ((b - exact) / (per_direction - exact)))
    return T5BucketView(offsets, buckets, widths, starts, edges, exact, num_buckets, max_distance, bidirectional)


@dataclass(frozen=True)
class AlibiView:
    """One ALiBi head seen whole: the slopes of all heads, the bias of the chosen head under a
    causal mask, and where a query at the last position looks when every content score is equal."""

    slopes: torch.Tensor  # (n_heads,) float32
    head: int  # the chosen head, 1 … n_heads
    bias: torch.Tensor  # (length, length) float64: −slope·(i − j) for j ≤ i, NaN above the diagonal
    weights: torch.Tensor  # (length,) float64 softmax over keys of the last query's bias row
    half_distance: float  # distance at which that weight halves: ln 2 / slope
    power_of_two: bool  # n_heads is a power of two (one geometric sequence)


def alibi_view(n_heads: int = 8, length: int = 32, head: int = 1) -> AlibiView:
    """ALiBi's head ``head`` (1-based, as in Press et al.) of ``n_heads`` over ``length`` tokens."""
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    head = check_int("head", head, 1)
    if head > n_heads:
        raise ValueError(f"head must be an integer from 1 to n_heads = {n_heads}, got {head}")
    slopes = alibi_slopes(n_heads)
    slope = float(slopes[head - 1])
    pos = torch.arange(length, dtype=torch.float64)
    distance = pos[:, None] - pos[None, :]
    bias = torch.where(distance >= 0, -slope * distance, torch.full_like(distance, math.nan))
    weights = torch.softmax(bias[-1], dim=0)
    return AlibiView(slopes, head, bias, weights, math.log(2) / slope, n_heads & (n_heads - 1) == 0)


# ---------------------------------------------------------------------------------------------
# What a scheme stores, and what it builds on every forward pass.


class BiasMemory(NamedTuple):
    """Numbers (not bytes) a score bias needs, for one sequence of ``length`` tokens."""

    length: int
    t5_stored: int  # T5: one learned number per bucket and head, whatever the length
    alibi_stored: int  # ALiBi: one fixed slope per head (no parameter)
    full_bias: int  # the (heads, L, L) bias built for one forward pass (T5 or ALiBi alike)
    key_bias: int  # ALiBi in BLOOM's form: (heads, 1, L)
    scores: int  # the (heads, L, L) attention scores that plain attention forms anyway


def bias_memory(n_heads: int, length: int, num_buckets: int = 32) -> BiasMemory:
    """How many numbers T5 and ALiBi keep, and how many their bias takes per forward pass."""
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    num_buckets = check_int("num_buckets", num_buckets, 2)
    square = n_heads * length * length
    return BiasMemory(length, num_buckets * n_heads, n_heads, square, n_heads * length, square)


# ---------------------------------------------------------------------------------------------
# One map of every scheme.


_HOOKS = {"embed": "added to x", "rotate": "rotates q, k", "bias": "bias on scores"}


class SchemeEntry(NamedTuple):
    """One scheme, described by its object."""

    name: str
    enters: str  # the scheme's own statement of where it enters attention
    hook: str  # where it does enter: the hook it overrides, in the words of ``enters``
    learned: bool
    relative: bool
    parameters: int  # trainable numbers at the size asked for


def scheme_map(n_heads: int = 8, head_dim: int = 64, max_len: int = 1024) -> list[SchemeEntry]:
    """Every scheme of ``helpers.SCHEMES`` built at one size (d_model = n_heads · head_dim, a
    learned table of max_len rows, other options at their defaults), each described by its
    object: ``describe()`` and the hook it overrides (``embed``, ``rotate`` or ``bias``)."""
    n_heads, head_dim = check_int("n_heads", n_heads, 1), check_int("head_dim", head_dim, 1)
    max_len = check_int("max_len", max_len, 1)
    entries = []
    for name in SCHEMES:
        s = scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max_len)
        overridden = [_HOOKS[h] for h in _HOOKS if getattr(type(s), h) is not getattr(PositionScheme, h)]
        info = s.describe()
        entries.append(SchemeEntry(name, info["enters"], overridden[0] if overridden else "nothing",
                                   info["learned"], info["relative"], info["parameters"]))
    return entries
