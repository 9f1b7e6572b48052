"""Lesson 12's text models: layers that do not all treat positions alike, and a base raised by
continued training. Each is lesson 08's TinyLM (d_model 64, 4 heads of 16, 3 layers) trained on the
same corpus, windows, steps and seeds as lesson 08's models.

A :class:`LayerMixLM` gives each layer its own :class:`LayerSpec`:

    base    the RoPE base of that layer, or None: no positions at all in that layer (NoPE)
    window  the number of keys a query sees, itself included (a sliding window), or None: all earlier keys

and two switches that change a trained model at evaluation time (Llama 4's long-context settings,
at the course's scale; ``set_long_context``):

    chunk          RoPE layers attend only within their chunk of ``chunk`` tokens: key j is seen by
                   query i when j ≤ i and ⌊j/chunk⌋ = ⌊i/chunk⌋
    temperature    NoPE layers multiply the query at 0-based position p by
                   1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋)                (transformers' Llama 4)

``LAYER_MIXES`` names the two trained mixes:

- "nope-middle": RoPE, no positions, RoPE: Llama 4's interleaved NoPE layers (every fourth layer of
  Llama 4 has none; with three layers, the middle one).
- "local-global": two sliding-window layers of 32 keys with base 10⁴, then one global layer with base
  10⁶: Gemma 3's pattern (five local layers per global one, 1024-token windows, bases 10⁴ and 10⁶).

``RAISED_BASE`` names the continued training of lesson 08's RoPE model at 4·L with its base raised
to 500 000, Xiong et al. (2023)'s value, beside lesson 09's fine-tunes (same steps, same windows).

The masks follow token order, as the causal mask does, whatever the position labels.
``benchmarks/train_lesson12_models.py`` trains every model; each ships as 16-bit parameters with a
JSON manifest (``data/lesson12/<name>.pt`` and ``.json``).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import NamedTuple

import torch

from .._checks import check_choice, check_finite, check_int
from ..encodings import frequencies
from ..model import TinyLM
from ..position_scheme import PositionScheme, default_positions
from ..schemes import RoPE
from .evaluate import text_valid_loss
from .models import (
    TEXT_CONFIG,
    TEXT_LENGTH,
    TEXT_SEEDS,
    build_text_model,
    load_parameters,
    load_text_model,
    stored_parameters,
)


class LayerSpec(NamedTuple):
    """One layer's positions: RoPE with ``base`` (None: no positions) over a window of ``window``
    keys (None: every earlier key)."""

    base: float | None
    window: int | None = None


LAYER_MIXES = {
    "nope-middle": (LayerSpec(10_000.0), LayerSpec(None), LayerSpec(10_000.0)),
    "local-global": (LayerSpec(10_000.0, 32), LayerSpec(10_000.0, 32), LayerSpec(1e6)),
}
# the continued training of lesson 08's RoPE model with a raised base: variant → base
RAISED_BASE = {"ft-base-500k": 500_000.0}
LESSON12_MODELS = (*LAYER_MIXES, *(f"rope-{v}" for v in RAISED_BASE))
# Llama 4's temperature tuning: attn_scale 0.1 as in Llama 4; its floor_scale (8192, its chunk size) is
# here the training length
TEMPERATURE_ATTN_SCALE = 0.1


def query_temperature(positions: torch.Tensor, floor_scale: int, attn_scale: float = TEMPERATURE_ATTN_SCALE):
    """1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋) for each 0-based position p (float64): 1 while
    p + 1 < floor_scale, then growing by attn_scale·ln 2 at p + 1 = floor_scale, and so on."""
    floor_scale = check_int("floor_scale", floor_scale, 1)
    attn_scale = check_finite("attn_scale", attn_scale)
    p = torch.as_tensor(positions, dtype=torch.float64)
    return 1.0 + attn_scale * torch.log1p(torch.floor((p + 1.0) / floor_scale))


class NoPositionTemperature(PositionScheme):
    """No positions, but each query is multiplied by ``query_temperature`` of its position: the
    scores of a query far into the input grow, so its attention sharpens where it would spread
    over many keys."""

    name = "none, temperature"

    def __init__(self, n_heads: int, head_dim: int, *, floor_scale: int, attn_scale: float = TEMPERATURE_ATTN_SCALE):
        super().__init__(n_heads, head_dim)
        self.floor_scale = check_int("floor_scale", floor_scale, 1)
        self.attn_scale = check_finite("attn_scale", attn_scale)

    def rotate(self, q, k, positions=None):
        pos = default_positions(positions, q.shape[-2], q.device)
        scale = query_temperature(pos, self.floor_scale, self.attn_scale).to(q.dtype)
        scale = scale[:, None, :, None] if scale.dim() == 2 else scale[:, None]  # (batch, 1, L, 1) or (L, 1)
        return q * scale, k


def span_mask(length: int, *, window: int | None = None, chunk: int | None = None,
              dtype=torch.float32, device=None) -> torch.Tensor | None:
    """The additive mask (1, 1, length, length) of causal attention limited to a window of
    ``window`` keys (i − window < j ≤ i) or to chunks of ``chunk`` tokens (⌊i/chunk⌋ = ⌊j/chunk⌋);
    None when neither limits anything (plain causal attention)."""
    length = check_int("length", length, 1)
    i = torch.arange(length, device=device)[:, None]
    j = torch.arange(length, device=device)[None, :]
    seen = j <= i
    limited = False
    if window is not None and check_int("window", window, 1) < length:
        seen &= j > i - window
        limited = True
    if chunk is not None and check_int("chunk", chunk, 1) < length:
        seen &= (j // chunk) == (i // chunk)
        limited = True
    if not limited:
        return None
    return torch.zeros(length, length, dtype=dtype, device=device).masked_fill(~seen, float("-inf"))[None, None]


class LayerMixLM(TinyLM):
    """A TinyLM whose layer l has its own positions, ``layers[l]`` (a :class:`LayerSpec`).

    Its parameters are a RoPE TinyLM's, with the same names, and drawn in the same order: built
    after the same seed, it starts from the same weights as the RoPE model. ``model(tokens)`` with
    tokens (batch, L) → logits (batch, L, vocab_size), as TinyLM.
    """

    def __init__(self, layers, *, vocab_size: int, d_model: int = 64, n_heads: int = 4, mlp_ratio: int = 4):
        layers = tuple(layers)
        if not layers or not all(isinstance(spec, LayerSpec) for spec in layers):
            raise ValueError(f"layers must be a non-empty sequence of LayerSpec, got {layers!r:.80}")
        super().__init__(vocab_size, "rope", d_model, n_heads, len(layers), mlp_ratio=mlp_ratio)
        self.layers = layers
        head_dim = d_model // n_heads
        self.layer_schemes = torch.nn.ModuleList(
            PositionScheme(n_heads, head_dim) if spec.base is None else RoPE(n_heads, head_dim, base=spec.base)
            for spec in layers)
        self.chunk, self.temperature = None, None

    def set_long_context(self, chunk: int | None = None, temperature_floor: int | None = None) -> LayerMixLM:
        """Evaluation-time settings: RoPE layers attend within chunks of ``chunk`` tokens (None: no
        chunks); NoPE layers scale their queries by ``query_temperature`` with floor_scale
        ``temperature_floor`` (None: no temperature). Returns the model."""
        self.chunk = None if chunk is None else check_int("chunk", chunk, 1)
        self.temperature = None if temperature_floor is None else check_int("temperature_floor", temperature_floor, 1)
        n_heads, head_dim = self.config.n_heads, self.config.d_model // self.config.n_heads
        for index, spec in enumerate(self.layers):
            if spec.base is None:
                self.layer_schemes[index] = (PositionScheme(n_heads, head_dim) if self.temperature is None else
                                             NoPositionTemperature(n_heads, head_dim, floor_scale=self.temperature))
        return self

    def _layer_attention(self, positions, length, h):
        """Layer l's scheme, and its mask: causal, limited to the layer's window, and for a RoPE layer to
        the chunks of ``set_long_context``."""
        return [(layer_scheme, span_mask(length, window=spec.window, chunk=None if spec.base is None else self.chunk,
                                         dtype=h.dtype, device=h.device))
                for spec, layer_scheme in zip(self.layers, self.layer_schemes, strict=True)]

    def extra_repr(self) -> str:
        return super().extra_repr() + ", layers=" + ", ".join(
            ("none" if s.base is None else f"rope {s.base:g}") + ("" if s.window is None else f" window {s.window}")
            for s in self.layers)


def build_layer_mix_model(mix: str, seed: int = 0) -> LayerMixLM:
    """An untrained mix of ``LAYER_MIXES``, weights drawn after torch.manual_seed(seed): the same
    initial weights as lesson 08's RoPE model of that seed."""
    mix = check_choice("mix", mix, tuple(LAYER_MIXES))
    config = {k: v for k, v in TEXT_CONFIG.items() if k != "n_layers"}
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(check_int("seed", seed, 0))
        return LayerMixLM(LAYER_MIXES[mix], **config)


def raise_base(model: TinyLM, base: float) -> TinyLM:
    """Give a RoPE TinyLM the frequencies of ``base``: ω_i = base^(−2i/head_dim); returns the model."""
    scheme = model.scheme
    if not isinstance(scheme, RoPE):
        raise ValueError(f"model must be a RoPE TinyLM, got scheme {scheme.name!r}")
    scheme.set_frequencies(frequencies(scheme.head_dim, check_finite("base", base), torch.float64))
    return model


def _data(name: str):
    return resources.files(__package__).joinpath("data").joinpath("lesson12").joinpath(name)


def _check_name(name: str, seed: int) -> tuple[str, int]:
    name = check_choice("name", name, LESSON12_MODELS)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed not in TEXT_SEEDS:
        raise ValueError(f"seed must be one of {TEXT_SEEDS} (the seeds shipped), got {seed!r}")
    return name, seed


def lesson12_manifest(name: str, seed: int = 0) -> dict:
    """The JSON manifest of a shipped lesson-12 model (``name`` one of LESSON12_MODELS)."""
    name, seed = _check_name(name, seed)
    return json.loads(_data(f"{name}-seed{seed}.json").read_text(encoding="utf-8"))


def load_lesson12_model(name: str, seed: int = 0) -> TinyLM:
    """A shipped lesson-12 model in eval mode: a mix of ``LAYER_MIXES`` ("nope-middle",
    "local-global") or "rope-ft-base-500k" (lesson 08's RoPE model trained on at 4·L with base
    500 000, returned with that base)."""
    name, seed = _check_name(name, seed)
    if name in LAYER_MIXES:
        model = build_layer_mix_model(name, seed)
    else:
        model = raise_base(build_text_model("rope", seed), RAISED_BASE[name.removeprefix("rope-")])
    with _data(f"{name}-seed{seed}.pt").open("rb") as f:
        load_parameters(model, torch.load(f, map_location="cpu", weights_only=True))
    return model.eval()



# ---------------------------------------------------------------------------------------------
# What lesson 12 measures on them

# row → how to get the model of a seed; "08"/"09" rows are the shipped models of those lessons
MIX_ROWS = {
    "RoPE (08)": lambda seed: _shipped("rope", seed),
    "RoPE (08), chunks of L": lambda seed: _rope_in_chunks(seed),
    "no positions (08)": lambda seed: _shipped("none", seed),
    "NoPE middle": lambda seed: load_lesson12_model("nope-middle", seed),
    "NoPE middle, chunks of L": lambda seed: load_lesson12_model("nope-middle", seed).set_long_context(
        chunk=TEXT_LENGTH),
    "NoPE middle, chunks of L + temperature": lambda seed: load_lesson12_model("nope-middle", seed).set_long_context(
        chunk=TEXT_LENGTH, temperature_floor=TEXT_LENGTH),
    "local 10⁴ (window 32) + global 10⁶": lambda seed: load_lesson12_model("local-global", seed),
}
# the RoPE model trained on at 4·L: lesson 09's fine-tunes with base 10⁴ ("plain") and the NTK rule's base
# (about 4.9·10⁴ at factor 4 for heads of 16), and lesson 12's base 500 000; YaRN's beside them
RAISED_ROWS = {
    "base 10⁴ (09: plain)": lambda seed: _shipped("rope", seed, "ft-plain"),
    "NTK rule's base (09: ntk)": lambda seed: _shipped("rope", seed, "ft-ntk"),
    "base 500 000": lambda seed: load_lesson12_model("rope-ft-base-500k", seed),
    "YaRN ×4 (09)": lambda seed: _shipped("rope", seed, "ft-yarn"),
}


def _shipped(scheme: str, seed: int, variant: str = "base"):
    return load_text_model(scheme, seed, variant)


def _rope_in_chunks(seed: int) -> LayerMixLM:
    """Lesson 08's RoPE model with every layer attending within chunks of L."""
    model = LayerMixLM([LayerSpec(10_000.0)] * TEXT_CONFIG["n_layers"],
                       **{k: v for k, v in TEXT_CONFIG.items() if k != "n_layers"})
    load_parameters(model, stored_parameters(_shipped("rope", seed)))
    return model.set_long_context(chunk=TEXT_LENGTH).eval()


class MixLosses(NamedTuple):
    """Whole-input loss (nats per byte) of each row's model, per seed and input length."""

    loss: dict[str, torch.Tensor]  # row → (len(seeds), len(lengths)) float64
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]

    def at(self, row: str, n: int) -> torch.Tensor:
        """(len(seeds),): each seed's loss of ``row`` on inputs of n."""
        return self.loss[check_choice("row", row, tuple(self.loss))][:, self.lengths.index(n)]

    def table(self) -> tuple[list[list[str]], list[str]]:
        """(rows, columns) for ``H.show_table``: each row's losses at each length, seed by seed ("1.38 | 1.40")."""
        columns = ["model", *("n = " + (f"{n // TEXT_LENGTH}L" if n > TEXT_LENGTH else "L") for n in self.lengths)]
        rows = [[row, *(" | ".join(f"{v:.2f}" for v in column) for column in loss.T.tolist())]
                for row, loss in self.loss.items()]
        return rows, columns


def mix_losses(rows: str = "mixes", lengths=(TEXT_LENGTH, 4 * TEXT_LENGTH, 8 * TEXT_LENGTH),
               tokens: int | None = None) -> MixLosses:
    """The loss over every position of the validation windows of each length n (``text_valid_loss``)
    for each row of ``MIX_ROWS`` (``rows="mixes"``) or ``RAISED_ROWS`` (``rows="raised"``), both seeds;
    ``tokens``: only the first tokens of the validation split (as lesson 09's tables)."""
    table = {"mixes": MIX_ROWS, "raised": RAISED_ROWS}[check_choice("rows", rows, ("mixes", "raised"))]
    lengths = tuple(check_int("length", n, 1) for n in lengths)
    loss = {}
    for row, load in table.items():
        loss[row] = torch.tensor([[text_valid_loss(model, n, tokens=tokens) for n in lengths]
                                  for model in (load(seed) for seed in TEXT_SEEDS)], dtype=torch.float64)
    return MixLosses(loss, lengths, TEXT_SEEDS)
