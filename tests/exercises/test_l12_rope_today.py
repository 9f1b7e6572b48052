"""12.mrope_position_ids: independent correct answers pass (one written from the rule, one from transformers'
Qwen2-VL code); each catalogued mistake, written out here, is named; and 12.rope_on_the_latent's answer is
what an independent computation gives."""

import pytest
import torch

import helpers as H

from .kit import assert_choices, assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

ID = "12.mrope_position_ids"


def by_hand(segments, spatial_merge_size=2):
    """Token by token, with Python loops: text (s, s, s), pictures (s + f, s + r, s + c)."""
    ids, start = [], 0
    for kind, size in segments:
        if kind == "text":
            ids += [(start + i,) * 3 for i in range(size)]
            start += size
            continue
        t, h, w = size[0], size[1] // spatial_merge_size, size[2] // spatial_merge_size
        ids += [(start + f, start + r, start + c) for f in range(t) for r in range(h) for c in range(w)]
        start += max(h, w)
    return torch.tensor(ids, dtype=torch.int64).T


def through_transformers(segments, spatial_merge_size=2):
    transformers = pytest.importorskip("transformers")
    from transformers.models.qwen2_vl import modeling_qwen2_vl

    transformers.utils.logging.set_verbosity_error()
    config = transformers.Qwen2VLConfig(
        text_config=dict(hidden_size=32, num_attention_heads=2, num_key_value_heads=2, intermediate_size=16,
                         num_hidden_layers=1, vocab_size=8, rope_parameters=dict(rope_type="default",
                                                                                 rope_theta=1e6,
                                                                                 mrope_section=[2, 3, 3])),
        vision_config=dict(depth=1, embed_dim=16, hidden_size=32, num_heads=2, spatial_merge_size=spatial_merge_size))
    model = modeling_qwen2_vl.Qwen2VLModel(config)
    types, images, videos = [], [], []
    for kind, size in segments:
        if kind == "text":
            types += [0] * size
        else:
            types += [1 if kind == "image" else 2] * (size[0] * size[1] * size[2] // spatial_merge_size ** 2)
            (images if kind == "image" else videos).append(list(size))
    types = torch.tensor([types])
    ids, _ = model.get_rope_index(torch.zeros_like(types), types,
                                  image_grid_thw=torch.tensor(images) if images else None,
                                  video_grid_thw=torch.tensor(videos) if videos else None)
    return ids[:, 0].to(torch.int64)


@pytest.mark.parametrize("fn", [by_hand, through_transformers, solved_function(ID)],
                         ids=["by_hand", "transformers", "solution"])
def test_correct_answers_pass(fn):
    assert_passes(ID, fn)


def _stub(picture):
    def ids(segments, spatial_merge_size=2):
        columns, start = [], 0
        for kind, size in segments:
            if kind == "text":
                columns.append(start + torch.arange(size).expand(3, size))
                start += size
            else:
                t, h, w = size
                columns.append(picture(start, t, h // spatial_merge_size, w // spatial_merge_size))
                start += max(h, w) // spatial_merge_size
        return torch.cat(columns, dim=1)
    return ids


def _loops(order):
    def picture(start, t, h, w):
        return torch.tensor([order(start, f, r, c) for f in range(t) for r in range(h) for c in range(w)]).T
    return picture


MISTAKES = {
    "only the temporal id counted from start": _stub(_loops(lambda s, f, r, c: (s + f, r, c))),
    "no id counted from start": _stub(_loops(lambda s, f, r, c: (f, r, c))),
    "rows and columns swapped": _stub(_loops(lambda s, f, r, c: (s + f, s + c, s + r))),
    "columns walked before rows": _stub(lambda s, t, h, w: torch.tensor(
        [(s + f, s + r, s + c) for f in range(t) for c in range(w) for r in range(h)]).T),
    "the picture's tokens numbered like text": _stub(lambda s, t, h, w: torch.arange(s, s + t * h * w).repeat(3, 1)),
    "the temporal id left at start for every frame": _stub(_loops(lambda s, f, r, c: (s, s + r, s + c))),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_catalogued_mistake_is_named(name):
    assert_diagnosed(ID, MISTAKES[name], name)


def test_the_first_difference_is_named_by_axis_token_and_place_in_the_picture():
    message = assert_diagnosed(ID, MISTAKES["rows and columns swapped"], "rows and columns swapped")
    assert "the height id of token 4, the image (t, h, w) = (1, 4, 6): frame 0, merged row 0, column 1" in message, \
        message


def test_float_ids_are_refused_for_their_dtype():
    message = assert_fails_undiagnosed(ID, lambda s, m=2: by_hand(s, m).float())
    assert "int64" in message, message


def test_rope_on_the_latent_differs_at_offset_zero_away_from_position_zero():
    """By hand, one head: a random up-projection W (4 × 6) and rotations of 4 and 6 features."""
    assert_choices("12.rope_on_the_latent", "c", at_least=3)
    g = torch.Generator().manual_seed(3)
    W = torch.randn(4, 6, generator=g, dtype=torch.float64)
    q, c = torch.randn(4, generator=g, dtype=torch.float64), torch.randn(6, generator=g, dtype=torch.float64)

    def turn(v, p):  # half layout, ω_i = 10000^(−2i/len(v)), written out
        h = v.numel() // 2
        theta = p * 10000.0 ** (-2 * torch.arange(h, dtype=torch.float64) / v.numel())
        return torch.cat((v[:h] * theta.cos() - v[h:] * theta.sin(), v[:h] * theta.sin() + v[h:] * theta.cos()))

    for m in (1, 5):  # offset 0, at positions other than 0
        uncompressed = turn(q, m) @ turn(W @ c, m)
        absorbed = turn(q, m) @ W @ turn(c, m)
        assert torch.isclose(uncompressed, q @ W @ c) and abs(uncompressed - absorbed) > 1e-3
    assert torch.isclose(turn(q, 0) @ W @ turn(c, 0), q @ W @ c)  # position 0: nothing turns
    # and the lesson's helper agrees: diagonal differs except at position 0
    from helpers.measure import l12_rope_today as today
    u, a = today.mla_scores(torch.randn(6, 64, generator=g, dtype=torch.float64), today.mla_weights(),
                            "rope on the latent")
    gap = (u - a).diagonal(dim1=-2, dim2=-1).abs()
    assert gap[:, 0].max() < 1e-12 and gap[:, 1:].min() > 1e-6
    assert H.check("12.rope_on_the_latent", "C").passed
