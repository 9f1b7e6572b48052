"""Stationary synthetic tasks: random token streams whose rule does not depend on the absolute
position, so an ideal model's loss is flat along the sequence and any rise past the training
length is the position encoding's fault. Streams come from a ``torch.Generator`` on the CPU, so a
seed gives the same tokens on every platform. Each task knows its exact entropy floor: the
expected next-token loss of the true conditional distribution, the best any model can reach.
"""

from __future__ import annotations

import math
import string

import torch
import torch.nn.functional as F

from ._checks import check_finite, check_int


class Task:
    """A stationary synthetic token stream. Subclasses give ``vocab_size`` and implement
    ``stream``, ``floor_by_position``, ``token_names`` and ``describe``."""

    vocab_size: int

    def stream(self, batch: int, length: int, generator: torch.Generator) -> torch.Tensor:
        """(batch, length) int64 tokens."""
        raise NotImplementedError

    def floor_by_position(self, length: int) -> torch.Tensor:
        """(length,) float64: the exact least expected loss for the target at each input position."""
        raise NotImplementedError

    def describe(self) -> str:
        """The rule in one sentence."""
        raise NotImplementedError

    def token_names(self) -> list[str]:
        """How each token id is written in ``show``."""
        return [str(i) for i in range(self.vocab_size)]

    @property
    def entropy_floor(self) -> float:
        """The least expected next-token loss (nats) once every source is in view."""
        raise NotImplementedError

    def sample(
        self, batch: int, length: int, generator: torch.Generator | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(inputs, targets), both (batch, length) int64 on the CPU: targets[:, t] is the token
        after inputs[:, t]. ``generator``: a CPU ``torch.Generator`` (``None``: one seeded with 0)."""
        batch = check_int("batch", batch, 1)
        length = check_int("length", length, 1)
        if generator is None:
            generator = torch.Generator().manual_seed(0)
        elif not isinstance(generator, torch.Generator) or generator.device.type != "cpu":
            raise TypeError(f"generator must be a CPU torch.Generator, got {generator!r}")
        tokens = self.stream(batch, length + 1, generator)
        return tokens[:, :-1], tokens[:, 1:]

    def show(self, tokens: torch.Tensor, width: int | None = None) -> str:
        """One sequence of tokens (length,) as text, at most ``width`` tokens of it."""
        tokens = torch.as_tensor(tokens)
        if tokens.dim() != 1:
            raise ValueError(f"tokens must have shape (length,), got shape {tuple(tokens.shape)}")
        names = self.token_names()
        shown = tokens if width is None else tokens[: check_int("width", width, 1)]
        return " ".join(names[int(t)] for t in shown)

    def __repr__(self) -> str:
        return f"{type(self).__name__}: {self.describe()}"


def _field_entropy(size: int, noise: float) -> float:
    """Entropy (nats) of a value kept with probability 1 − noise, else redrawn uniformly from
    ``size`` values (possibly itself): one value has 1 − noise + noise/size, the rest noise/size."""
    keep = 1.0 - noise + noise / size
    other = noise / size
    return -keep * math.log(keep) - (size - 1) * (other * math.log(other) if other > 0 else 0.0)


def _lagged_copies(batch: int, length: int, lag: int, size: int, noise: float, generator) -> torch.Tensor:
    """(batch, length) values in 0 … size−1: value[t] = value[t − lag], redrawn uniformly with
    probability ``noise``; the first ``lag`` values are uniform. Each residue class t mod lag is
    an independent Markov chain started in its uniform stationary distribution."""
    fresh = torch.randint(0, size, (batch, length), generator=generator)
    redraw = torch.rand(batch, length, generator=generator, dtype=torch.float64) < noise
    index = torch.arange(length).expand(batch, length)
    redraw = redraw | (index < lag)
    last_redraw = torch.where(redraw, index, torch.zeros_like(index))
    chains = -(-length // lag)
    padded = F.pad(last_redraw, (0, chains * lag - length)).view(batch, chains, lag)
    last_redraw = padded.cummax(dim=1).values.flatten(1)[:, :length]
    return fresh.gather(1, last_redraw)


class LetterDigitCopy(Task):
    """Each token is a letter–digit pair: its letter repeats the letter ``short`` tokens back,
    its digit repeats the digit ``long`` tokens back, and each is redrawn at random with
    probability ``noise``.

    Token id = letters_index · digits + digit_index, vocab_size = letters × digits (16 by
    default: A–D × 0–3). The two fields are independent, so the exact floor is the sum of two
    field entropies: a field that can be copied costs
        H(noise, n) = −(1 − noise + noise/n)·ln(1 − noise + noise/n) − (n − 1)·(noise/n)·ln(noise/n),
    one whose source lies before the start of the sequence costs ln n (uniform). The target at
    input position t is token t + 1, so the floor is ln 16 for t + 1 < short, then
    H_letters + ln(digits) until t + 1 ≥ long, then H_letters + H_digits from there on.
    """

    def __init__(self, short: int = 3, long: int = 8, letters: int = 4, digits: int = 4, noise: float = 0.1):
        self.short = check_int("short", short, 1)
        self.long = check_int("long", long, 1)
        if self.long <= self.short:
            raise ValueError(f"long must be greater than short = {self.short}, got {self.long}")
        self.letters = check_int("letters", letters, 1)
        if self.letters > 26:
            raise ValueError(f"letters must be an integer in 1 … 26, got {self.letters}")
        self.digits = check_int("digits", digits, 1)
        if self.digits > 10:
            raise ValueError(f"digits must be an integer in 1 … 10, got {self.digits}")
        self.noise = check_finite("noise", noise)
        if not 0.0 < self.noise <= 1.0:
            raise ValueError(f"noise must be a probability in (0, 1], got {self.noise}")
        self.vocab_size = self.letters * self.digits

    def stream(self, batch, length, generator):
        letter = _lagged_copies(batch, length, self.short, self.letters, self.noise, generator)
        digit = _lagged_copies(batch, length, self.long, self.digits, self.noise, generator)
        return letter * self.digits + digit

    def split(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(letter index, digit index) of each token id."""
        return tokens // self.digits, tokens % self.digits

    def token_names(self):
        return [string.ascii_uppercase[i // self.digits] + str(i % self.digits) for i in range(self.vocab_size)]

    def floor_by_position(self, length):
        length = check_int("length", length, 1)
        target = torch.arange(1, length + 1)  # the target at input position t is token t + 1
        h_letter = torch.where(
            target < self.short, math.log(self.letters), _field_entropy(self.letters, self.noise)
        )
        h_digit = torch.where(target < self.long, math.log(self.digits), _field_entropy(self.digits, self.noise))
        return (h_letter + h_digit).to(torch.float64)

    @property
    def letter_floor(self) -> float:
        """The least expected loss (nats) of the letter alone, once its source is in view."""
        return _field_entropy(self.letters, self.noise)

    @property
    def digit_floor(self) -> float:
        """The least expected loss (nats) of the digit alone, once its source is in view."""
        return _field_entropy(self.digits, self.noise)

    @property
    def entropy_floor(self):
        return self.letter_floor + self.digit_floor

    def describe(self):
        return (
            f"each token is a letter–digit pair whose letter repeats the letter {self.short} tokens back "
            f"and whose digit repeats the digit {self.long} tokens back, each redrawn at random "
            f"{self.noise:.0%} of the time"
        )
