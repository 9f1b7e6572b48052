"""The design-it-yourself exercises: proposals written several ways pass whatever their formula, and
proposals that miss a property fail, naming that property and the input that shows it."""

import math

import pytest
import torch

import helpers as H
from helpers.exercises import core

DESIGNS = [core.get(i) for i in H.EXERCISES if core.get(i).kind == "design"]


def test_lessons_02_to_06_each_ask_one_design_before_their_fix():
    assert sorted(e.id[:2] for e in DESIGNS) == ["02", "03", "04", "05", "06"]
    for e in DESIGNS:
        assert e.properties and e.id in e.solution


def _interleaved_rotation(v, p, base=10000.0):
    d = v.shape[-1]
    omega = base ** (-2 * torch.arange(d // 2, dtype=torch.float64) / d)
    z = torch.complex(v[0::2].double(), v[1::2].double()) * torch.polar(torch.ones(d // 2, dtype=torch.float64),
                                                                     p * omega)
    return torch.stack((z.real, z.imag), -1).flatten()


PASS = {
    "02.bounded_code": [lambda n: torch.arange(n) / max(n - 1, 1), lambda n: torch.arange(n) / n,
                        lambda n: torch.tensor([p / (n + 1) for p in range(n)])],
    "03.fixed_code": [lambda p: torch.sin(0.05 * p), lambda p: torch.cos(0.3 * p.double()),
                      lambda p: torch.tensor([math.sin(x / 40) for x in p.tolist()])],
    "04.apart": [lambda p: H.sinusoidal(int(p.max()) + 1, 16)[p],
                 lambda p: torch.stack([f(p.double() * w) for w in (1.0, 0.05, 0.002) for f in (torch.sin, torch.cos)],
                                       -1)],
    "05.offset_only": [lambda d: torch.eye(d), lambda d: 3 * H.shift_matrix(-7, d),
                       lambda d: torch.block_diag(*[torch.tensor([[a, b], [-b, a]]) for a, b in
                                                    zip(torch.linspace(1, 2, d // 2), torch.linspace(-1, 1, d // 2),
                                                        strict=True)])],
    "06.rotate_after": [_interleaved_rotation, lambda v, p: _interleaved_rotation(v, p, base=100.0),
                        lambda v, p: H.rope(v[None, :], torch.tensor([p]), layout="half")[0]],
}

FAIL = {  # (proposal, the property named, words of the message that show where)
    "02.bounded_code": [(lambda n: torch.arange(n), "bounded", "position 2 gets the code 2"),
                        (lambda n: torch.tanh(torch.arange(n) / 10.0), "one code per position", "both get the code")],
    "03.fixed_code": [(lambda p: p / len(p), "the same for a position whatever the sentence", "position 1 gets 0.1"),
                      (lambda p: p.double(), "bounded", "outside [−1, 1]"),
                      (lambda p: torch.tanh(p / 1000.0), "able to tell neighbours apart", "from position 100000")],
    "04.apart": [(lambda p: torch.sin(p.double())[:, None], "apart for every two positions", "positions 11 and 344"),
                 (lambda p: p[:, None].double(), "bounded", "outside [−1, 1]")],
    "05.offset_only": [(lambda d: torch.randn(d, d, generator=torch.Generator().manual_seed(0)), "offset-only",
                        "depends on where the pair sits"),
                       (lambda d: torch.zeros(d, d), "offset-only", "every score is 0")],
    "06.rotate_after": [(lambda v, p: v, "position-aware", "score the same"),
                        (lambda v, p: v + H.sinusoidal(p + 1, v.shape[0])[p].double(), "offset-only",
                         "(the same offset)"),
                        (lambda v, p: H.sinusoidal(p + 1, v.shape[0])[p].double(), "content-keeping",
                         "drowned the content"),
                        (lambda v, p: v * math.cos(p), "offset-only", "must depend on n − m alone")],
}


@pytest.mark.parametrize(("exercise_id", "number"), [(e, n) for e, fs in PASS.items() for n in range(len(fs))])
def test_proposals_written_other_ways_pass(exercise_id, number):
    result = H.check(exercise_id, PASS[exercise_id][number])
    assert result.passed, result.message


@pytest.mark.parametrize(("exercise_id", "number"), [(e, n) for e, fs in FAIL.items() for n in range(len(fs))])
def test_a_proposal_that_misses_a_property_is_told_which_and_where(exercise_id, number):
    proposal, prop, words = FAIL[exercise_id][number]
    result = H.check(exercise_id, proposal)
    assert result.status == "failed" and f"your proposal is not {prop}." in result.message, result.message
    assert words in result.message, result.message
