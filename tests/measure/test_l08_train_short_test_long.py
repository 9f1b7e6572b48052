"""Lesson 08's measurements (helpers.measure.l08_train_short_test_long): band means, the toy
lengths, orderings and their comparison with a published table, evaluation of trained models and
the position probe, against values worked by hand and independent computations."""

import dataclasses
import math

import pytest
import torch
import torch.nn.functional as F

import helpers as H
from helpers.measure import l08_train_short_test_long as M

# A small, fast version of the experiment: same task and schemes, tiny budget.
TINY = dataclasses.replace(H.SHORT_CONTEXT, steps=2, batch=4, eval_batches=2)


# --- lengths and bands --------------------------------------------------------------------------


def test_toy_lengths_keep_press_ratios():
    assert M.toy_lengths(512) == (512, 1012, 1512, 2512)
    assert M.toy_lengths(64) == (64, 126, 189, 314)  # 64·1012/512 = 126.5 rounds to even, 64·2512/512 = 314
    assert M.toy_lengths(128) == (128, 253, 378, 628)


# --- orderings ------------------------------------------------------------------------------------


def test_press_table_orderings_by_hand():
    log_table = {name: [math.log(v) for v in row] for name, row in M.PRESS_TABLE_2.items()}
    # at 512 tokens the four lie within ln(20.07 / 19.65) ≈ 0.021 of each other
    assert H.orderings(M.table_column(log_table, 0), 0.05) == []
    # at 2512: ALiBi 18.41 < T5 20.41 < rotary 31.58 < sinusoidal 132.41, every gap above 5 %
    assert set(H.orderings(M.table_column(log_table, 3), 0.05)) == {
        ("alibi", "t5"), ("alibi", "rope"), ("alibi", "sinusoidal"), ("t5", "rope"), ("t5", "sinusoidal"),
        ("rope", "sinusoidal")}
    growth = M.perplexity_growth(M.PRESS_TABLE_2)
    assert growth["sinusoidal"] == pytest.approx(132.41 / 20.05)
    assert sorted(growth, key=growth.get) == ["alibi", "t5", "rope", "sinusoidal"]


# --- models, evaluation and the probe -----------------------------------------------------------


def test_models_follow_the_seed_and_the_settings():
    a, b, c = (M.build_model("learned", TINY, seed) for seed in (3, 3, 4))
    assert torch.equal(a.scheme.table.table.weight, b.scheme.table.table.weight)
    assert not torch.equal(a.scheme.table.table.weight, c.scheme.table.table.weight)
    assert a.scheme.max_len == TINY.eval_length
    assert M.build_model("t5", TINY).scheme.max_distance == TINY.length
    state = torch.random.get_rng_state()
    M.build_model("rope", TINY, 5)
    assert torch.equal(state, torch.random.get_rng_state())  # the global generator is left alone
    with pytest.raises(ValueError, match="shaw"):
        M.build_model("shaw", TINY)


def test_readable_length_stops_at_the_learned_table():
    assert M.readable_length(M.build_model("learned", TINY), 320) == TINY.eval_length == 256
    assert M.readable_length(M.build_model("learned", TINY), 100) == 100
    assert M.readable_length(M.build_model("rope", TINY), 320) == 320


def test_evaluation_matches_a_cross_entropy_by_hand():
    models = {name: M.build_model(name, TINY, 1) for name in ("rope", "learned")}
    run = M.evaluate_models(models, TINY, seed=1, length=300)
    assert run.losses["rope"].shape == (TINY.eval_batches, 300)
    assert run.losses["learned"].shape == (TINY.eval_batches, 256)
    assert run.floor.shape == (300,)
    for b, data_seed in enumerate(M.evaluation_seeds(1, TINY.eval_batches)):
        inputs, targets = TINY.task().sample(TINY.batch, 300, torch.Generator().manual_seed(data_seed))
        with torch.no_grad():
            logits = models["rope"](inputs)
            by_hand = torch.stack([F.cross_entropy(logits[:, t], targets[:, t]) for t in range(300)]).double()
            logits = models["learned"](inputs[:, :256])
            learned = torch.stack([F.cross_entropy(logits[:, t], targets[:, t]) for t in range(256)]).double()
        assert torch.allclose(run.losses["rope"][b], by_hand, atol=1e-5)
        assert torch.allclose(run.losses["learned"][b], learned, atol=1e-5)
    curve = run.curve("rope")
    assert run.prefix_losses(126)["rope"] == pytest.approx(float(curve[:126].mean()))
    assert run.perplexity("rope", 126) == pytest.approx(math.exp(float(curve[:126].mean())))
    assert math.isnan(run.prefix_losses(300)["learned"])
    table = run.toy_table_2()
    assert table["rope"][0] == pytest.approx(math.exp(float(curve[:64].mean())))
    assert math.isnan(table["learned"][3])  # 314 tokens: past the table


def test_training_changes_the_models_and_follows_the_seed():
    first = M.train_models(TINY, seed=2, schemes=("alibi",), progress=False, workers=1)["alibi"]
    again = M.train_models(TINY, seed=2, schemes=("alibi",), progress=False, workers=1)["alibi"]
    untrained = M.build_model("alibi", TINY, 2)
    assert all(torch.equal(p, q) for p, q in zip(first.parameters(), again.parameters(), strict=True))
    assert not torch.equal(first.head.weight, untrained.head.weight)


def test_probe_reads_the_sinusoidal_code_exactly_and_nothing_from_token_embeddings():
    task = TINY.task()
    # layer 0 of a sinusoidal model is token embedding + PE(p): the position is a linear read-out
    exact = M.position_probe(M.build_model("sinusoidal", TINY), task, train_length=64, length=96, layer=0)
    assert exact.r2_within > 0.999
    assert torch.allclose(exact.reading[:64], torch.arange(64, dtype=torch.float64), atol=1e-3)
    # layer 0 of a model with no position signal holds the token alone: the best linear read-out is
    # about the mean position, 31.5, everywhere
    blind = M.position_probe(M.build_model("none", TINY), task, train_length=64, length=96, layer=0)
    assert abs(blind.r2_within) < 0.05
    assert torch.allclose(blind.reading, torch.full((96,), 31.5, dtype=torch.float64), atol=2.0)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"layer": 2}, "layer must be an integer from -2 to 1"), ({"train_length": 1}, "train_length"),
    ({"length": 10}, "length"), ({"sequences": 1}, "sequences")])
def test_probe_bad_input_is_named(kwargs, words):
    args = {"train_length": 16, "length": 32, **kwargs}
    with pytest.raises(ValueError, match=words):
        M.position_probe(M.build_model("none", TINY), TINY.task(), **args)


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="settings"):
        M.train_models({"length": 64})
    with pytest.raises(ValueError, match="schemes"):
        M.train_models(TINY, schemes=("rope", "bogus"))
    with pytest.raises(TypeError, match="models"):
        M.evaluate_models([], TINY)
    run = M.evaluate_models({"rope": M.build_model("rope", TINY)}, TINY, length=70)
    with pytest.raises(ValueError, match="name"):
        run.curve("alibi")


def test_probe_claims_on_readings_built_by_hand():
    L, n = 8, 32
    positions = torch.arange(n, dtype=torch.float64)
    # exact within L, then sliding back towards smaller readings
    exact_then_back = M.PositionProbe(0.95, torch.where(positions < L, positions, L - 1 - (positions - L) / 8))
    compressed = M.PositionProbe(0.1, torch.log1p(positions))  # keeps rising, slowly
    claims = M.probe_claims(compressed, exact_then_back, compressed, train_length=L)
    assert all(claims.values()) and len(claims) == 5
    # a sinusoidal reading that runs on past L, and a no-position reading that is flat past L
    runs_on = M.PositionProbe(0.99, positions)
    flat = M.PositionProbe(0.1, torch.where(positions < L, positions, float(L)))
    claims = M.probe_claims(flat, runs_on, flat, train_length=L)
    assert [k for k, v in claims.items() if not v] == [
        "none's mean reading rises: 2L–4L > L–2L > ≤ L",
        "sinusoidal's mean reading over 2L–4L is below L and below its mean over L–2L"]
    with pytest.raises(ValueError, match="4L = 32"):
        M.probe_claims(compressed, M.PositionProbe(0.9, positions[:20]), compressed, train_length=L)


# --- the lesson's claims ------------------------------------------------------------------------


def test_loss_bands_by_hand_start_where_the_floor_is_constant():
    curve = torch.arange(320, dtype=torch.float64)
    # means of 8…63, 64…127, 128…255, 256…319
    assert tuple(M.loss_bands(curve, 64)) == (35.5, 95.5, 191.5, 287.5)
    assert math.isnan(M.loss_bands(curve[:256], 64).to_5l)
    assert M.loss_bands(curve, 64, start=0).within == 31.5
    floor = H.SHORT_CONTEXT.task().floor_by_position(320)
    assert (floor[M.BAND_START - 1:] == floor[-1]).all() and floor[M.BAND_START - 2] > floor[-1]
    bands = M.loss_bands(floor, 64)
    assert max(bands) - min(bands) < 1e-6  # every band of the floor alike: a rise is a rise above the floor
    with pytest.raises(ValueError, match="train_length"):
        M.loss_bands(curve, 8)
    with pytest.raises(ValueError, match="curve"):
        M.loss_bands(curve[None], 64)


def _run_from_levels(levels: dict[str, tuple[float, float, float, float]], L: int = 64) -> M.ShortContextRun:
    """A run whose curves are flat at ``levels[name]`` over 0 … L−1, L … 2L−1, 2L … 4L−1 and 4L … 5L−1."""
    floor = H.SHORT_CONTEXT.task().floor_by_position(5 * L)
    losses = {}
    for name, (within, to_2l, to_4l, to_5l) in levels.items():
        curve = torch.cat([torch.full((L,), within), torch.full((L,), to_2l), torch.full((2 * L,), to_4l),
                           torch.full((L,), to_5l)])
        n = 4 * L if name == "learned" else 5 * L
        losses[name] = curve[:n].double().repeat(2, 1)
    return M.ShortContextRun(0, L, losses, floor)


# What the lesson finds, as flat levels (the floor is 0.698 from position 7 on).
FOUND = {"none": (2.41, 2.64, 2.75, 2.8), "sinusoidal": (0.72, 3.5, 3.9, 3.85),
         "learned": (0.78, 4.4, 4.6, math.nan), "rope": (0.73, 1.2, 3.0, 3.2),
         "alibi": (1.82, 1.88, 1.89, 1.89), "t5": (0.74, 0.77, 0.86, 1.04)}


def test_short_context_claims_hold_on_the_lesson_findings():
    run = _run_from_levels(FOUND)
    floor = run.floor_bands()
    assert floor.within == pytest.approx(float(run.floor[-1])) == pytest.approx(0.698, abs=1e-3)
    claims = M.short_context_claims(run)
    assert all(claims.values()), [c for c, v in claims.items() if not v]
    assert set(claims) == {c for part in M.CLAIM_PARTS for c in M.short_context_claims(run, part)}


@pytest.mark.parametrize(("scheme", "levels", "broken"), [
    ("alibi", (1.82, 1.88, 1.89, 2.1), "alibi stays within ±0.2 nats of its level within L in every band up to 5L"),
    ("alibi", (1.82, 1.84, 1.84, 1.97),
     "alibi levels off: from 2L–4L to 4L–5L its mean loss moves by less than 0.1 nats"),
    ("rope", (0.73, 0.8, 3.0, 3.2), "rope rises by more than 0.2 nats already from within L to L–2L"),
    ("sinusoidal", (0.72, 2.5, 3.9, 3.85), "sinusoidal and learned are worse than none from L to 2L"),
    ("t5", (0.74, 1.3, 1.3, 1.35), "t5 is the best of the six in every band past L (4L–5L: of those that reach it)"),
    ("t5", (0.74, 0.77, 0.86, 0.86), "t5 climbs band after band: L–2L < 2L–4L < 4L–5L"),
    ("t5", (0.74, 0.77, 0.80, 0.85), "t5 rises by more than 0.2 nats from within L to 4L–5L"),
    ("t5", (0.74, 0.77, 0.90, 0.95),
     "t5 keeps climbing: from 2L–4L to 4L–5L its mean loss rises by more than 0.1 nats"),
    ("none", (1.5, 2.6, 2.75, 2.8), "none is the worst of the six"),
    ("none", (2.41, 2.45, 2.5, 2.5), "none rises by more than 0.2 nats from within L to 2L–4L"),
])
def test_short_context_claims_fail_where_the_curves_say_otherwise(scheme, levels, broken):
    claims = M.short_context_claims(_run_from_levels({**FOUND, scheme: levels}))
    assert not claims[broken]


def test_a_learned_curve_that_dips_near_its_level_within_l_breaks_the_no_dip_claim():
    run = _run_from_levels(FOUND)
    run.losses["learned"][:, 200] = 1.5
    claims = M.short_context_claims(run, "past L")
    assert not claims["past L the learned curve stays more than 1.0 nat above its level within L at every position"]
    assert not claims["past L the sinusoidal curve dips more than 0.5 nats lower than the learned one ever comes"]
    assert sum(not v for v in claims.values()) == 2


def test_table_2_claims_follow_the_prefix_means():
    claims = M.short_context_claims(_run_from_levels(FOUND), "table 2")
    assert all(claims.values())
    # an ALiBi as good as the others at the training length is not "far behind"
    claims = M.short_context_claims(_run_from_levels({**FOUND, "alibi": (0.9, 0.8, 0.8, 0.8)}), "table 2")
    assert not claims["unlike the paper: alibi is far behind at the training length (perplexity × 1.5 or more)"]
    assert not claims["unlike the paper: t5 < alibi at every length"]


def test_short_context_claims_bad_input_is_named():
    with pytest.raises(TypeError, match="run"):
        M.short_context_claims({"rope": 1.0})
    with pytest.raises(ValueError, match="part"):
        M.short_context_claims(_run_from_levels(FOUND), "bands")
    with pytest.raises(ValueError, match="missing"):
        M.short_context_claims(_run_from_levels({k: v for k, v in FOUND.items() if k != "t5"}))
    with pytest.raises(ValueError, match="5L"):
        short = {k: v[:, :256] for k, v in _run_from_levels(FOUND).losses.items()}
        M.short_context_claims(M.ShortContextRun(0, 64, short, H.SHORT_CONTEXT.task().floor_by_position(256)))


def test_far_attention_matches_the_weights_by_hand():
    settings = dataclasses.replace(TINY, length=8)
    model = M.build_model("rope", settings, 3)
    far = M.far_attention(model, settings, seed=3, length=24, batches=1)
    inputs, _ = settings.task().sample(settings.batch, 24, torch.Generator().manual_seed(M.evaluation_seeds(3, 1)[0]))
    with torch.no_grad():
        _, (weights,) = model(inputs, return_weights=True)
    by_hand = torch.tensor([float(weights[:, :, t, : t - 8 + 1].sum(-1).mean()) if t >= 8 else 0.0 for t in range(24)],
                           dtype=torch.float64)
    assert torch.allclose(far, by_hand, atol=1e-6)
    assert (far[:8] == 0).all() and (far[8:] > 0).all()
    nearer = M.far_attention(model, settings, seed=3, length=24, batches=1, min_offset=5)
    by_hand = torch.tensor([float(weights[:, :, t, : t - 5 + 1].sum(-1).mean()) if t >= 5 else 0.0 for t in range(24)],
                           dtype=torch.float64)
    assert torch.allclose(nearer, by_hand, atol=1e-6)
    with pytest.raises(ValueError, match="min_offset"):
        M.far_attention(model, settings, min_offset=0)


def test_t5_last_bucket_start_by_the_formula():
    # 32 causal buckets, 16 exact; bucket 31 starts at the first distance d with
    # 16 + ⌊ln(d/16)/ln(64/16)·16⌋ = 31, i.e. d ≥ 16·4^(15/16) ≈ 58.7
    assert math.ceil(16 * 4 ** (15 / 16)) == 59
    assert M.t5_last_bucket_start(M.build_model("t5", TINY)) == 59
    assert M.t5_last_bucket_start(M.build_model("t5", dataclasses.replace(TINY, length=128))) == 113  # lesson 07's 113
    with pytest.raises(TypeError, match="t5"):
        M.t5_last_bucket_start(M.build_model("alibi", TINY))


def test_attention_claims_follow_the_curves():
    run = _run_from_levels(FOUND)
    L, n = 64, 320
    positions = torch.arange(n, dtype=torch.float64)
    rope_far = (run.curve("rope") - run.floor) * 0.3
    t5_far = ((positions - 58) / 400).clamp(min=0.0)  # more keys in the last bucket, more weight on them
    t5_far = t5_far + 0.01 * (run.curve("t5") - run.floor)
    alibi_far = torch.where(positions < L, 0.0, 0.27 * (1 - torch.exp(-(positions - L) / 40)))  # levels off
    far = {"rope": rope_far, "t5": t5_far, "alibi": alibi_far}
    claims = M.attention_claims(run, far)
    assert all(claims.values()), claims
    growing = torch.where(positions < L, 0.0, (positions - L) / 256)
    broken = M.attention_claims(run, {**far, "alibi": growing, "t5": torch.zeros(n, dtype=torch.float64)})
    assert [c for c, v in broken.items() if not v] == [c for c in claims if not c.startswith("past L, rope")]
    with pytest.raises(ValueError, match="far"):
        M.attention_claims(run, {"rope": rope_far})


def test_loss_jumps_find_the_steps_of_a_staircase():
    curve = torch.zeros(320, dtype=torch.float64)
    for step, height in ((70, 0.5), (126, 0.6), (190, 0.7)):
        curve[step:] += height
    curve += 0.01 * torch.sin(torch.arange(320.0))  # small wiggles are no steps
    assert M.loss_jumps(curve, 64) == [70, 126, 190]
    assert M.loss_jumps(curve, 64, count=1) == [190]
    with pytest.raises(ValueError, match="curve"):
        M.loss_jumps(curve[:70], 64)


def test_far_attention_correlation_by_hand():
    run = _run_from_levels(FOUND)
    excess = run.curve("rope") - run.floor
    assert M.far_attention_correlation(run, 0.5 * excess + 3) == pytest.approx(1.0)
    assert M.far_attention_correlation(run, -excess) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="shape"):
        M.far_attention_correlation(run, excess[:10])


def test_core_lines_keep_the_marked_lines_and_refuse_a_missing_marker():
    def sample(x):
        y = x + 1
        if y:
            z = y * 2
        return z

    text = M.core_lines(sample, "y = x", "z = y")
    assert text.splitlines()[1:] == ["y = x + 1", "z = y * 2"]
    assert text.startswith("# ") and "sample" in text.splitlines()[0]
    with pytest.raises(ValueError, match="not in the source"):
        M.core_lines(sample, "w = 3")
