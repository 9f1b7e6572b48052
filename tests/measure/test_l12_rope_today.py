"""Lesson 12's measurements against independent computations: 2-D and M-RoPE rotations written out pair by
pair and transformers' Qwen2-VL code; MLA's scores head by head; cache sizes, wavelengths and LongRoPE by
hand; every rope type against transformers' ROPE_INIT_FUNCTIONS."""

import math

import pytest
import torch

from helpers.measure import l12_rope_today as today


def turn_pairs(x, angle_of_pair):
    """Half layout by hand: pair i = features (i, i + d/2), turned by angle_of_pair[..., i]."""
    h = x.shape[-1] // 2
    c, s = angle_of_pair.cos(), angle_of_pair.sin()
    return torch.cat((x[..., :h] * c - x[..., h:] * s, x[..., :h] * s + x[..., h:] * c), dim=-1)


def test_axial_2d_turns_half_the_pairs_by_the_row_and_half_by_the_column():
    d, g = 16, torch.Generator().manual_seed(0)
    x = torch.randn(12, d, generator=g, dtype=torch.float64)
    pos = today.grid_positions(3, 4)
    freqs, axes = today.axial_2d(d)
    omega = 10000.0 ** (-2 * torch.arange(d // 4, dtype=torch.float64) / (d // 2))  # a head of d/2 features
    angles = torch.cat((pos[0, :, None] * omega, pos[1, :, None] * omega), dim=-1)
    assert torch.allclose(today.multi_axis_rope(x, pos, freqs, axes), turn_pairs(x, angles), atol=1e-12)
    assert pos[:, 5].tolist() == [1, 1] and axes.tolist() == [0] * 4 + [1] * 4


def test_axial_2d_scores_depend_on_the_row_and_column_offsets_only():
    d, g = 32, torch.Generator().manual_seed(1)
    freqs, axes = today.axial_2d(d)
    q, k = torch.randn(2, d, generator=g, dtype=torch.float64)
    for _ in range(20):
        a, b = torch.randint(0, 50, (2, 2), generator=g), torch.randint(-10, 10, (2,), generator=g)
        pos = torch.stack((a[0], a[0] + b)).T.abs(), torch.stack((a[1], a[1] + b)).T.abs()
        shift = torch.randint(0, 30, (2, 1), generator=g)
        one = [today.multi_axis_rope(v[None], p[:, i:i + 1], freqs, axes)[0] for v, i, p in ((q, 0, pos[0]),
                                                                                             (k, 1, pos[0]))]
        two = [today.multi_axis_rope(v[None], p[:, i:i + 1] + shift, freqs, axes)[0] for v, i, p in ((q, 0, pos[0]),
                                                                                                     (k, 1, pos[0]))]
        assert math.isclose(one[0] @ one[1], two[0] @ two[1], abs_tol=1e-9)
    # and a change of the offset changes the score: the test can fail
    p1, p2 = torch.tensor([[0], [0]]), torch.tensor([[0], [1]])
    s0 = today.multi_axis_rope(q[None], p1, freqs, axes)[0] @ today.multi_axis_rope(k[None], p1, freqs, axes)[0]
    s1 = today.multi_axis_rope(q[None], p1, freqs, axes)[0] @ today.multi_axis_rope(k[None], p2, freqs, axes)[0]
    assert abs(s0 - s1) > 1e-3



def rotation_matrix_2d(row, col, freqs, axes):
    """The (d, d) block-diagonal rotation of a patch at (row, col), half layout: pair i = features (i, i + d/2)
    turned by (row if axes[i] == 0 else col)·freqs[i], written out entry by entry."""
    h = freqs.shape[0]
    m = torch.zeros(2 * h, 2 * h, dtype=torch.float64)
    for i in range(h):
        angle = (row if axes[i] == 0 else col) * freqs[i].item()
        m[i, i], m[i, i + h] = math.cos(angle), -math.sin(angle)
        m[i + h, i], m[i + h, i + h] = math.sin(angle), math.cos(angle)
    return m


@pytest.mark.parametrize("split", today.AXIS_SPLITS)
def test_grid_and_offset_scores_equal_explicit_rotation_matrices(split):
    d, rows, cols, base = 16, 3, 4, 100.0
    q, k = torch.randn(2, d, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    freqs, axes = today.two_axis_split(d, split, base)
    omega = base ** (-2 * torch.arange(d // 2, dtype=torch.float64) / d)
    half = base ** (-2 * torch.arange(d // 4, dtype=torch.float64) / (d // 2))
    expected = {"halves": (torch.cat((half, half)), [0] * 4 + [1] * 4),
                "alternate pairs": (omega, [0, 1] * 4), "blocks": (omega, [0] * 4 + [1] * 4)}[split]
    assert torch.allclose(freqs, expected[0], rtol=1e-15) and axes.tolist() == expected[1]
    for query in [(0, 0), (2, 1), (2, 3)]:
        got = today.grid_scores(q, k, *query, rows, cols, freqs, axes)
        rq = rotation_matrix_2d(*query, freqs, axes) @ q
        by_hand = torch.tensor([[float(rq @ (rotation_matrix_2d(r, c, freqs, axes) @ k)) for c in range(cols)]
                                for r in range(rows)], dtype=torch.float64)
        assert got.shape == (rows, cols) and torch.allclose(got, by_hand, atol=1e-12)
        window = today.offset_scores(q, k, rows, cols, freqs, axes)[rows - 1 - query[0]: 2 * rows - 1 - query[0],
                                                                    cols - 1 - query[1]: 2 * cols - 1 - query[1]]
        assert torch.allclose(window, by_hand, atol=1e-12)
    one = rotation_matrix_2d(0, 0, freqs, axes) @ q @ (rotation_matrix_2d(-2, 3, freqs, axes) @ k)  # key − query
    assert math.isclose(today.offset_scores(q, k, rows, cols, freqs, axes)[rows - 1 - 2, cols - 1 + 3], one,
                        abs_tol=1e-12)
    # a wrong axis for one pair changes the scores: the check can fail
    wrong = axes.clone()
    wrong[0] = 1 - wrong[0]
    assert (today.grid_scores(q, k, 2, 1, rows, cols, freqs, wrong) - today.grid_scores(q, k, 2, 1, rows, cols, freqs,
                                                                                          axes)).abs().max() > 1e-3


def test_two_axis_split_and_grid_scores_check_their_arguments():
    q = torch.zeros(8, dtype=torch.float64)
    with pytest.raises(ValueError, match="split must be one of 'halves', 'alternate pairs', 'blocks'"):
        today.two_axis_split(8, "thirds")
    with pytest.raises(ValueError, match="d must be a multiple of 4"):
        today.two_axis_split(6, "blocks")
    with pytest.raises(ValueError, match=r"query patch \(3, 0\) must lie on the 3 × 4 grid"):
        today.grid_scores(q, q, 3, 0, 3, 4, *today.two_axis_split(8))
    with pytest.raises(ValueError, match="q and k must both have shape"):
        today.grid_scores(q, q[:4], 0, 0, 3, 4, *today.two_axis_split(8))

def test_one_axis_is_plain_rope():
    x = torch.randn(7, 8, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    freqs = 10000.0 ** (-2 * torch.arange(4, dtype=torch.float64) / 8)
    out = today.multi_axis_rope(x, torch.arange(7)[None], freqs, torch.zeros(4, dtype=torch.long))
    assert torch.allclose(out, turn_pairs(x, torch.arange(7.0, dtype=torch.float64)[:, None] * freqs), atol=1e-12)


SEGMENTS = [("text", 3), ("image", (1, 4, 6)), ("text", 2), ("video", (2, 4, 4)), ("text", 2)]


def qwen2_vl(sections):
    transformers = pytest.importorskip("transformers")
    from transformers.models.qwen2_vl import modeling_qwen2_vl

    transformers.utils.logging.set_verbosity_error()
    config = transformers.Qwen2VLConfig(
        text_config=dict(hidden_size=2 * 2 * sum(sections), num_attention_heads=2, num_key_value_heads=2,
                         intermediate_size=16, num_hidden_layers=1, vocab_size=8,
                         rope_parameters=dict(rope_type="default", rope_theta=1e6, mrope_section=list(sections))),
        vision_config=dict(depth=1, embed_dim=16, hidden_size=32, num_heads=2, spatial_merge_size=2))
    return modeling_qwen2_vl, config, modeling_qwen2_vl.Qwen2VLModel(config)


def test_mrope_ids_and_rotation_equal_transformers_qwen2_vl():
    module, config, model = qwen2_vl((4, 6, 6))
    types = []
    for kind, size in SEGMENTS:
        types += [0] * size if kind == "text" else [1 if kind == "image" else 2] * (size[0] * size[1] * size[2] // 4)
    types = torch.tensor([types])
    ids, _ = model.get_rope_index(torch.zeros_like(types), types, image_grid_thw=torch.tensor([[1, 4, 6]]),
                                  video_grid_thw=torch.tensor([[2, 4, 4]]))
    ours = today.mrope_position_ids(SEGMENTS)
    assert torch.equal(ids[:, 0], ours)
    x = torch.randn(1, 2, ours.shape[1], 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    rotary = module.Qwen2VLRotaryEmbedding(config.text_config)
    cos, sin = rotary(x, ids)
    if hasattr(module, "apply_multimodal_rotary_pos_emb"):  # transformers ≤ 5.15: sections applied here
        theirs = module.apply_multimodal_rotary_pos_emb(x, x, cos, sin, [4, 6, 6])[0]
    else:  # later: the rotary module applies them
        theirs = module.apply_rotary_pos_emb(x, x, cos, sin)[0]
    freqs, axes = today.mrope_axes(32, (4, 6, 6), 1e6)
    assert (theirs - today.multi_axis_rope(x, ours, freqs, axes)).abs().max() < 1e-5  # HF's angles are float32
    # a wrong section split is caught
    wrong_freqs, wrong_axes = today.mrope_axes(32, (6, 5, 5), 1e6)
    assert (theirs - today.multi_axis_rope(x, ours, wrong_freqs, wrong_axes)).abs().max() > 1e-2


def test_text_only_ids_are_three_equal_counts():
    ids = today.mrope_position_ids([("text", 6)])
    assert torch.equal(ids, torch.arange(6).expand(3, 6))


def test_mla_scores_head_by_head():
    w = today.mla_weights(d_model=32, heads=2, head_dim=8, latent=6, rope_dim=4, seed=1)
    h = torch.randn(5, 32, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    omega = lambda d: 10000.0 ** (-2 * torch.arange(d // 2, dtype=torch.float64) / d)  # noqa: E731
    pos = torch.arange(5, dtype=torch.float64)[:, None]
    for j in range(2):
        q, c = h @ w.W_q[j].T, h @ w.W_dkv.T
        k = c @ w.W_uk[j].T
        u, a = today.mla_scores(h, w, "no rope")
        assert torch.allclose(u[j], q @ k.T, atol=1e-12) and torch.allclose(a[j], u[j], atol=1e-12)
        u, a = today.mla_scores(h, w, "rope on the latent")
        qr, kr = turn_pairs(q, pos * omega(8)), turn_pairs(k, pos * omega(8))
        assert torch.allclose(u[j], qr @ kr.T, atol=1e-12)
        assert torch.allclose(a[j], qr @ w.W_uk[j] @ turn_pairs(c, pos * omega(6)).T, atol=1e-12)
        assert (a[j] - u[j]).abs().max() > 1e-3
        u, a = today.mla_scores(h, w, "decoupled rope")
        rot = turn_pairs(h @ w.W_qr[j].T, pos * omega(4)) @ turn_pairs(h @ w.W_kr.T, pos * omega(4)).T
        assert torch.allclose(u[j], q @ k.T + rot, atol=1e-12) and torch.allclose(a[j], u[j], atol=1e-12)


def test_cache_sizes_of_deepseek_v3_by_hand():
    assert today.cache_elements_per_token(61, latent=512, rope_dim=64) == 61 * 576 == 35136
    assert today.cache_elements_per_token(61, kv_heads=128, head_dim=128) == 2 * 128 * 128 * 61 == 1998848
    assert today.cache_elements_per_token(61, kv_heads=8, head_dim=128) == 124928


def test_wavelengths_and_pairs_turning_within_by_hand():
    wl = today.wavelengths(8, 100.0)
    assert torch.allclose(wl, torch.tensor([2 * math.pi * 100.0 ** (2 * i / 8) for i in range(4)], dtype=torch.float64))
    assert today.pairs_turning_within(8, 100.0, 20) == 2 and today.pairs_turning_within(8, 100.0, 6) == 0


def test_longrope_by_hand():
    inv, att = today.longrope_frequencies(4, 10000.0, [1.0, 2.0], [3.0, 5.0], 16, 64, seq_len=32)
    assert torch.allclose(inv, torch.tensor([1 / 3, 0.01 / 5], dtype=torch.float64))
    assert math.isclose(att, math.sqrt(1 + math.log(4) / math.log(16)))
    inv_short, _ = today.longrope_frequencies(4, 10000.0, [1.0, 2.0], [3.0, 5.0], 16, 64)
    assert torch.allclose(inv_short, torch.tensor([1.0, 0.01 / 2], dtype=torch.float64))


@pytest.mark.parametrize("published", today.PUBLISHED, ids=[p.model for p in today.PUBLISHED])
def test_every_rope_type_equals_transformers(published):
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama import modeling_llama

    transformers.utils.logging.set_verbosity_error()
    hd = published.head_dim
    config = transformers.LlamaConfig(hidden_size=2 * hd, num_attention_heads=2, head_dim=hd,
                                      max_position_embeddings=published.max_position_embeddings,
                                      rope_parameters=dict(published.rope_parameters))
    kind = published.rope_parameters["rope_type"]
    if kind == "default":
        theirs = modeling_llama.LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        theirs = ROPE_INIT_FUNCTIONS[kind](config, None, seq_len=published.seq_len)
    ours = today.rope_type_frequencies(published.rope_parameters, hd, published.max_position_embeddings,
                                       published.seq_len)
    assert torch.allclose(theirs[0].double(), ours[0], rtol=1e-6, atol=0)
    assert math.isclose(theirs[1], ours[1], rel_tol=1e-9)


def test_the_published_values_agree_with_transformers_defaults_where_it_has_them():
    transformers = pytest.importorskip("transformers")
    oss = next(p for p in today.PUBLISHED if p.model == "gpt-oss")
    assert {k: v for k, v in transformers.GptOssConfig().rope_parameters.items()} == oss.rope_parameters
    ds = transformers.DeepseekV3Config()
    assert (ds.kv_lora_rank, ds.qk_rope_head_dim, ds.num_attention_heads, ds.num_hidden_layers) == (512, 64, 128, 61)
