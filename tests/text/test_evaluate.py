"""The evaluation functions, checked on models whose losses are known by hand, and on the shipped ones."""

import math

import pytest
import torch
from torch import nn

import helpers as H

L = 128


class Uniform(nn.Module):
    """Every next byte equally likely: loss ln 256 at every position."""

    def forward(self, ids):
        return torch.zeros(*ids.shape, 256)


class Peaked(nn.Module):
    """Logit 5 on "e", 0 on every other byte, so the loss is known at each position."""

    def forward(self, ids):
        logits = torch.zeros(*ids.shape, 256)
        logits[..., ord("e")] = 5.0
        return logits


def test_windows_cut_the_split_without_overlap():
    x, y = H.text_windows(1000)
    valid = H.text_corpus("valid")
    n = (valid.numel() - 1) // 1000
    assert x.shape == y.shape == (n, 1000)
    assert torch.equal(x[3], valid[3000:4000]) and torch.equal(y[3], valid[3001:4001])
    x, _ = H.text_windows(100, tokens=1001)
    assert x.shape == (10, 100)


def test_uniform_model_scores_ln_256_everywhere():
    curve = H.text_loss_by_position(Uniform(), 256, tokens=4097)
    assert curve.shape == (256,) and curve.dtype == torch.float64
    torch.testing.assert_close(curve, torch.full((256,), math.log(256), dtype=torch.float64))
    ppl = H.text_perplexity_by_length(Uniform(), (64, 512), tokens=4097)
    assert ppl == pytest.approx({64: 256.0, 512: 256.0})


def test_loss_by_position_by_hand_and_batch_invariant():
    x, y = H.text_windows(64, tokens=64 * 8 + 1)
    # logit 5 on "e", 0 elsewhere: the loss is ln(e⁵ + 255) − 5·[target is "e"]
    expected = (math.log(math.exp(5) + 255) - 5.0 * (y == ord("e")).double()).mean(0)
    for batch in (1, 3, 16):
        curve = H.text_loss_by_position(Peaked(), 64, tokens=64 * 8 + 1, batch=batch)
        torch.testing.assert_close(curve, expected)


def test_bands_by_hand():
    curve = torch.arange(1024, dtype=torch.float64)
    bands = H.text_band_losses(curve, 128)
    assert list(bands) == list(H.TEXT_BAND_NAMES)
    assert bands == {"8–L": (8 + 127) / 2, "L–2L": (128 + 255) / 2, "2L–4L": (256 + 511) / 2, "4L–8L": (512 + 1023) / 2}
    assert math.isnan(H.text_band_losses(curve[:600], 128)["4L–8L"])


def test_validation_curves_come_from_the_manifests():
    curves = H.text_validation_curves()
    assert set(curves.loss) == set(H.TEXT_SCHEMES)
    for scheme, rows in curves.loss.items():
        assert rows.shape == (len(H.TEXT_SEEDS), len(curves.steps))
        for seed, row in zip(H.TEXT_SEEDS, rows, strict=True):
            manifest = H.text_manifest(scheme, seed)
            assert row.tolist() == manifest["valid_curve"]["loss_within_L"]
            assert row[-1] < row[0]  # training lowered the validation loss
            assert row[-1].item() == pytest.approx(manifest["valid_loss"], abs=0.01)  # float32 vs stored 16-bit
    assert curves.tokens_per_step == 32 * L


def test_steps_to_reach_by_hand():
    curves = H.TextValidationCurves(torch.tensor([10, 20, 30]),
                                    {"a": torch.tensor([[3.0, 2.0, 1.0], [3.0, 2.5, 2.1]])}, (0, 1), 1)
    assert H.text_steps_to_reach(curves, 2.0)["a"][0] == 20
    assert math.isnan(H.text_steps_to_reach(curves, 2.0)["a"][1])


def test_within_L_every_training_free_stretch_is_the_trained_model():
    table = H.text_stretch_losses(0, lengths=(L,), tokens=4097)
    assert table.fine_tuned is False
    for method in H.STRETCHES:
        assert table.loss[method][L] == pytest.approx(table.loss["plain"][L], abs=1e-6)
        assert table.factor[method][L] == 1.0


def test_stretching_at_2L_changes_the_model_and_restores_it():
    model_loss = H.text_valid_loss(H.load_text_model("rope", 0), 2 * L, tokens=4097)
    table = H.text_stretch_losses(0, lengths=(2 * L,), methods=("plain", "linear"), tokens=4097)
    assert table.loss["plain"][2 * L] == pytest.approx(model_loss, abs=1e-9)
    assert table.loss["linear"][2 * L] != pytest.approx(model_loss, abs=1e-3)
    assert table.factor["linear"][2 * L] == 2.0


def test_training_free_dynamic_ntk_records_its_effective_factor():
    # configured with n / L and read at n, dynamic NTK stretches by (n/L)² − n/L + 1; at a fixed factor f
    # (read as apply_stretch sets it, at f·L) by f² − f + 1, whatever the length read
    free = H.text_stretch_losses(0, lengths=(L, 2 * L), methods=("dynamic",), tokens=2 * 2 * L + 1)
    assert free.factor["dynamic"] == {L: 1.0, 2 * L: 3.0}
    fixed = H.text_stretch_losses(0, lengths=(L,), methods=("dynamic",), tokens=2 * L + 1, factor=4)
    assert fixed.factor["dynamic"] == {L: 13.0}
    model = H.load_text_model("rope", 0)
    model.scheme.set_frequencies(H.scaled_frequencies(16, 10000.0, "ntk", 13.0)[0], 1.0)
    assert fixed.loss["dynamic"][L] == pytest.approx(H.text_valid_loss(model, L, tokens=2 * L + 1), abs=1e-9)


def test_fine_tuned_table_uses_the_fine_tunes():
    table = H.text_stretch_losses(1, fine_tuned=True, methods=("ntk",), lengths=(4 * L,), tokens=4097)
    expected = H.text_valid_loss(H.load_text_model("rope", 1, "ft-ntk"), 4 * L, tokens=4097)
    assert table.loss["ntk"][4 * L] == pytest.approx(expected, abs=1e-9) and table.factor["ntk"][4 * L] == 4


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match=r"seed must be one of \(0, 1\)"):
        H.text_stretch_losses(3)
    with pytest.raises(ValueError, match="method must be one of 'plain', 'linear'"):
        H.text_stretch_losses(0, methods=("pi",))
    with pytest.raises(ValueError, match="split must be one of 'train', 'valid'"):
        H.text_windows(128, "test")
    with pytest.raises(ValueError, match="length must leave at least one window"):
        H.text_windows(5000, tokens=100)


def test_evaluating_leaves_rope_trainable_afterwards():
    # RoPE caches its cos/sin tables: one made while evaluating must not stop a later training step
    from helpers.rotary import clear_cache

    clear_cache()
    model = H.build_text_model("rope", 0)
    H.text_loss_by_position(model, 32, tokens=32 * 2 + 1)
    model.train()
    logits = model(H.text_corpus("valid")[None, :32])
    logits.sum().backward()
    assert all(p.grad is not None for p in model.parameters() if p.requires_grad)


def test_stretch_at_a_fixed_factor_and_factor_one_reuses_plain():
    tokens = 2 * 4 * L + 1
    free = H.text_stretch_losses(0, lengths=(L, 2 * L), tokens=tokens, methods=("plain", "linear"))
    # at n = L the factor is 1: position interpolation is the model as trained
    assert free.loss["linear"][L] == free.loss["plain"][L] and free.factor["linear"] == {L: 1.0, 2 * L: 2.0}
    fixed = H.text_stretch_losses(0, lengths=(L,), tokens=tokens, methods=("plain", "linear"), factor=2)
    assert fixed.factor["linear"] == {L: 2.0} and fixed.loss["plain"][L] == free.loss["plain"][L]
    # PI at factor 2 on inputs of L: every position read as p / 2, by hand with the model's own frequencies
    model = H.load_text_model("rope", 0)
    H.apply_stretch(model, "linear", 2.0, L)
    assert fixed.loss["linear"][L] == pytest.approx(H.text_valid_loss(model, L, tokens=tokens), abs=1e-12)
    assert fixed.loss["linear"][L] > fixed.loss["plain"][L]
    with pytest.raises(ValueError, match="factor must be a number ≥ 1"):
        H.text_stretch_losses(0, lengths=(L,), tokens=tokens, factor=0.5)
    with pytest.raises(ValueError, match="training-free table only"):
        H.text_stretch_losses(0, fine_tuned=True, lengths=(L,), tokens=tokens, factor=2)


def test_the_dynamic_fine_tune_follows_the_length_it_reads():
    # dynamic NTK configured with factor 4 (as fine-tuned): at L the trained frequencies, at 4L factor 13 (the
    # frequencies it was fine-tuned with, as shipped), at 8L 4·8 − 3 = 29
    tokens = 8 * L + 1
    table = H.text_stretch_losses(0, fine_tuned=True, methods=("dynamic",), lengths=(L, 4 * L, 8 * L), tokens=tokens)
    assert table.factor["dynamic"] == {L: 1.0, 4 * L: 13.0, 8 * L: 29.0}
    shipped = H.load_text_model("rope", 0, "ft-dynamic")   # frozen at factor 13
    assert table.loss["dynamic"][4 * L] == pytest.approx(H.text_valid_loss(shipped, 4 * L, tokens=tokens), abs=1e-12)
    for n, f in ((L, 1.0), (8 * L, 29.0)):
        model = H.load_text_model("rope", 0, "ft-dynamic")
        model.scheme.set_frequencies(H.scaled_frequencies(16, 10000.0, "ntk", f)[0] if f > 1
                                     else H.frequencies(16, 10000.0, torch.float64))
        assert table.loss["dynamic"][n] == pytest.approx(H.text_valid_loss(model, n, tokens=tokens), abs=1e-12)
        assert table.loss["dynamic"][n] != pytest.approx(H.text_valid_loss(shipped, n, tokens=tokens), abs=1e-3)


def test_the_extra_fine_tune_is_yarn_configured_for_8L():
    tokens = 8 * L + 1
    table = H.text_stretch_losses(1, fine_tuned=True, methods=(), extra=("ft-yarn-x8",), lengths=(8 * L,),
                                  tokens=tokens)
    assert list(table.loss) == ["yarn-x8"] and table.factor["yarn-x8"] == {8 * L: 8.0}
    model = H.load_text_model("rope", 1, "ft-yarn-x8")
    inv_freq, scale = H.scaled_frequencies(16, 10000.0, "yarn", 8.0, L)
    torch.testing.assert_close(model.scheme.inv_freq, inv_freq.to(model.scheme.inv_freq.dtype))
    assert model.scheme.attention_scale == pytest.approx(0.1 * math.log(8) + 1)
    assert table.loss["yarn-x8"][8 * L] == pytest.approx(H.text_valid_loss(model, 8 * L, tokens=tokens), abs=1e-12)
    with pytest.raises(ValueError, match="extra must be one of 'ft-yarn-x8'"):
        H.text_stretch_losses(0, fine_tuned=True, extra=("ft-yarn",))
    with pytest.raises(ValueError, match="extra must be a sequence"):
        H.text_stretch_losses(0, fine_tuned=True, extra="ft-yarn-x8")
    with pytest.raises(ValueError, match="fine-tuned table only"):
        H.text_stretch_losses(0, extra=("ft-yarn-x8",))
