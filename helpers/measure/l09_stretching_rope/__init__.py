"""Lesson 09, stretching RoPE past its training length: what each scaling method does to each
frequency pair, why plain extrapolation and plain interpolation each fail, the dynamic-NTK cache
pitfall, and the methods applied to a small trained model, with and without a short fine-tune.

Notation: L is the training (original) length, n the length asked for, d the head dimension,
ω_i = base^(−2i/d) the frequency of pair i, ω'_i the stretched one, s_i = ω_i / ω'_i its scale.
Scaled frequencies come from :func:`helpers.scaled_frequencies`.

One file per concern: :mod:`.methods` (the stretches and their frequencies), :mod:`.pairs` (what
each method does to each pair), :mod:`.on_model` (the methods on a trained model, and dynamic NTK
read token by token through a key cache) and :mod:`.experiment` (the toy experiment for one seed
and its claims). The six-seed table is
``helpers/measure/l09_seed_spread.py``.
"""

from .experiment import (  # noqa: F401
    STRETCH_MARGIN,
    FineTuning,
    StretchRun,
    stretch_claims,
    stretch_margins,
    stretch_run,
)
from .methods import (  # noqa: F401
    LLAMA3_PARAMS,
    STRETCHES,
    method_parameters,
    stretched_frequencies,
)
from .on_model import (  # noqa: F401
    CACHES,
    WAYS,
    DynamicCacheLosses,
    FieldLosses,
    TemperatureEffect,
    _rope_scheme,
    apply_stretch,
    attention_entropy_by_position,
    cached_generation_logits,
    dynamic_cache_losses,
    dynamic_step_frequencies,
    field_losses,
    fine_tuned,
    losses_by_method,
    yarn_temperature_effect,
)
from .pairs import (  # noqa: F401
    MODEL_SHAPES,
    ModelShape,
    PairPicture,
    pair_picture,
    shape_pictures,
)
