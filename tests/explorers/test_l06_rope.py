"""Lesson 06's explorer: a query at m and a key at n."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import rope_explorer  # noqa: E402


def test_score_moves_with_the_offset_only():
    live = rope_explorer(m=3, n=1, pair=2)
    score_title = live.fig.axes[1].title
    first = score_title.get_text()
    live.set(m=40, n=38)
    assert score_title.get_text() == first
    live.set(m=40, n=39)
    assert score_title.get_text() != first
    q, k = torch.randn(2, 32, generator=torch.Generator().manual_seed(0), dtype=torch.float64)  # the default pair
    assert f"{H.rope_pair_view(q, k, 40, 39, pair=2).score:.4f}" in score_title.get_text()
    assert live.controls["pair"].max == 15
    plt.close(live.fig)


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"m": 70}, ValueError, "m must be an integer from 0 to 64"),
    ({"pair": 16}, ValueError, "pair must be an integer from 0 to 15"),
    ({"q": torch.zeros(2, 4), "k": torch.zeros(2, 4)}, ValueError, "q and k"),
    ({"q": torch.zeros(5), "k": torch.zeros(5)}, ValueError, "even"),
])
def test_bad_input_is_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        rope_explorer(**kwargs)
