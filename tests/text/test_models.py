"""The shipped text models: every manifest against its weights file and the corpus, every valid_loss
reproduced by an evaluation written here with plain torch, the loader's shapes and errors."""

import collections
import gzip
import hashlib
import json
import math
from importlib import resources

import pytest
import torch

import helpers as H
from helpers.measure.l09_stretching_rope import stretched_frequencies

CORPUS_SHA256 = "5853d59e027b6d8251ed1d08af26c49253291814e82d8127291177a8cf1102e4"
MODELS = resources.files("helpers.text").joinpath("data").joinpath("models")
L = 128
BASE = [(scheme, seed, "base") for scheme in H.TEXT_SCHEMES for seed in H.TEXT_SEEDS]
TUNED = [("rope", seed, variant) for seed in H.TEXT_SEEDS for variant in H.TEXT_VARIANTS if variant != "base"]
ALL = BASE + TUNED


def stem(scheme, seed, variant):
    return f"{scheme}-seed{seed}" + ("" if variant == "base" else f"-{variant}")


def manifest(scheme, seed, variant):
    return json.loads(MODELS.joinpath(stem(scheme, seed, variant) + ".json").read_text(encoding="utf-8"))


def valid_bytes() -> bytes:
    """The validation split rebuilt from the compressed file by the rule SOURCE.md states."""
    data = gzip.decompress(resources.files("helpers.text").joinpath("data").joinpath(
        "python-docs-3.11.txt.gz").read_bytes())
    return b"".join(data[(2 * k + 1) * len(data) // 24:][:4096] for k in range(12))


def outside_valid_loss(model, length=L) -> float:
    """Mean next-token loss over non-overlapping windows of ``length``, every position counted:
    log_softmax and gather, nothing from the course's evaluation code."""
    ids = torch.tensor(list(valid_bytes()), dtype=torch.long)
    n = (len(ids) - 1) // length
    x, y = ids[: n * length].view(n, length), ids[1 : n * length + 1].view(n, length)
    total = 0.0
    with torch.no_grad():
        for i in range(0, n, 32):
            logp = torch.log_softmax(model(x[i:i + 32]).double(), dim=-1)
            total -= logp.gather(-1, y[i:i + 32, :, None]).sum().item()
    return total / (n * length)


def test_every_model_is_shipped_and_nothing_else():
    names = sorted(p.name for p in MODELS.iterdir())
    expected = sorted(stem(*m) + ext for m in ALL for ext in (".pt", ".json"))
    assert names == expected


def test_sizes_within_budget():
    weights = sum(len(MODELS.joinpath(stem(*m) + ".pt").read_bytes()) for m in ALL)
    manifests = sum(len(MODELS.joinpath(stem(*m) + ".json").read_bytes()) for m in ALL)
    corpus = len(resources.files("helpers.text").joinpath("data").joinpath("python-docs-3.11.txt.gz").read_bytes())
    assert weights <= 25e6
    assert corpus + weights + manifests <= 35e6


@pytest.mark.parametrize("model", ALL, ids=lambda m: stem(*m))
def test_manifest_matches_its_weights_file_and_the_corpus(model):
    scheme, seed, variant = model
    m = manifest(*model)
    data = MODELS.joinpath(stem(*model) + ".pt").read_bytes()
    assert m["weights_sha256"] == hashlib.sha256(data).hexdigest()
    assert m["corpus_sha256"] == CORPUS_SHA256
    assert (m["scheme"], m["seed"], m["variant"], m["train_length"]) == (scheme, seed, variant, L)
    for key in ("config", "steps", "tokens_seen", "train_loss", "valid_loss", "code_version"):
        assert key in m
    config = H.build_text_model(scheme, seed).config
    assert {k: getattr(config, k) for k in m["config"]} == m["config"]
    state = torch.load(MODELS.joinpath(stem(*model) + ".pt").open("rb"), weights_only=True)
    assert all(t.dtype == torch.float16 for t in state.values())
    if variant == "base":
        assert m["tokens_seen"] == m["steps"] * m["batch"] * L
        curve = m["valid_curve"]
        assert curve["steps"] == sorted(curve["steps"]) and curve["steps"][-1] == m["steps"]
        assert len(curve["loss_within_L"]) == len(curve["steps"])
    else:
        ft = m["fine_tune"]
        assert ft["tokens"] == ft["steps"] * ft["batch"] * ft["length"] and ft["length"] == 4 * L
        method, factor = H.FINE_TUNES[variant]
        assert m["stretch"] == {"method": method, "factor": factor}
        assert (method, factor) == ((variant[3:], 4) if variant != "ft-yarn-x8" else ("yarn", 8))
        assert ft["steps"] == 48 and ft["batch"] == 8 and ft["from"] == stem("rope", seed, "base")


@pytest.mark.parametrize("model", ALL, ids=lambda m: stem(*m))
def test_an_outside_evaluation_reproduces_valid_loss(model):
    loss = outside_valid_loss(H.load_text_model(*model))
    assert loss == pytest.approx(manifest(*model)["valid_loss"], abs=0.02)


@pytest.mark.parametrize("model", [("rope", 0, "base"), ("alibi", 1, "base"), ("rope", 1, "ft-yarn")],
                         ids=lambda m: stem(*m))
def test_the_course_evaluation_reproduces_valid_loss(model):
    assert H.text_valid_loss(H.load_text_model(*model), L) == pytest.approx(manifest(*model)["valid_loss"], abs=2e-3)


def test_every_valid_loss_is_well_below_the_unigram_entropy():
    counts = collections.Counter(valid_bytes())
    n = sum(counts.values())
    entropy = -sum(c / n * math.log(c / n) for c in counts.values())
    losses = {stem(*m): manifest(*m)["valid_loss"] for m in ALL}
    assert max(losses.values()) < entropy - 0.5, (entropy, losses)


@pytest.mark.parametrize("scheme", H.TEXT_SCHEMES)
def test_loader_returns_eval_models_that_read_up_to_8L(scheme):
    model = H.load_text_model(scheme, 1)
    assert not model.training
    ids = H.text_corpus("valid")[: 2 * 8 * L].view(2, 8 * L)
    with torch.no_grad():
        logits = model(ids)
    assert logits.shape == (2, 8 * L, 256) and torch.isfinite(logits).all()


@pytest.mark.parametrize("variant", [v for v in H.TEXT_VARIANTS if v != "base"])
def test_fine_tunes_come_with_their_stretched_frequencies(variant):
    model = H.load_text_model("rope", 0, variant)
    method, factor = ("yarn", 8) if variant == "ft-yarn-x8" else (variant[3:], 4)
    inv_freq, scale, _ = stretched_frequencies(16, 10000.0, method, factor, L)
    torch.testing.assert_close(model.scheme.inv_freq, inv_freq.to(model.scheme.inv_freq.dtype))
    assert model.scheme.attention_scale == pytest.approx(scale)


def test_bad_names_are_named_with_the_allowed_values():
    with pytest.raises(ValueError, match="scheme must be one of 'none', 'sinusoidal', 'learned', 'rope'"):
        H.load_text_model("shaw")
    with pytest.raises(ValueError, match=r"seed must be one of \(0, 1\)"):
        H.load_text_model("rope", 2)
    with pytest.raises(ValueError, match=r"seed must be one of"):
        H.load_text_model("rope", True)
    with pytest.raises(ValueError, match="variant must be one of 'base', 'ft-plain', 'ft-linear'"):
        H.load_text_model("rope", 0, "ft-pi")
    with pytest.raises(ValueError, match="variant 'ft-linear' exists for scheme 'rope' only"):
        H.load_text_model("alibi", 0, "ft-linear")
