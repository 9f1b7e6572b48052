"""Lesson 10's measurements (helpers.measure.l10_rope_in_practice): angles computed in a
low-precision dtype, against values worked out by hand from how each dtype stores numbers."""

import math

import pytest
import torch

from helpers.measure import l10_rope_in_practice as A


def test_bfloat16_positions_by_hand():
    # bfloat16 keeps 8 significant bits: above 256 the integers are spaced 2, above 512 spaced 4 …
    theta = A.angles_in_dtype(torch.tensor([255, 256, 257, 1001, 1003]), 2, dtype=torch.bfloat16)
    assert theta[:, 0].tolist() == [255.0, 256.0, 256.0, 1000.0, 1004.0]
    err = A.angle_error(torch.tensor([257, 1001]), 2, dtype=torch.bfloat16)
    assert err[:, 0].tolist() == pytest.approx([1.0, 1.0])


def test_float16_overflows_and_float64_is_exact():
    assert math.isinf(A.angles_in_dtype(torch.tensor([70000]), 4, dtype=torch.float16)[0, 0].item())
    assert torch.isnan(A.angle_error(torch.tensor([70000]), 4, dtype=torch.float16)[0, 0])
    assert A.angle_error(torch.arange(0, 10**6, 9973), 64, dtype=torch.float64).max().item() == 0.0


def test_angle_error_is_wrapped():
    assert A.wrap_angle(torch.tensor([1.5 * math.pi, 2 * math.pi, -math.pi, 0.25], dtype=torch.float64)).tolist() == \
        pytest.approx([-0.5 * math.pi, 0.0, -math.pi, 0.25])
    err = A.angle_error(torch.arange(0, 200000, 997), 16, dtype=torch.bfloat16)
    assert err.max().item() <= math.pi + 1e-12


def test_float32_angle_error_grows_with_position():
    err = A.angle_error(torch.tensor([10, 1000, 100000]), 128, dtype=torch.float32).amax(-1)
    assert err[0] < 1e-5 < err[1] < 1e-3 < err[2] < 0.1


def test_precision_view_by_hand():
    # d = 4, base 100: ω = (1, 0.1). bfloat16 keeps 8 significant bits, so 0.1 = 1.6·2⁻⁴ is stored as
    # 205/128·2⁻⁴ = 0.10009765625, and position 1003 (spacing 4 between 512 and 1024) as 1004.
    view = A.precision_view(1003, d=4, dtype=torch.bfloat16, base=100.0)
    assert view.position == 1003 and view.stored == 1004.0
    # pair 0: 1004·1 against 1003·1, off by 1 rad
    # pair 1: 1004 · 0.10009765625 = 100.498…, rounded to bfloat16 (spacing 0.5 between 64 and 128) = 100.5,
    #         against 1003 · 0.1 = 100.3: off by 0.2 rad
    assert view.errors.tolist() == pytest.approx([1.0, 0.2], abs=1e-9)
    assert view.worst == pytest.approx(1.0) and view.pairs_off == 2
    # position 1000 is stored exactly, and 1000 · 0.10009765625 = 100.098 rounds to 100.0, the exact angle
    assert A.precision_view(1000, d=4, dtype=torch.bfloat16, base=100.0).pairs_off == 0


def test_precision_view_overflow_and_exact_dtype():
    view = A.precision_view(70000, d=8, dtype=torch.float16)
    assert math.isinf(view.stored) and math.isnan(view.worst) and view.pairs_off == 4
    exact = A.precision_view(123456, d=8, dtype=torch.float64)
    assert exact.stored == 123456.0 and exact.worst == 0.0 and exact.pairs_off == 0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="positions"):
        A.angle_error(torch.tensor([-1]), 4)
    with pytest.raises(TypeError, match="dtype"):
        A.angles_in_dtype(torch.tensor([1]), 4, dtype=torch.int32)
    with pytest.raises(TypeError, match="dtype must be a floating-point torch dtype"):
        A.precision_view(10, dtype="bfloat16")
    with pytest.raises(ValueError, match="position must be an integer ≥ 0"):
        A.precision_view(-1)
    with pytest.raises(ValueError, match="d must be even"):
        A.precision_view(10, d=7)
