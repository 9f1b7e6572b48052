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
         "dynamic": (1.45, 1.44, 1.46, 1.9), "yarn": (1.44, 1.43, 1.43, 2.1), "llama3": (1.46, 1.45, 1.45, 2.1)}
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
    assert m["fine-tuned, at 4L: dynamic NTK, YaRN and Llama 3 within 0.1 nats of the loss within L"] \
        == pytest.approx(0.04)       # dynamic: 0.1 − (1.46 − 1.4)
    assert m["fine-tuned, at 4L: plain fine-tuning above every stretch but position interpolation"] \
        == pytest.approx(0.31)
    assert m["fine-tuned, at every length: position interpolation the highest"] == pytest.approx(0.2)
    assert m["fine-tuned, within L: plain fine-tuning costs more than dynamic NTK, YaRN and Llama 3"] \
        == pytest.approx(0.09)
    assert m["fine-tuned, at 8L (twice the fine-tuning length): every method more than 0.25 nats above the loss "
             "within L"] == pytest.approx(0.25)


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
