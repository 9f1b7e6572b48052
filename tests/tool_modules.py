"""The scripts of tools/ (a folder of scripts, not a package), loaded as modules for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load_tool(name: str):
    """tools/<name>.py as a module."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as a script's own import of it would (dataclasses look it up there)
    spec.loader.exec_module(module)
    return module
