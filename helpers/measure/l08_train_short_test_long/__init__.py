"""Lesson 08, train short, test long: one TinyLM per position scheme, trained at length L on a
stationary task and evaluated position by position far beyond L.

What the lesson computes from the trained models:

* the loss at every position, and its mean over four bands of positions (:class:`LossBands`):
  within L from position 8 on (8 … L−1, where the task's entropy floor is already constant, so
  that a change between bands is a change in distance from the floor), L … 2L−1, 2L … 4L−1 and
  4L … 5L−1;
* the toy counterpart of Press et al. (2021), Table 2: the perplexity exp(mean loss) over the
  first n tokens of a sequence, for n = L·512/512, L·1012/512, L·1512/512 and L·2512/512, the same
  ratios to the training length as the paper's evaluation lengths (:func:`toy_lengths`);
* how the perplexity grows from L to the longest length (:func:`perplexity_growth`), set beside
  the paper's, whose orderings the lesson compares with the toy's using
  :func:`helpers.measure.common.compare_orderings`;
* a linear probe that reads the position back from a model's hidden states
  (:func:`position_probe`);
* where attention goes past L: the weight on keys beyond a given offset (:func:`far_attention`),
  the keys L or more back for RoPE and the keys in T5's last bucket (:func:`t5_last_bucket_start`).

What the lesson asserts is :func:`short_context_claims` and :func:`probe_claims`, each claim with a
margin that held for five training seeds (``benchmarks/seed_spread.py``, whose summary the lesson
prints from :data:`SEED_SPREAD`).

The experiment's settings (task, model size, lengths, steps, batch, learning rate, seed) are
:data:`helpers.SHORT_CONTEXT`; lesson 09 retrains the RoPE model with the same ones.

The six models of seed 0 ship with the course (:mod:`.toy_models`, :func:`load_toy_models`), so the
lesson evaluates them without training.

One file per concern: :mod:`.runs` (settings, training, evaluation, bands, the toy Table 2),
:mod:`.probe` (the position probe), :mod:`.claims` (the findings and where attention goes past L),
:mod:`.toy_models` (the shipped weights), :mod:`.source` (the lines of code the lesson shows) and
:mod:`.seed_spread` (the five-seed summary, written by ``benchmarks/seed_spread.py --write``).
"""

from .claims import (  # noqa: F401
    ABSOLUTE_RISE,
    ALIBI_ABOVE_FLOOR,
    CLAIM_PARTS,
    FAR_CORRELATION,
    FAR_GROWTH,
    JUMP_WINDOW,
    LEARNED_NO_DIP,
    LEVELS_OFF,
    MARGIN,
    NEAR_FLOOR,
    RISE,
    ROPE_RISE,
    SINUSOIDAL_DIPS,
    T5_CORRELATION,
    T5_DILUTION,
    T5_NEAR_FLOOR,
    attention_claims,
    far_attention,
    far_attention_correlation,
    loss_jumps,
    short_context_claims,
    t5_last_bucket_start,
)
from .probe import PositionProbe, position_probe, probe_claims  # noqa: F401
from .runs import (  # noqa: F401
    BAND_NAMES,
    BAND_START,
    CURVE_FACTOR,
    PRESS_LENGTHS,
    PRESS_ROW_NAMES,
    PRESS_TABLE_2,
    PRESS_TRAINED_ON,
    TRAINED_SCHEMES,
    LossBands,
    ShortContextRun,
    _loss_by_position,
    build_model,
    evaluate_models,
    evaluation_seeds,
    loss_bands,
    perplexity_growth,
    readable_length,
    table_column,
    toy_lengths,
    train_models,
)
from .seed_spread import SEED_SPREAD  # noqa: F401  (the lesson prints it as l08.SEED_SPREAD)
from .source import core_lines  # noqa: F401
from .toy_models import (  # noqa: F401
    TOY_MODELS,
    TOY_SEED,
    learned_rows_at_start,
    load_toy_models,
    toy_manifest,
)
