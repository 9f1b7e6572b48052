"""Lesson 09's measurements (helpers.measure.l09_stretching_rope): the per-pair picture and the
stretch experiment, against values worked out by hand. (Unseen angles, the interpolation blur and
the dynamic-NTK cache mismatch live in helpers.rope_scaling and are tested with it.)"""

import math

import pytest
import torch

import helpers as H
from helpers.measure import l09_stretching_rope as S

TAU = 2 * math.pi
TOY = S.MODEL_SHAPES[2]  # d 16, base 10⁴, L 64: ω_i = 10^(−i/2)


def toy_picture(method, factor):
    return S.pair_picture(method, factor, head_dim=TOY.head_dim, base=TOY.base, original_max_len=TOY.original_max_len)


# --- the per-pair picture ------------------------------------------------------------------


def test_toy_yarn_scales_by_hand():
    # Pair i turns r_i = 64·10^(−i/2)/2π times within L: 10.19, 3.22, 1.02, 0.32, …
    # YaRN's ramp runs in the pair index between the pairs where r = 32 and r = 1:
    # i(32) = 16·ln(64/(2π·32)) / (2·ln 10⁴) = −0.99 → floor −1, kept at 0; i(1) = 2.02 → ceil 3.
    # Interpolated share of pair i: i/3, so 1/s_i = (1 − i/3) + (i/3)/4: s = 1, 4/3, 2, then 4.
    p = toy_picture("yarn", 4.0)
    assert p.scale.tolist() == pytest.approx([1.0, 4 / 3, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0], rel=1e-12)
    assert p.kinds == ("extrapolated", "blended", "blended") + ("interpolated",) * 5
    assert p.attention_scale == pytest.approx(0.1 * math.log(4.0) + 1.0)
    assert p.relative_wavelength.tolist() == pytest.approx([TAU * 10 ** (i / 2) / 64 for i in range(8)])


def test_toy_llama3_scales_by_hand():
    # Llama 3's ramp runs in r: kept share (r − 1)/(4 − 1), clipped to [0, 1].
    # r_0 = 10.186 ≥ 4: kept. r_1 = 3.2211: share 0.74037, 1/s = 0.74037 + 0.25963/4 = 0.80528.
    # r_2 = 1.01859: share 0.0061974, 1/s = 0.0061974 + 0.9938026/4 = 0.2546481. r ≤ 1 from pair 3 on.
    p = toy_picture("llama3", 4.0)
    assert p.scale[0].item() == 1.0
    assert p.scale[1].item() == pytest.approx(1 / 0.80528, rel=1e-4)
    assert p.scale[2].item() == pytest.approx(1 / 0.2546481, rel=1e-5)
    assert p.scale[3:].tolist() == pytest.approx([4.0] * 5)
    assert (p.count("extrapolated"), p.count("blended"), p.count("interpolated")) == (1, 2, 5)
    assert p.attention_scale == 1.0


def test_linear_ntk_dynamic_and_plain_by_hand():
    assert toy_picture("linear", 3.0).scale.tolist() == pytest.approx([3.0] * 8)
    assert toy_picture("linear", 3.0).pairs("interpolated") == list(range(8))
    # NTK: s_i = factor^(2i/(d−2)) = 4^(i/7): 1 for the fastest pair, 4 for the slowest.
    ntk = toy_picture("ntk", 4.0)
    assert ntk.scale.tolist() == pytest.approx([4 ** (i / 7) for i in range(8)], rel=1e-12)
    assert ntk.kinds[0] == "extrapolated" and ntk.kinds[-1] == "interpolated" and ntk.count("blended") == 6
    # dynamic, configured with factor 4 and asked for n = 4·64 = 256: effective factor 4·256/64 − 3 = 13,
    # so s_i = 13^(i/7) — not ntk's 4^(i/7).
    dynamic = toy_picture("dynamic", 4.0)
    assert dynamic.factor == 13.0
    assert dynamic.scale.tolist() == pytest.approx([13 ** (i / 7) for i in range(8)], rel=1e-12)
    assert dynamic.kinds[-1] == "interpolated" and dynamic.count("blended") == 6
    plain = toy_picture("plain", 4.0)
    assert plain.scale.tolist() == [1.0] * 8 and plain.count("extrapolated") == 8


def test_published_cut_offs():
    llama31 = S.shape_pictures(S.MODEL_SHAPES[1], 8.0)["llama3"]
    assert llama31.pairs("extrapolated") == list(range(29)) and llama31.pairs("blended") == list(range(29, 35))
    assert llama31.count("interpolated") == 29
    for factor in (2.0, 4.0, 16.0, 32.0):
        yarn = S.shape_pictures(S.MODEL_SHAPES[0], factor)["yarn"]
        assert yarn.pairs("extrapolated") == list(range(21)) and yarn.pairs("interpolated") == list(range(46, 64))


def test_every_method_is_the_identity_at_factor_one():
    for method, picture in S.shape_pictures(TOY, 1.0, S.STRETCHES).items():
        # dynamic too: asked for n = 1·L, it changes nothing
        assert picture.scale.tolist() == pytest.approx([1.0] * 8), method
        assert picture.attention_scale == 1.0


def test_picture_bad_input():
    with pytest.raises(ValueError, match="method must be one of"):
        toy_picture("rope", 2.0)
    with pytest.raises(ValueError, match="factor"):
        toy_picture("linear", 0.5)
    with pytest.raises(ValueError, match="kind must be one of"):
        toy_picture("linear", 2.0).count("kept")
    with pytest.raises(TypeError, match="shape must be a ModelShape"):
        S.shape_pictures((16, 1e4, 64), 2.0)


# --- the methods on a model ----------------------------------------------------------------


@pytest.fixture(scope="module")
def small_model():
    task = H.LetterDigitCopy()
    torch.manual_seed(0)
    return H.TinyLM(task.vocab_size, "rope", d_model=32, n_heads=2, n_layers=1), task


def test_stretches_are_applied_and_restored(small_model):
    model, task = small_model
    before = model.scheme.inv_freq.clone()
    curves = S.losses_by_method(model, task, original_max_len=16, factor=2.0, length=32, batches=1, batch=4,
                                methods=("plain", "linear", "yarn"))
    assert torch.equal(model.scheme.inv_freq, before) and model.scheme.attention_scale == 1.0
    assert torch.equal(curves["plain"], H.loss_by_position(model, task, length=32, batches=1, batch=4))
    # linear at factor 2 is the plain model at positions 0, 0.5, 1, …: not the same losses
    assert not torch.equal(curves["linear"], curves["plain"])
    assert S.apply_stretch(model, "yarn", 2.0, 16) == pytest.approx(0.1 * math.log(2) + 1)
    assert model.scheme.attention_scale == pytest.approx(0.1 * math.log(2) + 1)
    assert torch.allclose(model.scheme.inv_freq, S.stretched_frequencies(16, 10000.0, "yarn", 2.0, 16)[0])
    S.apply_stretch(model, "plain", 2.0, 16)
    assert torch.equal(model.scheme.inv_freq, before) and model.scheme.attention_scale == 1.0


def test_dynamic_reads_the_length_it_is_given(small_model):
    # NTK-aware at factor f by hand: base·f^(d/(d−2)) in place of the base, d = 16
    def ntk(f):
        return (10000.0 * f ** (16 / 14)) ** (-torch.arange(0, 16, 2, dtype=torch.float64) / 16)

    default, _, full = S.stretched_frequencies(16, 10000.0, "dynamic", 4.0, 128)   # asked for n = 4L
    assert full == 13 and torch.allclose(default, ntk(13.0), rtol=1e-12, atol=0)
    at_8l, _, full = S.stretched_frequencies(16, 10000.0, "dynamic", 4.0, 128, seq_len=1024)
    assert full == 29 and torch.allclose(at_8l, ntk(29.0), rtol=1e-12, atol=0)
    within, _, full = S.stretched_frequencies(16, 10000.0, "dynamic", 4.0, 128, seq_len=128)
    assert full == 1 and torch.allclose(within, ntk(1.0), rtol=1e-12, atol=0)
    model, _ = small_model
    S.apply_stretch(model, "dynamic", 4.0, 16, seq_len=40)   # head_dim 16: 4·40/16 − 3 = 7
    assert torch.allclose(model.scheme.inv_freq, ntk(7.0).to(model.scheme.inv_freq.dtype))
    S.apply_stretch(model, "plain", 1.0, 16)
    with pytest.raises(ValueError, match="seq_len must be"):
        S.stretched_frequencies(16, 10000.0, "dynamic", 4.0, 128, seq_len=0)


def test_fine_tuning_leaves_the_original_alone(small_model):
    model, task = small_model
    state = {k: v.clone() for k, v in model.state_dict().items()}
    tuned, losses = S.fine_tuned(model, task, "linear", factor=2.0, original_max_len=16, steps=2, length=32,
                                 batch=2, lr=1e-3, seed=0, progress=False)
    assert len(losses) == 2 and all(math.isfinite(v) for v in losses)
    assert all(torch.equal(v, state[k]) for k, v in model.state_dict().items())
    assert torch.allclose(tuned.scheme.inv_freq, state["scheme.inv_freq"] / 2)
    assert not torch.equal(tuned.token_embedding.weight, model.token_embedding.weight)


def test_a_model_without_rope_is_refused():
    model = H.TinyLM(16, "alibi", d_model=16, n_heads=2, n_layers=1)
    with pytest.raises(TypeError, match="rope scheme"):
        S.apply_stretch(model, "linear", 2.0, 16)


def test_attention_entropy_bounds(small_model):
    model, task = small_model
    entropy = S.attention_entropy_by_position(model, task, length=12, batch=2)
    assert entropy.shape == (12,) and entropy[0].item() == pytest.approx(0.0, abs=1e-9)  # one key: certain
    assert bool((entropy <= torch.log(torch.arange(1, 13, dtype=torch.float64)) + 1e-9).all())


def test_stretch_run_is_seeded_and_complete():
    task = H.LetterDigitCopy()
    kwargs = {"factor": 2.0, "settings": H.ShortContext(length=8, steps=2, batch=2),
              "fine_tuning": S.FineTuning(steps=1, batch=1), "tune": ("plain", "linear"),
              "model_options": {"d_model": 16, "n_heads": 2, "n_layers": 1}, "eval_batches": 1, "progress": False}
    a, b = S.stretch_run(task, 3, **kwargs), S.stretch_run(task, 3, **kwargs)
    assert set(a.training_free) == set(S.STRETCHES) and set(a.tuned) == {"plain", "linear"}
    assert all(torch.equal(a.tuned[m], b.tuned[m]) for m in a.tuned)
    assert a.floor.shape == (16,) and a.training_free["plain"].shape == (16,)
    excess = a.excess("tuned", "linear")
    assert excess.within == pytest.approx((a.tuned["linear"] - a.floor)[:8].mean().item())


def hand_run(free_bands, tuned_bands, L=2):
    """A StretchRun whose curves are flat within each band, with the given band values and floor 0."""
    def curve(bands):
        return torch.tensor([bands[0]] * L + [bands[1]] * L + [bands[2]] * 2 * L, dtype=torch.float64)
    return S.StretchRun(0, L, 4.0, torch.zeros(4 * L, dtype=torch.float64),
                        {m: curve(b) for m, b in free_bands.items()}, {m: curve(b) for m, b in tuned_bands.items()},
                        None)


GOOD_FREE = {"plain": (0.0, 0.2, 3.0), "linear": (2.0, 2.5, 3.5), "ntk": (0.5, 1.0, 1.5),
             "dynamic": (0.9, 1.3, 1.6), "yarn": (1.0, 1.5, 2.0), "llama3": (0.8, 1.2, 1.8)}
GOOD_TUNED = {"plain": (0.1, 0.0, 0.0), "linear": (1.4, 1.4, 1.3), "yarn": (0.1, 0.05, 0.02)}


def test_claims_hold_for_a_run_built_to_satisfy_them():
    claims = S.stretch_claims(hand_run(GOOD_FREE, GOOD_TUNED))
    assert len(claims) == 10 and all(claims.values())
    # without fine-tuned plain and linear, only the claims about the untrained model
    assert len(S.stretch_claims(hand_run(GOOD_FREE, {}))) == 7


def test_margins_by_hand():
    m = S.stretch_margins(hand_run(GOOD_FREE, GOOD_TUNED))
    assert m["no training, within L: plain RoPE lowest"] == pytest.approx(0.5)  # ntk 0.5 − plain 0.0
    assert m["no training, within L: PI highest"] == pytest.approx(1.0)  # linear 2.0 − yarn 1.0
    assert m["no training, within L: NTK-aware lowest of the methods that change frequencies"] == pytest.approx(0.3)
    assert m["no training, L–2L: plain RoPE below PI, YaRN and Llama 3"] == pytest.approx(1.0)  # llama3 1.2 − 0.2
    assert m["no training, 2L–4L: NTK-aware below plain RoPE"] == pytest.approx(1.5)
    assert m["no training, every band: PI above NTK-aware"] == pytest.approx(1.5)
    assert m["no training, 2L–4L: every method more than 0.5 nats above plain RoPE within L"] == pytest.approx(1.0)
    assert m["fine-tuned, every band: PI above plain and yarn"] == pytest.approx(1.28)  # 1.3 − 0.02
    assert m["fine-tuned, PI more than 1 nat above the floor in every band"] == pytest.approx(0.3)
    assert m["fine-tuning plain RoPE at 4L lowers its loss past 2L"] == pytest.approx(3.0)


def test_a_claim_needs_more_than_the_margin():
    # NTK-aware below plain RoPE past 2L by 0.01 nats: inside the margin of 0.02, so it does not hold.
    near = {**GOOD_FREE, "ntk": (0.5, 1.0, 2.99)}
    assert not S.stretch_claims(hand_run(near, GOOD_TUNED))["no training, 2L–4L: NTK-aware below plain RoPE"]
    assert S.stretch_claims(hand_run(near, GOOD_TUNED), margin=0.005)["no training, 2L–4L: NTK-aware below plain RoPE"]
    assert S.STRETCH_MARGIN == 0.02
    with pytest.raises(ValueError, match="margin"):
        S.stretch_claims(hand_run(GOOD_FREE, GOOD_TUNED), margin=float("nan"))


def test_the_field_claim():
    # digit floor 0.35, chance ln 4 = 1.386: a digit loss of 1.2 past 2L is closer to chance, 0.5 is not
    def fields(digit):
        flat = torch.full((8,), digit, dtype=torch.float64)
        return {"linear": S.FieldLosses(flat, flat, 0.35, 0.35, math.log(4), math.log(4))}

    for digit, held in ((1.2, True), (0.5, False)):
        run = hand_run(GOOD_FREE, GOOD_TUNED)
        run = S.StretchRun(*[getattr(run, f) for f in ("seed", "original_max_len", "factor", "floor", "training_free",
                                                        "tuned", "base")], fields(digit))
        claims = S.stretch_claims(run)
        assert len(claims) == 11 and claims["fine-tuned, PI's digit past 2L closer to chance than to its floor"] is held
        margin = S.stretch_margins(run)["fine-tuned, PI's digit past 2L closer to chance than to its floor"]
        assert margin == pytest.approx((digit - 0.35) - (math.log(4) - digit))


def test_the_temperature_claims():
    run = hand_run(GOOD_FREE, GOOD_TUNED)
    lowers = "YaRN's attention factor lowers the attention entropy past 2L"
    less = "put once on the logits, it lowers the entropy by less"
    good = S.TemperatureEffect(0.6, 0.8, 2.2, 2.1, 0.7, 2.15)
    m = S.stretch_margins(run, good)
    assert m[lowers] == pytest.approx(0.2) and m[less] == pytest.approx(0.1)
    assert all(S.stretch_claims(run, good).values())
    # the logits-once setting sharper than the right one: the second claim fails, the first holds
    claims = S.stretch_claims(run, S.TemperatureEffect(0.6, 0.8, 2.2, 2.1, 0.5, 2.15))
    assert claims[lowers] and not claims[less]
    # an effect measured without the third setting: only the first claim
    assert less not in S.stretch_claims(run, S.TemperatureEffect(0.6, 0.8, 2.2, 2.1))


@pytest.mark.parametrize(("free", "tuned", "broken"), [
    ({"ntk": (0.5, 1.0, 3.2)}, {}, "NTK-aware below plain RoPE"),
    ({"yarn": (1.0, 0.1, 2.0)}, {}, "L–2L: plain RoPE below PI, YaRN and Llama 3"),
    ({"yarn": (2.5, 1.5, 2.0)}, {}, "PI highest"),
    ({"dynamic": (0.4, 1.3, 1.6)}, {}, "NTK-aware lowest of the methods"),
    ({"plain": (0.6, 0.2, 3.0)}, {}, "plain RoPE lowest"),
    ({"linear": (2.0, 0.9, 2.5)}, {}, "PI above NTK-aware"),
    ({"llama3": (0.8, 1.2, 0.4)}, {}, "more than 0.5 nats above plain"),
    ({}, {"linear": (1.4, 1.4, 0.9)}, "more than 1 nat"),
    ({}, {"yarn": (0.1, 0.05, 1.35)}, "PI above plain and yarn"),
    ({}, {"plain": (0.1, 0.0, 3.5), "linear": (1.4, 1.4, 3.6)}, "lowers its loss past 2L"),
])
def test_each_claim_can_fail(free, tuned, broken):
    claims = S.stretch_claims(hand_run({**GOOD_FREE, **free}, {**GOOD_TUNED, **tuned}))
    failed = [name for name, held in claims.items() if not held]
    assert len(failed) == 1 and broken in failed[0], failed


class FixedLogits(torch.nn.Module):
    """A stand-in model whose logits are the same at every position."""

    def __init__(self, logits):
        super().__init__()
        self.logits = logits

    def forward(self, tokens):
        return self.logits.expand(*tokens.shape, -1)


def test_field_losses_by_hand():
    task = H.LetterDigitCopy()  # 4 letters × 4 digits, token = letter·4 + digit
    uniform = S.field_losses(FixedLogits(torch.zeros(16)), task, length=10, batches=1, batch=4)
    assert uniform.letter.tolist() == pytest.approx([math.log(4)] * 10)
    assert uniform.digit.tolist() == pytest.approx([math.log(4)] * 10)
    assert (uniform.letter_chance, uniform.digit_chance) == (math.log(4), math.log(4))
    # floor of a field kept with probability 0.9, else redrawn from 4: one value 0.925, three 0.025
    assert uniform.digit_floor == pytest.approx(-(0.925 * math.log(0.925) + 3 * 0.025 * math.log(0.025)))
    # logit 0 for token 0 (letter A, digit 0), −30 for the 15 others (ε = e^−30, Z = 1 + 15ε):
    # P(letter A) = (1 + 3ε)/Z, loss ≈ 12ε ≈ 0; P(letter B) = 4ε/Z, loss = 30 − ln 4 + ln Z ≈ 30 − ln 4.
    skewed = torch.full((16,), -30.0)
    skewed[0] = 0.0
    r = S.field_losses(FixedLogits(skewed), task, length=10, batches=1, batch=4)
    _, targets = task.sample(4, 10, torch.Generator().manual_seed(1))  # the batch field_losses draws
    letter, digit = task.split(targets)
    for got, field in ((r.letter, letter), (r.digit, digit)):
        expected = (field != 0).double().mul(30 - math.log(4)).mean(0)
        assert got.tolist() == pytest.approx(expected.tolist(), abs=1e-9)
    with pytest.raises(TypeError, match="LetterDigitCopy"):
        S.field_losses(FixedLogits(torch.zeros(16)), object(), length=4)


def test_yarn_temperature_sharpens_a_one_layer_model():
    # One layer: every attention row is softmax(β·z) with β = scale² > 1 instead of 1, and the
    # entropy of softmax(β·z) falls as β grows (its derivative is −β·Var(z) ≤ 0).
    task = H.LetterDigitCopy()
    torch.manual_seed(1)
    model = H.TinyLM(task.vocab_size, "rope", d_model=32, n_heads=2, n_layers=1)
    before = model.scheme.inv_freq.clone()
    effect = S.yarn_temperature_effect(model, task, factor=4.0, original_max_len=8, length=32)
    # logits × m² (on q and k), × m (once on the logits), × 1 (off): the entropy falls in that order
    assert effect.entropy_on < effect.entropy_logits_once < effect.entropy_off
    assert all(math.isfinite(v) for v in effect)
    assert torch.equal(model.scheme.inv_freq, before) and model.scheme.attention_scale == 1.0
