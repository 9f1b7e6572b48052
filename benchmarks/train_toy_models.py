"""Train lesson 08's six toy models (seed 0, ``helpers.SHORT_CONTEXT``) and store them with the course.

    .venv/bin/python benchmarks/train_toy_models.py [--workers 2] [--out DIR]

Trains exactly what ``helpers.train_models(helpers.SHORT_CONTEXT)`` trains (each model on one thread,
``--workers`` at a time, so the weights do not depend on it), prints the wall time, and writes
``helpers/measure/l08_train_short_test_long/toy_models/<scheme>.pt`` (every parameter, float32) and
``manifest.json`` (settings, seed, torch version, CPU capability, each file's sha256, each model's last
training loss). ``--out`` writes them elsewhere (a trial run). Lesson 08 loads them with
``l08.load_toy_models()``; about a minute and a half on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import helpers as H  # noqa: E402
from helpers.measure import l08_train_short_test_long as l08  # noqa: E402
from helpers.measure.l08_train_short_test_long import toy_models  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="models trained at a time (default 2)")
    parser.add_argument("--out", type=pathlib.Path, default=toy_models.TOY_MODELS, help="where to write")
    args = parser.parse_args()
    settings, seed = H.SHORT_CONTEXT, toy_models.TOY_SEED
    at_start = toy_models.tensor_sha256(toy_models.unused_rows(l08.build_model("learned", settings, seed),
                                                                settings.length))
    start = time.perf_counter()
    models = l08.train_models(settings, seed=seed, workers=args.workers)
    seconds = time.perf_counter() - start
    print(f"trained {len(models)} models in {seconds:.0f} s")
    args.out.mkdir(parents=True, exist_ok=True)
    task = settings.task()
    record = {}
    for name, model in models.items():
        path = args.out / f"{name}.pt"
        torch.save({k: v.detach().clone() for k, v in model.state_dict().items()}, path)
        inputs, targets = task.sample(settings.batch, settings.length, torch.Generator().manual_seed(12345))
        with torch.no_grad():
            loss = torch.nn.functional.cross_entropy(model(inputs).transpose(1, 2), targets).item()
        record[name] = {"sha256": toy_models.file_sha256(path), "check_loss": round(loss, 6)}
    manifest = {
        "settings": toy_models.settings_record(settings),
        "seed": seed,
        "torch": torch.__version__.split("+")[0],
        "capability": os.environ.get("ATEN_CPU_CAPABILITY") or torch.backends.cpu.get_cpu_capability(),
        "train_seconds": round(seconds),
        "check_batch": "one batch of settings.batch sequences of settings.length from seed 12345: "
                       "the loss each model scored on it when it was stored",
        "models": record,
        "learned_rows_past_L_at_start": at_start,
        "learned_rows_note": "sha256 of the float32 bytes of the learned model's rows L … (untrained, as drawn "
                             "before training)",
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(models)} models and manifest.json to {args.out}")


if __name__ == "__main__":
    main()
