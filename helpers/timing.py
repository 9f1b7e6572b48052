"""Measuring kernels fairly: round-robin wall-clock timing and the bytes an operation allocates."""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
from torch.overrides import TorchFunctionMode

from ._checks import check_int


def round_robin_times(
    fns: dict[str, Callable[[], object]], repeats: int = 20, warmup: int = 2
) -> dict[str, list[float]]:
    """Call every function once per round, ``repeats`` rounds, and return each one's seconds.

    Interleaving the candidates spreads machine noise (other processes, frequency changes)
    over all of them instead of one; the starting candidate rotates from round to round.
    ``warmup`` untimed rounds come first (caches, allocator, lazy initialisation).
    """
    if not fns or not all(callable(f) for f in fns.values()):
        raise ValueError("fns must be a non-empty dict of name → function taking no arguments")
    repeats = check_int("repeats", repeats, 1)
    warmup = check_int("warmup", warmup, 0)
    names = list(fns)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(warmup + repeats):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            start = time.perf_counter()
            fns[name]()
            elapsed = time.perf_counter() - start
            if r >= warmup:
                times[name].append(elapsed)
    return times


def _storages(obj, found: set[int]) -> set[int]:
    if isinstance(obj, torch.Tensor):
        found.add(obj.untyped_storage().data_ptr())
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            _storages(item, found)
    elif isinstance(obj, dict):
        for item in obj.values():
            _storages(item, found)
    return found


class _AllocationCounter(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.nbytes = 0
        self.ops: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        inputs = _storages(kwargs, _storages(args, set()))
        for result in out if isinstance(out, (list, tuple)) else (out,):
            if isinstance(result, torch.Tensor) and result.untyped_storage().data_ptr() not in inputs:
                self.nbytes += result.untyped_storage().nbytes()
                self.ops.append(getattr(func, "__name__", str(func)))
        return out


def allocated_bytes(fn: Callable[[], object]) -> tuple[int, list[str]]:
    """Bytes of the new tensors that ``fn()`` creates through torch operations, and which ops made them.

    A view, an in-place operation or a result that shares its input's memory counts nothing;
    every fresh result counts its full size (intermediates included, even if freed at once).
    """
    if not callable(fn):
        raise TypeError(f"fn must be a function taking no arguments, got {type(fn).__name__}")
    with _AllocationCounter() as counter:
        fn()
    return counter.nbytes, counter.ops
