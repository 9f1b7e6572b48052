"""Lesson 11, the map: where each position scheme of the course enters attention, decided by
calling the scheme objects' three hooks and seeing which of them change something.

Every scheme (``helpers.schemes``) has the same three hooks, each the identity unless the
scheme uses it (``helpers.position_scheme``):

    embed(x, positions)          → x + a position signal            "added to x"
    rotate(q, k, positions)      → q, k turned by their positions   "rotates q, k"
    bias(q_positions, k_positions) → an additive score bias         "bias on scores"

:func:`hook_effects` builds one scheme, gives its trainable tables random values (T5's and
Shaw's start at zero, which would hide their bias), calls each hook on random inputs and
records which hooks changed their input (or returned a nonzero bias). Nothing is read from the
scheme's own description: :func:`where_position_enters` groups the schemes by what their hooks
do, for the lesson's diagram.
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import torch

from .._checks import check_choice, check_int
from ..schemes import SCHEMES, scheme

HOOKS = ("embed", "rotate", "bias")
PLACES = {"embed": "added to x", "rotate": "rotates q, k", "bias": "bias on scores"}
NOWHERE = "no hook"  # the place of a scheme whose hooks change nothing ("none")


class HookEffect(NamedTuple):
    """What one scheme's hooks do to random inputs: True where a hook changed something."""

    name: str
    embed: bool  # embed(x) differs from x
    rotate: bool  # rotate(q, k) differs from (q, k)
    bias: bool  # bias(...) is not None and not all zero
    parameters: int  # trainable numbers of the scheme as built (n_heads 2, head_dim 8, max_len 16)

    @property
    def hooks(self) -> tuple[str, ...]:
        """The hooks that changed something, in the order attention calls them."""
        return tuple(h for h in HOOKS if getattr(self, h))

    @property
    def places(self) -> tuple[str, ...]:
        """Where the scheme enters attention, in the words of :data:`PLACES` (``NOWHERE`` if nowhere)."""
        return tuple(PLACES[h] for h in self.hooks) or (NOWHERE,)


def _hook_effects(name: str, length: int, seed: int) -> HookEffect:
    n_heads, head_dim = 2, 8
    generator = torch.Generator().manual_seed(seed)
    with torch.random.fork_rng(devices=[]):  # building a scheme draws its initial weights: not from the lesson's stream
        s = scheme(name, n_heads=n_heads, head_dim=head_dim, max_len=max(length, 16)).double()
    parameters = sum(p.numel() for p in s.parameters() if p.requires_grad)
    probe = copy.deepcopy(s)
    with torch.no_grad():
        for p in probe.parameters():  # random tables: a zero-initialised bias would look like no bias
            p.copy_(torch.randn(p.shape, generator=generator, dtype=p.dtype))
    positions = torch.arange(length)
    x = torch.randn(1, length, n_heads * head_dim, generator=generator, dtype=torch.float64)
    q, k = torch.randn(2, 1, n_heads, length, head_dim, generator=generator, dtype=torch.float64)
    with torch.no_grad():
        embedded = probe.embed(x.clone(), positions)
        q2, k2 = probe.rotate(q.clone(), k.clone(), positions)
        bias = probe.bias(positions, positions)
    return HookEffect(
        name=name,
        embed=not torch.equal(embedded, x),
        rotate=not (torch.equal(q2, q) and torch.equal(k2, k)),
        bias=bias is not None and bool((bias != 0).any()),
        parameters=parameters,
    )


def hook_effects(name: str, length: int = 6, seed: int = 0) -> HookEffect:
    """Which of scheme ``name``'s three hooks change something, found by calling them.

    The scheme is built with 2 heads of 8 dimensions (max_len 16, or ``length`` if larger), its
    trainable tables set to random values, and its hooks called on random x (1, L, 16), q and k
    (1, 2, L, 8) at positions 0 … L−1, L = ``length`` ≥ 2. ``parameters`` counts its trainable
    numbers as built (before the random values).
    """
    name = check_choice("name", name, SCHEMES)
    return _hook_effects(name, check_int("length", length, 2), check_int("seed", seed, 0))


def where_position_enters(length: int = 6, seed: int = 0) -> dict[str, tuple[str, ...]]:
    """Every scheme of ``helpers.SCHEMES`` grouped by the place it enters attention.

    Keys: the three places of :data:`PLACES` in the order attention meets them, then ``NOWHERE``;
    values: the names of the schemes whose hooks change something there (from
    :func:`hook_effects`), in the order of ``SCHEMES``.
    """
    length, seed = check_int("length", length, 2), check_int("seed", seed, 0)
    groups: dict[str, list[str]] = {place: [] for place in (*PLACES.values(), NOWHERE)}
    for name in SCHEMES:
        for place in _hook_effects(name, length, seed).places:
            groups[place].append(name)
    return {place: tuple(names) for place, names in groups.items()}
