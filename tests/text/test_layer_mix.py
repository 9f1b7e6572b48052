"""Lesson 12's layer mixes: masks and temperature against loops written here, a mix that is really one
scheme against TinyLM, the shipped models against their manifests, and the errors."""

import hashlib
import json
import math
from importlib import resources

import pytest
import torch

import helpers as H
from helpers.text.layer_mix import (
    LAYER_MIXES,
    LESSON12_MODELS,
    LayerMixLM,
    LayerSpec,
    MixLosses,
    build_layer_mix_model,
    lesson12_manifest,
    load_lesson12_model,
    mix_losses,
    query_temperature,
    raise_base,
    span_mask,
)

DATA = resources.files("helpers.text").joinpath("data").joinpath("lesson12")
SHIPPED = [(name, seed) for name in LESSON12_MODELS for seed in H.TEXT_SEEDS]


def loop_mask(length, window=None, chunk=None):
    mask = torch.full((length, length), float("-inf"))
    for i in range(length):
        for j in range(length):
            ok = j <= i and (window is None or i - j < window) and (chunk is None or i // chunk == j // chunk)
            if ok:
                mask[i, j] = 0.0
    return mask


@pytest.mark.parametrize("window, chunk", [(3, None), (None, 4), (5, 4), (1, None)])
def test_span_mask_matches_a_loop(window, chunk):
    assert torch.equal(span_mask(11, window=window, chunk=chunk)[0, 0], loop_mask(11, window, chunk))


def test_span_mask_is_none_when_nothing_is_limited():
    assert span_mask(8) is None and span_mask(8, window=8) is None and span_mask(8, chunk=20) is None


def test_query_temperature_by_hand():
    # Llama 4's rule: 1 + 0.1·ln(1 + floor((p + 1)/floor_scale)); floor_scale 4: positions 0–2 → 1, 3–6 → 1 + 0.1 ln 2
    got = query_temperature(torch.tensor([0, 2, 3, 6, 7, 11]), 4)
    want = [1.0, 1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(3), 1 + 0.1 * math.log(4)]
    assert got.tolist() == pytest.approx(want, abs=1e-15)


@pytest.mark.parametrize("base, scheme", [(10_000.0, "rope"), (None, "none")])
def test_a_mix_of_one_kind_of_layer_is_the_tinylm_of_that_scheme(base, scheme):
    torch.manual_seed(0)
    mix = LayerMixLM([LayerSpec(base)] * 2, vocab_size=50, d_model=32, n_heads=2)
    torch.manual_seed(0)
    plain = H.TinyLM(50, scheme, d_model=32, n_heads=2, n_layers=2)
    tokens = torch.randint(0, 50, (2, 19))
    assert torch.allclose(mix(tokens), plain(tokens), atol=1e-6)


def test_a_window_hides_keys_further_back():
    # a one-layer mix with a window of 4: the output at position 10 does not depend on tokens 0–6
    torch.manual_seed(2)
    mix = LayerMixLM([LayerSpec(10_000.0, 4)], vocab_size=50, d_model=32, n_heads=2).eval()
    tokens = torch.randint(0, 50, (1, 12))
    changed = tokens.clone()
    changed[0, :7] = (changed[0, :7] + 1) % 50
    a, b = mix(tokens), mix(changed)
    assert torch.allclose(a[0, 10], b[0, 10], atol=1e-6)
    assert not torch.allclose(a[0, 7], b[0, 7], atol=1e-3)  # position 7 sees tokens 4–7


def test_chunks_apply_to_rope_layers_and_temperature_to_nope_layers():
    torch.manual_seed(3)
    mix = LayerMixLM([LayerSpec(10_000.0), LayerSpec(None)], vocab_size=50, d_model=32, n_heads=2).eval()
    tokens = torch.randint(0, 50, (1, 24))
    full = mix(tokens)
    chunked = mix.set_long_context(chunk=8)(tokens)
    assert torch.allclose(full[0, :8], chunked[0, :8], atol=1e-6)  # the first chunk sees what it saw
    assert not torch.allclose(full[0, 8:], chunked[0, 8:], atol=1e-4)
    # temperature with floor 8 leaves positions 0–6 alone
    tempered = mix.set_long_context(temperature_floor=8)(tokens)
    assert torch.allclose(full[0, :7], tempered[0, :7], atol=1e-6)
    assert not torch.allclose(full[0, 7:], tempered[0, 7:], atol=1e-4)
    q = torch.ones(1, 2, 24, 16)
    scaled, k = mix.layer_schemes[1].rotate(q, q)
    assert torch.equal(k, q) and torch.allclose(scaled[0, 0, :, 0], query_temperature(torch.arange(24), 8).float())
    assert mix.set_long_context().chunk is None and type(mix.layer_schemes[1]) is H.position_scheme.PositionScheme


def test_mixes_start_from_the_rope_models_weights():
    rope = H.build_text_model("rope", 1)
    for mix in LAYER_MIXES:
        model = build_layer_mix_model(mix, 1)
        assert [n for n, _ in model.named_parameters()] == [n for n, _ in rope.named_parameters()]
        assert all(torch.equal(p, q) for p, q in zip(model.parameters(), rope.parameters(), strict=True))


def test_raise_base_sets_the_frequencies_of_the_new_base():
    model = raise_base(H.build_text_model("rope", 0), 500_000.0)
    i = torch.arange(8, dtype=torch.float64)
    assert torch.allclose(model.scheme.inv_freq, 500_000.0 ** (-2 * i / 16), rtol=1e-12)
    with pytest.raises(ValueError, match="RoPE TinyLM"):
        raise_base(H.build_text_model("none", 0), 500_000.0)


def test_every_model_is_shipped_and_nothing_else():
    names = sorted(p.name for p in DATA.iterdir())
    assert names == sorted(f"{n}-seed{s}{ext}" for n, s in SHIPPED for ext in (".pt", ".json"))
    weights = sum(len(DATA.joinpath(f"{n}-seed{s}.pt").read_bytes()) for n, s in SHIPPED)
    assert weights <= 5e6


@pytest.mark.parametrize("model", SHIPPED, ids=lambda m: f"{m[0]}-seed{m[1]}")
def test_manifest_matches_its_weights_and_its_valid_loss(model):
    name, seed = model
    manifest = lesson12_manifest(name, seed)
    raw = DATA.joinpath(f"{name}-seed{seed}.pt").read_bytes()
    assert manifest["weights_sha256"] == hashlib.sha256(raw).hexdigest()
    assert manifest["name"] == name and manifest["seed"] == seed and manifest["train_length"] == 128
    assert manifest["corpus_sha256"] == H.CORPUS_SHA256
    loaded = load_lesson12_model(name, seed)
    assert not loaded.training
    assert H.text_valid_loss(loaded, 128) == pytest.approx(manifest["valid_loss"], abs=2e-5)
    if name in LAYER_MIXES:
        assert [LayerSpec(**layer) for layer in manifest["layers"]] == list(LAYER_MIXES[name])
    else:
        assert loaded.scheme.inv_freq[1].item() == pytest.approx(manifest["base"] ** (-2 / 16), rel=1e-12)


def test_bad_names_are_named_with_the_allowed_values():
    with pytest.raises(ValueError, match="name must be one of"):
        load_lesson12_model("irope", 0)
    with pytest.raises(ValueError, match="seed must be one of"):
        load_lesson12_model("nope-middle", 7)
    with pytest.raises(ValueError, match="mix must be one of"):
        build_layer_mix_model("gemma", 0)
    with pytest.raises(ValueError, match="layers must be"):
        LayerMixLM([], vocab_size=10)
    with pytest.raises(ValueError, match="window"):
        span_mask(8, window=0)


def test_manifests_are_plain_json():
    for name, seed in SHIPPED:
        json.loads(DATA.joinpath(f"{name}-seed{seed}.json").read_text(encoding="utf-8"))


def test_rope_in_chunks_reads_an_input_of_2L_as_two_inputs_of_L():
    """Chunks of L cut an input of 2L into two inputs of L: the same loss, over the same bytes."""
    tokens = 4 * 128 + 1
    chunked = mix_losses("mixes", lengths=(128, 256), tokens=tokens)
    rope = chunked.loss["RoPE (08), chunks of L"]
    assert torch.allclose(rope[:, 0], rope[:, 1], atol=1e-9)
    whole = torch.tensor([H.text_valid_loss(H.load_text_model("rope", seed), 128, tokens=tokens)
                          for seed in H.TEXT_SEEDS], dtype=torch.float64)
    assert torch.allclose(rope[:, 0], whole, atol=1e-9)
    assert (chunked.loss["RoPE (08)"][:, 1] > rope[:, 1]).all()  # without chunks, 2L is worse


def test_mix_losses_names_its_rows_and_lengths():
    with pytest.raises(ValueError, match="rows must be one of"):
        mix_losses("gemma")
    with pytest.raises(ValueError, match="length"):
        mix_losses("raised", lengths=(0,))


def test_each_manifest_names_the_script_that_trained_it():
    """The commit recorded holds benchmarks/train_lesson12_models.py with the hash recorded (where this
    clone has that commit's history)."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for name, seed in SHIPPED:
        version = lesson12_manifest(name, seed)["code_version"]
        shown = subprocess.run(["git", "show", f"{version['commit']}:benchmarks/train_lesson12_models.py"],
                               cwd=root, capture_output=True)
        if shown.returncode:
            pytest.skip("the commit that trained the models is not in this clone's history")
        assert hashlib.sha256(shown.stdout).hexdigest() == version["script_sha256"]


def test_a_table_of_losses_reads_each_seed_at_each_length():
    table = MixLosses({"a": torch.tensor([[1.234, 2.5], [1.0, 3.456]], dtype=torch.float64)}, (128, 512), (0, 1))
    assert torch.equal(table.at("a", 512), torch.tensor([2.5, 3.456], dtype=torch.float64))
    assert table.table() == ([["a", "1.23 | 1.00", "2.50 | 3.46"]], ["model", "n = L", "n = 4L"])
    with pytest.raises(ValueError, match="row must be one of"):
        table.at("b", 128)
