"""The claims lessons 08, 09 and 11 make about the shipped text models, as named predicates.

Each ``*_margins`` function returns claim → the smallest margin (nats) by which it holds over every
seed measured: positive means it holds, and a claim is asserted where its margin exceeds
``TEXT_MARGIN``, which was chosen so that every asserted claim held for both shipped seeds, with the
machine's fastest kernels and with PyTorch's portable ones (``ATEN_CPU_CAPABILITY=default``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import torch

from .evaluate import TextStretchTable, TextValidationCurves, text_band_losses
from .models import FINE_TUNE_LENGTH, TEXT_LENGTH, TEXT_SCHEMES

TEXT_MARGIN = 0.03

# the methods that keep RoPE's fast pairs and squeeze the slow ones (every stretch but PI)
KEEP_FAST = ("ntk", "dynamic", "yarn", "llama3")
# the three that draw their lines by wavelength (or, for dynamic NTK, stretch by the length reached)
BEST_THREE = ("dynamic", "yarn", "llama3")
# the fine-tunes whose frequencies stay those of factor 4 at every length (dynamic NTK's follow the length)
FIXED_AT_4 = ("plain", "linear", "ntk", "yarn", "llama3")


def _tables(tables: Sequence[TextStretchTable], name: str, fine_tuned: bool) -> list[TextStretchTable]:
    tables = list(tables)
    if not tables or not all(isinstance(t, TextStretchTable) for t in tables):
        raise ValueError(f"{name} must be a non-empty sequence of TextStretchTable (one per seed), got {tables!r:.80}")
    if any(t.fine_tuned != fine_tuned for t in tables):
        raise ValueError(f"{name} must hold {'fine-tuned' if fine_tuned else 'training-free'} tables "
                         f"(fine_tuned={fine_tuned})")
    return tables


def text_stretch_margins(
    free: Sequence[TextStretchTable], tuned: Sequence[TextStretchTable], cost: Sequence[TextStretchTable],
) -> dict[str, float]:
    """Lesson 09's claims on the RoPE text model: claim → its smallest margin (nats) over the seeds.

    ``free``: training-free tables (factor n / L at each length n) at L, 2L, 4L and 8L, one per
    seed; ``tuned``: the fine-tuned tables at the same lengths, same seeds in the same order (with
    the row "yarn-x8", ``text_stretch_losses(seed, fine_tuned=True, extra=("ft-yarn-x8",))``, the
    claim about YaRN configured for 8L is added);
    ``cost``: training-free tables at factor 4 (the fine-tunes' factor) at length L, same seeds
    (its "plain" row may be left out: it is the base model). "within L" is the base model's loss on
    inputs of L (the "plain" entry of ``free`` at L)."""
    free = _tables(free, "free", False)
    tuned = _tables(tuned, "tuned", True)
    cost = _tables(cost, "cost", False)
    if not len(free) == len(tuned) == len(cost) or any(
            not f.seed == t.seed == c.seed for f, t, c in zip(free, tuned, cost, strict=True)):
        raise ValueError("free, tuned and cost must hold the same seeds in the same order")
    with_x8 = ["yarn-x8" in t.loss for t in tuned]
    if any(with_x8) and not all(with_x8):
        raise ValueError("tuned must hold the row 'yarn-x8' (YaRN configured for 8L) for every seed or for none: "
                         "text_stretch_losses(seed, fine_tuned=True, extra=('ft-yarn-x8',))")
    L, n_ft = TEXT_LENGTH, FINE_TUNE_LENGTH
    longer = (2 * L, 4 * L, 8 * L)
    rows: dict[str, list[float]] = {}

    def add(claim, value):
        rows.setdefault(claim, []).append(value)

    for f, t, c in zip(free, tuned, cost, strict=True):
        a, b, k = f.loss, t.loss, c.loss
        within = a["plain"][L]
        add("no training, at 2L, 4L and 8L: NTK-aware, dynamic NTK, YaRN and Llama 3 each below plain RoPE",
            min(a["plain"][n] - a[m][n] for n in longer for m in KEEP_FAST))
        add("no training, at 2L, 4L and 8L: position interpolation above plain RoPE",
            min(a["linear"][n] - a["plain"][n] for n in longer))
        add("no training, at 2L: dynamic NTK, YaRN and Llama 3 within 0.15 nats of the loss within L",
            min(0.15 - (a[m][2 * L] - within) for m in BEST_THREE))
        add("no training, at 2L: plain RoPE more than 0.4 nats above its loss within L",
            (a["plain"][2 * L] - within) - 0.4)
        add("no training, at 8L: every method more than 0.5 nats above the loss within L",
            min(a[m][8 * L] - within for m in a) - 0.5)
        add("no training, configured for 4L and read within L: position interpolation costs more than 1.5 nats",
            (k["linear"][L] - within) - 1.5)
        add("no training, configured for 4L and read within L: NTK-aware costs the least of the stretches",
            min(k[m][L] - k["ntk"][L] for m in ("linear", "dynamic", "yarn", "llama3")))
        add("fine-tuned, at 4L: dynamic NTK, YaRN and Llama 3 within 0.07 nats of the loss within L",
            min(0.07 - (b[m][n_ft] - within) for m in BEST_THREE))
        add("fine-tuned, at 4L: plain fine-tuning above every stretch but position interpolation",
            min(b["plain"][n_ft] - b[m][n_ft] for m in KEEP_FAST))
        add("fine-tuned, at every length: position interpolation the highest",
            min(b["linear"][n] - max(v[n] for m, v in b.items() if m != "linear") for n in b["linear"]))
        add("fine-tuned, within L: plain fine-tuning costs more than dynamic NTK, YaRN and Llama 3",
            min(b["plain"][L] - b[m][L] for m in BEST_THREE))
        add("fine-tuned, configured for 4L and read at 8L (past the configured factor): plain fine-tuning, position "
            "interpolation, NTK-aware, YaRN and Llama 3 each more than 0.4 nats above the loss within L",
            min(b[m][8 * L] for m in FIXED_AT_4) - within - 0.4)
        add("fine-tuned, at 8L: dynamic NTK, its factor following the length (29 at 8L), below every method fixed at "
            "factor 4, yet more than 0.15 nats above the loss within L",
            min(min(b[m][8 * L] for m in FIXED_AT_4) - b["dynamic"][8 * L], b["dynamic"][8 * L] - within - 0.15))
        if "yarn-x8" in b:
            add("fine-tuned, YaRN configured for 8L (factor 8) reads 8L within 0.1 nats of the loss within L, "
                "the lowest of the fine-tunes there",
                min(0.1 - (b["yarn-x8"][8 * L] - within),
                    min(v[8 * L] for m, v in b.items() if m != "yarn-x8") - b["yarn-x8"][8 * L]))
    return {claim: min(values) for claim, values in rows.items()}


def text_convergence_margins(curves: TextValidationCurves) -> dict[str, float]:
    """"Why the field chose RoPE", lesson 08's and 11's claims on the validation loss within L recorded
    while the base models trained (``text_validation_curves()``, every scheme): claim → smallest margin."""
    if not isinstance(curves, TextValidationCurves):
        raise ValueError(f"curves must be a TextValidationCurves (text_validation_curves()), got {curves!r:.60}")
    missing = sorted(set(TEXT_SCHEMES) - set(curves.loss))
    if missing:
        raise ValueError(f"curves must hold every scheme of {TEXT_SCHEMES}; missing {missing}")
    steps = curves.steps.tolist()
    for step in (90, 450):
        if step not in steps:
            raise ValueError(f"curves must be recorded at step {step}, got steps {steps}")
    rope = curves.loss["rope"]
    late = curves.steps >= 90
    others = [s for s in TEXT_SCHEMES if s != "rope"]
    return {
        "within L, RoPE the lowest of the six schemes at every recorded step from step 90 on":
            min(float((curves.loss[s] - rope)[:, late].min()) for s in others),
        "within L, RoPE below ALiBi's final loss by three quarters of training (step 450)":
            float((curves.loss["alibi"][:, -1] - rope[:, steps.index(450)]).min()),
        "within L, sinusoidal, learned and no positions end more than 0.25 nats above RoPE":
            min(float((curves.loss[s][:, -1] - rope[:, -1]).min()) for s in ("sinusoidal", "learned", "none")) - 0.25,
    }


def text_length_margins(curves: Mapping[str, torch.Tensor], train_length: int = TEXT_LENGTH) -> dict[str, float]:
    """Lesson 08's claims on loss by position up to 8·L (``text_loss_curves()``: scheme → (seeds, 8·L)
    losses by position, every scheme): claim → smallest margin over the seeds. Bands are
    ``text_bands``; "whole input of n" is the mean over the first n positions (what a causal model
    scores on an input of n bytes)."""
    missing = sorted(set(TEXT_SCHEMES) - set(curves))
    if missing:
        raise ValueError(f"curves must hold every scheme of {TEXT_SCHEMES}; missing {missing}")
    L = train_length
    for name, c in curves.items():
        if not isinstance(c, torch.Tensor) or c.dim() != 2 or c.shape[1] < 8 * L:
            raise ValueError(f"curves[{name!r}] must be a (seeds, ≥ 8·L = {8 * L}) tensor of losses by position, "
                             f"got {getattr(c, 'shape', c)!r:.60}")
    rows: dict[str, list[float]] = {}

    def add(claim, value):
        rows.setdefault(claim, []).append(value)

    seeds = {c.shape[0] for c in curves.values()}
    if len(seeds) != 1:
        raise ValueError(f"every scheme must have the same number of seeds, got {sorted(seeds)}")
    for k in range(seeds.pop()):
        band = {s: list(text_band_losses(c[k], L).values()) for s, c in curves.items()}  # within, L–2L, 2L–4L, 4L–8L
        whole = {s: {n: float(c[k, :n].mean()) for n in (L, 2 * L, 4 * L, 8 * L)} for s, c in curves.items()}
        add("within L, RoPE the lowest of the six schemes",
            min(band[s][0] - band["rope"][0] for s in band if s != "rope"))
        add("past L, sinusoidal, learned and RoPE more than 0.4 nats above their loss within L in every band",
            min(b - band[s][0] for s in ("sinusoidal", "learned", "rope") for b in band[s][1:]) - 0.4)
        add("past L, sinusoidal and learned above no positions in every band",
            min(band[s][j] - band["none"][j] for s in ("sinusoidal", "learned") for j in (1, 2, 3)))
        just = {s: float(c[k, L:L + L // 4].mean()) - band[s][0] for s, c in curves.items()}
        next_ = float(curves["rope"][k, L + L // 4:L + L // 2].mean()) - band["rope"][0]
        add("just past L (L … 1.25L): RoPE within 0.25 nats of its loss within L, sinusoidal more than 1 nat above",
            min(0.25 - just["rope"], just["sinusoidal"] - 1.0))
        add("from 1.25L to 1.5L: RoPE more than 0.5 nats above its loss within L", next_ - 0.5)
        add("averaged over 2L–4L and over 4L–8L, RoPE the highest of the six schemes",
            min(band["rope"][j] - band[s][j] for j in (2, 3) for s in band if s != "rope"))
        add("ALiBi flat from L to 8L: its three bands past L within 0.1 nats of each other",
            0.1 - (max(band["alibi"][1:]) - min(band["alibi"][1:])))
        add("T5 climbs: its band 4L–8L more than 0.5 nats above its band L–2L",
            band["t5"][3] - band["t5"][1] - 0.5)
        add("no positions: the highest loss within L, and every band past L within 0.3 nats of it",
            min(min(band["none"][0] - band[s][0] for s in band if s != "none"),
                0.3 - max(b - band["none"][0] for b in band["none"][1:])))
        move = {s: max(abs(b - band[s][0]) for b in band[s][1:]) for s in band}  # the largest change past L
        add("past L, only ALiBi and no positions keep every band within 0.3 nats of their loss within L",
            min(0.3 - move["alibi"], 0.3 - move["none"],
                min(move[s] - 0.3 for s in band if s not in ("alibi", "none"))))
        add("past L, ALiBi's bands move least from its loss within L of the six",
            min(move[s] for s in band if s != "alibi") - move["alibi"])
        add("whole input, 8L against L: RoPE's loss up by more than 1 nat, T5's by more than 0.4",
            min(whole["rope"][8 * L] - whole["rope"][L] - 1.0, whole["t5"][8 * L] - whole["t5"][L] - 0.4))
        add("whole input: ALiBi's loss at 2L, 4L and 8L within 0.1 nats of its loss at L",
            0.1 - max(abs(whole["alibi"][n] - whole["alibi"][L]) for n in (2 * L, 4 * L, 8 * L)))
        add("whole input at 4L and 8L: ALiBi the lowest of the six",
            min(whole[s][n] - whole["alibi"][n] for n in (4 * L, 8 * L) for s in whole if s != "alibi"))
        add("whole input: RoPE below sinusoidal at 2L, above it at 8L",
            min(whole["sinusoidal"][2 * L] - whole["rope"][2 * L], whole["rope"][8 * L] - whole["sinusoidal"][8 * L]))
        n_press = round(L * 2512 / 512)  # Press et al.'s longest input, 2512 tokens for 512 trained, scaled to L
        add("whole input at 4.9L (Press et al.'s 2512 tokens, scaled): RoPE already above sinusoidal",
            float(curves["rope"][k, :n_press].mean()) - float(curves["sinusoidal"][k, :n_press].mean()))
    return {claim: min(values) for claim, values in rows.items()}


def text_claims(margins: Mapping[str, float], margin: float = TEXT_MARGIN) -> dict[str, bool]:
    """claim → whether it holds by more than ``margin`` nats (the margins of a ``*_margins`` function)."""
    return {claim: value > margin for claim, value in margins.items()}
