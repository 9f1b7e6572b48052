"""10.half_layout_rows: independent correct answers pass; each catalogued mistake, written out here, is
named; and a correct answer does what the exercise claims (RoPE scores unchanged across the layouts)."""

import numpy as np
import pytest
import torch

from helpers.rotary import rope

from .kit import assert_diagnosed, assert_fails_undiagnosed, assert_passes, solved_function

ID = "10.half_layout_rows"


def hugging_face_permute(weight, n_heads):
    # transformers' convert_llama_weights_to_hf.permute, with dim1 = weight rows and dim2 = columns
    dim1, dim2 = weight.shape
    return weight.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


def _permutation_matrix(rows, n_heads):
    head_dim = rows // n_heads
    p = np.zeros((rows, rows))
    for h in range(n_heads):
        for j in range(head_dim // 2):
            p[h * head_dim + j, h * head_dim + 2 * j] = 1.0
            p[h * head_dim + head_dim // 2 + j, h * head_dim + 2 * j + 1] = 1.0
    return p


def permutation_matrix(weight, n_heads):
    # a one-hot matrix product moves each number exactly: 1·w + 0·(the others) = w
    return torch.from_numpy(_permutation_matrix(weight.shape[0], n_heads)).to(weight.dtype) @ weight


def permutation_matrix_numpy(weight, n_heads):
    return torch.from_numpy(_permutation_matrix(weight.shape[0], n_heads) @ weight.detach().numpy()).to(weight.dtype)


@pytest.mark.parametrize("fn", [hugging_face_permute, permutation_matrix, solved_function(ID)],
                         ids=["hugging_face", "permutation_matrix", "solution"])
def test_correct_answers_pass(fn):
    assert_passes(ID, fn)


def test_the_right_rows_through_numpy_fail_naming_it():
    result = assert_fails_undiagnosed(ID, permutation_matrix_numpy)
    assert "your function's result does not carry gradients: called with `weight` requiring gradients" in \
        result and "Somewhere your function leaves PyTorch" in result


def test_a_cast_is_named_as_the_dtype():
    """The float32 rows of a float64 weight print as the same six digits: the message names the dtype."""
    result = assert_fails_undiagnosed(ID, lambda w, n: hugging_face_permute(w, n).float())
    assert "dtype: the task asks for float64 (weight's own dtype" in result, result


def test_the_reordered_weights_give_the_same_scores_in_the_half_layout():
    g = torch.Generator().manual_seed(0)
    n_heads, head_dim, d_in, length = 3, 8, 12, 5
    wq, wk = torch.randn(n_heads * head_dim, d_in, generator=g), torch.randn(n_heads * head_dim, d_in, generator=g)
    x = torch.randn(length, d_in, generator=g)

    def scores(w_q, w_k, layout):
        q = rope((x @ w_q.T).view(length, n_heads, head_dim).transpose(0, 1), torch.arange(length), layout=layout)
        k = rope((x @ w_k.T).view(length, n_heads, head_dim).transpose(0, 1), torch.arange(length), layout=layout)
        return q @ k.transpose(-1, -2)

    fn = solved_function(ID)
    assert torch.allclose(scores(wq, wk, "interleaved"), scores(fn(wq, n_heads), fn(wk, n_heads), "half"), atol=1e-4)
    assert not torch.allclose(scores(wq, wk, "interleaved"), scores(wq, wk, "half"), atol=1e-2)


def _per_head(weight, n_heads, order):
    head_dim = weight.shape[0] // n_heads
    rows = [h * head_dim + r for h in range(n_heads) for r in order(head_dim)]
    return weight[rows]


def _even_then_odd(n):
    return list(range(0, n, 2)) + list(range(1, n, 2))


def _inverse(n):
    return [j // 2 if j % 2 == 0 else n // 2 + j // 2 for j in range(n)]


def _columns(weight, n_heads):
    per_head = weight.shape[1] // n_heads
    return weight[:, [h * per_head + c for h in range(n_heads) for c in _even_then_odd(per_head)]]


MISTAKES = {
    "permutation over the whole projection instead of head by head": lambda w, n: w[_even_then_odd(w.shape[0])],
    "the inverse permutation (half → interleaved)": lambda w, n: _per_head(w, n, _inverse),
    "columns reordered instead of rows": _columns,
    "the two halves of each head swapped": lambda w, n: _per_head(
        w, n, lambda d: list(range(1, d, 2)) + list(range(0, d, 2))),
}


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_catalogued_mistake_is_named(name):
    assert_diagnosed(ID, MISTAKES[name], name)


def test_the_weight_unchanged_fails_at_the_second_row():
    message = assert_diagnosed(ID, lambda w, n: w.clone(), "rows left in the interleaved order")
    assert 'on case "weight (32, 16) float32, n_heads=4 (head_dim 8)": at row 1 = head 0 of 4, its row 1 (which ' \
           "should hold that head's old row 2), column 0: expected " in message


def test_row_numbers_used_on_the_columns_are_explained_as_rows_against_columns():
    def by_columns(weight, n_heads):
        return weight[:, _per_head(torch.arange(weight.shape[0])[:, None], n_heads, _even_then_odd)[:, 0]]

    message = assert_fails_undiagnosed(ID, by_columns)
    assert "raised IndexError" in message and "What it means: an index ran past the 16 input columns of weight " \
        "(its dimension 1). The numbers you permute are row numbers, 0 … 31" in message and \
        "reorder dimension 0, weight[order]" in message, message
    selected = assert_fails_undiagnosed(ID, lambda w, n: w.index_select(1, _per_head(
        torch.arange(w.shape[0])[:, None], n, _even_then_odd)[:, 0]))
    assert "What it means: an index ran past the 16 input columns" in selected


def test_the_scaffold_solved_with_the_input_columns_is_explained():
    def in_the_scaffold(weight, n_heads):  # the notebook's stub, half_layout indexing the columns
        head_dim = weight.shape[0] // n_heads
        heads = weight.reshape(n_heads, head_dim, -1)
        order = torch.cat((torch.arange(0, head_dim, 2), torch.arange(1, head_dim, 2)))
        return heads[:, :, order].reshape(weight.shape)

    message = assert_fails_undiagnosed(ID, in_the_scaffold)
    assert "What it means: half_layout's result no longer has the shape of heads" in message, message
