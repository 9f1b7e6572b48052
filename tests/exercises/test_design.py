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
                      lambda p: torch.tensor([math.sin(x / 40) for x in p.tolist()]),
                      lambda p: torch.sin(p.double()), lambda p: torch.sin(p.float())],  # the lesson's sin(p)
    "04.apart": [lambda p: H.sinusoidal(int(p.max()) + 1, 16)[p],
                 lambda p: torch.stack([f(p.double() * w) for w in (1.0, 0.05, 0.002) for f in (torch.sin, torch.cos)],
                                       -1)],
    "05.offset_only": [lambda d: H.shift_matrix(1, d), lambda d: 3 * H.shift_matrix(-7, d),
                       lambda d: torch.block_diag(*[torch.tensor([[a, b], [-b, a]]) for a, b in
                                                    zip(torch.linspace(1, 2, d // 2), torch.linspace(-1, 1, d // 2),
                                                        strict=True)])],
    "06.rotate_after": [_interleaved_rotation, lambda v, p: _interleaved_rotation(v, p, base=100.0),
                        lambda v, p: H.rope(v[None, :], torch.tensor([p]), layout="half")[0],
                       lambda v, p: torch.tensor([x for i in range(v.shape[0] // 2) for x in (
                           float(v[2 * i]) * math.cos(p * 100.0 ** (-2 * i / v.shape[0]))
                           - float(v[2 * i + 1]) * math.sin(p * 100.0 ** (-2 * i / v.shape[0])),
                           float(v[2 * i]) * math.sin(p * 100.0 ** (-2 * i / v.shape[0]))
                           + float(v[2 * i + 1]) * math.cos(p * 100.0 ** (-2 * i / v.shape[0])))])],
}

FAIL = {  # (proposal, the property named, words of the message that show where)
    "02.bounded_code": [(lambda n: torch.arange(n), "bounded", "position 2 gets the code 2"),
                        (lambda n: torch.tanh(torch.arange(n) / 10.0), "one code per position", "both get the code"),
                        (lambda n: torch.arange(n) / (n - 1), "bounded",
                         "in a sentence of 1 word, position 0 gets the code nan: a sentence of one word divides by "
                         "zero: with L − 1 = 0, the code 0 / 0 is nan"),
                        (lambda n: torch.arange(n) // n, "one code per position",
                         "Your codes are integers (int64): integer division (//) or an integer dtype rounds every "
                         "fraction down"),
                        (lambda n: 0.5 + torch.arange(n, dtype=torch.float64) * 1e-12, "one code per position",
                         "positions 0 and 1 get the codes 0.5 and 0.5, only 1e-12 apart: codes closer than 10⁻⁹ "
                         "count as one"),
                        (lambda n: torch.zeros(n, 1), "shaped (length,)",
                         "for a sentence of 1 word it returned shape (1, 1)"),
                        (lambda n: torch.linspace(0, 1, 5), "shaped (length,)",
                         "for a sentence of 1 word it returned 5 codes"),
                        # a fixed divisor, written without the stub's code_of: a sentence of 10⁷ words shows it
                        (lambda n: torch.arange(n, dtype=torch.float64) / 1e5, "bounded",
                         "in a sentence of 10 000 000 words, position 100 001 gets the code 1.00001"),
                        (lambda n: torch.arange(n, dtype=torch.float64) / 1e6, "bounded",
                         "position 1 000 001 gets the code 1.000001, outside [−1, 1]")],
    "03.fixed_code": [(lambda p: p / len(p), "the same for a position whatever the sentence", "position 1 gets 0.1"),
                      (lambda p: p.double(), "bounded", "outside [−1, 1]"),
                      (lambda p: torch.tanh(p / 1000.0), "able to tell neighbours apart",
                       "over the positions 0 … 1 000 000, 99.8 % of the neighbour steps are below 10⁻⁴"),
                      (lambda p: torch.sin(0.001 * p), "able to tell neighbours apart",  # slow: flat at its crests
                       "over the positions 0 … 1 000 000, 6.4 % of the neighbour steps are below 10⁻⁴ (at most 5 % "
                       "may be)"),
                      (lambda pos: torch.cos(math.pi * pos.double()), "one code per position",
                       "positions 0 and 2 get the same code 1: a code that repeats a value cannot tell them apart "
                       "(yours repeats every 2 positions)"),
                      (lambda pos: (pos % 10).double() / 10, "one code per position",
                       "positions 0 and 10 get the same code 0: a code that repeats a value cannot tell them apart "
                       "(yours repeats every 10 positions)"),
                      (lambda pos: (pos % 100) / 100, "one code per position",  # distinct on 0 … 99, period 100
                       "your code repeats exactly every 100 positions, so a text longer than 100 words has two words "
                       "with one code. Distinct codes for the positions 0 … 99 are not enough: a position code must "
                       "not repeat exactly"),
                      (lambda pos: torch.tanh(pos.double()), "one code per position",  # 1 in float64 from 11 on
                       "from position 11 on your code stays at 1: it has flattened out (saturated)"),
                      (lambda pos: torch.sin(pos.half()), "bounded",  # inf past 65 504, and sin(inf) is nan
                       "position 65802 gets the code nan: every position past 65 504 does, and none before: float16's "
                       "largest number is 65 504"),
                      (lambda pos: torch.sqrt(pos.double()) / 100, "bounded",  # grows: lesson 01's problem
                       "position 10967 gets the code 1.04723, outside [−1, 1]: the raw index's problem")],
    "04.apart": [(lambda p: torch.sin(p.double())[:, None], "apart for every two positions", "positions 11 and 344"),
                 (lambda p: p[:, None].double(), "bounded", "outside [−1, 1]"),
                 (lambda p: torch.stack((torch.sin(p.double() / 400), torch.cos(p.double() / 400)), -1),
                  "apart for every two positions", "2π/2000 ≈ 0.003"),
                 (lambda p: H.sinusoidal(len(p), 16), "computed from the position alone",  # counts, ignores values
                  "called with the positions [5, 6, 700, 1999, 42], your code gives position 5 (row 0) another code "
                  "than row 5 of a run over 0 … 2999"),
                 (lambda p: H.sinusoidal(3000, 16)[: len(p)], "computed from the position alone",
                  "another code than row 5"),
                 (lambda p: torch.sin(p.half()[:, None] * torch.tensor([1.0, 0.01], dtype=torch.float16)), "bounded",
                  "float16's largest number is 65 504")],
    "05.offset_only": [(lambda d: torch.randn(d, d, generator=torch.Generator().manual_seed(0)), "offset-only",
                        "depends on where the two positions sit, not only on their offset. A[0, 2] = -0.2506 mixes "
                        "pair 0 (features 0, 1) with pair 1"),
                       (lambda d: torch.diag(torch.arange(1.0, d + 1)), "offset-only",
                        "The two members of pair 0 (features 0, 1) get different scales, 1 and 2: a pair must be "
                        "scaled as a whole, a rotation times one number"),
                       (lambda d: torch.block_diag(*[torch.tensor([[0.0, 1.0], [1.0, 0.0]])] * (d // 2)),
                        "offset-only", "is [[0, 1], [1, 0]]: a swap is a reflection, not a rotation"),
                       (lambda d: torch.zeros(d, d), "offset-only", "every score is 0"),
                       (lambda d: torch.eye(d), "able to tell before from after", "cannot tell before from after"),
                       (lambda d: torch.diag(torch.arange(1.0, d // 2 + 1).repeat_interleave(2)),
                        "able to tell before from after", "a scale of each pair")],
    "06.rotate_after": [(lambda v, p: v, "position-aware", "score the same"),
                        (lambda v, p: v + H.sinusoidal(p + 1, v.shape[0])[p].double(), "offset-only",
                         "(the same offset)"),
                        (lambda v, p: H.sinusoidal(p + 1, v.shape[0])[p].double(), "content-keeping",
                         "drowned the content"),
                        (lambda v, p: v * math.cos(p), "offset-only", "must depend on n − m alone"),
                        (lambda v, p: v * (-1) ** p, "position-aware",
                         "offsets 0 and 2 score the same for every q and k tried: the score sees only the parity of "
                         "the offset"),
                        (lambda v, p: _interleaved_rotation(v, p * 2 * math.pi / 10, base=1.0), "position-aware",
                         "offsets 0 and 10 score the same for every q and k tried: the score repeats every 10 steps "
                         "of the offset"),
                        (lambda v, p: _interleaved_rotation(v, p * 2 * math.pi / 37, base=1.0), "position-aware",
                         "the score repeats every 37 steps of the offset")],
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


def test_the_shared_code_threshold_is_honest_for_the_lessons_sine():
    """03.fixed_code counts two codes closer than 10⁻⁹ as one, over the positions 0 … 99. Over the 600 values of
    ω the lesson scans (10⁻⁴ to π), sin(ω·p) keeps every two of these positions at least 4·10⁻⁸ apart in float64
    and 6·10⁻⁸ in float32, more than 10 times the threshold, except ω = π, where sin(π·p) is 0 at every
    position (up to rounding) and fails as it should."""
    from helpers.exercises import l03_single_sine as l03
    assert l03.SAME_CODE == 1e-9 and l03.DISTINCT_UP_TO == 100
    omegas = torch.logspace(-4, math.log10(math.pi), 600, dtype=torch.float64)
    p = torch.arange(l03.DISTINCT_UP_TO)
    for dtype in (torch.float64, torch.float32):
        codes = torch.sin(omegas[:-1, None].to(dtype) * p.to(dtype))
        closest = codes.double().sort(-1).values.diff(dim=-1).min(-1).values
        assert float(closest.min()) > 10 * l03.SAME_CODE, (dtype, float(closest.min()))
        for k in range(0, len(omegas) - 1, 37):  # the property itself, on a spread of them
            assert l03._one_code_per_position(lambda pos, w=float(omegas[k]), dt=dtype: torch.sin(w * pos.to(dt)))[0]
    assert not l03._one_code_per_position(lambda pos: torch.sin(math.pi * pos.double()))[0]
    assert not l03._one_code_per_position(lambda pos: torch.sin(2 * math.pi / 12 * pos.double()))[0]  # one turn in 12


def test_a_one_word_sentence_reads_word_not_words():
    result = H.check("02.bounded_code", lambda n: torch.arange(n) / (n - 1))
    assert "1 words" not in result.message and "a sentence of 1 word," in result.message


def test_every_design_check_refuses_a_proposal_that_writes_into_its_tensor_input():
    """The designs whose proposal receives a tensor (03 and 04 the positions, 06 the vector v): a right proposal
    that also writes into that tensor fails, naming it; the designs that receive numbers have nothing to change."""
    scribbling = {
        "03.fixed_code": lambda positions: _scribble(positions, torch.sin(0.05 * positions.double())),
        "04.apart": lambda positions: _scribble(positions, H.sinusoidal(int(positions.max()) + 1, 16)[positions]),
        "06.rotate_after": lambda v, p: _scribble(v, _interleaved_rotation(v.clone(), p)),
    }
    for exercise_id, proposal in scribbling.items():
        result = H.check(exercise_id, proposal)
        name = "`v`" if exercise_id.startswith("06") else "`positions`"
        assert result.status == "failed" and f"your function changed its input {name} in place" in result.message, \
            result.message


def _scribble(tensor, out):
    tensor.view(-1)[-1] += 1  # the last entry: a change the output above cannot show
    return out


@pytest.mark.parametrize("exercise_id, proposal, words", [
    ("04.apart", lambda positions: torch.sin(positions.double()), "should return a (len(positions), d) tensor"),
    ("04.apart", lambda positions: torch.zeros(len(positions), 128), "got shape (3000, 128)"),
    ("05.offset_only", lambda d_model: H.shift_matrix(1, 64), "should return a (16, 16) matrix"),
    ("03.fixed_code", lambda positions: torch.zeros(3), "should return one code per position"),
])
def test_a_proposal_of_the_wrong_shape_is_told_so_not_sent_to_look_for_an_error(exercise_id, proposal, words):
    message = H.check(exercise_id, proposal).message
    assert f"{exercise_id} · failed: your proposal returned the wrong output: " in message and words in message
    assert "raised" not in message and "cell of its own" not in message
