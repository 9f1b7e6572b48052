"""Steps drawn at 2× whatever this machine's speed: LiveFigure's switch to 1× after slow first steps
is a wall-clock decision, so a busy machine would change the pixels a test compares (a test that
wants the 1× fallback asks for it with a subclass or its own setting)."""

import pytest

from helpers.live import LiveFigure


@pytest.fixture(autouse=True)
def sharp_steps(monkeypatch):
    monkeypatch.setattr(LiveFigure, "SHARP_STEP_S", float("inf"))
