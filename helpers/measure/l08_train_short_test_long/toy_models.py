"""Lesson 08's six toy models as trained once and shipped, so the lesson needs no training.

``benchmarks/train_toy_models.py`` trains them exactly as :func:`train_models` does with
:data:`helpers.SHORT_CONTEXT` and seed 0 (each model on one thread, about a minute and a half for
all six on two cores), and stores ``toy_models/<scheme>.pt`` (every parameter, float32) with
``toy_models/manifest.json``: the settings, the seed, the torch version and CPU capability they were
trained with, each file's sha256 and each model's last training loss. :func:`load_toy_models` loads
them; ``train_models(settings)`` retrains them (on another CPU, the last digits of a few hundred steps
differ, so the weights do too: the lesson's claims hold over five seeds, ``SEED_SPREAD``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import torch

from ..._checks import check_int
from ...model import TinyLM
from ...training import SHORT_CONTEXT, ShortContext
from .runs import TRAINED_SCHEMES, _check_names, _check_settings, build_model

TOY_MODELS = Path(__file__).resolve().parent / "toy_models"
TOY_SEED = 0


def toy_manifest() -> dict:
    """The shipped models' manifest (settings, seed, versions, sha256 and last training loss per scheme)."""
    return json.loads((TOY_MODELS / "manifest.json").read_text(encoding="utf-8"))


def settings_record(settings: ShortContext) -> dict:
    """The fields of ``settings`` as stored in the manifest."""
    return dataclasses.asdict(_check_settings(settings))


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tensor_sha256(tensor: torch.Tensor) -> str:
    """sha256 of a tensor's float32 bytes: a fingerprint that is equal only for equal values."""
    return hashlib.sha256(tensor.detach().to(torch.float32).contiguous().numpy().tobytes()).hexdigest()


def unused_rows(model: TinyLM, train_length: int) -> torch.Tensor:
    """The rows train_length … of a learned model's position table: the positions training never visits."""
    return model.scheme.table.table.weight[check_int("train_length", train_length, 1):]


def learned_rows_at_start(model: TinyLM, settings: ShortContext = SHORT_CONTEXT, seed: int = TOY_SEED) -> bool:
    """Whether a learned model's rows past the training length are exactly the ones it started from: the
    shipped model's against the fingerprint the training script took before training (another CPU's kernels
    can draw the initial weights differently in their last bits), a model trained here against the same
    rows drawn again here."""
    settings = _check_settings(settings)
    rows = tensor_sha256(unused_rows(model, settings.length))
    drawn_here = tensor_sha256(unused_rows(build_model("learned", settings, check_int("seed", seed, 0)),
                                           settings.length))
    return rows in (toy_manifest()["learned_rows_past_L_at_start"], drawn_here)


def load_toy_models(settings: ShortContext = SHORT_CONTEXT, *, seed: int = TOY_SEED,
                    schemes: Sequence[str] = TRAINED_SCHEMES) -> dict[str, TinyLM]:
    """scheme → the shipped TinyLM that ``train_models(settings, seed=seed)`` trained, in train mode
    as training leaves it. Only the stored settings and seed are shipped (:data:`helpers.SHORT_CONTEXT`,
    seed 0): for any other, train them with :func:`train_models`."""
    settings = _check_settings(settings)
    seed = check_int("seed", seed, 0)
    names = _check_names(schemes)
    manifest = toy_manifest()
    if settings_record(settings) != manifest["settings"] or seed != manifest["seed"]:
        raise ValueError(f"only the models of settings helpers.SHORT_CONTEXT with seed {manifest['seed']} are "
                         "shipped; train others with helpers.train_models(settings, seed=...)")
    models = {}
    for name in names:
        path = TOY_MODELS / f"{name}.pt"
        if file_sha256(path) != manifest["models"][name]["sha256"]:
            raise RuntimeError(f"{path.name} does not match its sha256 in the manifest: a damaged copy?")
        model = build_model(name, settings, seed)
        model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
        models[name] = model
    return models
