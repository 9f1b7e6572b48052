"""Lesson 08's shipped toy models (helpers.measure.l08_train_short_test_long.toy_models): the files
match their manifest, the manifest matches the lesson's settings, loading rejects what is not
shipped, and retraining one model with helpers.train_models reproduces what was shipped."""

import dataclasses
import json

import pytest
import torch

import helpers as H
from helpers.measure import l08_train_short_test_long as l08
from helpers.measure.l08_train_short_test_long import toy_models


def test_every_file_matches_its_sha256_and_the_settings_are_the_lessons():
    manifest = l08.toy_manifest()
    assert manifest["settings"] == dataclasses.asdict(H.SHORT_CONTEXT) and manifest["seed"] == 0
    assert sorted(manifest["models"]) == sorted(l08.TRAINED_SCHEMES)
    for name, record in manifest["models"].items():
        assert toy_models.file_sha256(l08.TOY_MODELS / f"{name}.pt") == record["sha256"], name


def test_loaded_models_score_the_check_batch_as_stored():
    manifest = l08.toy_manifest()
    models = l08.load_toy_models()
    task, s = H.SHORT_CONTEXT.task(), H.SHORT_CONTEXT
    inputs, targets = task.sample(s.batch, s.length, torch.Generator().manual_seed(12345))
    for name, model in models.items():
        with torch.no_grad():
            loss = torch.nn.functional.cross_entropy(model(inputs).transpose(1, 2), targets).item()
        assert loss == pytest.approx(manifest["models"][name]["check_loss"], abs=1e-4), name
        assert loss < task.floor_by_position(s.length).mean().item() + 2.0  # a trained model, not a random one


def test_only_the_shipped_settings_and_seed_load():
    with pytest.raises(ValueError, match="only the models of settings"):
        l08.load_toy_models(seed=1)
    with pytest.raises(ValueError, match="only the models of settings"):
        l08.load_toy_models(dataclasses.replace(H.SHORT_CONTEXT, steps=10))
    with pytest.raises(ValueError, match="schemes"):
        l08.load_toy_models(schemes=("shaw",))


def test_a_damaged_file_is_refused(tmp_path, monkeypatch):
    for path in l08.TOY_MODELS.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["models"]["rope"]["sha256"] = "0" * 64
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(toy_models, "TOY_MODELS", tmp_path)
    with pytest.raises(RuntimeError, match="rope.pt does not match"):
        toy_models.load_toy_models(schemes=("rope",))


def test_retraining_reproduces_the_shipped_model():
    # the same training, one model: on the CPU that trained them the weights are the same bits; on
    # another, a few hundred steps carry rounding differences, so compare what the lesson reads
    settings = dataclasses.replace(H.SHORT_CONTEXT, eval_batches=2)
    retrained = l08.train_models(H.SHORT_CONTEXT, schemes=("alibi",), workers=1, progress=False)
    shipped = l08.load_toy_models(schemes=("alibi",))
    runs = [l08.evaluate_models(m, settings) for m in (retrained, shipped)]
    a, b = (r.bands()["alibi"] for r in runs)
    for x, y in zip(a, b, strict=True):
        assert abs(x - y) < 0.05, (a, b)


def test_the_learned_models_unused_rows_are_its_starting_rows_and_the_check_can_fail():
    model = l08.load_toy_models(schemes=("learned",))["learned"]
    assert l08.learned_rows_at_start(model)
    with torch.no_grad():
        model.scheme.table.table.weight[100, 3] += 1e-6   # one row past L moved by a hair
    assert not l08.learned_rows_at_start(model)
