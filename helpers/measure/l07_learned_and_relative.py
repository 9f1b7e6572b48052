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

import copy
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
    entropy: torch.Tensor  # (max_len,) float64 mean entropy of the predicted distribution (nats)

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
    entropy = entropy_by_position(model, task, length=max_len, batches=eval_batches)
    return TableRun(scheme_name, model, length, max_len, initial, loss, task.floor_by_position(max_len), entropy)


def entropy_by_position(model: nn.Module, task: Task, *, length: int, batches: int = 8, batch: int = 32,
                        seed: int = 1) -> torch.Tensor:
    """Mean entropy (nats) of the model's predicted next-token distribution at each position:
    (length,) float64, on the same evaluation sequences as ``loss_by_position`` (same seed).
    ln(vocabulary) means a uniform guess; a value near 0 means the model puts almost all its
    probability on one token (confident, whether right or wrong)."""
    length, batches = check_int("length", length, 1), check_int("batches", batches, 1)
    batch, seed = check_int("batch", batch, 1), check_int("seed", seed, 0)
    generator = torch.Generator().manual_seed(seed)
    was_training = model.training
    model.eval()
    total = torch.zeros(length, dtype=torch.float64)
    try:
        with torch.no_grad():
            for _ in range(batches):
                inputs, _ = task.sample(batch, length, generator)
                log_p = torch.log_softmax(model(inputs).double(), dim=-1)
                total += -(log_p.exp() * log_p).sum(-1).mean(0)
    finally:
        model.train(was_training)
    return total / batches


class Claim(NamedTuple):
    """One claim of lesson 07 about a trained table, and whether this run bears it out."""

    text: str
    holds: bool


def table_claims(run: TableRun, task: Task | None = None) -> list[Claim]:
    """The claims lesson 07 makes about a learned table trained by ``train_position_table``, each
    with a margin that holds for seeds 0 … 4 on every CPU kernel tried (benchmarks/l07_seed_spread.py):

    - inside the training length the loss is within 0.05 nats of the task's floor;
    - the update's rows are most alike at the task's short offset (3), and neighbours' rows are
      dissimilar (mean cosine similarity of rows 1 apart below −0.05);
    - every trained row moved by more than 0.5; every row past the training length is untouched;
    - past the training length the loss is above ln(vocabulary) + 0.5 (worse than a uniform guess)
      while the predictions' entropy is below ln(vocabulary) − 1 (confident, not uniform).
    """
    if not isinstance(run, TableRun) or run.scheme != "learned":
        raise TypeError("run must be a TableRun of the 'learned' scheme (from train_position_table)")
    task = LetterDigitCopy() if task is None else task
    length, uniform = run.length, math.log(task.vocab_size)
    profile = similarity_by_offset(run.update[:length], min(8, length - 1))
    change = run.row_change()
    return [
        Claim(f"loss within 0.05 nats of the floor at positions 0–{length - 1}", abs(run.excess(0, length)) < 0.05),
        Claim(f"the update's rows are most alike {task.short} apart", int(profile[1:].argmax()) + 1 == task.short),
        Claim("neighbouring rows (1 apart) received dissimilar updates (similarity < −0.05)", bool(profile[1] < -0.05)),
        Claim(f"every row 0–{length - 1} moved by more than 0.5", bool((change[:length] > 0.5).all())),
        Claim(f"rows {length}–{run.max_len - 1} are exactly their random start",
              torch.equal(run.table[length:], run.initial[length:])),
        Claim(f"loss at positions {length}–{run.max_len - 1} above ln {task.vocab_size} + 0.5 (worse than guessing)",
              bool(run.loss[length:].mean() > uniform + 0.5)),
        Claim(f"yet the predictions there are confident: entropy below ln {task.vocab_size} − 1",
              bool(run.entropy[length:].mean() < uniform - 1.0)),
    ]


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
    full_bias: int  # the bias as a (heads, L, L) tensor, as T5's must be built for every forward pass
    key_bias: int  # ALiBi in BLOOM's form: (heads, 1, L)


def bias_memory(n_heads: int, length: int, num_buckets: int = 32) -> BiasMemory:
    """How many numbers T5 and ALiBi keep, and how many their bias takes when it is built whole.

    A fused attention kernel (FlashAttention, PyTorch's flash and memory-efficient paths) never
    forms the (heads, L, L) scores, so a bias that has to be passed as a full tensor (T5's, or the
    course's own models, which hand ``F.scaled_dot_product_attention`` one float mask) costs
    memory that attention itself would not. ALiBi's bias can instead be computed inside the kernel
    from its n_heads slopes (FlashAttention's ``alibi_slopes``)."""
    n_heads, length = check_int("n_heads", n_heads, 1), check_int("length", length, 1)
    num_buckets = check_int("num_buckets", num_buckets, 2)
    return BiasMemory(length, num_buckets * n_heads, n_heads, n_heads * length * length, n_heads * length)


# ---------------------------------------------------------------------------------------------
# One map of every scheme.


_HOOKS = {"embed": "added to x", "rotate": "rotates q, k", "bias": "bias on scores"}


def scheme_scores(position_scheme: PositionScheme, x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor,
                  positions: torch.Tensor) -> torch.Tensor:
    """The attention scores (heads, L, L) that ``helpers.CausalSelfAttention`` forms with a scheme,
    before the causal mask and the softmax, calling the scheme's three hooks in the model's order.

    x (1, L, d_model) token vectors; w_q, w_k (d_model, d_model) projections; positions (L,).
    """
    h = position_scheme.embed(x, positions)  # hook 1: added to x
    heads, head_dim = position_scheme.n_heads, position_scheme.head_dim
    q = (h @ w_q).view(1, -1, heads, head_dim).transpose(1, 2)  # (1, heads, L, head_dim)
    k = (h @ w_k).view(1, -1, heads, head_dim).transpose(1, 2)
    q, k = position_scheme.rotate(q, k, positions)  # hook 2: rotates q and k
    scores = (q @ k.transpose(-2, -1))[0] / math.sqrt(head_dim)
    bias = position_scheme.bias(positions, positions)  # hook 3: a bias on the scores
    return scores if bias is None else scores + bias


def position_kind(position_scheme: PositionScheme, length: int = 12, shift: int = 100, seed: int = 0) -> str:
    """What attention sees of position with this scheme, decided from the scores it produces.

    Random token vectors and projections (and random values in the scheme's own parameters: T5's
    and Shaw's tables start at zero) are scored at positions 0 … L−1, at the same positions
    shifted by ``shift``, and at the positions stretched (0, 2, 4, …). Scores that change under
    the shift: "absolute". Unchanged under the shift but changed by the stretch, so they depend
    on the offsets: "relative". Unchanged by both: "none" (attention does not see position).
    """
    if not isinstance(position_scheme, PositionScheme):
        raise TypeError(f"position_scheme must be a helpers scheme, got {type(position_scheme).__name__}")
    length, shift, seed = check_int("length", length, 2), check_int("shift", shift, 1), check_int("seed", seed, 0)
    generator = torch.Generator().manual_seed(seed)
    probe = copy.deepcopy(position_scheme).double()
    with torch.no_grad():
        for p in probe.parameters():
            p.copy_(torch.randn(p.shape, generator=generator, dtype=p.dtype))
    d = probe.d_model
    x = torch.randn(1, length, d, generator=generator, dtype=torch.float64)
    w_q, w_k = torch.randn(2, d, d, generator=generator, dtype=torch.float64) / math.sqrt(d)
    pos = torch.arange(length)

    def scores(positions):
        with torch.no_grad():
            return scheme_scores(probe, x, w_q, w_k, positions)

    base = scores(pos)
    same_shifted = torch.allclose(scores(pos + shift), base, rtol=1e-6, atol=1e-6)
    same_stretched = torch.allclose(scores(2 * pos), base, rtol=1e-6, atol=1e-6)
    if not same_shifted:
        return "absolute"
    return "none" if same_stretched else "relative"


class SchemeEntry(NamedTuple):
    """One scheme, described by its object: every column but ``enters`` is computed."""

    name: str
    enters: str  # the scheme's own statement of where it enters attention
    hook: str  # where it does enter: the hook it overrides, in the words of ``enters``
    learned: bool  # it has trainable parameters
    relative: bool  # position == "relative"
    parameters: int  # trainable numbers at the size asked for
    position: str  # "absolute", "relative" or "none": from ``position_kind``, the scores under shifts


def scheme_map(n_heads: int = 8, head_dim: int = 64, max_len: int = 1024) -> list[SchemeEntry]:
    """Every scheme of ``helpers.SCHEMES`` built at one size (d_model = n_heads · head_dim, a
    learned table of max_len rows, other options at their defaults), each described by its
    object. Where it enters: the hook its class overrides (``embed``, ``rotate`` or ``bias``).
    Learned: whether it has trainable parameters. Absolute, relative or none: ``position_kind``
    (run on 2 heads of 8: enough to tell, and quick)."""
    n_heads, head_dim = check_int("n_heads", n_heads, 1), check_int("head_dim", head_dim, 1)
    max_len = check_int("max_len", max_len, 1)
    entries = []
    for name in SCHEMES:
        s = scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max_len)
        overridden = [_HOOKS[h] for h in _HOOKS if getattr(type(s), h) is not getattr(PositionScheme, h)]
        trainable = sum(p.numel() for p in s.parameters() if p.requires_grad)
        kind = position_kind(scheme(name, n_heads=2, head_dim=8, max_len=200))
        entries.append(SchemeEntry(name, s.enters, overridden[0] if overridden else "nothing", trainable > 0,
                                   kind == "relative", trainable, kind))
    return entries
