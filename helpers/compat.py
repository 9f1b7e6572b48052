"""What a lesson needs of the runtime it runs in (Colab's versions lag behind the course's pins)."""

from __future__ import annotations

import re
from importlib import metadata


def _release(version: str) -> tuple[int, ...]:
    """The numeric release of a version string: "5.15.0" → (5, 15, 0), "4.57.1.dev0" → (4, 57, 1)."""
    parts = []
    for piece in version.split("+")[0].split("."):
        digits = re.match(r"\d*", piece).group()
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) < len(piece):  # "0rc1": a pre-release tag ends the release
            break
    return tuple(parts)


def require(package: str, minimum: str, why: str = "") -> str:
    """Return the installed version of ``package``, or stop with a message naming the version needed.

    Raises ImportError when ``package`` is missing or older than ``minimum`` (e.g. Colab runtimes of
    early 2026 ship transformers 4.57, whose RoPE configuration key differs from 5.x).
    """
    if not isinstance(package, str) or not package:
        raise TypeError(f"package must be a non-empty string, got {package!r}")
    if not isinstance(minimum, str) or not _release(minimum):
        raise ValueError(f"minimum must be a version string such as '5.0', got {minimum!r}")
    reason = f" ({why})" if why else ""
    try:
        installed = metadata.version(package)
    except metadata.PackageNotFoundError:
        raise ImportError(
            f"This lesson needs {package} >= {minimum}{reason}, which is not installed. "
            f"Install it with: pip install '{package}>={minimum}'") from None
    if _release(installed) < _release(minimum):
        raise ImportError(
            f"This lesson needs {package} >= {minimum}{reason}; this runtime has {installed}. "
            f"Upgrade with: pip install -U '{package}>={minimum}' (then restart the runtime)")
    return installed
