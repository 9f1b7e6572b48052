"""Lesson 01's exercises (notebooks/01_counting.ipynb), in the order the notebook asks them.

01.attention_entropy (implement): my_attention_entropy(weights) → the entropy in nats of each
    attention row, H = −Σ_j a_j·ln a_j over the last axis with 0·ln 0 = 0; (..., L) → (...), in the dtype
    of weights (the stub's docstring says so, and the check enforces it). The stub sums the terms over
    the keys; the learner writes entropy_terms, each weight's term −a·ln a with 0 where a = 0. Besides the
    cases: weights come back unchanged (the task's "take the log of 1 there" invites weights[weights == 0] = 1),
    entropy_terms keeps the shape of weights, and the result carries gradients (no numpy round trip).
01.collapse (predict): as L grows, with the raw index as a feature of queries and keys, where does
    the last token's attention go?
"""

from __future__ import annotations

import torch

from ..measure.l01_counting import attention_entropy, counting_snapshot
from .compare import to_tensor
from .core import Case, implement, predict
from .exercise import companion


def _reference(weights):
    return attention_entropy(weights)


def _terms(weights, log):
    safe = torch.where(weights > 0, weights, torch.ones_like(weights))
    return torch.where(weights > 0, weights * log(safe), torch.zeros_like(weights))


def _nan_at_zero_weights(weights):
    return -(weights * weights.log()).sum(-1)


def _log2(weights):
    return -_terms(weights, torch.log2).sum(-1)


def _no_minus(weights):
    return _terms(weights, torch.log).sum(-1)


def _wrong_axis(weights):
    return -_terms(weights, torch.log).sum(0)


def _everything(weights):
    return -_terms(weights, torch.log).sum()


def _mean(weights):
    return -_terms(weights, torch.log).mean(-1)


def _keepdim(weights):
    return -_terms(weights, torch.log).sum(-1, keepdim=True)


def _log1p(weights):
    return -(weights * torch.log1p(weights)).sum(-1)


def _log10(weights):
    return -_terms(weights, torch.log10).sum(-1)


def _weight_left_out(weights):
    safe = torch.where(weights > 0, weights, torch.ones_like(weights))
    return -safe.log().sum(-1)


def _epsilon_inside(epsilon):
    def entropy(weights):
        return -(weights * torch.log(weights + epsilon)).sum(-1)
    return entropy


def _floored(floor):
    def entropy(weights):
        return -(weights * torch.log(weights.clamp(min=floor))).sum(-1)
    return entropy


def _nan_as_one(weights):
    return torch.nan_to_num(-weights * torch.log(weights), nan=1.0).sum(-1)


def _log_one_minus(weights):
    return -(weights * torch.log1p(-weights)).sum(-1)


def _as_if_uniform(weights):
    return torch.full(weights.shape[:-1], torch.log(torch.tensor(float(weights.shape[-1]))).item(),
                      dtype=weights.dtype)


def _in_half(weights):
    w = weights.half()
    return -_terms(w, torch.log).sum(-1).to(weights.dtype)


def _in_bfloat16(weights):
    w = weights.bfloat16()
    return -_terms(w, torch.log).sum(-1).to(weights.dtype)


def _where(args, index) -> str:
    weights = args[0]
    if not index:
        return "the single row (all of weights)"
    lead = ", ".join(str(i) for i in index)
    return f"the row weights[{lead}, :] (its {weights.shape[-1]} keys)"


def _terms_keep_the_shape(answer) -> str | None:
    """entropy_terms, the part the learner writes, returns one term per weight: the shape of weights. Summed
    inside it (keepdim=True), the row's total comes out right but the terms are lost."""
    terms = companion(answer, "entropy_terms")
    if terms is None:
        return None
    weights = torch.tensor([[0.5, 0.5, 0.0, 0.0], [0.1, 0.2, 0.3, 0.4]])
    try:
        out = to_tensor(terms(weights.clone()))
    except Exception:  # entropy_terms not usable alone: the cases have already judged the whole function
        return None
    if out is None or tuple(out.shape) == tuple(weights.shape):
        return None
    return (f"entropy_terms(weights) returned shape {tuple(out.shape)} for weights of shape {tuple(weights.shape)}. "
            "It should return one term per weight, −a·ln a, in the shape of weights, as its docstring says; "
            "my_attention_entropy adds them up over the keys. Summed already inside entropy_terms, the row's total "
            "still comes out right, but the terms themselves (which key contributes how much) are lost.")


def _finite_gradient(answer) -> str | None:
    """The gradient of the entropy is not nan at weights of exactly 0 (the reference takes the log of 1 there):
    torch.where(weights > 0, −weights·log(weights), 0) picks 0 but still computes log 0, and the backward pass
    multiplies the branch not taken by 0: 0·(−inf) = nan."""
    weights = torch.tensor([[0.5, 0.5, 0.0, 0.0], [0.1, 0.2, 0.3, 0.4]], requires_grad=True)
    try:
        out = answer(weights)
        if not isinstance(out, torch.Tensor) or out.grad_fn is None:
            return None  # the autograd check says so
        (grad,) = torch.autograd.grad(out.sum(), weights)
    except Exception:  # not differentiable this way: the cases and the autograd check judge it
        return None
    expected = weights.detach().clone().requires_grad_(True)
    (want,) = torch.autograd.grad(_reference(expected).sum(), expected)
    bad = want.isfinite() & grad.isnan()  # +inf, the true slope of −a·ln a at 0 (torch.special.entr's), is kept
    if not bool(bad.any()):
        return None
    row, key = (int(i) for i in bad.nonzero()[0])
    return (f"the gradient of your entropy is {float(grad[row, key])} at weights[{row}, {key}] = 0 (backward of the "
            f"sum over the rows [[0.5, 0.5, 0, 0], [0.1, 0.2, 0.3, 0.4]]): the log of 0 is still computed. "
            "torch.where picks 0 for a zero weight, but its gradient goes through both branches, and the branch "
            "not taken, log 0 = −inf, gives 0·(−inf) = nan in training. Take the log of 1 at zero weights, as the "
            "task says: torch.where(weights > 0, weights, torch.ones_like(weights)).log().")


def _terms_and_gradient(answer) -> str | None:
    return _terms_keep_the_shape(answer) or _finite_gradient(answer)


def _cases() -> list[Case]:
    g = torch.Generator().manual_seed(0)
    soft = torch.randn(3, 5, generator=g, dtype=torch.float64).softmax(-1)
    heads = (4 * torch.randn(2, 3, 6, generator=g)).softmax(-1)
    counted = counting_snapshot(256, mode="feature").weights  # (256,), all but a few weights exactly 0
    with_zeros = torch.tensor([[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.1, 0.2, 0.3, 0.4]])
    return [
        Case("a uniform row over 4 keys (float32), entropy ln 4", (torch.full((4,), 0.25),)),
        Case("3 rows of a softmax over 5 keys (float64)", (soft,)),
        Case("3 rows with weights exactly 0", (with_zeros,)),
        Case("the counted row of this lesson at L = 256 (mostly exact zeros)", (counted,)),
        Case("2 heads × 3 queries × 6 keys", (heads,)),
        Case("a single key with all the weight", (torch.tensor([1.0]),)),
    ]


ENTROPY_SOLUTION = '''\
import torch


def my_attention_entropy(weights):
    """Entropy in nats of each row of weights (..., L): returns (...), in the dtype of weights."""
    return entropy_terms(weights).sum(dim=-1)  # add up each row's terms over the keys


def entropy_terms(weights):
    """Each weight's term -a·ln a, and 0 where a = 0 (0·ln 0 = 0); the shape of weights."""
    # a weight of 0 contributes 0: take its log as ln 1 = 0 instead of ln 0 = -inf
    logs = torch.where(weights > 0, weights, torch.ones_like(weights)).log()
    return -weights * logs


H.check("01.attention_entropy", my_attention_entropy)
'''


implement(
    "01.attention_entropy",
    title="the entropy in nats of attention rows",
    reference=_reference,
    cases=_cases,
    mistakes={
        "0·ln 0 computed as nan": (
            _nan_at_zero_weights,
            "in floating point a weight of exactly 0 gives 0·log(0) = 0·(−inf) = nan, and one nan makes the "
            "whole row's sum nan; the entropy counts it as 0 (the limit of a·ln a as a → 0). Make the term 0 "
            "where a weight is 0 (H.hint shows one way).",
        ),
        "logarithm in base 2": (
            _log2,
            "that is the entropy in bits, 1/ln 2 ≈ 1.44 times too large: use the natural logarithm, "
            "torch.log, so that a uniform row over L keys gives ln L nats.",
        ),
        "minus sign missing": (
            _no_minus,
            "ln a_j ≤ 0 for every weight, so Σ a_j·ln a_j is ≤ 0: the entropy is its negative, "
            "H = −Σ_j a_j·ln a_j.",
        ),
        "summed over the wrong axis": (
            _wrong_axis,
            "the keys are the last axis, (..., L): sum over dim=-1, not dim=0 (which adds up the same key "
            "of different rows).",
        ),
        "summed over every axis": (
            _everything,
            "a bare .sum() adds up all the rows into one number: sum over the keys only, .sum(dim=-1), "
            "so that each row keeps its own entropy.",
        ),
        "mean over the keys instead of the sum": (
            _mean,
            "the entropy is a sum over the keys, not an average: .sum(dim=-1), not .mean(dim=-1).",
        ),
        "the summed axis kept (keepdim=True)": (
            _keepdim,
            "one entropy per row, so the keys' axis goes away: (..., L) → (...). Sum with .sum(dim=-1), "
            "without keepdim=True.",
        ),
        "ln(1 + a) instead of ln a": (
            _log1p,
            "torch.log1p(a) is ln(1 + a), which is ≥ 0 and turns the sum's sign and size: use torch.log(a).",
        ),
        "logarithm in base 10": (
            _log10,
            "torch.log10 gives log₁₀ a = ln a / ln 10, so every entropy comes out 0.434 times too small: use the "
            "natural logarithm, torch.log, so that a uniform row over L keys gives ln L nats.",
        ),
        "the weight left out of the term (−ln a instead of −a·ln a)": (
            _weight_left_out,
            "each key's term is its weight times its log, −a·ln a: the weight says how much that key counts. "
            "Without it a uniform row over 4 keys gives 4·ln 4 = 5.545 instead of ln 4 = 1.386.",
        ),
        "every row taken as uniform (ln L)": (
            _as_if_uniform,
            "ln L is the entropy of a uniform row only, the largest any row over L keys can have. Compute each "
            "key's term from its own weight, −a·ln a, so that a peaked row gets a smaller entropy.",
        ),
        "ε added inside the log (ln(a + ε))": (
            tuple(_epsilon_inside(10.0 ** -k) for k in range(2, 7)),
            "ln(a + ε) is not ln a: a·ln(a + ε) differs from a·ln a by about ε for every weight well above ε, so "
            "a row of L keys moves by up to L·ε, more than the check allows. Keep the log exact and treat only the "
            "zero weights apart: "
            "torch.where(weights > 0, weights, 1) before the log (ln 1 = 0).",
        ),
        "a floor on the weights inside the log (clamp)": (
            tuple(_floored(10.0 ** -k) for k in range(1, 6)),
            "weights.clamp(min=ε) before the log changes every weight below ε, not only the zeros: a weight "
            "a < ε gets the term −a·ln ε instead of −a·ln a, and this lesson's rows hold many weights far below "
            "any ε you choose. Replace only the zero weights: torch.where(weights > 0, weights, "
            "torch.ones_like(weights)) before the log (ln 1 = 0).",
        ),
        "the nan of a zero weight replaced by 1 (nan_to_num(nan=1.0))": (
            _nan_as_one,
            "a zero weight's term is 0 (0·ln 0 = 0), so each zero weight added 1 to its row. Better still, never "
            "make the nan: take the log of 1 at the zero weights, torch.where(weights > 0, weights, "
            "torch.ones_like(weights)).log().",
        ),
        "ln(1 − a) instead of ln a": (
            _log_one_minus,
            "torch.log1p(−a) is ln(1 − a), not ln a: a uniform row over 4 keys gives 0.288 instead of ln 4 = 1.386. "
            "Use torch.log(a), with the zero weights replaced by 1 before the log.",
        ),
    },
    hints=(
        "entropy_terms returns one term per weight, −a·ln a, in the shape of weights; my_attention_entropy "
        "already sums them over the keys (the last axis). torch.log is the natural logarithm.",
        "A key with weight exactly 0 contributes 0 (0·ln 0 = 0), but in floating point 0·log(0) = 0·(−inf) = nan. "
        "Replace the zero weights by 1 before taking the log (torch.where(weights > 0, weights, 1)): ln 1 = 0.",
        "Shapes: entropy_terms keeps the shape of weights, (..., L); the given .sum(dim=-1) makes it (...).",
    ),
    solution=ENTROPY_SOLUTION,
    where=_where,
    axes=("rows",),
    dtype=lambda args: args[0].dtype,
    dtype_why="the dtype of weights, as the docstring says: compute in float64 inside if you like, then cast back",
    half_why="This lesson's counted rows hold weights far below float16's smallest number (6·10⁻⁸), which "
             "become 0, and an entropy near 10⁻⁴ (the collapse) needs more than 3 digits to be told from 0.",
    half=(_in_half, _in_bfloat16),
    autograd=True,
    part_check=_terms_and_gradient,
)


predict(
    "01.collapse",
    title="where the attention of a long counted sequence goes",
    question="As L grows from 4 to 100 000, with the index as a feature of queries and keys, where does the "
             "last token's attention go? \"spread\" (over all the keys, entropy near ln L), \"first\" (onto the "
             "first token), \"itself\" (onto itself, the last token) or \"unchanged\" (the index changes nothing)?",
    choices={
        "spread": "No: that is the row without the index. With it, the index term (L − 1)·j/√(d + 1) is largest "
                  "for the last key by far, and the softmax puts all its weight there: the entropy falls to 0.",
        "first": "No: with the index joined after the projections the index term (L − 1)·j/√(d + 1) grows with "
                 "the key's index j, so it is largest for the last key, the query itself, not the first.",
        "itself": "The index term (L − 1)·j/√(d + 1) is largest for the last key j = L − 1, the query itself, and "
                  "from L = 100 on its weight is above 0.9999 and the entropy below 10⁻⁴.",
        "unchanged": "No: the index term (L − 1)·j/√(d + 1) outgrows the content term, of size about 1, long "
                     "before L = 100, and the softmax then puts all its weight on one key.",
    },
    answer="itself",
    hints=(
        "The last token's logit for key j has two terms: a content term, of size about 1 at every length, and "
        "the index term (L − 1)·j/√(d + 1). As L grows, what does the index term do, from key to key?",
        "Which key j makes the index term (L − 1)·j/√(d + 1) largest? The query is the last token, and the last "
        "key is that same token.",
    ),
    solution='answer = "itself"\nH.check("01.collapse", answer)\n',
)
