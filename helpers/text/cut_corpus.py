"""How ``data/python-docs-3.11.txt.gz`` was cut (run once; kept so the cut can be repeated and checked).

Source: Debian's ``python3.11-doc`` package (3.11.2-6+deb12u9, bookworm-security), the HTML of Python's
documentation. Get it and cut it with::

    apt-get download python3.11-doc && dpkg-deb -x python3.11-doc_*.deb root
    python -m helpers.text.cut_corpus root/usr/share/doc/python3.11/html out.txt.gz

What is kept: the text of the main body of every page of the sections in ``SECTIONS``, in that order,
pages sorted by file name within a section. What is dropped: code (``pre`` blocks and every highlighted
example), tables, API signatures (``dt``), version notes, "see also" boxes, navigation, headers' link
marks, and lines of fewer than four words that do not start with a capital letter (the remains of code).
Whitespace inside a paragraph is collapsed to single spaces; paragraphs are separated by one newline;
the text is NFC-normalised UTF-8.
"""

from __future__ import annotations

import gzip
import html.parser
import pathlib
import re
import sys
import unicodedata

SECTIONS = ("tutorial", "howto", "faq", "reference", "using", "whatsnew", "glossary.html", "extending",
            "installing", "library")
_SKIP_TAGS = {"pre", "script", "style", "table", "dt"}
_SKIP_CLASSES = {"highlight", "headerlink", "sig", "toctree-wrapper", "versionmodified", "footnote-reference",
                 "contents", "seealso", "rubric", "productionlist"}
_BLOCK = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dd", "br", "tr", "blockquote", "section"}
_VOID = {"br", "img", "meta", "link", "hr", "input", "col", "area", "base", "wbr"}


class _Cut(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.skip, self.inside, self.parts, self.line = [], 0, 0, [], []

    def flush(self):
        text = re.sub(r"\s+", " ", "".join(self.line)).strip()
        if text:
            self.parts.append(text)
        self.line = []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            if tag == "br":
                self.flush()
            return
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        main = tag == "div" and a.get("role") == "main"
        skip = tag in _SKIP_TAGS or bool(classes & _SKIP_CLASSES) or any(c.startswith("highlight-") for c in classes)
        if tag in _BLOCK and not self.skip:
            self.flush()
        self.stack.append((skip, main))
        self.skip += skip
        self.inside += main

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if self.stack:
            skip, main = self.stack.pop()
            self.skip -= skip
            self.inside -= main
        if tag in _BLOCK and not self.skip:
            self.flush()

    def handle_data(self, data):
        if not self.skip and self.inside:
            self.line.append(data)


def cut(root: pathlib.Path) -> str:
    pages = []
    for section in SECTIONS:
        pages += sorted((root / section).glob("*.html")) if (root / section).is_dir() else [root / section]
    out = []
    for page in pages:
        parser = _Cut()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        parser.flush()
        out += [p for p in parser.parts if len(p.split()) >= 4 or (p[:1].isupper() and not p.endswith(":"))]
    return unicodedata.normalize("NFC", "\n".join(out) + "\n")


if __name__ == "__main__":
    text = cut(pathlib.Path(sys.argv[1])).encode("utf-8")
    with open(sys.argv[2], "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz:
        gz.write(text)
    print(f"{len(text):,} bytes")
