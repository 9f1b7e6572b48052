"""Real text: an English corpus read as bytes, the TinyLMs trained on it that ship with the course,
and the measurements lessons 08–09 make on them.

- :mod:`helpers.text.corpus` — ``text_corpus(split)``, ``encode_text``, ``decode_text``, the split.
- :mod:`helpers.text.models` — ``load_text_model(scheme, seed, variant)`` and the manifests.
- :mod:`helpers.text.evaluate` — loss by position, perplexity against input length, the validation
  curves stored at training time, and the RoPE model stretched by each method.
- :mod:`helpers.text.claims` — the claims lessons 08, 09 and 11 make on these models, with their margins.
"""

from .claims import TEXT_MARGIN, text_claims, text_convergence_margins, text_length_margins, text_stretch_margins
from .corpus import CORPUS_SHA256, decode_text, encode_text, text_corpus, text_unigram_entropy
from .evaluate import (
    TEXT_BAND_NAMES,
    TextStretchTable,
    TextValidationCurves,
    text_band_losses,
    text_bands,
    text_loss_by_position,
    text_loss_curves,
    text_perplexity_by_length,
    text_steps_to_reach,
    text_stretch_losses,
    text_valid_loss,
    text_validation_curves,
    text_windows,
)
from .models import (
    FINE_TUNE_FACTOR,
    FINE_TUNE_LENGTH,
    FINE_TUNES,
    TEXT_LENGTH,
    TEXT_MAX_LENGTH,
    TEXT_SCHEMES,
    TEXT_SEEDS,
    TEXT_VARIANTS,
    build_text_model,
    load_text_model,
    text_manifest,
)

__all__ = [
    "CORPUS_SHA256", "FINE_TUNE_FACTOR", "FINE_TUNE_LENGTH", "FINE_TUNES", "TEXT_BAND_NAMES", "TEXT_LENGTH",
    "TEXT_MARGIN", "TEXT_MAX_LENGTH", "TEXT_SCHEMES", "TEXT_SEEDS", "TEXT_VARIANTS", "TextStretchTable",
    "TextValidationCurves", "build_text_model", "decode_text", "encode_text", "load_text_model", "text_band_losses",
    "text_bands", "text_claims", "text_convergence_margins", "text_corpus", "text_length_margins",
    "text_loss_by_position", "text_loss_curves", "text_manifest", "text_perplexity_by_length", "text_steps_to_reach",
    "text_stretch_losses", "text_stretch_margins", "text_unigram_entropy", "text_valid_loss",
    "text_validation_curves", "text_windows",
]
