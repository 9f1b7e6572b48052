"""Comparing a learner's output with the expected one, property by property, in the exercise's terms.

``first_failure(expected, got, rtol, atol, *, name=None, dtype=None, dtype_why=…, device=None)`` checks, in this
order, and describes the first that fails:

1. type   — ``got`` is a torch.Tensor or a numpy array (converted with ``torch.as_tensor``);
2. shape  — ``got.shape == expected.shape``;
3. device — ``got`` lives on ``device`` when one is given (where the inputs were);
4. dtype  — exactly ``dtype`` when the task states one (``dtype_why`` says where it comes from);
            otherwise the same kind (floating point for a floating ``expected``, integer for an integer
            one), and never half precision (float16, bfloat16) for a floating ``expected``;
5. finite — no NaN or inf where ``expected`` is finite;
6. values — |got − expected| ≤ atol + rtol·|expected| everywhere (exact for integers; NaN equals
            NaN, which only a catalogued mistake's output can hold, after 5.); the message names
            the first index that differs with ``name(index)``, the exercise's own words for it
            ("offset −90", "position 1, pair 0 = features 0, 1", "head 3 of 12"), expected against
            got, by how much, and how many entries differ.

It returns None when every property holds. ``close(expected, got, …)`` is the same test as a bool.
``what_property(expected, got, …)`` says, from the numbers alone, which simple relation a wrong
output has to the expected one (a sign, a scale, reversed or reordered along an axis, transposed,
one step off along an axis), or None. All text is deterministic.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import torch

# The tolerance policy (core's docstring states it for the learner): tight enough that float16 and
# bfloat16 fail everywhere, loose enough that float32 and float64 pass.
DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6
FLOAT32_UNIT_ROUNDOFF = 2.0 ** -24
HALF_DTYPES = (torch.float16, torch.bfloat16)


def float32_angle_slack(largest_angle: float, magnitude: float = 1.0) -> float:
    """The only per-case slack of the policy: float32 stores an angle θ within θ·2^-24, and p·ω, its
    sine and the products after it add a few such errors; 4·θ·2^-24 times the size of what the angle
    multiplies (|x| for a rotation, 1 for a table of sines) covers a float32 computation of it."""
    return 4.0 * float(largest_angle) * FLOAT32_UNIT_ROUNDOFF * float(magnitude)


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


def _where(index: tuple[int, ...], name: Callable | None) -> str:
    if name is None:
        return f"at {format_index(index)}" if index else "in the single value"
    try:
        return f"at {name(index)}"
    except Exception:  # a naming function must never hide the difference itself
        return f"at {format_index(index)}"


def first_failure(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
                  what: str = "your function", *, name: Callable[[tuple[int, ...]], str] | None = None,
                  dtype: torch.dtype | None = None, dtype_why: str = "the input's dtype",
                  device: torch.device | str | None = None) -> str | None:
    """The first property of ``got`` that fails against ``expected``, in words; None if all hold."""
    if isinstance(got, torch.Tensor) and tuple(got.shape) == tuple(expected.shape) and device is not None \
            and got.device != torch.device(device):
        return f"device: expected the inputs' device, {torch.device(device)}, got {got.device}"
    tensor = to_tensor(got)
    if tensor is None:
        return f"{what} returned {describe_type(got)}; it should return a torch.Tensor (a numpy array is fine too)"
    if tuple(tensor.shape) != tuple(expected.shape):
        return f"shape: expected {tuple(expected.shape)}, got {tuple(tensor.shape)}"
    want, have = _kind(expected), _kind(tensor)
    if dtype is not None and tensor.dtype != dtype:
        return f"dtype: the task asks for {str(dtype).replace('torch.', '')} ({dtype_why}), got " \
               f"{str(tensor.dtype).replace('torch.', '')}"
    if want != have:
        hint = {"integer": " (convert with .long())", "floating-point": " (convert with .float())"}.get(want, "")
        article = "an" if want[0] in "aeiou" else "a"
        return f"dtype: expected {article} {want} tensor, got {tensor.dtype}{hint}"
    if want == "floating-point" and tensor.dtype in HALF_DTYPES and expected.dtype not in HALF_DTYPES:
        return f"dtype: got {str(tensor.dtype).replace('torch.', '')}, half precision; expected float32 or float64"
    if want == "floating-point":
        bad = torch.isfinite(expected) & ~torch.isfinite(tensor)
        if bool(bad.any()):
            index = tuple(int(i) for i in bad.nonzero()[0])
            return (f"values: got {format_number(float(tensor[index]))} {_where(index, name)} where "
                    f"{format_number(float(expected[index]))} was expected ({int(bad.sum())} non-finite entries)")
    bad = _bad_mask(expected, tensor, rtol, atol)
    if not bool(bad.any()):
        return None
    index = tuple(int(i) for i in bad.nonzero()[0])
    e, g = expected[index].item(), tensor[index].item()
    off = "" if want == "integer" else f" (off by {format_number(abs(float(g) - float(e)))})"
    where = _where(index, name) if name is not None else f"values differ {_where(index, None)}"
    return (f"{where}: expected {format_number(e)}, got {format_number(g)}{off}; "
            f"{int(bad.sum())} of {bad.numel()} entries differ")


def close(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL) -> bool:
    """True when ``got`` passes every property of ``first_failure`` against ``expected`` (its kind of
    dtype, shape and values; the exact dtype and the device are the check's business)."""
    if not isinstance(expected, torch.Tensor):
        return False
    return first_failure(expected, got, rtol, atol) is None


def _same(a: torch.Tensor, b: torch.Tensor, rtol: float, atol: float) -> bool:
    return tuple(a.shape) == tuple(b.shape) and not bool(_bad_mask(a, b, rtol, atol).any())


def what_property(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
                  axes: Sequence[str] = ()) -> str | None:
    """The text of ``relation``: which simple relation ``got`` has to ``expected``, or None."""
    found = relation(expected, got, rtol, atol, axes)
    return None if found is None else found[1]


def relation(expected: torch.Tensor, got, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
             axes: Sequence[str] = ()) -> tuple[str, str] | None:
    """(kind, text): which simple relation ``got`` has to ``expected`` when it is wrong, from the numbers alone:
    the sign (got ≈ −expected), a scale (got ≈ c·expected), reversed or reordered along an axis,
    transposed, or one step off along an axis. ``axes`` names the trailing axes ("offsets", "heads",
    "pairs"); the others are called by number. None when no relation holds (or got is not comparable)."""
    got = to_tensor(got)
    rtol = max(rtol, DEFAULT_RTOL)  # a relation is told at the policy's precision, even where values are exact
    if got is None or tuple(got.shape) != tuple(expected.shape) or _kind(got) != _kind(expected) \
            or _kind(expected) not in ("integer", "floating-point") or expected.numel() < 1:
        return None
    if _kind(expected) == "floating-point" and not (bool(torch.isfinite(got).all())
                                                    and bool(torch.isfinite(expected).all())):
        return None
    if _same(expected, got, rtol, atol):
        return None
    names = [f"axis {a}" for a in range(expected.dim())]
    for offset, label in enumerate(reversed(list(axes))):
        if offset < expected.dim():
            names[expected.dim() - 1 - offset] = f"the {label}"
    e = expected.to(torch.float64) if _kind(expected) == "floating-point" else expected.to(torch.int64)
    g = got.to(e.dtype)
    if bool((e != 0).any()) and _same(-e, g, rtol, atol):
        return "sign", "your output is the expected one with its sign flipped (−1 × expected): a sign or a direction " \
               "is reversed somewhere"
    if _kind(expected) == "floating-point" and float((e * e).sum()) > 0:
        c = float((e * g).sum() / (e * e).sum())
        if abs(c - 1) > 1e-6 and abs(c) > 1e-12 and _same(c * e, g, rtol, atol):
            return (f"scale {c:.4g}",
                    f"your output is {format_number(c)} × the expected one on every entry: a factor (a scale) is off")
    shift = g.flatten()[0] - e.flatten()[0]
    if bool(shift != 0) and _same(e + shift, g, rtol, atol):
        return (f"constant {float(shift):.4g}",
                f"your output is the expected one plus {format_number(float(shift))} on every entry: "
                f"a constant offset (an off-by-one, a wrong starting point)")
    for axis in range(e.dim()):
        if e.shape[axis] < 2:
            continue
        if _same(e.flip(axis), g, rtol, atol):
            return (f"reversed {axis}",
                    f"your output is the expected one reversed along {names[axis]}: an order or a direction is "
                    f"the wrong way round")
        n = e.shape[axis]
        if n < 3 or _same(e.narrow(axis, 1, n - 1), e.narrow(axis, 0, n - 1), rtol, atol):
            continue  # the expected output does not change along this axis: a step tells nothing
        if _same(e.narrow(axis, 1, n - 1), g.narrow(axis, 0, n - 1), rtol, atol):
            return (f"ahead {axis}",
                    f"your output is the expected one a step ahead along {names[axis]} (entry i holds the expected "
                    f"entry i + 1): an off-by-one")
        if _same(e.narrow(axis, 0, n - 1), g.narrow(axis, 1, n - 1), rtol, atol):
            return (f"behind {axis}",
                    f"your output is the expected one a step behind along {names[axis]} (entry i holds the expected "
                    f"entry i − 1): an off-by-one")
    if e.dim() >= 2 and e.shape[-1] == e.shape[-2] and _same(e.transpose(-1, -2), g, rtol, atol):
        return "transposed", "your output is the expected one transposed (rows and columns exchanged)"
    for axis in range(e.dim()):
        if e.shape[axis] < 2:
            continue
        if _same(e.sort(dim=axis).values, g.sort(dim=axis).values, rtol, atol):
            return (f"reordered {axis}",
                    f"your output holds the expected values, in another order along {names[axis]}: the order "
                    f"(which entry goes where) is wrong")
    return None
