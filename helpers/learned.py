"""A learned position table, as in BERT and GPT-2."""

from __future__ import annotations

import torch
from torch import nn

from ._checks import check_int, check_positions


class LearnedPositionalEmbedding(nn.Module):
    """One trainable d_model-vector per position 0 … max_len − 1.

    ``forward(positions)`` takes an integer tensor (any shape) or a length n (meaning
    positions 0 … n−1) and returns the rows, shape (*positions.shape, d_model).
    A position ≥ max_len has no row, and asking for one raises an IndexError.
    """

    def __init__(self, max_len: int, d_model: int):
        super().__init__()
        self.max_len = check_int("max_len", max_len, 1)
        self.d_model = check_int("d_model", d_model, 1)
        self.table = nn.Embedding(self.max_len, self.d_model)
        nn.init.normal_(self.table.weight, std=0.02)

    def forward(self, positions: torch.Tensor | int) -> torch.Tensor:
        if isinstance(positions, int) and not isinstance(positions, bool):
            positions = torch.arange(check_int("length", positions, 1), device=self.table.weight.device)
        positions = check_positions(positions)
        if positions.numel() and int(positions.max()) >= self.max_len:
            raise IndexError(
                f"positions must be < max_len = {self.max_len}: a learned table has no row for "
                f"position {int(positions.max())} (it was never trained on it)"
            )
        return self.table(positions)
