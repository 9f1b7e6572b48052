"""The lessons' evidence views: claims with ✓, tables, folded source (helpers/evidence.py)."""

import re
from html.parser import HTMLParser

import pytest

import helpers as H
from helpers.evidence import Claims, Maths, Source, Table, plain_maths, show_maths, source_lines


class Cells(HTMLParser):
    """Collects each table row's cells as (tag, text, style)."""

    def __init__(self):
        super().__init__()
        self.rows, self.tags, self._cell = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = [tag, "", dict(attrs).get("style", "")]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(tuple(self._cell))
            self._cell = None


def test_claims_that_hold_are_shown_each_with_a_tick(capsys):
    H.show_claims({"RoPE the lowest within L": True, "ALiBi flat past L": True}, "both seeds:")
    out = capsys.readouterr().out.splitlines()
    assert out == ["both seeds:", "✓ RoPE the lowest within L", "✓ ALiBi flat past L"]
    page = Claims(["a < b", "c"], "h")._repr_html_()
    assert page.count("<li>") == 2 and "a &lt; b" in page and page.count("✓") == 2


def test_a_claim_that_fails_stops_the_lesson_and_is_named():
    with pytest.raises(AssertionError) as failed:
        H.show_claims({"holds": True, "first false": False, "second false": False})
    message = str(failed.value)
    assert "first false" in message and "second false" in message and "holds" not in message.replace(
        "do not hold", "")


@pytest.mark.parametrize("claims", [{}, ["a"], {"a": 1}, {"a": None}])
def test_claims_must_be_sentences_mapped_to_bools(claims):
    with pytest.raises(TypeError, match="claims must"):
        H.show_claims(claims)


def test_table_plain_text_is_aligned_and_html_has_every_cell(capsys):
    rows = [["rope", 1.234, 3], ["alibi", 10.5, 12]]
    H.show_table(rows, ["scheme", "loss", "n"], caption="loss past L")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "loss past L"
    assert [re.split(r"\s+", line.strip()) for line in lines[3:]] == [["rope", "1.23", "3"], ["alibi", "10.50", "12"]]
    assert len({len(line) for line in lines[1:]}) == 1  # every line as wide: columns line up
    parsed = Cells()
    parsed.feed(Table(rows, ["scheme", "loss", "n"], digits=3)._repr_html_())
    assert [[text for _, text, _ in r] for r in parsed.rows] == [["scheme", "loss", "n"], ["rope", "1.234", "3"],
                                                                ["alibi", "10.500", "12"]]
    assert [style for _, _, style in parsed.rows[1]] == ["text-align: left", "text-align: right", "text-align: right"]
    assert parsed.rows[0][0][0] == "th" and "thead" in parsed.tags and "tbody" in parsed.tags


def test_table_names_what_is_wrong_with_its_input():
    with pytest.raises(ValueError, match=r"one value per column \(2\); rows \[1\]"):
        H.show_table([[1, 2], [1]], ["a", "b"])
    with pytest.raises(TypeError, match="columns must"):
        H.show_table([[1]], "a")
    with pytest.raises(ValueError, match="digits must"):
        H.show_table([[1]], ["a"], digits=-1)


def _example(x):
    y = x + 1
    z = y * 2
    return z


def test_source_lines_between_markers_and_folded_html(capsys):
    assert source_lines(_example, start="z = ", stop="return") == "z = y * 2\n"
    assert source_lines(_example).startswith("def _example(x):\n    y = x + 1")
    with pytest.raises(ValueError, match="start 'missing' is on no line"):
        source_lines(_example, start="missing")
    with pytest.raises(ValueError, match="stop 'y = ' is on no line .* after start"):
        source_lines(_example, start="z = ", stop="y = ")
    with pytest.raises(TypeError, match="obj must be"):
        source_lines(3)
    H.show_source(_example, start="y = ")
    assert capsys.readouterr().out == "# Lines of tests.test_evidence._example\ny = x + 1\nz = y * 2\nreturn z\n"
    page = Source("a = 1\nb = 2\n", "Source of f")._repr_html_()
    assert page.startswith('<details class="pe-source"><summary>Source of f (2 lines')
    assert page.endswith("</details>") and "<pre" in page


def test_show_code_folds_chosen_lines_under_a_title(capsys):
    H.show_code("x = 1", "two lines of f")
    assert capsys.readouterr().out == "# two lines of f\nx = 1\n"
    with pytest.raises(TypeError, match="code must"):
        H.show_code("  ", "t")
    with pytest.raises(TypeError, match="title must"):
        H.show_code("x = 1", "")


def test_table_formats_by_column_and_right_aligns_text_that_reads_as_a_number(capsys):
    rows = [["rope", 2.4e-07, 0.5, "<1e-6"], ["alibi", 0.0034, 12.25, "—"]]
    H.show_table(rows, ["scheme", "error", "loss", "bound"], digits=[0, ".2g", 1, 0])
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["rope", "2.4e-07", "0.5", "<1e-6"]
    assert lines[3].split() == ["alibi", "0.0034", "12.2", "—"]
    assert lines[2].endswith("<1e-6") and lines[3].endswith("    —")  # right-aligned under its heading
    assert Table(rows, ["s", "e", "l", "b"], digits=[0, ".2g", 1, 0]).numeric == [False, True, True, True]
    with pytest.raises(ValueError, match=r"one per column \(4\), got 2"):
        H.show_table(rows, ["scheme", "error", "loss", "bound"], digits=[1, 2])
    with pytest.raises(ValueError, match="'q' is not a format spec"):
        H.show_table(rows, ["scheme", "error", "loss", "bound"], digits="q")


def test_maths_is_markdown_with_its_formulas_and_plain_text_spells_them_out(capsys):
    text = r"$\omega_i = 10000^{-2i/64}$ for $i = 0, \ldots, 31$" + "\n" + r"$2\pi/\omega_2 = 62.83$ tokens"
    shown = Maths(text)
    assert shown._repr_markdown_() == r"$\omega_i = 10000^{-2i/64}$ for $i = 0, \ldots, 31$" + "  \n" + \
        r"$2\pi/\omega_2 = 62.83$ tokens"
    show_maths(text)
    assert capsys.readouterr().out.splitlines() == ["ω_i = 10000^(-2i/64) for i = 0, …, 31", "2π/ω_2 = 62.83 tokens"]
    assert plain_maths(r"$\mathrm{Re}(a\,\bar b) = a\cdot b$") == "Re(a b̄) = a·b"
    assert plain_maths(r"$1.4\times 10^{-45} = e^{-103.3}$") == "1.4×10^(-45) = e^(-103.3)"
    assert all(len(line) <= 90 for line in repr(Maths("$x$ " + "word " * 40)).splitlines())


@pytest.mark.parametrize(("text", "error"), [("", TypeError), (3.0, TypeError), ("$x = 1", ValueError)])
def test_maths_names_what_is_wrong_with_its_text(text, error):
    with pytest.raises(error, match="text must"):
        show_maths(text)
