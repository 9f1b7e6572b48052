"""The real-text corpus: its identity, its split, its tokenizer."""

import collections
import gzip
import hashlib
import math
import re
from importlib import resources

import pytest
import torch

import helpers as H
from helpers.text import corpus

# sha256 of the decompressed corpus, written by hand: the data's identity
CORPUS_SHA256 = "5853d59e027b6d8251ed1d08af26c49253291814e82d8127291177a8cf1102e4"


def raw_bytes() -> bytes:
    path = resources.files("helpers.text").joinpath("data").joinpath("python-docs-3.11.txt.gz")
    return gzip.decompress(path.read_bytes())


def test_the_corpus_is_the_same_bytes_everywhere():
    data = raw_bytes()
    assert hashlib.sha256(data).hexdigest() == CORPUS_SHA256 == H.CORPUS_SHA256
    assert len(data) == 6_311_990


def test_the_corpus_is_english_prose_not_code():
    text = raw_bytes().decode("utf-8")
    words = text.split()
    assert len(text) > 2_000_000
    common = collections.Counter(w.lower() for w in words)
    # the most frequent English words are the most frequent words here
    assert {"the", "a", "of", "to", "is", "and"} <= {w for w, _ in common.most_common(12)}
    letters = sum(c.isalpha() or c == " " for c in text)
    assert letters / len(text) > 0.9  # code would bring far more symbols and digits
    # lines that open like code: 6 of about 41,000, each a sentence (such as "return leaves the
    # current function call with …")
    code_like = re.compile(r"(def |class \w+[(:]|import |from \w+ import|>>>|\$ |for \w+ in .*:$|return )")
    lines = text.splitlines()
    assert sum(bool(code_like.match(line)) for line in lines) < 1e-3 * len(lines)
    assert not any(line.startswith(">>> ") for line in lines)  # no interactive sessions


def test_the_split_sizes_and_where_the_validation_blocks_come_from():
    data = raw_bytes()
    valid, train = H.text_corpus("valid"), H.text_corpus("train")
    assert valid.shape == (12 * 4096,) and train.shape == (len(data) - 12 * 4096,)
    assert valid.dtype == train.dtype == torch.long and valid.dim() == train.dim() == 1
    # block k starts at byte (2k + 1)·N / 24, written out independently
    starts = [(2 * k + 1) * len(data) // 24 for k in range(12)]
    expected_valid = b"".join(data[s:s + 4096] for s in starts)
    assert bytes(valid.to(torch.uint8).tolist()) == expected_valid
    kept = bytearray(data)
    for s in reversed(starts):
        del kept[s:s + 4096]
    assert bytes(train.to(torch.uint8).tolist()) == bytes(kept)


def test_each_call_returns_a_fresh_tensor():
    a = H.text_corpus("valid")
    first = int(a[0])
    a[0] = (first + 1) % 256
    assert int(H.text_corpus("valid")[0]) == first


def test_decode_inverts_encode():
    text = "Positions: a ‘rotary’ embedding turns q and k — π/2 at 90°.\nNext line"
    ids = H.encode_text(text)
    assert ids.dtype == torch.long and ids.dim() == 1 and int(ids.max()) < 256
    assert ids.tolist() == list(text.encode("utf-8"))
    assert H.decode_text(ids) == text
    assert H.decode_text(ids.tolist()) == text
    valid = H.text_corpus("valid")
    assert H.decode_text(valid[:4096]) == raw_bytes()[(6_311_990 // 24):(6_311_990 // 24) + 4096].decode(
        "utf-8", errors="replace")


def test_unigram_entropy_by_hand():
    counts = collections.Counter(bytes(H.text_corpus("valid").to(torch.uint8).tolist()))
    n = sum(counts.values())
    expected = -sum(c / n * math.log(c / n) for c in counts.values())
    assert H.text_unigram_entropy("valid") == pytest.approx(expected, abs=1e-9)
    assert 2.5 < expected < 3.6  # English bytes: about 4.4 bits


@pytest.mark.parametrize("split", ["test", "validation", 0, None])
def test_a_bad_split_names_the_allowed_values(split):
    with pytest.raises((ValueError, TypeError), match="split.*train.*valid"):
        H.text_corpus(split)


def test_bad_ids_are_named():
    with pytest.raises(ValueError, match="ids must be integers in 0 … 255"):
        H.decode_text([65, 256])
    with pytest.raises(TypeError, match="ids must be integer token ids"):
        H.decode_text(torch.tensor([65.0]))
    with pytest.raises(TypeError, match="text must be a str"):
        H.encode_text(b"bytes")


def test_the_source_file_states_source_licence_and_cut():
    source = resources.files("helpers.text").joinpath("data").joinpath("SOURCE.md").read_text(encoding="utf-8")
    for needed in ("python3.11-doc", "3.11.2-6+deb12u9", "PSF LICENSE AGREEMENT", CORPUS_SHA256,
                   "Copyright © 2001-2023 Python Software Foundation", "How it was cut"):
        assert needed in source
    assert corpus.CORPUS_FILE in source
