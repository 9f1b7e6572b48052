"""The course's web site: Sphinx + MyST-NB over the committed notebooks (``make site``).

The source directory is the repository itself (``sphinx-build -c site . _build/site``), so the
README is the home page and its links to ``notebooks/NN_*.ipynb`` resolve as they do on GitHub.
Notebooks are rendered with the outputs they were committed with: nothing is executed.

A page loads nothing from another server: MathJax is copied in from npm (``site/package.json``),
the Colab and Binder badges are drawn by the site's own images, ipywidgets' scripts (served from a
CDN) are left out, and an explorer's saved figure (``image/png``) is shown instead of its widget view.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from html import escape as html_escape
from pathlib import Path

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

SITE = Path(__file__).resolve().parent
ROOT = SITE.parent
_PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
REPOSITORY = _PROJECT["urls"]["Repository"].rstrip("/")
MATHJAX = SITE / "node_modules" / "mathjax" / "es5"
# what the pages use of MathJax: the TeX-to-HTML bundle, the fonts, the TeX extensions it loads on
# demand, and what its right-click menu loads (accessibility, speech)
MATHJAX_PARTS = ["tex-chtml.js", "input/tex", "output/chtml", "a11y", "ui", "sre", "LICENSE"]

project = "Positional encoding, argued in stages"
author = "the course's authors"
version = release = re.search(r'^__version__ = "([^"]+)"$', (ROOT / "helpers" / "__init__.py").read_text(),
                              re.MULTILINE).group(1)
language = "en"

extensions = ["myst_nb"]
root_doc = "README"
# only the README and the lessons; everything else in the repository is not a page
include_patterns = ["README.md", "notebooks/[0-9][0-9]_*.ipynb"]
exclude_patterns = [".*", "_build", "build", "site", "tests", "helpers", "tools", "benchmarks", "binder",
                    "*.egg-info", "test-artifacts"]
templates_path = ["_templates"]
html_static_path = ["_static"]

# MyST: $…$ and $$…$$ maths; headings up to ### get anchors, so links such as 06_rope.ipynb#conventions
# and the glossary's #glossary resolve
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
nb_execution_mode = "off"
nb_merge_streams = True  # a cell's printed lines in one block, not one box per write
# a result shown as Markdown (H.show_maths) is read as MyST, so its $…$ is maths, typeset as the prose's
nb_render_markdown_format = "myst"
nb_ipywidgets_js = {}  # no require.js or widget manager from a CDN: the saved figure stands in
# an explorer cell saves its figure as image/png beside the widget view: the page shows the figure.
# Lesson 04's explorer drawn by the browser saves text/html as well, its script mounted without a
# kernel: the page shows that, and runs it (text/html first; no other saved output has text/html
# beside a picture or a widget view, tests/browser/test_site.py checks)
nb_mime_priority_overrides = [("html", "image/png", 5), ("html", "text/html", 4)]

mathjax_path = "mathjax/tex-chtml.js"

html_theme = "sphinx_book_theme"
html_title = project
html_last_updated_fmt = None
html_theme_options = {
    "repository_url": REPOSITORY,
    "repository_branch": "main",
    "path_to_docs": "",
    "use_repository_button": True,
    # each lesson page's launch menu: Colab and Binder open the notebook on `main` (its setup cell installs
    # the release tag, whose helpers main's are checked to equal); the download menu gives the .ipynb
    "launch_buttons": {"colab_url": "https://colab.research.google.com", "binderhub_url": "https://mybinder.org",
                       "notebook_interface": "jupyterlab"},
    "use_download_button": True,
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "footer_content_items": ["course-footer.html"],
    "navbar_persistent": [],  # the search field sits in the sidebar already
}
html_sidebars = {"**": ["navbar-logo.html", "icon-links.html", "search-button-field.html",
                        "sbt-sidebar-nav.html", "course-links.html"]}
# default_mode: the theme's script logs an error when the page names no colour mode
html_context = {"glossary_page": "notebooks/11_the_map", "repository_url": REPOSITORY, "default_mode": "auto"}
html_css_files = ["course.css"]
html_favicon = "_static/favicon.svg"  # a pair turning on its circle, in the course's blue and vermillion

# The README has no toctree (GitHub would show it as text): the site adds one, the lessons in order.
LESSONS_TOCTREE = """

```{toctree}
:hidden:
:caption: Lessons
:glob:

notebooks/[0-9][0-9]_*
```
"""

# Badges are images on another server: the site draws its own.
BADGES = {
    "https://colab.research.google.com/assets/colab-badge.svg": "/site/_static/badge-colab.svg",
    "https://mybinder.org/badge_logo.svg": "/site/_static/badge-binder.svg",
}
logger = logging.getLogger(__name__)


def add_lessons_toctree(app, docname: str, source: list[str]) -> None:
    if docname == app.config.root_doc:
        source[0] += LESSONS_TOCTREE


class LocalImages(SphinxTransform):
    """A badge's remote image becomes the site's copy; any other remote image is an error."""

    default_priority = 400

    def apply(self, **kwargs) -> None:
        for image in self.document.findall(nodes.image):
            uri = image["uri"]
            if uri in BADGES:
                image["uri"] = BADGES[uri]
                image["candidates"] = {"*": BADGES[uri].lstrip("/")}
            elif re.match(r"^[a-z]+://", uri):
                logger.warning("remote image %s: a page must load nothing from another server", uri,
                               location=image)


class OnePictureOnce(SphinxTransform):
    """A page shows each picture a cell drew once: a still copy of an explorer kept beside the live one, to
    compare with while the sliders move, is the same picture on the site, where nothing moves. MyST-NB
    names an output's image file by a hash of its bytes, so equal pictures share a URI."""

    default_priority = 401

    def apply(self, **kwargs) -> None:
        seen = set()
        for output in self.document.findall(lambda n: isinstance(n, nodes.container)
                                            and n.get("nb_element") == "cell_code_output"):
            for image in list(output.findall(nodes.image)):
                if image["uri"] in seen:
                    image.parent.remove(image)
                seen.add(image["uri"])


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def progress_bars(cell: dict) -> list[str]:
    """The labels of a cell's progress bars: widget views saved with no text/html beside them (every
    explorer saves text/html and runs on the page; what is left is tqdm's bar, which the site cannot draw)."""
    labels = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if WIDGET_VIEW in data and "text/html" not in data:
            text = data.get("text/plain", "")
            labels.append(("".join(text) if isinstance(text, list) else str(text)).strip())
    return labels


EXERCISE_NOTE = ("This exercise is checked where Python runs: open this lesson in Colab or Binder from the "
                 "launch menu at the top of the page, or in JupyterLab, write your answer in this cell and run it.")


class WhereItRunsNote(SphinxTransform):
    """Under a cell whose progress bar the site cannot draw, the bar's label, said to be finished; under
    each exercise stub, in place of its saved output (which says "not attempted yet"), one line saying
    where it runs."""

    default_priority = 402

    def apply(self, **kwargs) -> None:
        path = Path(self.env.doc2path(self.env.docname))
        if path.suffix != ".ipynb":
            return
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in self.document.findall(lambda n: isinstance(n, nodes.container)
                                          and n.get("nb_element") == "cell_code" and n.hasattr("cell_index")):
            source = cells[cell["cell_index"]]
            bars = progress_bars(source)
            if bars:
                text = "; ".join(label for label in bars if label) or "progress"
                cell += nodes.paragraph(text=f"Progress bar ({text}): finished when this page was made.",
                                        classes=["where-it-runs"])
            elif "exercise" in source.get("metadata", {}).get("tags", []):
                # the stub's saved output speaks to a learner in a notebook ("not attempted yet", "replace
                # None", H.hint): on the site the task and where to run it are said instead
                for output in [c for c in cell.children if c.get("nb_element") == "cell_code_output"]:
                    cell.remove(output)
                cell += nodes.paragraph(text=EXERCISE_NOTE, classes=["where-it-runs"])


def visit_hidden_cell(self, node) -> None:
    """MyST-NB's folded cell (a hide-input or hide-cell tag), its summary named by the words it shows
    ("Show code cell source"): MyST-NB labels it "Toggle hidden content", which a screen reader would
    read instead, and which accessibility checkers report as a visible label missing from the name."""
    self.body.append(f'<details class="admonition hide {" ".join(node["classes"])}">\n<summary>\n')
    for state, prompt in (("collapsed", node["prompt_show"]), ("expanded", node["prompt_hide"])):
        self.body.append(f'<p class="{state} admonition-title">{html_escape(prompt)}</p>\n')
    self.body.append("</summary>\n")


def depart_hidden_cell(self, node) -> None:
    self.body.append("</details>\n")


def copy_mathjax(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    if not (MATHJAX / "tex-chtml.js").is_file():
        raise RuntimeError(f"MathJax is missing from {MATHJAX}: run `npm ci --prefix site` (make site does)")
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        source = MATHJAX / part if part != "LICENSE" else MATHJAX.parent / "LICENSE"
        if source.is_dir():
            shutil.copytree(source, target / part, dirs_exist_ok=True)
        else:
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / part)


def drop_widget_state(app, env) -> None:
    """No widget manager runs on the site, so a notebook's saved widget state (which can hold a
    figure per explorer) would only weigh the page down: it is left out."""
    for data in getattr(env, "nb_metadata", {}).values():
        data.get("js_files", {}).pop("ipywidgets_state", None)


def home_page(app, exception) -> None:
    """The README is the home page: served at the site's root as index.html too."""
    if exception is None and app.builder.format == "html":
        out = Path(app.outdir)
        shutil.copy2(out / f"{app.config.root_doc}.html", out / "index.html")


def setup(app):
    app.connect("source-read", add_lessons_toctree)
    app.add_transform(LocalImages)
    app.add_transform(OnePictureOnce)
    app.add_transform(WhereItRunsNote)
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_hidden_cell))
    app.connect("env-updated", drop_widget_state)
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", home_page)

# A lesson's "### Your turn" exercise heading may follow its title directly (lessons open with an
# exercise before their first section): a heading level skipped on purpose, not a broken page.
suppress_warnings = ["myst.header"]
