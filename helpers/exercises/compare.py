"""Comparing a learner's output with the expected one, property by property.

``first_failure(expected, got)`` checks, in this order, and describes the first that fails:

1. type   — ``got`` is a torch.Tensor or a numpy array (converted with ``torch.as_tensor``);
2. shape  — ``got.shape == expected.shape``;
3. dtype  — the same kind: floating point for a floating ``expected``, integer for an integer one
            (float32 and float64 are both fine, and so are int32 and int64);
4. finite — no NaN or inf where ``expected`` is finite;
5. values — |got − expected| ≤ atol + rtol·|expected| everywhere (exact for integers; NaN equals
            NaN, which only a catalogued mistake's output can hold, after 4.); the message
            gives the first index that differs, expected against got, by how much, and how many
            entries differ.

It returns None when every property holds. ``close(expected, got)`` is the same test as a bool
(used to match an answer against the outputs of catalogued mistakes). All text is deterministic.
"""

from __future__ import annotations

import numbers

import torch

DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-4


def to_tensor(value) -> torch.Tensor | None:
    """``value`` as a detached CPU tensor if it is a tensor or a numpy array, else None."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if type(value).__module__ == "numpy" and hasattr(value, "__array__") and hasattr(value, "dtype"):
        try:
            return torch.as_tensor(value.copy())
        except (TypeError, RuntimeError, ValueError):
            return None
    return None


def describe_type(value) -> str:
    """A short name for what was returned: 'a list', 'None', 'a float', 'a tuple of 2 items' …"""
    if value is None:
        return "None"
    if isinstance(value, tuple | list):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__}"


def _kind(t: torch.Tensor) -> str:
    if t.dtype == torch.bool:
        return "bool"
    if t.is_complex():
        return "complex"
    if t.is_floating_point():
        return "floating-point"
    return "integer"


def format_number(x: float) -> str:
    """A number in 6 significant digits, integers without a decimal point; -0 prints as 0."""
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if x != x or x in (float("inf"), float("-inf")):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.6g}"


def format_index(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


def _bad_mask(expected: torch.Tensor, got: torch.Tensor, rtol: float, atol: float) -> torch.Tensor:
    if _kind(expected) == "integer":
        return got.to(torch.int64) != expected.to(torch.int64)
    # NaN matches NaN: a catalogued mistake that gives NaN (0·log 0) is matched by the same NaN.
    return ~torch.isclose(got.to(torch.float64), expected.to(torch.float64), rtol=rtol, atol=atol, equal_nan=True)


def first_failure(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
                  what: str = "your function") -> str | None:
    """The first property of ``got`` that fails against ``expected``, in words; None if all hold."""
    tensor = to_tensor(got)
    if tensor is None:
        return f"{what} returned {describe_type(got)}; it should return a torch.Tensor (a numpy array is fine too)"
    if tuple(tensor.shape) != tuple(expected.shape):
        return f"shape: expected {tuple(expected.shape)}, got {tuple(tensor.shape)}"
    want, have = _kind(expected), _kind(tensor)
    if want != have:
        hint = {"integer": " (convert with .long())", "floating-point": " (convert with .float())"}.get(want, "")
        article = "an" if want[0] in "aeiou" else "a"
        return f"dtype: expected {article} {want} tensor, got {tensor.dtype}{hint}"
    if want == "floating-point":
        bad = torch.isfinite(expected) & ~torch.isfinite(tensor)
        if bool(bad.any()):
            index = tuple(int(i) for i in bad.nonzero()[0])
            return (f"values: got {format_number(float(tensor[index]))} at {format_index(index)} where "
                    f"{format_number(float(expected[index]))} was expected ({int(bad.sum())} non-finite entries)")
    bad = _bad_mask(expected, tensor, rtol, atol)
    if not bool(bad.any()):
        return None
    index = tuple(int(i) for i in bad.nonzero()[0])
    e, g = expected[index].item(), tensor[index].item()
    off = "" if want == "integer" else f" (off by {format_number(abs(float(g) - float(e)))})"
    return (f"values differ at {format_index(index)}: expected {format_number(e)}, got {format_number(g)}{off}; "
            f"{int(bad.sum())} of {bad.numel()} entries differ")


def close(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL) -> bool:
    """True when ``got`` passes every property of ``first_failure`` against ``expected``."""
    if not isinstance(expected, torch.Tensor):
        return False
    return first_failure(expected, got, rtol, atol) is None
