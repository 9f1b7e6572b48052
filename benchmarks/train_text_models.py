"""Retrain every text model that ships in helpers/text/data/models (CONTRIBUTING.md states the last full run's time).

    .venv/bin/python benchmarks/train_text_models.py            # everything, then writes the files
    .venv/bin/python benchmarks/train_text_models.py --only ft-yarn-x8   # only these variants, both seeds
    .venv/bin/python benchmarks/train_text_models.py --measure  # steps per second, nothing written

What it trains (fixed step counts, so a run is deterministic given the seeds, the thread count and
the CPU's kernels):

- one TinyLM per scheme of ``TEXT_SCHEMES`` and seed of ``TEXT_SEEDS``: ``BASE_STEPS`` steps of
  ``BATCH`` windows of L = 128 bytes drawn at random from the training split (the same windows, in
  the same order, for every scheme of one seed), AdamW at ``LR`` with a warm-up and cosine decay
  (``helpers.training.learning_rate``); the validation loss within L (windows of L over the whole
  validation split) is recorded every ``CURVE_EVERY`` steps: the validation curve;
- from each RoPE model, seven fine-tunes at 4·L = 512 (``helpers.text.models.FINE_TUNES``): the
  frequencies stretched at factor 4 by each method of ``helpers.STRETCHES`` ("plain": unchanged, Chen et
  al.'s plain fine-tuning), and by YaRN at factor 8 ("ft-yarn-x8", configured for 8·L), then
  ``FT_STEPS`` steps of ``FT_BATCH`` windows of 512 (the same windows for every fine-tune), AdamW at
  ``FT_LR``. Every fine-tune sees the same number of tokens.

``--only VARIANT …`` trains only the named variants ("base" retrains the six schemes; a fine-tune
starts from the shipped 16-bit RoPE model of its seed, the same weights a full run fine-tunes), for every
seed, and leaves every other file as it is. ``TEXT_MODELS_OUT=DIR`` writes to DIR instead (a trial run).

Each model is stored as 16-bit parameters with a JSON manifest; its ``valid_loss`` is computed from
the stored 16-bit weights on the CPU. The script prints one progress bar and its total wall time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import pathlib
import subprocess
import sys
import time

import torch
import torch.nn.functional as F
from tqdm import tqdm

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.measure.l09_stretching_rope import apply_stretch  # noqa: E402
from helpers.text.corpus import CORPUS_SHA256, text_corpus  # noqa: E402
from helpers.text.evaluate import text_valid_loss  # noqa: E402
from helpers.text.models import (  # noqa: E402
    FINE_TUNE_LENGTH,
    FINE_TUNES,
    TEXT_CONFIG,
    TEXT_LENGTH,
    TEXT_SCHEMES,
    TEXT_SEEDS,
    TEXT_VARIANTS,
    build_text_model,
    load_parameters,
    model_name,
    model_options,
    stored_parameters,
)
from helpers.training import learning_rate  # noqa: E402

BATCH, BASE_STEPS, LR, CURVE_EVERY = 32, 600, 5e-3, 30
FT_BATCH, FT_STEPS, FT_LR = 8, 48, 1e-3
SHIPPED = ROOT / "helpers" / "text" / "data" / "models"
# TEXT_MODELS_OUT: write somewhere else (a trial run), leaving the shipped models alone
OUT = pathlib.Path(os.environ.get("TEXT_MODELS_OUT", SHIPPED))


def windows(ids: torch.Tensor, batch: int, length: int, generator: torch.Generator):
    starts = torch.randint(0, ids.numel() - length - 1, (batch,), generator=generator)
    rows = starts[:, None] + torch.arange(length + 1)
    chunk = ids[rows]
    return chunk[:, :-1], chunk[:, 1:]


def train(model, ids, *, steps, batch, length, lr, seed, bar, curve_every=None):
    """AdamW (fused, no weight decay) with warm-up and cosine decay; returns (mean loss of the last
    10% of steps, curve as [[step, valid loss within L], …])."""
    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0, fused=True)
    warmup = min(30, max(1, steps // 10))
    losses, curve = [], []
    model.train()
    for step in range(steps):
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(step, steps, lr, warmup)
        x, y = windows(ids, batch, length, generator)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        bar.update(1)
        bar.set_postfix_str(f"loss {losses[-1]:.3f}", refresh=False)
        if curve_every and ((step + 1) % curve_every == 0 or step + 1 == steps):
            curve.append([step + 1, round(text_valid_loss(model, TEXT_LENGTH), 5)])
            model.train()
    model.eval()
    tail = losses[-max(1, steps // 10):]
    return sum(tail) / len(tail), curve


def code_version() -> dict:
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"commit": commit, "script_sha256": hashlib.sha256(pathlib.Path(__file__).read_bytes()).hexdigest(),
            "torch": torch.__version__}


def save(model, name, manifest) -> None:
    """Write the 16-bit parameters, reload them into a fresh model and measure valid_loss from them."""
    path = OUT / f"{name}.pt"
    torch.save(stored_parameters(model), path)
    stored = build_text_model(manifest["scheme"], manifest["seed"])
    load_parameters(stored, torch.load(path, map_location="cpu", weights_only=True))
    if "stretch" in manifest:
        apply_stretch(stored, manifest["stretch"]["method"], manifest["stretch"]["factor"], TEXT_LENGTH)
    manifest["valid_loss"] = round(text_valid_loss(stored, manifest["train_length"]), 5)
    manifest["weights_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["weights_file"] = path.name
    (OUT / f"{name}.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def shipped_rope(seed: int) -> dict[str, torch.Tensor]:
    """The stored 16-bit parameters of the RoPE model of ``seed``: from OUT if a run wrote it there, else
    the shipped file."""
    name = model_name("rope", seed) + ".pt"
    path = OUT / name if (OUT / name).exists() else SHIPPED / name
    return torch.load(path, map_location="cpu", weights_only=True)


def run_seeds(train_one, jobs: list[tuple], processes: int) -> None:
    """``train_one(*job)`` for every job (one per seed): in ``processes`` processes at once, or here."""
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(min(processes, len(jobs))) as pool:
            pool.starmap(train_one, jobs)
    else:
        for job in jobs:
            train_one(*job)


def train_seed(seed: int, threads: int, version: dict, position: int,
               variants: tuple[str, ...] = TEXT_VARIANTS) -> None:
    """The models of one seed named by ``variants`` ("base": the six schemes; then the RoPE model's
    fine-tunes among them), by default every one."""
    torch.set_num_threads(threads)
    ids = text_corpus("train")
    tunes = [v for v in FINE_TUNES if v in variants]
    schemes = TEXT_SCHEMES if "base" in variants else ()
    total = len(schemes) * BASE_STEPS + len(tunes) * FT_STEPS
    base = None if schemes else shipped_rope(seed)
    with tqdm(total=total, desc=f"seed {seed}", file=sys.stderr, mininterval=2.0, position=position) as bar:
        for scheme in schemes:
            bar.set_description(f"seed {seed}: {scheme}")
            model = build_text_model(scheme, seed)
            t0 = time.perf_counter()
            train_loss, curve = train(model, ids, steps=BASE_STEPS, batch=BATCH, length=TEXT_LENGTH, lr=LR,
                                      seed=seed, bar=bar, curve_every=CURVE_EVERY)
            options = model_options(scheme)
            save(model, model_name(scheme, seed), {
                "scheme": scheme, "seed": seed, "variant": "base", "train_length": TEXT_LENGTH,
                "config": {**TEXT_CONFIG, "max_len": options["max_len"]},
                "steps": BASE_STEPS, "batch": BATCH, "lr": LR, "tokens_seen": BASE_STEPS * BATCH * TEXT_LENGTH,
                "corpus_sha256": CORPUS_SHA256, "train_loss": round(train_loss, 5),
                "train_seconds": round(time.perf_counter() - t0, 1), "code_version": version,
                "valid_curve": {"steps": [c[0] for c in curve], "loss_within_L": [c[1] for c in curve]},
            })
            if scheme == "rope":
                base = {k: v.clone() for k, v in stored_parameters(model).items()}
        for variant in tunes:
            method, factor = FINE_TUNES[variant]
            bar.set_description(f"seed {seed}: rope {variant}")
            tuned = load_parameters(build_text_model("rope", seed), base)  # from the stored 16-bit weights
            apply_stretch(tuned, method, factor, TEXT_LENGTH)
            t0 = time.perf_counter()
            train_loss, _ = train(tuned, ids, steps=FT_STEPS, batch=FT_BATCH, length=FINE_TUNE_LENGTH,
                                  lr=FT_LR, seed=1000 + seed, bar=bar)
            save(tuned, model_name("rope", seed, variant), {
                "scheme": "rope", "seed": seed, "variant": variant, "train_length": TEXT_LENGTH,
                "stretch": {"method": method, "factor": factor},
                "fine_tune": {"length": FINE_TUNE_LENGTH, "steps": FT_STEPS, "batch": FT_BATCH, "lr": FT_LR,
                              "tokens": FT_STEPS * FT_BATCH * FINE_TUNE_LENGTH, "from": model_name("rope", seed)},
                "config": {**TEXT_CONFIG, "max_len": None},
                "steps": BASE_STEPS + FT_STEPS, "batch": BATCH,
                "tokens_seen": BASE_STEPS * BATCH * TEXT_LENGTH + FT_STEPS * FT_BATCH * FINE_TUNE_LENGTH,
                "corpus_sha256": CORPUS_SHA256, "train_loss": round(train_loss, 5),
                "train_seconds": round(time.perf_counter() - t0, 1), "code_version": version,
            })


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: steady on a shared machine)")
    parser.add_argument("--jobs", type=int, default=2, help="seeds trained at once, one process each")
    parser.add_argument("--measure", action="store_true", help="time a few steps and stop")
    parser.add_argument("--only", nargs="+", choices=TEXT_VARIANTS, metavar="VARIANT", default=list(TEXT_VARIANTS),
                        help=f"train only these variants, every seed (one or more of {', '.join(TEXT_VARIANTS)})")
    args = parser.parse_args()
    variants = tuple(args.only)
    torch.set_num_threads(args.threads)
    ids = text_corpus("train")
    if args.measure:
        for length, batch in ((TEXT_LENGTH, BATCH), (FINE_TUNE_LENGTH, FT_BATCH)):
            model = build_text_model("t5", 0)
            with tqdm(total=20, file=sys.stderr, leave=False) as bar:
                start = time.perf_counter()
                train(model, ids, steps=20, batch=batch, length=length, lr=LR, seed=0, bar=bar)
            print(f"L = {length}, batch {batch}: {20 / (time.perf_counter() - start):.2f} steps/s")
        start = time.perf_counter()
        text_valid_loss(model, TEXT_LENGTH)
        print(f"one validation pass within L: {time.perf_counter() - start:.2f} s")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    version = code_version()
    start = time.perf_counter()
    run_seeds(train_seed, [(seed, args.threads, version, i, variants) for i, seed in enumerate(TEXT_SEEDS)],
              args.jobs)
    count = len(TEXT_SCHEMES) * ("base" in variants) + sum(v in variants for v in FINE_TUNES)
    print(f"trained {len(TEXT_SEEDS) * count} models in {time.perf_counter() - start:.0f} s wall time")


if __name__ == "__main__":
    main()
