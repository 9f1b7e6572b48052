"""Lesson 07, learned tables and relative schemes: a learned position table trained and looked
at, the rows training never reached, how a model's position signal is stored, T5's buckets and
ALiBi's slopes seen whole, the test that a score bias depends on k − q alone, what a bias costs
in memory, and one map of every scheme of the course.

Conventions: a table is a (rows, d) tensor whose row p belongs to position p; a score bias is a
(..., Lq, Lk) tensor whose entry [i, j] is added to the score of query i and key j. Offsets are
key position − query position (T5's and Shaw's convention): a key δ tokens *before* the query
has offset −δ.

One file per concern: :mod:`.tables` (the learned table: training, similarity, claims, storage),
:mod:`.biases` (T5's buckets, ALiBi's slopes, offset spread, memory) and :mod:`.scheme_map` (the
shift test and the map of every scheme). The five-seed table is ``helpers/measure/l07_seed_spread.py``.
"""

from .biases import (  # noqa: F401
    AlibiView,
    BiasMemory,
    T5BucketView,
    alibi_view,
    bias_memory,
    offset_spread,
    t5_bucket_view,
)
from .scheme_map import (  # noqa: F401
    _HOOKS,
    SchemeEntry,
    position_kind,
    scheme_map,
    scheme_scores,
)
from .tables import (  # noqa: F401
    Claim,
    StoredFrequencies,
    StoredTable,
    TableRun,
    _cosine_similarity,
    _table,
    cosine_similarity,
    entropy_by_position,
    position_storage,
    similarity_by_offset,
    table_claims,
    train_position_table,
)
