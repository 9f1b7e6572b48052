"""The claims of lessons 08, 09 and 11 on the text models, checked on tables whose margins are known by hand."""

import pytest

import helpers as H

L = H.TEXT_LENGTH
LENGTHS = (L, 2 * L, 4 * L, 8 * L)


def table(rows, fine_tuned, seed=0):
    """A TextStretchTable from method → (losses at L, 2L, 4L, 8L) (or one loss, at L)."""
    loss = {m: dict(zip(LENGTHS, values, strict=False)) for m, values in rows.items()}
    return H.TextStretchTable(loss, seed, fine_tuned, {m: dict.fromkeys(v, 1.0) for m, v in loss.items()})


FREE = {"plain": (1.4, 2.0, 2.8, 3.4), "linear": (1.4, 2.8, 3.6, 3.9), "ntk": (1.4, 1.7, 2.1, 2.6),
        "dynamic": (1.4, 1.5, 1.7, 2.2), "yarn": (1.4, 1.48, 1.7, 2.3), "llama3": (1.4, 1.49, 1.8, 2.5)}
TUNED = {"plain": (1.55, 1.6, 1.85, 2.2), "linear": (2.2, 2.2, 2.2, 2.4), "ntk": (1.5, 1.49, 1.54, 1.9),
         "dynamic": (1.45, 1.44, 1.46, 1.7), "yarn": (1.44, 1.43, 1.43, 2.1), "llama3": (1.46, 1.45, 1.45, 2.1),
         "yarn-x8": (1.47, 1.46, 1.46, 1.48)}
COST = {"plain": (1.4,), "linear": (3.5,), "ntk": (1.44,), "dynamic": (1.6,), "yarn": (1.62,), "llama3": (1.7,)}


def margins(free=FREE, tuned=TUNED, cost=COST):
    return H.text_stretch_margins([table(free, False)], [table(tuned, True)], [table(cost, False)])


def test_stretch_margins_by_hand():
    m = margins()
    assert m["no training, at 2L, 4L and 8L: NTK-aware, dynamic NTK, YaRN and Llama 3 each below plain RoPE"] \
        == pytest.approx(0.3)        # NTK-aware at 2L: 2.0 − 1.7
    assert m["no training, at 2L, 4L and 8L: position interpolation above plain RoPE"] == pytest.approx(0.5)
    assert m["no training, at 2L: dynamic NTK, YaRN and Llama 3 within 0.15 nats of the loss within L"] \
        == pytest.approx(0.05)       # dynamic: 0.15 − (1.5 − 1.4)
    assert m["no training, at 2L: plain RoPE more than 0.4 nats above its loss within L"] == pytest.approx(0.2)
    assert m["no training, at 8L: every method more than 0.5 nats above the loss within L"] == pytest.approx(0.3)
    assert m["no training, configured for 4L and read within L: position interpolation costs more than 1.5 nats"] \
        == pytest.approx(0.6)
    assert m["no training, configured for 4L and read within L: NTK-aware costs the least of the stretches"] \
        == pytest.approx(0.16)
    assert m["fine-tuned, at 4L: dynamic NTK, YaRN and Llama 3 within 0.07 nats of the loss within L"] \
        == pytest.approx(0.01)       # dynamic: 0.07 − (1.46 − 1.4)
    assert m["fine-tuned, at 4L: plain fine-tuning above every stretch but position interpolation"] \
        == pytest.approx(0.31)
    assert m["fine-tuned, at every length: position interpolation the highest"] == pytest.approx(0.2)
    assert m["fine-tuned, within L: plain fine-tuning costs more than dynamic NTK, YaRN and Llama 3"] \
        == pytest.approx(0.09)
    assert m["fine-tuned, configured for 4L and read at 8L (past the configured factor): plain fine-tuning, position "
             "interpolation, NTK-aware, YaRN and Llama 3 each more than 0.4 nats above the loss within L"] \
        == pytest.approx(0.1)        # NTK-aware: 1.9 − 1.4 − 0.4
    assert m["fine-tuned, at 8L: dynamic NTK, its factor following the length (29 at 8L), below every method fixed at "
             "factor 4, yet more than 0.15 nats above the loss within L"] \
        == pytest.approx(0.15)       # 1.7 − 1.4 − 0.15 (and 1.9 − 1.7 = 0.2 below NTK-aware)
    assert m["fine-tuned, YaRN configured for 8L (factor 8) reads 8L within 0.1 nats of the loss within L, "
             "the lowest of the fine-tunes there"] == pytest.approx(0.02)   # 0.1 − (1.48 − 1.4)


def test_the_8L_claims_fail_where_they_should():
    dynamic_high = margins(tuned={**TUNED, "dynamic": (1.45, 1.44, 1.46, 1.95)})   # above NTK-aware at 8L
    assert dynamic_high["fine-tuned, at 8L: dynamic NTK, its factor following the length (29 at 8L), below every "
                        "method fixed at factor 4, yet more than 0.15 nats above the loss within L"] \
        == pytest.approx(-0.05)
    x8_far = margins(tuned={**TUNED, "yarn-x8": (1.47, 1.46, 1.46, 1.75)})   # above dynamic NTK at 8L
    assert x8_far["fine-tuned, YaRN configured for 8L (factor 8) reads 8L within 0.1 nats of the loss within L, "
                  "the lowest of the fine-tunes there"] == pytest.approx(-0.25)
    no_x8 = {m: v for m, v in TUNED.items() if m != "yarn-x8"}
    without = margins(tuned=no_x8)   # the other claims only
    assert set(margins()) - set(without) == {"fine-tuned, YaRN configured for 8L (factor 8) reads 8L within 0.1 nats "
                                             "of the loss within L, the lowest of the fine-tunes there"}
    with pytest.raises(ValueError, match="tuned must hold the row 'yarn-x8' .* for every seed or for none"):
        H.text_stretch_margins([table(FREE, False, 0), table(FREE, False, 1)],
                               [table(TUNED, True, 0), table(no_x8, True, 1)],
                               [table(COST, False, 0), table(COST, False, 1)])
    no_plain = margins(cost={m: v for m, v in COST.items() if m != "plain"})   # the cost table's plain row unused
    assert no_plain == margins()


def test_a_claim_that_fails_has_a_negative_margin_and_the_smallest_seed_counts():
    tuned = {**TUNED, "plain": (1.55, 1.6, 1.4, 2.2)}   # plain fine-tuning best at 4L
    m = margins(tuned=tuned)
    claim = "fine-tuned, at 4L: plain fine-tuning above every stretch but position interpolation"
    assert m[claim] == pytest.approx(-0.14)
    assert H.text_claims(m)[claim] is False and H.text_claims(margins())[claim] is True
    two = H.text_stretch_margins([table(FREE, False, 0), table(FREE, False, 1)],
                                 [table(TUNED, True, 0), table(tuned, True, 1)],
                                 [table(COST, False, 0), table(COST, False, 1)])
    assert two[claim] == pytest.approx(-0.14)


def test_stretch_margins_reject_bad_input():
    with pytest.raises(ValueError, match="tuned must hold fine-tuned"):
        H.text_stretch_margins([table(FREE, False)], [table(TUNED, False)], [table(COST, False)])
    with pytest.raises(ValueError, match="same seeds"):
        H.text_stretch_margins([table(FREE, False, 0)], [table(TUNED, True, 1)], [table(COST, False, 0)])
    with pytest.raises(ValueError, match="free must be a non-empty sequence"):
        H.text_stretch_margins([], [table(TUNED, True)], [table(COST, False)])


def curves_of(final):
    """Validation curves: every scheme falls linearly from 3.0 at step 30 to ``final[scheme]`` at step 600."""
    import torch

    steps = torch.arange(30, 601, 30)
    loss = {s: torch.stack([torch.linspace(3.0, f, len(steps), dtype=torch.float64)] * 2) for s, f in final.items()}
    return H.TextValidationCurves(steps, loss, (0, 1), 4096)


FINAL = {"none": 2.4, "sinusoidal": 1.8, "learned": 2.2, "rope": 1.45, "alibi": 1.56, "t5": 1.5}


def test_convergence_margins_by_hand():
    m = H.text_convergence_margins(curves_of(FINAL))
    # linear curves: the gap to RoPE grows with the step, so its smallest value after step 90 is at step 90
    # (index 2 of 20): t5 − rope = (1.5 − 1.45)·2/19
    assert m["within L, RoPE the lowest of the six schemes at every recorded step from step 90 on"] \
        == pytest.approx(0.05 * 2 / 19)
    # rope at step 450 (index 14): 3 − 1.55·14/19
    assert m["within L, RoPE below ALiBi's final loss by three quarters of training (step 450)"] \
        == pytest.approx(1.56 - (3.0 - 1.55 * 14 / 19))
    assert m["within L, sinusoidal, learned and no positions end more than 0.25 nats above RoPE"] \
        == pytest.approx(0.35 - 0.25)
    with pytest.raises(ValueError, match="missing \\['t5'\\]"):
        H.text_convergence_margins(curves_of({k: v for k, v in FINAL.items() if k != "t5"}))


def by_position(bands):
    """(1, 8L) losses by position with a constant value in each band; positions 0–7 get 5.0."""
    import torch

    row = torch.full((8 * L,), 5.0, dtype=torch.float64)
    for (lo, hi), v in zip(H.text_bands(L), bands, strict=True):
        row[lo:hi] = v
    return row[None]


BANDS = {"none": (2.3, 2.45, 2.48, 2.45), "sinusoidal": (1.65, 3.2, 3.15, 3.25), "learned": (2.1, 2.75, 2.7, 2.65),
         "rope": (1.25, 2.5, 3.6, 3.85), "alibi": (1.4, 1.5, 1.48, 1.52), "t5": (1.3, 1.5, 1.87, 2.33)}


def test_length_margins_by_hand():
    m = H.text_length_margins({s: by_position(b) for s, b in BANDS.items()})
    assert m["within L, RoPE the lowest of the six schemes"] == pytest.approx(0.05)
    assert m["past L, sinusoidal, learned and RoPE more than 0.4 nats above their loss within L in every band"] \
        == pytest.approx(2.65 - 2.1 - 0.4)
    assert m["averaged over 2L–4L and over 4L–8L, RoPE the highest of the six schemes"] == pytest.approx(3.6 - 3.15)
    assert m["past L, sinusoidal and learned above no positions in every band"] == pytest.approx(2.65 - 2.45)
    # constant bands: just past L every curve sits at its L–2L value
    assert m["just past L (L … 1.25L): RoPE within 0.25 nats of its loss within L, sinusoidal more than 1 nat "
             "above"] == pytest.approx(min(0.25 - (2.5 - 1.25), 3.2 - 1.65 - 1.0))
    assert m["from 1.25L to 1.5L: RoPE more than 0.5 nats above its loss within L"] == pytest.approx(2.5 - 1.25 - 0.5)
    assert m["ALiBi flat from L to 8L: its three bands past L within 0.1 nats of each other"] \
        == pytest.approx(0.1 - 0.04)
    assert m["T5 climbs: its band 4L–8L more than 0.5 nats above its band L–2L"] == pytest.approx(0.33)
    assert m["no positions: the highest loss within L, and every band past L within 0.3 nats of it"] \
        == pytest.approx(min(0.2, 0.3 - 0.18))
    # the largest change past L: alibi 0.12 (1.52 − 1.4), none 0.18, learned 0.65 (the next smallest past 0.3)
    assert m["past L, only ALiBi and no positions keep every band within 0.3 nats of their loss within L"] \
        == pytest.approx(min(0.3 - 0.12, 0.3 - 0.18, 0.65 - 0.3))
    assert m["past L, ALiBi's bands move least from its loss within L of the six"] == pytest.approx(0.18 - 0.12)
    # whole input of n: the mean of the first n positions (8 of them at 5.0)
    whole = {s: ((5.0 * 8 + b[0] * (L - 8)) / L,
                 (5.0 * 8 + b[0] * (L - 8) + L * b[1] + 2 * L * b[2] + 4 * L * b[3]) / (8 * L))
             for s, b in BANDS.items()}
    expected = min(whole["rope"][1] - whole["rope"][0] - 1.0, whole["t5"][1] - whole["t5"][0] - 0.4)
    assert m["whole input, 8L against L: RoPE's loss up by more than 1 nat, T5's by more than 0.4"] \
        == pytest.approx(expected)
    w = {s: {n: float(by_position(b)[0, :n].mean()) for n in (2 * L, 4 * L, 8 * L)} for s, b in BANDS.items()}
    a_l = (5.0 * 8 + 1.4 * (L - 8)) / L  # ALiBi's whole-input loss at L, by hand
    assert m["whole input: ALiBi's loss at 2L, 4L and 8L within 0.1 nats of its loss at L"] == pytest.approx(
        0.1 - max(abs(w["alibi"][n] - a_l) for n in (2 * L, 4 * L, 8 * L)))
    assert m["whole input at 4L and 8L: ALiBi the lowest of the six"] == pytest.approx(
        min(w[s][n] - w["alibi"][n] for n in (4 * L, 8 * L) for s in w if s != "alibi"))
    assert m["whole input: RoPE below sinusoidal at 2L, above it at 8L"] == pytest.approx(
        min(w["sinusoidal"][2 * L] - w["rope"][2 * L], w["rope"][8 * L] - w["sinusoidal"][8 * L]))
    # at 628 = 4.9L: positions 0–7 at 5.0, then the bands up to 628 (RoPE's 2L–4L 3.6 against sinusoidal's 3.15)
    n = round(L * 2512 / 512)
    by_hand = {s: (5.0 * 8 + b[0] * (L - 8) + b[1] * L + b[2] * 2 * L + b[3] * (n - 4 * L)) / n
               for s, b in BANDS.items()}
    assert m["whole input at 4.9L (Press et al.'s 2512 tokens, scaled): RoPE already above sinusoidal"] \
        == pytest.approx(by_hand["rope"] - by_hand["sinusoidal"])
    # by hand at 2L: (5·8 + b0·120 + b1·128) / 256 for sinusoidal and RoPE
    assert w["sinusoidal"][2 * L] - w["rope"][2 * L] == pytest.approx(((1.65 - 1.25) * 120 + (3.2 - 2.5) * 128) / 256)
    with pytest.raises(ValueError, match="must be a \\(seeds, ≥ 8·L"):
        H.text_length_margins({s: by_position(b)[:, :L] for s, b in BANDS.items()})
