"""Every position scheme of the course, each a small variation of one interface: the three hooks
of :class:`helpers.position_scheme.PositionScheme` (``embed`` for sinusoidal and learned,
``rotate`` for rope, ``bias`` for alibi, t5 and shaw), and :func:`scheme` to build one by name.

Each scheme also says what it is, for a map of all of them: ``name``, ``enters`` (where it
enters attention), ``learned`` (does it train parameters) and ``relative`` (does attention see
only offsets). ``describe()`` gathers these with the parameter count.

A model holds one scheme object shared by all its layers, as T5 shares its bias table across
layers: the learned tables are trained once, and every layer sees the same position signal.
"""

from __future__ import annotations

import inspect

import torch
from torch import nn

from ._checks import check_base, check_choice, check_even, check_finite, check_int
from .encodings import frequencies
from .learned import LearnedPositionalEmbedding
from .position_scheme import PositionScheme, check_position_pair, check_scheme_positions, default_positions
from .relative import alibi_slopes, shaw_clip, t5_bucket
from .rotary import ROPE_LAYOUTS, rope


class NoPosition(PositionScheme):
    """No position signal: the hooks change nothing. Unmasked attention is then blind to order;
    a causal mask alone breaks that symmetry, and decoders trained without positions carry position
    information a probe can read (Haviv et al. 2022, who conjecture that causal attention counts the
    tokens before each one)."""


class Sinusoidal(PositionScheme):
    """Vaswani et al.'s encoding added to the input: x + PE(positions), interleaved layout,
    PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i), ω_i = base^(−2i/d_model).
    Defined at every position, but nothing trains it to mean anything past the training length."""

    name = "sinusoidal"
    enters = "added to x"

    def __init__(self, n_heads: int, head_dim: int, max_len: int | None = None, *, base: float = 10000.0):
        super().__init__(n_heads, head_dim, max_len)
        check_even("d_model (n_heads × head_dim)", self.d_model)
        self.base = check_base(base)

    def encoding(self, positions: torch.Tensor) -> torch.Tensor:
        """PE rows for integer positions of any shape: (*positions.shape, d_model), float32."""
        theta = positions.to(torch.float64)[..., None] * frequencies(self.d_model, self.base, torch.float64).to(
            positions.device
        )
        return torch.stack((theta.sin(), theta.cos()), dim=-1).flatten(-2).float()

    def embed(self, x, positions=None):
        positions = check_scheme_positions(positions, x.shape[0], x.shape[-2])
        pos = default_positions(positions, x.shape[-2], x.device)
        return x + self.encoding(pos).to(x.dtype)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, base={self.base:g}"


class Learned(PositionScheme):
    """A trained table, one d_model-vector per position 0 … max_len − 1, added to the input
    (BERT, GPT-2). Rows start as N(0, init_std²) vectors: the default 1 is the scale of TinyLM's
    token embeddings, as GPT-2 starts its token and position tables at one scale. Rows the
    training never reached keep their random initial values, and there is no row at all at or
    beyond max_len."""

    name = "learned"
    enters = "added to x"
    learned = True

    def __init__(self, n_heads: int, head_dim: int, max_len: int | None = None, *, init_std: float = 1.0):
        if max_len is None:
            raise ValueError("max_len must be given for the learned scheme: it is the number of rows of its table")
        super().__init__(n_heads, head_dim, max_len)
        self.init_std = check_finite("init_std", init_std)
        if self.init_std < 0:
            raise ValueError(f"init_std must be a finite number ≥ 0, got {self.init_std}")
        self.table = LearnedPositionalEmbedding(self.max_len, self.d_model)
        nn.init.normal_(self.table.table.weight, std=self.init_std)

    def embed(self, x, positions=None):
        length = x.shape[-2]
        positions = check_scheme_positions(positions, x.shape[0], length)
        if positions is None:
            if length > self.max_len:
                raise IndexError(
                    f"the learned scheme has max_len = {self.max_len} rows (positions 0 … {self.max_len - 1}); "
                    f"length {length} asks for position {length - 1}"
                )
            return x + self.table.table.weight[:length].to(x.dtype)
        if positions.numel() and int(positions.max()) >= self.max_len:
            raise IndexError(
                f"the learned scheme has max_len = {self.max_len} rows (positions 0 … {self.max_len - 1}); "
                f"a sequence of length {length} asks for position {int(positions.max())}"
            )
        return x + self.table(positions).to(x.dtype)


class RoPE(PositionScheme):
    """Rotary embedding: q and k of every head turned by p·ω_i, pair by pair (``helpers.rope``),
    so q·k depends on the offset only. ω = base^(−2i/head_dim) unless ``freqs`` (inv_freq, shape
    (head_dim/2,)) is given. Rotated q and k are both multiplied by ``attention_scale`` (1 by
    default), so the attention logits grow by its square: YaRN's factor 0.1·ln(s) + 1, applied
    as Hugging Face applies it (to cos and sin) and as ``helpers.scaled_frequencies`` returns it.

    ``set_frequencies`` swaps the frequencies and scale of a trained model without retraining.
    """

    name = "rope"
    enters = "rotates q, k"
    relative = True

    def __init__(
        self,
        n_heads: int,
        head_dim: int,
        max_len: int | None = None,
        *,
        base: float = 10000.0,
        freqs: torch.Tensor | None = None,
        attention_scale: float = 1.0,
        layout: str = "interleaved",
    ):
        super().__init__(n_heads, head_dim, max_len)
        check_even("head_dim", self.head_dim)
        self.base = check_base(base)
        self.layout = check_choice("layout", layout, ROPE_LAYOUTS)
        self.register_buffer("inv_freq", frequencies(self.head_dim, self.base, torch.float64))
        self.attention_scale = 1.0
        self.set_frequencies(self.inv_freq if freqs is None else freqs, attention_scale)

    def set_frequencies(self, inv_freq: torch.Tensor, attention_scale: float = 1.0) -> None:
        """Replace the frequencies (a finite (head_dim/2,) float tensor) and the factor on q and k
        (> 0; the logits grow by its square)."""
        expected = f"a finite floating-point tensor of shape (head_dim/2,) = ({self.head_dim // 2},)"
        if not isinstance(inv_freq, torch.Tensor) or not inv_freq.is_floating_point():
            got = inv_freq.dtype if isinstance(inv_freq, torch.Tensor) else type(inv_freq).__name__
            raise TypeError(f"inv_freq must be {expected}, got {got}")
        if tuple(inv_freq.shape) != (self.head_dim // 2,):
            raise ValueError(f"inv_freq must be {expected}, got shape {tuple(inv_freq.shape)}")
        if not bool(torch.isfinite(inv_freq).all()):
            raise ValueError(f"inv_freq must be {expected}, got non-finite values")
        attention_scale = check_finite("attention_scale", attention_scale)
        if attention_scale <= 0:
            raise ValueError(f"attention_scale must be a finite number > 0, got {attention_scale}")
        with torch.no_grad():
            self.inv_freq.copy_(inv_freq.detach().to(torch.float64))
        self.attention_scale = attention_scale

    def rotate(self, q, k, positions=None):
        positions = check_scheme_positions(positions, q.shape[0], q.shape[-2])
        if positions is not None and positions.dim() == 2:
            positions = positions[:, None, :]  # (batch, L) → (batch, 1, L): the same for every head
        freqs = self.inv_freq.to(torch.float64)
        q = rope(q, positions, layout=self.layout, freqs=freqs)
        k = rope(k, positions, layout=self.layout, freqs=freqs)
        if self.attention_scale != 1.0:
            q, k = q * self.attention_scale, k * self.attention_scale
        return q, k

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, layout={self.layout!r}, attention_scale={self.attention_scale:g}"


class ALiBi(PositionScheme):
    """Press et al.'s linear biases: bias[h, i, j] = −m_h·|p_i − p_j|, with the fixed head
    slopes m_h of ``helpers.alibi_slopes`` (a geometric sequence; any head count)."""

    name = "alibi"
    enters = "bias on scores"
    relative = True

    def __init__(self, n_heads: int, head_dim: int, max_len: int | None = None):
        super().__init__(n_heads, head_dim, max_len)
        self.register_buffer("slopes", alibi_slopes(self.n_heads), persistent=False)

    def bias(self, q_positions, k_positions):
        q_positions, k_positions = check_position_pair(q_positions, k_positions)
        distance = (q_positions[..., :, None] - k_positions[..., None, :]).abs().to(self.slopes.dtype)
        return -self.slopes[:, None, None] * distance.unsqueeze(-3)


class T5Bias(PositionScheme):
    """T5's relative bias: one learned scalar per head and per log-spaced bucket of the offset
    key − query (``helpers.t5_bucket``), bias[h, i, j] = table[bucket(p_j − p_i), h].

    A causal decoder uses one-directional buckets (T5's decoder does the same); offsets beyond
    ``max_distance`` share the last bucket. The table starts at zero (no position signal), so a
    bucket that training never reaches keeps a bias of 0.
    """

    name = "t5"
    enters = "bias on scores"
    learned = True
    relative = True

    def __init__(
        self,
        n_heads: int,
        head_dim: int,
        max_len: int | None = None,
        *,
        num_buckets: int = 32,
        max_distance: int = 128,
        bidirectional: bool = False,
    ):
        super().__init__(n_heads, head_dim, max_len)
        self.bidirectional = bool(bidirectional)
        self.num_buckets = check_int("num_buckets", num_buckets, 4 if self.bidirectional else 2)
        self.max_distance = check_int("max_distance", max_distance, 1)
        t5_bucket(torch.zeros(1, dtype=torch.long), self.bidirectional, self.num_buckets, self.max_distance)
        self.table = nn.Embedding(self.num_buckets, self.n_heads)
        nn.init.zeros_(self.table.weight)

    def buckets(self, q_positions, k_positions) -> torch.Tensor:
        relative = k_positions[..., None, :] - q_positions[..., :, None]
        return t5_bucket(relative, self.bidirectional, self.num_buckets, self.max_distance)

    def bias(self, q_positions, k_positions):
        q_positions, k_positions = check_position_pair(q_positions, k_positions)
        return self.table(self.buckets(q_positions, k_positions)).movedim(-1, -3)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, num_buckets={self.num_buckets}, max_distance={self.max_distance}"


class ShawBias(PositionScheme):
    """Shaw et al.'s clipped relative positions, reduced to a score bias: one learned scalar per
    head and per clipped offset, bias[h, i, j] = table[h, clip(p_j − p_i, k) + k], k = max_offset.

    Shaw et al. (2018) learn a *vector* a_ij per clipped offset and add it to the key,
    e_ij = q_i·(k_j + a_ij)/√d, so their bias q_i·a_ij depends on the query's content as well as
    on the offset (they add a second vector to the values too). Here the bias depends on the
    offset alone, which makes Shaw a T5-style bias with one bucket per offset up to k. The table
    starts at zero.
    """

    name = "shaw"
    enters = "bias on scores"
    learned = True
    relative = True

    def __init__(self, n_heads: int, head_dim: int, max_len: int | None = None, *, max_offset: int = 16):
        super().__init__(n_heads, head_dim, max_len)
        self.max_offset = check_int("max_offset", max_offset, 0)
        self.table = nn.Parameter(torch.zeros(self.n_heads, 2 * self.max_offset + 1))

    def bias(self, q_positions, k_positions):
        q_positions, k_positions = check_position_pair(q_positions, k_positions)
        offsets = shaw_clip(k_positions[..., None, :] - q_positions[..., :, None], self.max_offset)
        return self.table[:, offsets + self.max_offset].movedim(0, -3)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, max_offset={self.max_offset}"


_CLASSES = {cls.name: cls for cls in (NoPosition, Sinusoidal, Learned, RoPE, ALiBi, T5Bias, ShawBias)}
SCHEMES = tuple(_CLASSES)


def _options(cls) -> list[str]:
    return [p.name for p in inspect.signature(cls.__init__).parameters.values() if p.kind is p.KEYWORD_ONLY]


def scheme(name: str, *, n_heads: int, head_dim: int, max_len: int | None = None, **options) -> PositionScheme:
    """The position scheme called ``name`` (one of ``SCHEMES``) for n_heads heads of head_dim.

    ``max_len`` is required by "learned" (its table size) and informational elsewhere. Options:
    sinusoidal base; rope base, freqs, attention_scale, layout; t5 num_buckets, max_distance,
    bidirectional; shaw max_offset.
    """
    name = check_choice("scheme", name, SCHEMES)
    cls = _CLASSES[name]
    allowed = _options(cls)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        accepts = ", ".join(allowed) if allowed else "no options"
        raise TypeError(f"scheme {name!r} got unknown option(s) {', '.join(unknown)}; it accepts {accepts}")
    return cls(n_heads, head_dim, max_len, **options)
