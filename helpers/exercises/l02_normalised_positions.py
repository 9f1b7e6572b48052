"""Lesson 02's exercises (notebooks/02_normalised_positions.ipynb), in the order the notebook asks them.

02.bounded_code (design): propose my_code(length) → (length,) codes within [−1, 1] at every length (the
    stub's code_of(p, length) is also asked for the last positions of sentences of up to 10¹⁵ words), no two
    positions of a sentence closer than 10⁻⁹, whatever the formula (asked before the lesson shows p / (L − 1)).
02.normalised (implement): my_normalised(length) → (length,) float codes p / (L − 1), [0.] for L = 1.
02.stale_cache (predict): when a sentence grows from 5 to 6 tokens, how many of the 5 cached keys
    are stale with normalised codes?
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ..encodings import normalised
from .core import Case, design, implement, predict
from .exercise import companion

# --- 02.bounded_code (design; asked first, before the lesson shows its fix) ----------------------------


SAME_CODE = 1e-9  # two codes closer than this count as one (lesson 03's check uses the same threshold), in every
CLOSE_UP_TO = 100  # sentence the check tries, up to 100 000 words (1/(p + 1) falls below it from about 31 600)
FAR_LENGTHS = (10**6, 10**9, 10**12, 10**15)  # code_of is asked for the last positions of these sentences
LONG_SENTENCE = 10**7  # built whole when the answer has no code_of to ask (80 MB of float64)


def _raw_codes(fn, *args) -> torch.Tensor:
    out = fn(*args)
    if not isinstance(out, torch.Tensor):
        out = torch.as_tensor(out)
    return out.detach().cpu()


def _codes_of(fn, *args) -> torch.Tensor:
    return _raw_codes(fn, *args).flatten().to(torch.float64)


def _words(length: int) -> str:
    return f"{length} word" if length == 1 else f"{length} words"


def _spaced(number: int) -> str:
    """A large whole number as the lessons write it: 1 000 000."""
    return f"{number:,}".replace(",", " ")


def _outside(codes: torch.Tensor) -> torch.Tensor:
    return ~torch.isfinite(codes) | (codes.abs() > 1)


def _far_codes(fn) -> Callable | None:
    """The learner's code_of, when the answer's codes come from it position by position: asked for the three
    last positions of a 10-word sentence, it gives what my_code(10) gives there. Then it can be asked for the
    last positions of a sentence of 10¹⁵ words without building the other 10¹⁵."""
    code_of = companion(fn, "code_of")
    if code_of is None:
        return None
    try:
        whole = _codes_of(fn, 10)
        last = _codes_of(code_of, torch.arange(7, 10, dtype=torch.float64), 10)
    except Exception:  # code_of does not work on a part of a sentence: the lengths checked in full must do
        return None
    if whole.shape != (10,) or last.shape != (3,) or not torch.allclose(last, whole[7:], rtol=0, atol=0,
                                                                        equal_nan=True):
        return None
    return code_of


CHECKED_LENGTHS = (1, 2, 10, 1000, 100_000)


def _one_code_per_word(fn) -> tuple[bool, str]:
    """The shape the stub states, (length,), before anything is said about the codes themselves."""
    for length in CHECKED_LENGTHS:
        raw = _raw_codes(fn, length)
        if tuple(raw.shape) != (length,):
            if raw.numel() == length:
                return False, (f"for a sentence of {_words(length)} it returned shape {tuple(raw.shape)}; return "
                               f"one code per word as a flat tensor of shape (length,), here ({length},): drop the "
                               "extra axis (the stub's my_code says shape (length,)).")
            return False, (f"for a sentence of {_words(length)} it returned {raw.numel()} codes; return one per "
                           "word, computed from p (and length), not a fixed number of codes.")
    return True, "Every sentence gets one code per word, shape (length,)."


def _bounded(fn) -> tuple[bool, str]:
    for length in CHECKED_LENGTHS:
        raw = _raw_codes(fn, length).flatten()
        codes = raw.to(torch.float64)
        if bool(codes.isnan().any()):
            p = int(codes.isnan().nonzero()[0])
            why = ("a sentence of one word divides by zero: with L − 1 = 0, the code 0 / 0 is nan. Give a "
                   "one-word sentence its code without dividing (0, say), or divide by something never 0"
                   if length == 1 else "nan comes from 0 / 0 or ∞ − ∞ somewhere in your formula")
            return False, f"in a sentence of {_words(length)}, position {p} gets the code nan: {why}."
        outside = _outside(codes)
        if bool(outside.any()):
            p = int(outside.nonzero()[0])
            why = (f"float16's largest number is 65 504, so position {_spaced(p)} stored in float16 is already inf "
                   "before anything divides it. Compute in float32 or float64 (p as the stub gives it)"
                   if raw.dtype == torch.float16 and not bool(torch.isfinite(codes[p])) and p > 65_504 else
                   "Like lesson 01's raw index, a code that grows with the sentence ends up outweighing the "
                   "content term, of size about 1")
            return False, (f"in a sentence of {_words(length)}, position {p} gets the code {float(codes[p]):.6g}, "
                           f"outside [−1, 1]. {why}.")
    code_of = _far_codes(fn)
    if code_of is None:  # no code_of to ask for far positions: one long sentence, built whole, instead
        codes = _codes_of(fn, LONG_SENTENCE)
        outside = _outside(codes)
        if bool(outside.any()):
            p = int(outside.nonzero()[0])
            return False, (f"in a sentence of {_spaced(LONG_SENTENCE)} words, position {_spaced(p)} gets the code "
                           f"{float(codes[p]):.10g}, outside [−1, 1]. A code bounded only up to some length is not "
                           "bounded: whatever fixed number you divide by, a longer sentence passes it. Use the "
                           "sentence's own length.")
        return True, (f"Every code of sentences from 1 to {_spaced(LONG_SENTENCE)} words lies in [−1, 1] (keep the "
                      "stub's code_of, which my_code calls, and the check also asks it for sentences of 10¹⁵ "
                      "words).")
    for length in FAR_LENGTHS:
        p = torch.arange(length - 3, length, dtype=torch.float64)
        try:
            codes = _codes_of(code_of, p, length)
        except Exception:  # code_of cannot take such a sentence (it builds all of it): the full lengths decided
            break
        outside = _outside(codes) if codes.shape == p.shape else torch.zeros(3, dtype=torch.bool)
        if bool(outside.any()):
            k = int(outside.nonzero()[0])
            return False, (f"in a sentence of {_spaced(length)} words, position {_spaced(int(p[k]))} gets the "
                           f"code {float(codes[k]):.6g}, outside "
                           "[−1, 1] (the check asks code_of for the last positions of sentences of up to 10¹⁵ "
                           "words). A code bounded only up to some length is not bounded: whatever fixed number "
                           "you divide by, a longer sentence passes it. Use the sentence's own length.")
    return True, ("Every code lies in [−1, 1], in sentences from 1 to 100 000 words and at the last positions of a "
                  "sentence of 10¹⁵ words.")


def _one_code_per_position(fn) -> tuple[bool, str]:
    for length in (2, 10, CLOSE_UP_TO, 1000, 10_000, 100_000):
        raw = _raw_codes(fn, length).flatten()
        codes = raw.to(torch.float64)
        order = codes.argsort(stable=True)
        gaps = codes[order].diff()
        shared = gaps < SAME_CODE
        if bool(shared.any()):
            k = int(shared.nonzero()[0])
            p, q = sorted((int(order[k]), int(order[k + 1])))
            integer = "" if raw.is_floating_point() or raw.is_complex() else (
                f" Your codes are integers ({str(raw.dtype).replace('torch.', '')}): integer division (//) or an "
                "integer dtype rounds every fraction down, p // L = 0 for every p < L. Divide floats, "
                "torch.arange(length, dtype=torch.float64) / …")
            if raw.dtype in (torch.float16, torch.bfloat16):
                digits = 3 if raw.dtype == torch.float16 else 2
                integer = (f" Your codes are {str(raw.dtype).replace('torch.', '')}, which keeps only about {digits} "
                           "significant digits: neighbouring codes of a long sentence come closer than its steps "
                           "and round to one number. Compute and return float32 or float64.")
            if codes[p] == codes[q]:
                return False, (f"in a sentence of {length} words, positions {p} and {q} both get the code "
                               f"{float(codes[p]):.6g}: attention could not tell them apart.{integer}")
            spread = float(codes.max() - codes.min())
            alike = "" if spread >= SAME_CODE else (
                f" All {length} codes lie within {spread:.2g} of one another: your formula gives every position "
                "practically the same code, and only rounding tells them apart (sin(p·π), for one, is 0 at every "
                "whole p).")
            return False, (f"in a sentence of {length} words, positions {p} and {q} get the codes "
                           f"{float(codes[p]):.6g} and {float(codes[q]):.6g}, only {float(gaps[k]):.2g} apart: codes "
                           "closer than 10⁻⁹ count as one, since no model could tell them apart (float32 keeps "
                           f"about 7 digits).{alike}")
    return True, ("Within each sentence (up to 100 000 words checked) every position has its own code. The lesson "
                  "divides by L − 1; whether a code also survives the sentence growing is its next question.")


BOUNDED_SOLUTION = '''\
import torch


def my_code(length):
    p = torch.arange(length, dtype=torch.float64)  # the positions 0 … length − 1
    return code_of(p, length)  # one code per position, shape (length,)


def code_of(p, length):
    """Your formula in p (and length, if you like)."""
    return p / length  # the largest position is length − 1, so every code stays below 1


H.check("02.bounded_code", my_code)
'''

design(
    "02.bounded_code",
    title="propose a position code that cannot grow",
    question="Lesson 01's raw index grew with the sentence until it outweighed the content. Complete code_of: "
             "from the positions p = 0 … length − 1, return one code per position, every code within "
             "[−1, 1] for every length, however long (the check also asks code_of for the last positions of "
             "sentences of up to 10¹⁵ words), no two positions of one sentence sharing a code (codes closer than "
             "10⁻⁹ count as one).",
    properties=(("shaped (length,)", _one_code_per_word), ("bounded", _bounded),
                ("one code per position", _one_code_per_position)),
    hints=(
        "Any formula will do if its values stay within [−1, 1] and no two positions share one. What do you "
        "know about the largest position of a sentence of L words?",
        "Dividing the positions by something at least as large as the largest one keeps them within [0, 1].",
    ),
    solution=BOUNDED_SOLUTION,
)


def _reference(length):
    return normalised(length)


def _by_length(length):
    return torch.arange(length, dtype=torch.float64) / length


def _from_one(length):
    return torch.arange(1, length + 1, dtype=torch.float64) / length


def _no_single_word_case(length):
    return torch.arange(length, dtype=torch.float64) / (length - 1)


def _integer_division(length):
    return torch.arange(length) // max(length - 1, 1)


def _reversed(length):
    return _reference(length).flip(0)


def _one_minus(length):
    return 1 - _reference(length)


def _single_word_one(length):
    return torch.ones(1) if length == 1 else _reference(length)


def _in_half(length):
    if length == 1:
        return torch.zeros(1)
    return (torch.arange(length, dtype=torch.float16) / (length - 1)).float()


def _where(args, index) -> str:
    length, p = args[0], index[0]
    if length == 1:
        return "position 0, the only word of a one-word sentence"
    return f"position {p} of a {length}-word sentence (its code is {p}/{length - 1})"


def _cases() -> list[Case]:
    return [
        Case("length=5", (5,)),
        Case("length=12", (12,)),
        Case("length=2 (the two ends)", (2,)),
        Case("length=1000", (1000,)),
        Case("length=4097 (a long sentence)", (4097,)),
        Case("length=1 (a one-word sentence: the code 0)", (1,)),
    ]


NORMALISED_SOLUTION = '''\
import torch


def my_normalised(length):
    """Normalised codes p / (L - 1) for p = 0 … L - 1: a float tensor of shape (length,); [0.] when length is 1."""
    if length == 1:
        return torch.zeros(1)
    return torch.arange(length, dtype=torch.float64) / (length - 1)


H.check("02.normalised", my_normalised)
'''

implement(
    "02.normalised",
    title="the normalised codes p / (L − 1)",
    reference=_reference,
    cases=_cases,
    mistakes={
        "divided by L": (
            _by_length,
            "the last position is L − 1, so p / L never reaches 1: divide by L − 1, so that the codes run "
            "from 0 to exactly 1.",
        ),
        "positions counted from 1": (
            _from_one,
            "positions start at 0: torch.arange(length) is 0 … L − 1; the first word's code is 0.",
        ),
        "a one-word sentence divided by zero": (
            _no_single_word_case,
            "for length 1, p / (L − 1) is 0 / 0 = nan: a one-word sentence has the single code 0, so "
            "return torch.zeros(1) when length is 1.",
        ),
        "a one-word sentence given the code 1": (
            _single_word_one,
            "the first word's code is 0 in every sentence, and in a one-word sentence the first word is the only "
            "one: return torch.zeros(1) when length is 1, not torch.ones(1).",
        ),
        "codes in reverse order": (
            (_reversed, _one_minus),
            "the first word (position 0) has the code 0 and the last the code 1: p / (L − 1), not "
            "(L − 1 − p) / (L − 1) or 1 − p / (L − 1).",
        ),
        "integer division": (
            _integer_division,
            "p // (L − 1) rounds every code but the last down to 0: divide floats, torch.arange(length, "
            "dtype=torch.float64) / (length - 1).",
        ),
    },
    hints=(
        "torch.arange(length, dtype=torch.float64) gives the positions 0 … L − 1 as floats; divide them by "
        "length − 1.",
        "A one-word sentence would divide by 0 (0/0 = nan): return torch.zeros(1) when length is 1.",
    ),
    solution=NORMALISED_SOLUTION,
    where=_where,
    axes=("positions",),
    half_why="Neighbouring words of a 4097-word sentence have codes 1/4096 = 2.4·10⁻⁴ apart, and float16's "
             "numbers between 0.5 and 1 are 4.9·10⁻⁴ apart: half the words would share a code (and float16 "
             "counts positions exactly only up to 2048).",
    half=(_in_half,),
)

predict(
    "02.stale_cache",
    title="whether the cached keys stay valid",
    question="A decoder caches each token's key k_p = (e_p + code_p·1)·W_k when the token is written. When the "
             "sentence grows from 5 to 6 tokens, how many of the 5 cached keys are stale with normalised codes? "
             "\"none\", \"all but the first\", \"only the last\" or \"all\"?",
    choices={
        "none": "No: that is the raw index of lesson 01, whose codes depend on the index alone. With normalised "
                "codes every code p/4 becomes p/5, and only p = 0 keeps its code.",
        "all but the first": "Every code p/4 becomes p/5: only word 0, whose code is 0 at every length, keeps "
                             "its key. The table below shows 4 of 5 keys stale at 6 tokens, and the same "
                             "pattern at every step.",
        "only the last": "No: the last word's code does change (1 → 0.8), but so does every other code p/4 → p/5 "
                         "except word 0's.",
        "all": "Almost: word 0's code is 0 at every length (0/4 = 0/5), so its key stays valid; the other 4 "
               "are stale.",
    },
    answer="all but the first",
    hints=(
        "A key changes exactly when its code changes (the embedding and W_k stay the same).",
        "With 5 tokens word p has the code p/4; with 6 tokens, p/5. For which p are they equal?",
    ),
    solution='answer = "all but the first"\nH.check("02.stale_cache", answer)\n',
)
