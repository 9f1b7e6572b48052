"""The repository's pytest configuration as nbval sees it: collecting a lesson gives cells that
wait a minute, not nbval's 5 s, for a kernel's output after each reply."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


class _Collected:
    def __init__(self):
        self.items = []

    def pytest_collection_finish(self, session):
        self.items = list(session.items)


def test_nbval_cells_wait_a_minute_for_output():
    collected = _Collected()
    lesson = ROOT / "notebooks" / "00_order_blindness.ipynb"
    code = pytest.main(["--nbval", "--collect-only", "-q", "-p", "no:cacheprovider", str(lesson)],
                       plugins=[collected])
    assert code == 0
    cells = [item for item in collected.items if type(item).__name__ == "IPyNbCell"]
    assert len(cells) > 5
    assert {cell.output_timeout for cell in cells} == {60}
