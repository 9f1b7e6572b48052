"""Lesson 01's explorer: the length slider over 4 … 100 000."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers.explorers import counting_explorer  # noqa: E402


def test_lengths_snap_to_the_offered_ones():
    assert counting_explorer(length=128).controls["length"].value == 100
    assert counting_explorer(length=7).controls["length"].value == 5
    assert counting_explorer(length=10**7).controls["length"].value == 100_000
    assert list(counting_explorer().controls["length"].options) == list(H.COUNTING_LENGTHS)


def test_titles_show_the_snapshot():
    live = counting_explorer(length=1000)
    live.set(length=20)
    snap = H.counting_snapshot(20, mode="feature")
    assert f"{snap.ratio:.3g}×" in live.fig._suptitle.get_text()
    assert f"{snap.weight_on_last:.3g}" in live.fig.axes[1].get_title()


@pytest.mark.parametrize(("kwargs", "words"), [({"length": 0}, "length"), ({"shown_keys": 1}, "shown_keys")])
def test_bad_input_is_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        counting_explorer(**kwargs)
