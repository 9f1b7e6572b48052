"""The names the lessons call as ``H.…`` (``import helpers as H``): the math of each position
scheme (pure functions over torch tensors) and the measurements each lesson makes.

Importing ``helpers`` changes no global state (rcParams, torch threads, seeds) and loads neither
matplotlib nor ipywidgets. Figures and sliders are imported on demand: ``helpers.plots`` (static
figures and the course style) and ``helpers.explorers`` (each lesson's slider explorers).
``__all__`` is every public name imported here, whichever line imports it.
"""

from types import ModuleType as _ModuleType

from .attention import CausalSelfAttention, attend, scaled_dot_product_attention
from .encodings import (
    SINUSOIDAL_LAYOUTS,
    angles,
    counting,
    frequencies,
    normalised,
    shift_matrix,
    single_sine,
    sinusoidal,
)
from .evidence import show_claims, show_code, show_maths, show_source, show_table
from .exercises import EXERCISES, CheckResult, check, hint, solution
from .learned import LearnedPositionalEmbedding
from .measure.common import (
    BandMeans,
    OffsetProfile,
    OrderingComparison,
    allocated_bytes,
    band_means,
    compare_orderings,
    dot_by_offset,
    fit_linear_map,
    held_for_every,
    min_pairwise_distance,
    orderings,
    round_robin_times,
)
from .measure.l00_order_blindness import OrderSnapshot, Reordered, order_snapshot, reorder_and_attend
from .measure.l01_counting import (
    COUNTING_LENGTHS,
    COUNTING_MODES,
    CountingGradients,
    CountingSnapshot,
    LinearGradients,
    attention_entropy,
    counting_attention,
    counting_gradients,
    counting_snapshot,
    linear_gradients,
    projections,
    random_embeddings,
    with_index,
)
from .measure.l02_normalised_positions import LengthComparison, compare_lengths, growing_codes, nearest_position
from .measure.l03_single_sine import (
    ClosestPair,
    SineSnapshot,
    circle_code,
    circle_smallest_gap,
    closest_pair,
    neighbour_gap,
    sine_snapshot,
    smallest_gap,
)
from .measure.l04_sinusoidal import (
    SinusoidalSnapshot,
    linear_probe_accuracy,
    shift_distance,
    sign_changes,
    sinusoidal_snapshot,
)
from .measure.l05_rotation_matrix import ShiftSnapshot, shift_snapshot
from .measure.l06_rope import PairView, decay_bound, relative_decay_bound, rope_pair_view, scores_by_offset
from .measure.l07_learned_and_relative import (
    AlibiView,
    BiasMemory,
    Claim,
    SchemeEntry,
    StoredFrequencies,
    StoredTable,
    T5BucketView,
    TableRun,
    alibi_view,
    bias_memory,
    cosine_similarity,
    entropy_by_position,
    offset_spread,
    position_kind,
    position_storage,
    scheme_map,
    scheme_scores,
    similarity_by_offset,
    t5_bucket_view,
    table_claims,
    train_position_table,
)
from .measure.l08_train_short_test_long import (
    BAND_NAMES,
    CURVE_FACTOR,
    PRESS_LENGTHS,
    PRESS_ROW_NAMES,
    PRESS_TABLE_2,
    PRESS_TRAINED_ON,
    TRAINED_SCHEMES,
    PositionProbe,
    ShortContextRun,
    build_model,
    evaluate_models,
    perplexity_growth,
    position_probe,
    probe_claims,
    readable_length,
    short_context_claims,
    table_column,
    toy_lengths,
    train_models,
)
from .measure.l09_stretching_rope import (
    MODEL_SHAPES,
    STRETCH_MARGIN,
    STRETCHES,
    FieldLosses,
    FineTuning,
    ModelShape,
    PairPicture,
    StretchRun,
    TemperatureEffect,
    apply_stretch,
    attention_entropy_by_position,
    field_losses,
    fine_tuned,
    losses_by_method,
    pair_picture,
    shape_pictures,
    stretch_claims,
    stretch_margins,
    stretch_run,
    stretched_frequencies,
    yarn_temperature_effect,
)
from .measure.l10_rope_in_practice import (
    PrecisionView,
    angle_error,
    angles_in_dtype,
    precision_view,
    wrap_angle,
)
from .measure.l11_the_map import HookEffect, hook_effects, where_position_enters
from .model import TinyLM, TinyLMConfig
from .position_scheme import PositionScheme
from .relative import (
    BucketRange,
    alibi_bias,
    alibi_key_bias,
    alibi_slopes,
    shaw_clip,
    t5_bucket,
    t5_bucket_ranges,
    t5_offset_buckets,
)
from .rope_scaling import (
    PAIR_KINDS,
    SCALING_METHODS,
    CacheMismatch,
    NeighbourBlur,
    UnseenAngles,
    classify_pairs,
    dynamic_cache_mismatch,
    dynamic_ntk_factor,
    neighbour_blur,
    pair_scales,
    relative_wavelengths,
    scaled_frequencies,
    unseen_angles,
)
from .rotary import (
    ROPE_LAYOUTS,
    rope,
    rope_cos_sin,
    rope_permutation,
    rope_textbook,
    rotate,
    rotate_half,
    rotation_matrix,
)
from .schemes import SCHEMES, scheme
from .tasks import LetterDigitCopy, Task
from .text import (
    CORPUS_SHA256,
    FINE_TUNE_FACTOR,
    FINE_TUNE_LENGTH,
    FINE_TUNES,
    TEXT_BAND_NAMES,
    TEXT_LENGTH,
    TEXT_MARGIN,
    TEXT_MAX_LENGTH,
    TEXT_SCHEMES,
    TEXT_SEEDS,
    TEXT_VARIANTS,
    TextStretchTable,
    TextValidationCurves,
    build_text_model,
    decode_text,
    encode_text,
    load_text_model,
    text_band_losses,
    text_bands,
    text_claims,
    text_convergence_margins,
    text_corpus,
    text_length_margins,
    text_loss_by_position,
    text_loss_curves,
    text_manifest,
    text_perplexity_by_length,
    text_steps_to_reach,
    text_stretch_losses,
    text_stretch_margins,
    text_unigram_entropy,
    text_valid_loss,
    text_validation_curves,
    text_windows,
)
from .training import SHORT_CONTEXT, ShortContext, loss_by_position, train, train_many

# Both read (not imported) by every lesson's setup cell: the marker tells this package from any other
# named `helpers`; the version (its one home: pyproject.toml and tools/release.py read it here) is the
# release the cell compares with the one it was made with.
__course__ = "pe-course-helpers"
__version__ = "0.10.4"


def _public_names() -> list[str]:
    return sorted(name for name, value in globals().items() if not name.startswith("_")
                  and not isinstance(value, _ModuleType))


def __getattr__(name: str):
    # computed on access, so names imported on any line of this file are in __all__
    if name == "__all__":
        return _public_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
