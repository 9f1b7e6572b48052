"""What a learner's function may not do to the tensors it is given, and how a check finds out.

- **Change them in place.** A caller's tensor must come back as it was. :func:`snapshot` keeps a copy of
  every tensor argument (and of the tensor a view was cut from) before the call; :func:`changed_input`
  compares the very objects passed in with those copies after it and names the first one that changed, by
  its name in the learner's function (``weights``, ``x``), with the entry that changed. An output can be
  right while the input is wrong: ``a, b = x[..., 0::2], x[..., 1::2]`` are views of x, and ``a.mul_(c)``
  rotates the caller's x as well.
- **Leave PyTorch**, where the task takes a tensor and returns one computed from it. A numpy round trip,
  ``.detach()``, ``.item()`` or ``torch.tensor(…)`` built from numbers gives the right numbers on the CPU,
  but the result carries no gradient, and on a GPU a ``.cpu().numpy()`` brings it back on the CPU.
  :func:`left_pytorch` calls the function once with inputs that require gradients and says so when the
  output has no ``grad_fn``. (A check run on the CPU cannot see the device itself: the lost gradient is the
  trace such an answer leaves there.)
- :class:`InputGuard` wraps a design proposal so that every call the design check makes is watched, and
  raises :class:`InputChanged` on the first change.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

import torch

from .compare import format_index, format_number


class Saved(NamedTuple):
    """One tensor argument as it was before the call (and the tensor it is a view of, if any)."""

    position: int
    tensor: torch.Tensor
    copy: torch.Tensor
    base: torch.Tensor | None
    base_copy: torch.Tensor | None


def snapshot(args: tuple) -> list[Saved]:
    """A copy of each tensor in ``args``, to compare with after the call."""
    saved = []
    for position, value in enumerate(args):
        if isinstance(value, torch.Tensor):
            base = value._base
            saved.append(Saved(position, value, value.detach().clone(), base,
                               None if base is None else base.detach().clone()))
    return saved


def input_name(fn: Callable, position: int) -> str:
    """How the learner's function calls its argument number ``position`` (from 0): `weights`, or by its place."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    for number, parameter in enumerate(parameters):
        if parameter.kind == parameter.VAR_POSITIONAL:
            return f"`{parameter.name}[{position - number}]`"
        if number == position and parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            return f"`{parameter.name}`"
    ordinal = {0: "first", 1: "second", 2: "third", 3: "fourth"}.get(position, f"number {position + 1}")
    return f"(its {ordinal} argument)"


def _first_change(before: torch.Tensor, after: torch.Tensor) -> str | None:
    """Where ``after`` differs from ``before`` (NaN equals NaN), in words; None when it does not."""
    try:
        if before.shape != after.shape or before.dtype != after.dtype:
            return (f"it was {tuple(before.shape)} {str(before.dtype).replace('torch.', '')} and is now "
                    f"{tuple(after.shape)} {str(after.dtype).replace('torch.', '')}")
        now = after.detach()
        if before.is_floating_point() or before.is_complex():
            differ = (before != now) & ~(before.isnan() & now.isnan())
        else:
            differ = before != now
        if not bool(differ.any()):
            return None
        index = tuple(int(i) for i in differ.nonzero()[0])
        where = f"entry {format_index(index)}" if index else "its value"
        was, became = before[index].item(), now[index].item()
        return f"{where} was {format_number(was)} and is now {format_number(became)}"
    except RuntimeError:  # a tensor that cannot be compared here (a meta tensor): nothing to say
        return None


def _plain(name: str) -> str:
    return name.strip("`") if name.startswith("`") else "x"


def changed_input(fn: Callable, saved: list[Saved]) -> str | None:
    """The message for the first input the call changed in place, or None when every input is as it was."""
    for entry in saved:
        change = _first_change(entry.copy, entry.tensor)
        if change is None and entry.base is not None:
            change = _first_change(entry.base_copy, entry.base)
            if change is not None:
                change = f"the tensor it is a view of changed: {change}"
        if change is not None:
            name = input_name(fn, entry.position)
            x = _plain(name)
            return (f"your function changed its input {name} in place ({change}). The caller's tensor must "
                    f"come back as it was: work on a copy ({x}.clone()) or return a new tensor. Mind the views: "
                    f"a slice such as {x}[..., 0::2], {x}.reshape(…), and {x}.to(dtype) when {x} already has that "
                    f"dtype share {x}'s memory, so writing into them (v[:] = …, v[mask] = …, v.mul_(…), v += …) "
                    f"writes into {x}.")
    return None


LEFT_PYTORCH = ("Somewhere your function leaves PyTorch (a numpy round trip, .detach(), .item(), or "
                "torch.tensor(…) rebuilt from numbers): the numbers come out right, but the result carries no "
                "gradient, so nothing could be trained through it, and on a GPU the .cpu() a numpy round trip "
                "needs brings the result back on the CPU. Compute with torch operations on the tensors "
                "themselves (torch.log, torch.where, indexing …).")


def left_pytorch(fn: Callable, args: tuple) -> str | None:
    """Call ``fn`` once with the floating tensors of ``args`` requiring gradients: the message when its output
    carries none (or the call fails only because they do), None when it stays in PyTorch."""
    graded = tuple(a.detach().clone().requires_grad_(True) if isinstance(a, torch.Tensor) and a.is_floating_point()
                   else a.clone() if isinstance(a, torch.Tensor) else a for a in args)
    names = [input_name(fn, k) for k, a in enumerate(graded) if isinstance(a, torch.Tensor) and a.requires_grad]
    if not names:
        return None
    said = " and ".join(names)
    try:
        got = fn(*graded)
    except Exception as err:
        return (f"called with {said} requiring gradients (requires_grad=True, as in training), your function "
                f"raised {type(err).__name__}: {err}\n{LEFT_PYTORCH}")
    if isinstance(got, torch.Tensor) and got.grad_fn is not None:
        return None
    what = "a tensor with no grad_fn" if isinstance(got, torch.Tensor) else f"a {type(got).__name__}"
    return (f"your function's result does not carry gradients: called with {said} requiring gradients "
            f"(requires_grad=True, as in training), it returned {what}.\n{LEFT_PYTORCH}")


class InputChanged(Exception):
    """A design proposal changed a tensor it was given; the text is the learner's message."""


class InputGuard:
    """``fn`` as the design check calls it: every call is watched for an input changed in place."""

    def __init__(self, fn: Callable):
        self.fn = fn
        functools.update_wrapper(self, fn)  # its name, signature and namespace stay the learner's

    def __call__(self, *args: Any) -> Any:
        saved = snapshot(args)
        out = self.fn(*args)
        changed = changed_input(self.fn, saved)
        if changed is not None:
            raise InputChanged(changed)
        return out
