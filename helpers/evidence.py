"""How a lesson shows its evidence: checked claims as a list of sentences with ✓, measurements as a
table, a helper's source as highlighted code folded under one line, and a result written with
formulas, typeset as the prose around it is.

Each ``show_*`` function displays an object that carries two views: HTML, which JupyterLab, Colab,
nbviewer and the course's web site render, and plain text (its ``repr``), which a terminal prints and
the regression run compares. Outside IPython, ``show_*`` prints the plain text.
"""

from __future__ import annotations

import html
import inspect
import numbers
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence

TICK = "✓"
TEXT_WIDTH = 90


def _display(shown) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        print(repr(shown))
        return
    if get_ipython() is None:
        print(repr(shown))
    else:
        display(shown)


class Claims:
    """Claims that hold, each a sentence: ``✓ claim`` per line, under an optional heading."""

    def __init__(self, claims: Sequence[str], heading: str | None = None):
        self.claims = list(claims)
        self.heading = heading

    def __repr__(self) -> str:
        lines = [textwrap.fill(self.heading, TEXT_WIDTH)] if self.heading else []
        lines += [textwrap.fill(f"{TICK} {c}", TEXT_WIDTH, subsequent_indent="  ", break_on_hyphens=False)
                  for c in self.claims]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{TICK} {html.escape(c)}</li>" for c in self.claims)
        head = f"<p>{html.escape(self.heading)}</p>" if self.heading else ""
        return f'<div class="pe-claims">{head}<ul style="list-style: none; padding-left: 0.5em">{items}</ul></div>'


def show_claims(claims: Mapping[str, bool], heading: str | None = None) -> None:
    """Check that every claim holds, then show them as a ✓ list.

    ``claims`` maps each claim, written as a sentence, to whether it holds (a bool). Raises
    AssertionError naming every claim that does not hold, so a lesson stops where its evidence fails.
    """
    if not isinstance(claims, Mapping) or not claims:
        raise TypeError("claims must be a non-empty mapping of sentence -> bool")
    not_bool = [c for c, held in claims.items() if not isinstance(held, bool)]
    if not_bool:
        raise TypeError(f"claims must map each sentence to a bool (True or False); not a bool: {not_bool[:3]}")
    failed = [c for c, held in claims.items() if not held]
    if failed:
        raise AssertionError("these claims do not hold:\n" + "\n".join(f"  ✗ {c}" for c in failed))
    _display(Claims(list(claims), heading))


NUMBER_LIKE = re.compile(r"^[<>≈~±+\-−]?\s*\d")  # "0.0034", "2.4e-07", "<1e-6", "−3": read as numbers
BLANK = {"", "—", "–", "-"}


def _cell_text(value, digits: int | str) -> str:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or isinstance(value, numbers.Integral):
        return str(value)
    return format(value, digits) if isinstance(digits, str) else f"{value:.{digits}f}"


def _is_number(value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, numbers.Real) or (isinstance(value, str) and bool(NUMBER_LIKE.match(value)))


class Table:
    """A table of rows under column headings, with an optional caption; columns of numbers (or of text
    that starts as a number does: "2.4e-07", "<1e-6") right-aligned."""

    def __init__(self, rows: Sequence[Sequence], columns: Sequence[str], caption: str | None = None,
                 digits: int | str | Sequence[int | str] = 2):
        self.columns = [str(c) for c in columns]
        self.rows = [list(r) for r in rows]
        self.caption = caption
        per_column = [digits] * len(self.columns) if isinstance(digits, int | str) else list(digits)
        self.cells = [[_cell_text(v, d) for v, d in zip(r, per_column, strict=True)] for r in self.rows]
        self.numeric = [any(_is_number(r[j]) for r in self.rows)
                        and all(_is_number(r[j]) or (isinstance(r[j], str) and r[j].strip() in BLANK)
                                for r in self.rows)
                        for j in range(len(self.columns))]

    def __repr__(self) -> str:
        widths = [max([len(h)] + [len(r[j]) for r in self.cells]) for j, h in enumerate(self.columns)]

        def line(cells):
            return "  ".join(c.rjust(w) if num else c.ljust(w)
                             for c, w, num in zip(cells, widths, self.numeric, strict=True)).rstrip()

        out = [self.caption] if self.caption else []
        out += [line(self.columns), "  ".join("-" * w for w in widths)] + [line(r) for r in self.cells]
        return "\n".join(out)

    def _repr_html_(self) -> str:
        def cell(tag, text, num):
            style = ' style="text-align: right"' if num else ' style="text-align: left"'
            return f"<{tag}{style}>{html.escape(text)}</{tag}>"

        caption = f"<caption>{html.escape(self.caption)}</caption>" if self.caption else ""
        head = "".join(cell("th", h, n) for h, n in zip(self.columns, self.numeric, strict=True))
        body = "".join("<tr>" + "".join(cell("td", c, n) for c, n in zip(r, self.numeric, strict=True)) + "</tr>"
                       for r in self.cells)
        return (f'<table class="pe-table">{caption}<thead><tr>{head}</tr></thead>'
                f"<tbody>{body}</tbody></table>")


def show_table(rows: Sequence[Sequence], columns: Sequence[str], caption: str | None = None,
               digits: int | str | Sequence[int | str] = 2) -> None:
    """Show ``rows`` (each a sequence, one value per column) under ``columns``. Floats are shown with
    ``digits`` decimals, or formatted by it where it is a format spec (".2g", ".1%"); a sequence gives
    each column its own. Integers and text are shown as they are."""
    if isinstance(columns, str) or not columns:
        raise TypeError("columns must be a non-empty sequence of headings")
    short = [i for i, r in enumerate(rows) if len(r) != len(columns)]
    if short:
        raise ValueError(f"rows must have one value per column ({len(columns)}); rows {short[:5]} do not")
    per_column = [digits] * len(columns) if isinstance(digits, int | str) else list(digits)
    if len(per_column) != len(columns):
        raise ValueError(f"digits must be one value or one per column ({len(columns)}), got {len(per_column)}")
    for d in per_column:
        if isinstance(d, bool) or not isinstance(d, int | str) or (isinstance(d, int) and d < 0):
            raise ValueError(f"digits must be an integer >= 0 or a format spec such as '.2g', got {d!r}")
        if isinstance(d, str):
            try:
                format(1.5, d)
            except ValueError:
                raise ValueError(f"digits {d!r} is not a format spec for a float (such as '.2g')") from None
    _display(Table(rows, columns, caption, digits))


_SYMBOLS = {
    r"\omega": "ω", r"\varepsilon": "ε", r"\epsilon": "ε", r"\varphi": "φ", r"\phi": "φ", r"\pi": "π",
    r"\delta": "δ", r"\theta": "θ", r"\alpha": "α", r"\beta": "β", r"\lambda": "λ", r"\cdot": "·",
    r"\times": "×", r"\approx": "≈", r"\leq": "≤", r"\geq": "≥", r"\le": "≤", r"\ge": "≥", r"\neq": "≠",
    r"\ldots": "…", r"\dots": "…", r"\cdots": "…", r"\to": "→", r"\infty": "∞", r"\top": "ᵀ", r"\pm": "±",
    r"\sum": "Σ", r"\sin": "sin", r"\cos": "cos", r"\log": "log", r"\exp": "exp",
    r"\,": " ", r"\;": " ", r"\:": " ", r"\!": "", r"\quad": "  ", r"\left": "", r"\right": "",
}
_GROUP = r"\{([^{}]*)\}"


def plain_maths(text: str) -> str:
    r"""``text`` with its ``$…$`` formulas spelt out in Unicode: ``$\omega_i = 10000^{-2i/64}$`` reads
    ``ω_i = 10000^(-2i/64)``, ``$\bar b$`` reads ``b̄``. Covers the notation the lessons' results use."""
    out = text.replace("$", "")
    out = re.sub(r"\\frac" + _GROUP + _GROUP, r"(\1)/(\2)", out)
    out = re.sub(r"\\sqrt" + _GROUP, r"√(\1)", out)
    out = re.sub(r"\\bar" + _GROUP + r"|\\bar\s+(\w)", lambda m: (m.group(1) or m.group(2)) + "\u0304", out)
    out = re.sub(r"\\(?:mathrm|text|operatorname|mathbf|mathit)" + _GROUP, r"\1", out)
    for command in sorted(_SYMBOLS, key=len, reverse=True):
        after = r"(?![A-Za-z])(?:\s(?=[\w(]))?" if command[1:].isalpha() else ""  # not \pitchfork's \pi
        out = re.sub(re.escape(command) + after, _SYMBOLS[command], out)
    out = re.sub(r"\^\{([^{}]*)\}", lambda m: "^" + (m.group(1) if len(m.group(1)) == 1 else f"({m.group(1)})"), out)
    out = re.sub(r"_\{([^{}]*)\}", r"_\1", out)
    return out.replace("{", "").replace("}", "").replace("\\", "")


class Maths:
    """Text with formulas between ``$…$``: Markdown, which JupyterLab, Colab and the course's web
    site typeset with MathJax, as they do the prose; as plain text, the formulas spelt out in Unicode."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return "\n".join(textwrap.fill(line, TEXT_WIDTH, break_on_hyphens=False)
                         for line in plain_maths(self.text).splitlines())

    def _repr_markdown_(self) -> str:
        return "  \n".join(self.text.splitlines())  # a line break where the text has one


def show_maths(text: str) -> None:
    """Show a result written with formulas, typeset as the lesson's prose is.

    ``text`` is one or more lines of Markdown with LaTeX between ``$`` signs (the numbers already
    formatted into it), such as ``f"${ratio:.3f} = e^{{{gap:.1f}}}$"``. It is shown as Markdown, so
    the formulas are typeset; where only plain text is shown, they are spelt out in Unicode.
    """
    if not isinstance(text, str) or not text.strip():
        raise TypeError(f"text must be a non-empty string of Markdown, got {text!r}")
    if len(re.findall(r"(?<!\\)\$", text)) % 2:
        raise ValueError(f"text must open and close each formula with $: an odd number of $ in {text!r}")
    _display(Maths(text))


class Source:
    """A helper's source lines, highlighted and folded under a one-line summary."""

    def __init__(self, code: str, title: str):
        self.code = code
        self.title = title

    def __repr__(self) -> str:
        return f"# {self.title}\n{self.code.rstrip()}"

    def _repr_html_(self) -> str:
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
            body = highlight(self.code, PythonLexer(), HtmlFormatter(noclasses=True, nobackground=True))
        except ImportError:
            body = f"<pre>{html.escape(self.code)}</pre>"
        n = self.code.rstrip().count("\n") + 1
        return (f'<details class="pe-source"><summary>{html.escape(self.title)} '
                f"({n} line{'s' if n != 1 else ''}; open to read)</summary>{body}</details>")


def _qualified(obj) -> str:
    module = getattr(obj, "__module__", "") or ""
    return f"{module}.{getattr(obj, '__qualname__', getattr(obj, '__name__', repr(obj)))}".lstrip(".")


def source_lines(obj: Callable | type, start: str | None = None, stop: str | None = None) -> str:
    """The source of ``obj`` (a function, method or class), dedented; from the first line holding
    ``start`` and up to (not including) the first later line holding ``stop``, where given."""
    if not (callable(obj) or inspect.isclass(obj)):
        raise TypeError(f"obj must be a function, method or class, got {type(obj).__name__}")
    lines = inspect.getsource(obj).splitlines()
    first = 0
    if start is not None:
        found = [i for i, line in enumerate(lines) if start in line]
        if not found:
            raise ValueError(f"start {start!r} is on no line of {_qualified(obj)}")
        first = found[0]
    last = len(lines)
    if stop is not None:
        found = [i for i, line in enumerate(lines) if stop in line and i > first]
        if not found:
            raise ValueError(f"stop {stop!r} is on no line of {_qualified(obj)} after start")
        last = found[0]
    return textwrap.dedent("\n".join(lines[first:last])) + "\n"


def show_source(*objects: Callable | type, start: str | None = None, stop: str | None = None,
                title: str | None = None) -> None:
    """Show the source of each of ``objects`` (with ``start``/``stop``, only the lines between, as in
    ``source_lines``), highlighted and folded under a line naming them."""
    if not objects:
        raise TypeError("show_source needs at least one function, method or class")
    if len(objects) > 1 and (start or stop):
        raise ValueError("start and stop select lines of one object; pass one object with them")
    code = "\n\n".join(source_lines(o, start, stop).rstrip() for o in objects) + "\n"
    names = ", ".join(_qualified(o) for o in objects)
    default = f"{'Lines of' if start or stop else 'Source of'} {names}"
    _display(Source(code, title or default))


def show_code(code: str, title: str) -> None:
    """Show ``code`` (Python source text, such as a few chosen lines of a helper) highlighted and
    folded under ``title``."""
    if not isinstance(code, str) or not code.strip():
        raise TypeError("code must be non-empty Python source text")
    if not isinstance(title, str) or not title:
        raise TypeError("title must be a non-empty string naming what the code is")
    _display(Source(code if code.endswith("\n") else code + "\n", title))
