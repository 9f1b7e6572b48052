"""The few lines of a helper's source that lesson 08 shows."""

from __future__ import annotations

import inspect


def core_lines(function, *markers: str) -> str:
    """The lines of ``function``'s source that contain one of ``markers`` (every line if none is
    given), each without its indent, under a comment naming the function: the few lines of a
    helper that a lesson shows. A marker found on no line is an error, so a renamed line cannot
    silently drop out of the lesson."""
    if not callable(function):
        raise TypeError(f"function must be a function or method, got {type(function).__name__}")
    lines = inspect.getsource(function).splitlines()
    missing = [m for m in markers if not any(m in line for line in lines)]
    if missing:
        raise ValueError(f"markers {missing} are not in the source of {function.__qualname__}")
    kept = [line.strip() for line in lines if not markers or any(m in line for m in markers)]
    return f"# {function.__module__}.{function.__qualname__}\n" + "\n".join(kept) + "\n"
