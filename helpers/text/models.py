"""The TinyLMs trained on the real-text corpus, shipped with the course, and their loader.

Every model is a :class:`helpers.TinyLM` (d_model 64, 4 heads of 16, 3 layers, MLP 4× wide: about
180 k parameters) trained on the byte-level corpus of :mod:`helpers.text.corpus` at the training
length ``TEXT_LENGTH`` = L = 128 bytes, one per scheme of ``TEXT_SCHEMES`` and seed of ``TEXT_SEEDS``
(``variant="base"``). For lesson 09 each RoPE model also has seven short fine-tunes at 4·L
(``FINE_TUNES``, variant → (method, factor)): its frequencies stretched by one method of
``helpers.STRETCHES`` at factor 4 ("ft-<method>"; "plain" keeps them: Chen et al.'s plain fine-tuning),
and by YaRN at factor 8 ("ft-yarn-x8": configured for 8·L, twice the length it is fine-tuned at, as
Peng et al. configure YaRN for the length they test), then trained a few steps at 4·L.

Why L = 128 bytes (about 20 words): the model's 16-wide heads have 8 RoPE pairs, and with base 10⁴ the
5 slowest turn less than once within 128 positions, so most of RoPE's spectrum is never seen through a
full turn, as in a large model at its training length; 8·L = 1024 is still cheap to evaluate on two
cores, and training at 128 keeps each model to about a minute and a half here.

Weights ship in 16-bit (``data/models/<name>.pt``, parameters only) with a JSON manifest beside each
(``<name>.json``): scheme, seed, train_length, config, steps, tokens_seen, corpus_sha256, train_loss,
valid_loss (mean next-token loss in nats over the validation split cut into non-overlapping windows of
train_length, every position counted, computed from the stored 16-bit weights on the CPU), the code
version, the validation curve recorded while training and the weights file's sha256.
``benchmarks/train_text_models.py`` retrains all of them.
"""

from __future__ import annotations

import json
from importlib import resources

import torch

from .._checks import check_choice, check_int
from ..measure.l09_stretching_rope import STRETCHES, apply_stretch
from ..model import TinyLM
from .corpus import VOCAB_SIZE

TEXT_SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi", "t5")
TEXT_SEEDS = (0, 1)
TEXT_LENGTH = 128
# the longest length every shipped model reads: the learned table has this many rows (the rows past
# TEXT_LENGTH keep their random initial values: nothing trains them)
TEXT_MAX_LENGTH = 8 * TEXT_LENGTH
TEXT_CONFIG = {"vocab_size": VOCAB_SIZE, "d_model": 64, "n_heads": 4, "n_layers": 3, "mlp_ratio": 4}
# lesson 09's fine-tunes: factor and length
FINE_TUNE_FACTOR = 4
FINE_TUNE_LENGTH = FINE_TUNE_FACTOR * TEXT_LENGTH
# every fine-tune, variant → (stretching method, factor): each method configured for the fine-tuning
# length (factor 4), and YaRN configured for 8·L (factor 8), fine-tuned at the same length 4·L
FINE_TUNES = {**{f"ft-{method}": (method, FINE_TUNE_FACTOR) for method in STRETCHES}, "ft-yarn-x8": ("yarn", 8)}
TEXT_VARIANTS = ("base", *FINE_TUNES)


def model_options(scheme: str) -> dict:
    """The keyword arguments of TinyLM for ``scheme`` (its config, and max_len for "learned")."""
    scheme = check_choice("scheme", scheme, TEXT_SCHEMES)
    return {**TEXT_CONFIG, "scheme": scheme, "max_len": TEXT_MAX_LENGTH if scheme == "learned" else None}


def build_text_model(scheme: str, seed: int = 0) -> TinyLM:
    """An untrained text TinyLM with ``scheme``, weights drawn after torch.manual_seed(seed) (the
    global generator is left as it was)."""
    options = model_options(scheme)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(check_int("seed", seed, 0))
        return TinyLM(**options)


def model_name(scheme: str, seed: int, variant: str = "base") -> str:
    """The file stem of a shipped model: "<scheme>-seed<seed>", plus "-<variant>" for a fine-tune."""
    return f"{scheme}-seed{seed}" + ("" if variant == "base" else f"-{variant}")


def _check_model(scheme, seed, variant):
    scheme = check_choice("scheme", scheme, TEXT_SCHEMES)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed not in TEXT_SEEDS:
        raise ValueError(f"seed must be one of {TEXT_SEEDS} (the seeds shipped), got {seed!r}")
    variant = check_choice("variant", variant, TEXT_VARIANTS)
    if variant != "base" and scheme != "rope":
        raise ValueError(f"variant {variant!r} exists for scheme 'rope' only; scheme {scheme!r} has variant 'base'")
    return scheme, seed, variant


def _data(name: str):
    return resources.files(__package__).joinpath("data").joinpath("models").joinpath(name)


def text_manifest(scheme: str, seed: int = 0, variant: str = "base") -> dict:
    """The JSON manifest of a shipped model, as a dict."""
    scheme, seed, variant = _check_model(scheme, seed, variant)
    return json.loads(_data(model_name(scheme, seed, variant) + ".json").read_text(encoding="utf-8"))


def stored_parameters(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """What a weights file holds: every parameter, in 16-bit (bfloat16 keeps float32's range; float16
    keeps 3 more bits of mantissa: the shipped files use float16)."""
    return {name: p.detach().to(torch.float16).clone() for name, p in model.named_parameters()}


def load_parameters(model: torch.nn.Module, state: dict[str, torch.Tensor]) -> torch.nn.Module:
    """Load 16-bit parameters into ``model`` (as float32); buffers (RoPE's frequencies) stay as built."""
    names = {name for name, _ in model.named_parameters()}
    if set(state) != names:
        raise ValueError(f"the weights file holds parameters {sorted(set(state) ^ names)} that do not match the model")
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(state[name].to(p.dtype))
    return model


def load_text_model(scheme: str, seed: int = 0, variant: str = "base") -> TinyLM:
    """A shipped text model in eval mode: ``scheme`` one of TEXT_SCHEMES, ``seed`` one of TEXT_SEEDS,
    ``variant`` "base", or for "rope" one of the fine-tunes of FINE_TUNES ("ft-<method>" at factor 4,
    "ft-yarn-x8"), which come with their stretched frequencies applied (those of their manifest).
    ``model(ids)`` with ids (B, T), T ≤ 8·L = 1024 (any T for every scheme but "learned"), returns
    logits (B, T, 256)."""
    scheme, seed, variant = _check_model(scheme, seed, variant)
    model = build_text_model(scheme, seed)
    with _data(model_name(scheme, seed, variant) + ".pt").open("rb") as f:
        state = torch.load(f, map_location="cpu", weights_only=True)
    load_parameters(model, state)
    if variant != "base":
        manifest = text_manifest(scheme, seed, variant)
        stretch = manifest["stretch"]
        apply_stretch(model, stretch["method"], stretch["factor"], manifest["train_length"])
    return model.eval()
