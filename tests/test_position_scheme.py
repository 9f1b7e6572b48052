"""The interface every scheme implements (helpers.position_scheme): a scheme with only a bias
hook gets a causal mask merged with that bias, cached when nothing in it trains; positions are
checked once, with errors that name the parameter."""

import pytest
import torch

from helpers.position_scheme import PositionScheme, check_position_pair, check_scheme_positions, default_positions
from tests.test_schemes import make, randomise


class DistanceBias(PositionScheme):
    """A scheme written only for this test: the bias is −|i − j| for every head."""

    name = "distance"

    def bias(self, q_positions, k_positions):
        q_positions, k_positions = check_position_pair(q_positions, k_positions)
        return -(q_positions[:, None] - k_positions[None, :]).abs().float().expand(self.n_heads, -1, -1)


def test_the_base_is_the_none_scheme_and_a_bias_hook_makes_a_mask():
    plain, distance = PositionScheme(2, 4), DistanceBias(2, 4)
    assert not plain.has_bias and plain.attention_mask(None, 3, torch.float32, "cpu") is None
    assert distance.has_bias
    inf = float("-inf")
    want = torch.tensor([[0.0, inf, inf], [-1.0, 0.0, inf], [-2.0, -1.0, 0.0]])  # by hand
    mask = distance.attention_mask(None, 3, torch.float32, "cpu")
    assert mask.shape == (1, 2, 3, 3) and torch.equal(mask[0, 1], want)
    # labels 5, 7, 8: the mask follows the token order, the bias the labels
    labelled = distance.attention_mask(torch.tensor([5, 7, 8]), 3, torch.float32, "cpu")
    assert torch.equal(labelled[0, 0], torch.tensor([[0.0, inf, inf], [-2.0, 0.0, inf], [-3.0, -1.0, 0.0]]))


def test_a_cached_mask_is_rebuilt_after_the_scheme_moves_to_another_dtype():
    distance = DistanceBias(1, 4)
    first = distance.attention_mask(None, 4, torch.float32, "cpu")
    assert distance.attention_mask(None, 4, torch.float32, "cpu") is first
    distance.double()
    assert distance.attention_mask(None, 4, torch.float32, "cpu") is not first


@pytest.mark.parametrize("name", ["alibi", "t5", "shaw"])
def test_mask_is_bias_below_the_diagonal_and_minus_infinity_above(name):
    scheme = randomise(make(name))
    mask = scheme.attention_mask(None, 7, torch.float32, "cpu")
    bias = scheme.bias(torch.arange(7), torch.arange(7))
    below = torch.ones(7, 7, dtype=torch.bool).tril()
    assert mask.shape == (1, 4, 7, 7)
    assert torch.equal(mask[0][:, below], bias[:, below])
    assert bool(torch.isneginf(mask[0][:, ~below]).all())


def test_parameter_free_mask_is_cached_and_learned_one_is_not():
    alibi = make("alibi")
    assert alibi.attention_mask(None, 9, torch.float32, "cpu") is alibi.attention_mask(None, 9, torch.float32, "cpu")
    assert alibi.attention_mask(None, 9, torch.float64, "cpu").dtype == torch.float64
    t5 = make("t5")
    mask = t5.attention_mask(None, 9, torch.float32, "cpu")
    assert mask.requires_grad  # gradients reach the table, so it is rebuilt every time
    mask[torch.isfinite(mask)].sum().backward()
    assert t5.table.weight.grad.abs().sum() > 0


def test_positions_are_checked_with_their_names():
    assert check_scheme_positions(None, 2, 5) is None
    assert torch.equal(default_positions(None, 4, "cpu"), torch.arange(4))
    assert torch.equal(check_scheme_positions(torch.arange(5).expand(2, 5), 2, 5), torch.arange(5).expand(2, 5))
    with pytest.raises(ValueError, match=r"positions must have shape \(length,\) = \(5,\) or \(batch, length\) = "
                                         r"\(2, 5\), got shape \(3, 5\)"):
        check_scheme_positions(torch.zeros(3, 5, dtype=torch.long), 2, 5)
    with pytest.raises(TypeError, match="k_positions must be an integer tensor"):
        check_position_pair(torch.arange(3), torch.arange(3.0))
