"""Train lesson 12's text models (helpers/text/data/lesson12; CONTRIBUTING.md states the last run's time).

    .venv/bin/python benchmarks/train_lesson12_models.py          # every model, both seeds, then writes the files
    .venv/bin/python benchmarks/train_lesson12_models.py --only local-global

What it trains, with lesson 08's recipe (``benchmarks/train_text_models.py``: its steps, batch, learning
rate, and the same random windows for each seed):

- each mix of ``helpers.text.layer_mix.LAYER_MIXES`` ("nope-middle": RoPE, no positions, RoPE;
  "local-global": two sliding-window layers with base 10⁴, one global layer with base 10⁶), from the
  same initial weights as lesson 08's RoPE model of that seed;
- "rope-ft-base-500k": lesson 08's shipped RoPE model of that seed, its base raised to 500 000, trained
  on at 4·L with lesson 09's fine-tuning recipe (the same steps, batch, learning rate and windows as
  lesson 09's fine-tunes, "ft-plain" and "ft-ntk" among them).

``TEXT_MODELS_OUT=DIR`` writes to DIR instead (a trial run). Each model is stored as 16-bit parameters
with a JSON manifest; its ``valid_loss`` is computed from the stored weights on the CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import sys
import time

import torch
from tqdm import tqdm

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from train_text_models import (  # noqa: E402
    BASE_STEPS,
    BATCH,
    CURVE_EVERY,
    FT_BATCH,
    FT_LR,
    FT_STEPS,
    LR,
    code_version,
    run_seeds,
    shipped_rope,
    train,
)

from helpers.text.corpus import CORPUS_SHA256, text_corpus  # noqa: E402
from helpers.text.evaluate import text_valid_loss  # noqa: E402
from helpers.text.layer_mix import (  # noqa: E402
    LAYER_MIXES,
    LESSON12_MODELS,
    RAISED_BASE,
    build_layer_mix_model,
    raise_base,
)
from helpers.text.models import (  # noqa: E402
    FINE_TUNE_LENGTH,
    TEXT_CONFIG,
    TEXT_LENGTH,
    TEXT_SEEDS,
    build_text_model,
    load_parameters,
    stored_parameters,
)

SHIPPED = ROOT / "helpers" / "text" / "data" / "lesson12"
OUT = pathlib.Path(os.environ.get("TEXT_MODELS_OUT", SHIPPED))


def fresh(name: str, seed: int):
    """The model ``name`` of ``seed`` before its training: a mix's initial weights, or the shipped
    RoPE model with its raised base."""
    if name in LAYER_MIXES:
        return build_layer_mix_model(name, seed)
    model = load_parameters(build_text_model("rope", seed), shipped_rope(seed))
    return raise_base(model, RAISED_BASE[name.removeprefix("rope-")])


def save(model, name: str, seed: int, manifest: dict) -> None:
    """Write the 16-bit parameters, reload them into a fresh model and measure valid_loss from them."""
    stem = f"{name}-seed{seed}"
    path = OUT / f"{stem}.pt"
    torch.save(stored_parameters(model), path)
    stored = build_layer_mix_model(name, seed) if name in LAYER_MIXES else raise_base(
        build_text_model("rope", seed), RAISED_BASE[name.removeprefix("rope-")])
    load_parameters(stored, torch.load(path, map_location="cpu", weights_only=True))
    manifest["valid_loss"] = round(text_valid_loss(stored.eval(), TEXT_LENGTH), 5)
    manifest["weights_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["weights_file"] = path.name
    (OUT / f"{stem}.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def train_seed(seed: int, threads: int, version: dict, position: int, names: tuple[str, ...]) -> None:
    torch.set_num_threads(threads)
    ids = text_corpus("train")
    total = sum(BASE_STEPS if name in LAYER_MIXES else FT_STEPS for name in names)
    with tqdm(total=total, desc=f"seed {seed}", file=sys.stderr, mininterval=2.0, position=position) as bar:
        for name in names:
            bar.set_description(f"seed {seed}: {name}")
            model = fresh(name, seed)
            t0 = time.perf_counter()
            common = {"name": name, "seed": seed, "train_length": TEXT_LENGTH, "corpus_sha256": CORPUS_SHA256,
                      "code_version": version}
            if name in LAYER_MIXES:
                train_loss, curve = train(model, ids, steps=BASE_STEPS, batch=BATCH, length=TEXT_LENGTH, lr=LR,
                                          seed=seed, bar=bar, curve_every=CURVE_EVERY)
                manifest = {**common, "layers": [{"base": s.base, "window": s.window} for s in LAYER_MIXES[name]],
                            "config": TEXT_CONFIG, "steps": BASE_STEPS, "batch": BATCH, "lr": LR,
                            "tokens_seen": BASE_STEPS * BATCH * TEXT_LENGTH,
                            "valid_curve": {"steps": [c[0] for c in curve], "loss_within_L": [c[1] for c in curve]}}
            else:
                train_loss, _ = train(model, ids, steps=FT_STEPS, batch=FT_BATCH, length=FINE_TUNE_LENGTH,
                                      lr=FT_LR, seed=1000 + seed, bar=bar)
                manifest = {**common, "base": RAISED_BASE[name.removeprefix("rope-")], "config": TEXT_CONFIG,
                            "fine_tune": {"length": FINE_TUNE_LENGTH, "steps": FT_STEPS, "batch": FT_BATCH,
                                          "lr": FT_LR, "tokens": FT_STEPS * FT_BATCH * FINE_TUNE_LENGTH,
                                          "from": f"rope-seed{seed}"},
                            "steps": BASE_STEPS + FT_STEPS,
                            "tokens_seen": BASE_STEPS * BATCH * TEXT_LENGTH + FT_STEPS * FT_BATCH * FINE_TUNE_LENGTH}
            manifest["train_loss"] = round(train_loss, 5)
            manifest["train_seconds"] = round(time.perf_counter() - t0, 1)
            save(model, name, seed, manifest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: steady on a shared machine)")
    parser.add_argument("--jobs", type=int, default=2, help="seeds trained at once, one process each")
    parser.add_argument("--only", nargs="+", choices=LESSON12_MODELS, metavar="NAME", default=list(LESSON12_MODELS),
                        help=f"train only these models, every seed (one or more of {', '.join(LESSON12_MODELS)})")
    args = parser.parse_args()
    names = tuple(args.only)
    OUT.mkdir(parents=True, exist_ok=True)
    # the commit and torch from the shared helper; the hash of this script, which trained them
    version = {**code_version(), "script_sha256": hashlib.sha256(pathlib.Path(__file__).read_bytes()).hexdigest()}
    start = time.perf_counter()
    run_seeds(train_seed, [(seed, args.threads, version, i, names) for i, seed in enumerate(TEXT_SEEDS)], args.jobs)
    print(f"trained {len(TEXT_SEEDS) * len(names)} models in {time.perf_counter() - start:.0f} s wall time")


if __name__ == "__main__":
    main()
