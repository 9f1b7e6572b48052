"""The real-text corpus: English prose from Python's documentation, read as bytes.

The text (``data/python-docs-3.11.txt.gz``, about 6.3 MB; ``data/SOURCE.md`` says where it comes from,
its licence and how it was cut) is split once and for all:

- ``"valid"``: ``VALID_BLOCKS`` blocks of ``VALID_BLOCK`` bytes each, the k-th starting at byte
  (2k + 1)·N / (2·VALID_BLOCKS) rounded down (N the corpus size): spread evenly over the whole
  document, so the validation text mixes the tutorial, the how-tos, the language reference, the
  "What's new" pages and the library reference, as the training text does. The blocks are
  concatenated in order; a window of 128, 256, 512 or 1024 bytes tiles each block exactly.
- ``"train"``: everything else, concatenated in order.

The tokenizer is the identity on UTF-8 bytes: token id = byte value, vocabulary 256. A byte
tokenizer needs no download and no training, is the same on every machine, can encode any text,
and makes the loss easy to read (nats per byte). It also makes sequences long for the text they
hold — 1024 bytes is about 170 words — which is what a course on positions wants: a model trained at
128 bytes meets lengths 8 times its training length within one paragraph-sized window.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import math
from importlib import resources

import torch

from .._checks import check_choice

CORPUS_FILE = "python-docs-3.11.txt.gz"
# sha256 of the decompressed bytes: the corpus's identity (a test recomputes it)
CORPUS_SHA256 = "5853d59e027b6d8251ed1d08af26c49253291814e82d8127291177a8cf1102e4"
CORPUS_BYTES = 6_311_990
SPLITS = ("train", "valid")
VOCAB_SIZE = 256
VALID_BLOCKS = 12
VALID_BLOCK = 4096


@functools.cache
def corpus_bytes() -> bytes:
    """The decompressed corpus (bytes), read once per process; its sha256 is checked."""
    with resources.files(__package__).joinpath("data").joinpath(CORPUS_FILE).open("rb") as raw:
        data = gzip.decompress(raw.read())
    digest = hashlib.sha256(data).hexdigest()
    if digest != CORPUS_SHA256:
        raise RuntimeError(f"the corpus file {CORPUS_FILE} has sha256 {digest}, expected {CORPUS_SHA256}: "
                           "it is damaged or was replaced; reinstall the course package")
    return data


def valid_starts(n: int = CORPUS_BYTES) -> list[int]:
    """The byte offsets where the validation blocks start in a corpus of n bytes."""
    return [(2 * k + 1) * n // (2 * VALID_BLOCKS) for k in range(VALID_BLOCKS)]


@functools.cache
def _split_bytes(split: str) -> bytes:
    data = corpus_bytes()
    starts = valid_starts(len(data))
    if split == "valid":
        return b"".join(data[s:s + VALID_BLOCK] for s in starts)
    edges = [0, *[e for s in starts for e in (s, s + VALID_BLOCK)], len(data)]
    return b"".join(data[edges[i]:edges[i + 1]] for i in range(0, len(edges), 2))


def text_corpus(split: str) -> torch.Tensor:
    """The token ids (bytes) of ``split``, "train" or "valid": a 1-D torch.long tensor (a new copy
    each call, so changing it changes nothing else)."""
    split = check_choice("split", split, SPLITS)
    return torch.frombuffer(bytearray(_split_bytes(split)), dtype=torch.uint8).long()


def encode_text(text: str) -> torch.Tensor:
    """A string → its UTF-8 bytes as a 1-D torch.long tensor of ids in 0 … 255."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return torch.tensor(list(text.encode("utf-8")), dtype=torch.long)


def decode_text(ids) -> str:
    """Token ids (any integer tensor or sequence of ids in 0 … 255) → the string they encode, read
    as UTF-8; a byte sequence cut inside a character shows U+FFFD where the character was cut."""
    if isinstance(ids, torch.Tensor):
        if ids.is_floating_point() or ids.dtype == torch.bool:
            raise TypeError(f"ids must be integer token ids, got a tensor of {ids.dtype}")
        ids = ids.flatten().tolist()
    ids = list(ids)
    bad = [i for i in ids if not isinstance(i, int) or not 0 <= i < VOCAB_SIZE]
    if bad:
        raise ValueError(f"ids must be integers in 0 … {VOCAB_SIZE - 1}, got {bad[0]!r}")
    return bytes(ids).decode("utf-8", errors="replace")


def text_unigram_entropy(split: str = "valid") -> float:
    """The entropy (nats per byte) of the byte frequencies of ``split``: the loss of the best model
    that ignores context, a ceiling every trained model must sit well below."""
    counts = torch.bincount(text_corpus(split), minlength=VOCAB_SIZE).double()
    p = counts[counts > 0] / counts.sum()
    return float(-(p * p.log()).sum()) if p.numel() else math.nan
