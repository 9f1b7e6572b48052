"""TinyLM: a small pre-norm causal decoder that takes any position scheme, and its config.

    h⁰ = token_embedding(tokens), then scheme.embed(h⁰, positions)
    for each layer l:  h ← h + attention(LayerNorm(h));  h ← h + MLP(LayerNorm(h))
    logits = head(LayerNorm(h))                                    (batch, L, vocab_size)

Every layer's attention goes through the same scheme object (``helpers.schemes``): its
``rotate`` hook on q and k, and its score bias merged with the causal mask into one additive
mask, built once per forward pass and shared by the layers (``_layer_attention``, which a model
whose layers differ overrides).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import torch
from torch import nn

from ._checks import check_int
from .attention import CausalSelfAttention
from .position_scheme import PositionScheme, check_scheme_positions
from .schemes import scheme


@dataclass(frozen=True)
class TinyLMConfig:
    """Everything that defines a TinyLM's shape (nanoGPT style). ``scheme_options`` go to
    ``helpers.scheme`` (e.g. ``{"base": 500.0}`` for rope, ``{"max_offset": 8}`` for shaw).
    ``TinyLM.from_config(model.config)`` builds the same architecture; a model made from a
    scheme object records only the scheme's name."""

    vocab_size: int
    scheme: str = "rope"
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    max_len: int | None = None
    mlp_ratio: int = 4
    scheme_options: dict = field(default_factory=dict)


class Block(nn.Module):
    """One pre-norm decoder layer: h + attention(LN(h)), then h + MLP(LN(h)) (GELU, mlp_ratio × wide)."""

    def __init__(self, d_model: int, n_heads: int, mlp_ratio: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, mlp_ratio * d_model), nn.GELU(), nn.Linear(mlp_ratio * d_model, d_model)
        )

    def forward(self, h, scheme, positions, mask, return_weights=False):
        attended = self.attention(self.norm1(h), scheme, positions, mask, return_weights)
        if return_weights:
            attended, weights = attended
        h = h + attended
        h = h + self.mlp(self.norm2(h))
        return (h, weights) if return_weights else h


class TinyLM(nn.Module):
    """A pre-norm causal decoder (d_model 64, 4 heads, 2 layers: about 100 k parameters).

    ``model(tokens, positions=None, return_weights=False)``: tokens (batch, L) integers in
    0 … vocab_size − 1 → logits (batch, L, vocab_size); with ``return_weights`` also a tuple of
    each layer's attention weights (batch, n_heads, L, L). ``positions`` defaults to 0 … L − 1;
    any integer tensor ≥ 0 of shape (L,) or (batch, L) may replace it (the causal mask always
    follows token order). ``hidden_states`` gives the residual stream after every layer.

    ``scheme`` is a name from ``helpers.SCHEMES`` (its options as keywords) or a scheme object.
    """

    def __init__(
        self,
        vocab_size: int,
        scheme: str | PositionScheme = "rope",
        d_model: int = 64,
        n_heads: int = 4,
        n_layers: int = 2,
        max_len: int | None = None,
        *,
        mlp_ratio: int = 4,
        **scheme_options,
    ):
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size, 1)
        d_model = check_int("d_model", d_model, 1)
        n_heads = check_int("n_heads", n_heads, 1)
        n_layers = check_int("n_layers", n_layers, 1)
        mlp_ratio = check_int("mlp_ratio", mlp_ratio, 1)
        if d_model % n_heads:
            raise ValueError(f"d_model must be divisible by n_heads = {n_heads}, got d_model = {d_model}")
        head_dim = d_model // n_heads
        if isinstance(scheme, PositionScheme):
            if scheme_options:
                raise TypeError("scheme options go with a scheme name, not with a scheme object")
            if (scheme.n_heads, scheme.head_dim) != (n_heads, head_dim):
                raise ValueError(
                    f"scheme must be built for n_heads = {n_heads}, head_dim = {head_dim}, "
                    f"got n_heads = {scheme.n_heads}, head_dim = {scheme.head_dim}"
                )
            self.scheme = scheme
        else:
            self.scheme = _make_scheme(scheme, n_heads, head_dim, max_len, scheme_options)
        self.config = TinyLMConfig(
            vocab_size, self.scheme.name, d_model, n_heads, n_layers, max_len, mlp_ratio, dict(scheme_options)
        )
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, mlp_ratio) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    @classmethod
    def from_config(cls, config: TinyLMConfig) -> TinyLM:
        options = asdict(config)
        scheme_options = options.pop("scheme_options")
        return cls(**options, **scheme_options)

    def _check(self, tokens, positions):
        if not isinstance(tokens, torch.Tensor) or tokens.is_floating_point() or tokens.dtype == torch.bool:
            got = tokens.dtype if isinstance(tokens, torch.Tensor) else type(tokens).__name__
            raise TypeError(f"tokens must be an integer tensor of shape (batch, length), got {got}")
        if tokens.dim() != 2:
            raise ValueError(f"tokens must have shape (batch, length), got shape {tuple(tokens.shape)}")
        batch, length = tokens.shape
        check_int("length (tokens.shape[1])", length, 1)
        check_int("batch (tokens.shape[0])", batch, 1)
        low, high = int(tokens.min()), int(tokens.max())
        if low < 0 or high >= self.config.vocab_size:
            raise ValueError(
                f"tokens must lie in 0 … vocab_size − 1 = {self.config.vocab_size - 1}, got values in {low} … {high}"
            )
        positions = check_scheme_positions(positions, batch, length)
        return None if positions is None else positions.to(tokens.device)

    def _layer_attention(self, positions, length: int, h: torch.Tensor) -> list[tuple]:
        """Each layer's (scheme, additive mask or None): here the one scheme and its mask, shared by every
        layer (a subclass may give each layer its own: ``helpers.text.layer_mix``)."""
        mask = self.scheme.attention_mask(positions, length, h.dtype, h.device)
        return [(self.scheme, mask)] * len(self.blocks)

    def _run(self, tokens, positions, return_weights=False, keep_hidden=False):
        positions = self._check(tokens, positions)
        h = self.scheme.embed(self.token_embedding(tokens), positions)
        hidden, weights = [h], []
        layers = self._layer_attention(positions, tokens.shape[1], h)  # each layer's (scheme, mask)
        for block, (layer_scheme, mask) in zip(self.blocks, layers, strict=True):
            h = block(h, layer_scheme, positions, mask, return_weights)
            if return_weights:
                h, w = h
                weights.append(w)
            if keep_hidden:
                hidden.append(h)
        return h, hidden, tuple(weights)

    def forward(self, tokens: torch.Tensor, positions: torch.Tensor | None = None, return_weights: bool = False):
        h, _, weights = self._run(tokens, positions, return_weights)
        logits = self.head(self.norm(h))
        return (logits, weights) if return_weights else logits

    def hidden_states(self, tokens: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """The residual stream (n_layers + 1, batch, L, d_model): [0] is the input to the first
        layer (token embedding plus any added position signal), [l] the output of layer l; the
        last is the final hidden state, which the output head reads through the final LayerNorm."""
        _, hidden, _ = self._run(tokens, positions, keep_hidden=True)
        return torch.stack(hidden)

    def extra_repr(self) -> str:
        c = self.config
        return f"vocab_size={c.vocab_size}, d_model={c.d_model}, n_heads={c.n_heads}, n_layers={c.n_layers}"


def _make_scheme(name, n_heads, head_dim, max_len, options) -> PositionScheme:
    return scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max_len, **options)
