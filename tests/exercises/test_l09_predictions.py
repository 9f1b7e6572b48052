"""Lesson 09's prediction (09.pi_offset): every choice gets its verdict, and the right answer is what
RoPE with position interpolation computes."""

import torch

import helpers as H
from helpers.exercises.core import get

from .kit import assert_solution_passes


def test_every_choice_gets_its_verdict():
    choices = get("09.pi_offset").choices
    assert set(choices) == {"8", "2", "0.5", "0.25"}
    for choice in choices:
        result = H.check("09.pi_offset", choice)
        assert result.passed == (choice == "0.5"), (choice, result.message)
        assert result.status == ("passed" if choice == "0.5" else "failed")
    assert H.check("09.pi_offset", " 0.5 ").passed and H.check("09.pi_offset", 0.5).passed
    assert H.check("09.pi_offset", "no idea").status == "failed"
    assert H.check("09.pi_offset", None).status == "not attempted"


def test_offset_two_under_pi_is_rotated_as_offset_one_half():
    # independent of helpers.rope: the angle of offset δ in pair i under PI ×4 is δ·ω_i/4
    d, base, factor = 16, 10000.0, 4.0
    omega = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    assert torch.allclose(2 * omega / factor, 0.5 * omega)
    # and the task's offsets are 2 and 7: the query at t predicts token t + 1, copied from 3 and 8 back
    task = H.SHORT_CONTEXT.task()
    assert (task.short - 1, task.long - 1) == (2, 7)
    blur = H.neighbour_blur(omega / factor, omega, 7)
    assert blur.looks_like == 1.75


def test_the_solution_passes():
    assert_solution_passes("09.pi_offset")
