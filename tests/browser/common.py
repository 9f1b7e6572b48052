"""What every browser test shares: where things are, and what a missing browser means."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / os.environ.get("BROWSER_ARTIFACTS", "test-artifacts/browser")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def unavailable(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (under CI the browser test must run; .ci/run installs chromium)")
    pytest.skip(reason)
