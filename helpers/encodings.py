"""Position signals, from the raw index to the sinusoidal encoding and its shift matrix.

Reference conventions (see the course design):
    ω_i = base^(−2i/d_model), i = 0 … d_model/2 − 1
    interleaved: PE[p, 2i] = sin(p·ω_i), PE[p, 2i+1] = cos(p·ω_i)
    concatenated: PE[p] = [sin(p·ω) | cos(p·ω)]
"""

from __future__ import annotations

import torch

from ._checks import check_base, check_choice, check_even, check_finite, check_int

SINUSOIDAL_LAYOUTS = ("interleaved", "concatenated")


def frequencies(d_model: int, base: float = 10000.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Angular frequencies ω_i = base^(−2i/d_model) for i = 0 … d_model//2 − 1.

    Returns a (d_model//2,) tensor; ω_0 = 1 is the fastest, the last is close to 1/base.
    """
    return _frequencies(check_int("d_model", d_model, 1), check_base(base), dtype)


def _frequencies(d_model: int, base: float, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    i = torch.arange(d_model // 2, dtype=torch.float64)
    return (base ** (-2.0 * i / d_model)).to(dtype)


def counting(length: int) -> torch.Tensor:
    """The raw index as a float: (length,) tensor 0, 1, …, length − 1."""
    length = check_int("length", length, 1)
    return torch.arange(length, dtype=torch.float32)


def normalised(length: int) -> torch.Tensor:
    """Positions scaled to [0, 1]: (length,) tensor pos / (length − 1); ``[0.]`` when length is 1."""
    length = check_int("length", length, 1)
    if length == 1:
        return torch.zeros(1)
    return torch.arange(length, dtype=torch.float64).div(length - 1).float()


def single_sine(length: int, omega: float = 1.0) -> torch.Tensor:
    """One sine of the raw index: (length,) tensor sin(ω·pos)."""
    length = check_int("length", length, 1)
    omega = check_finite("omega", omega)
    return torch.sin(omega * torch.arange(length, dtype=torch.float64)).float()


def angles(positions: torch.Tensor, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """Angles p·ω_i in float64: (..., d_model//2) for positions of shape (...)."""
    return _angles(positions, check_int("d_model", d_model, 1), check_base(base))


def _angles(positions: torch.Tensor, d_model: int, base: float) -> torch.Tensor:
    return positions.to(torch.float64)[..., None] * _frequencies(d_model, base)


def sinusoidal(
    length: int, d_model: int, base: float = 10000.0, layout: str = "interleaved"
) -> torch.Tensor:
    """The Vaswani et al. encoding: a (length, d_model) float32 tensor.

    ``layout="interleaved"`` puts sin(p·ω_i) at column 2i and cos(p·ω_i) at 2i + 1 (the paper);
    ``layout="concatenated"`` puts all sines first, then all cosines.
    """
    length = check_int("length", length, 1)
    d_model = check_even("d_model", d_model)
    base = check_base(base)
    layout = check_choice("layout", layout, SINUSOIDAL_LAYOUTS)
    return _sinusoidal(torch.arange(length), d_model, base, layout)


def _sinusoidal(positions: torch.Tensor, d_model: int, base: float, layout: str = "interleaved") -> torch.Tensor:
    """The encoding's rows for the given positions: (*positions.shape, d_model) float32."""
    theta = _angles(positions, d_model, base)
    if layout == "interleaved":
        pe = torch.stack((theta.sin(), theta.cos()), dim=-1).flatten(-2)
    else:
        pe = torch.cat((theta.sin(), theta.cos()), dim=-1)
    return pe.float()


def shift_matrix(k: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The (d_model, d_model) matrix M_k with PE[p + k] = M_k @ PE[p] (interleaved layout).

    M_k is block diagonal; block i acts on (sin, cos) of frequency ω_i as
        [[cos kω_i,  sin kω_i],
         [−sin kω_i, cos kω_i]]
    which is the angle-addition identity. k may be negative; M_k is orthogonal.
    """
    return _shift_matrix(check_int("k", k, None), check_even("d_model", d_model), check_base(base))


def _shift_matrix(k: int, d_model: int, base: float) -> torch.Tensor:
    theta = _angles(torch.tensor(k), d_model, base)
    c, s = theta.cos(), theta.sin()
    blocks = torch.stack((torch.stack((c, s), -1), torch.stack((-s, c), -1)), -2)  # (d/2, 2, 2)
    return torch.block_diag(*blocks).float()
