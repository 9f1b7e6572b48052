"""Lesson 02's explorer: two length sliders."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from helpers.explorers import normalised_explorer  # noqa: E402


def test_sliders_span_two_to_max_length_and_the_title_counts_shared_codes():
    live = normalised_explorer(length_a=5, length_b=9, max_length=30)
    assert [(c.min, c.max) for c in live.controls.values()] == [(2, 30), (2, 30)]
    # 5 and 9 words: codes i/4 and j/8 agree at i = 0, 1, 2, 3, 4 (j = 2i)
    assert live.fig.axes[0].get_title().endswith("codes in common: 5")
    live.set(length_a=4, length_b=6)  # i/3 = j/5 only at the ends
    assert live.fig.axes[0].get_title().endswith("codes in common: 2")


@pytest.mark.parametrize(("kwargs", "words"), [({"length_a": 50}, "length_a must be an integer from 2 to 40"),
                                               ({"length_b": 1}, "length_b"), ({"max_length": 1}, "max_length")])
def test_bad_input_is_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        normalised_explorer(**kwargs)
