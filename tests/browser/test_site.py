"""The course's web site (``make site``) in a real browser.

The built site is served on 127.0.0.1 and Debian's Chromium, driven headless by Playwright (no
browser download), opens the home page and every lesson. Each page must load with no console error
and no failed request, and must reach no other server (any request that leaves 127.0.0.1 is refused
and reported); every image must have loaded; every link within the site must answer 200 and
every #anchor it names must exist on its page; the maths must be rendered by MathJax (as many
rendered formulas as the notebook's Markdown holds, no TeX error, no raw ``$…$`` left); each lesson
must show its "Your turn" headings and exercise stubs, the links to lesson 11's glossary and
references, and the licences in its footer; every figure a cell drew must carry its alt text (the cell's
``mystnb.image.alt``); each lesson must offer its launch links (Colab and Binder on ``main``, the
notebook's download); and axe-core (pinned in site/package.json, injected into each page) must find
no serious or critical accessibility violation.

The site is built by ``make site`` (a no-op when it is up to date), or taken from $SITE_DIR.
A screenshot of each page's first screen goes to $BROWSER_ARTIFACTS (default
test-artifacts/browser/). Under CI (CI=true) a missing Chromium or Playwright is a failure,
never a skip.
"""

from __future__ import annotations

import functools
import html.parser
import json
import os
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from .common import ARTIFACTS, CHROMIUM, NOTEBOOKS, ROOT, unavailable
from .explorer_cases import IN_LESSONS as BUNDLED_IN_LESSONS
from .test_browser_explorers import reached

LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"
# what fails a page; moderate and minor findings are printed
AXE_FAILS = {"serious", "critical"}
GLOSSARY = "notebooks/11_the_map.html"


# ---------------------------------------------------------------------------------------------
# What each page must show, read from the notebooks themselves (not from the site)

def markdown_maths(markdown: str) -> int:
    """How many $…$ and $$…$$ formulas a cell's Markdown holds (code spans and fences excluded)."""
    text = re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return len(re.findall(r"\$\$.+?\$\$|\$[^$\n]+?\$", text, flags=re.S))


@functools.cache
def lesson_expectations(stem: str) -> dict:
    nb = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text())
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    stubs = ["".join(c["source"]) for c in nb["cells"]
             if c["cell_type"] == "code" and "exercise" in c.get("metadata", {}).get("tags", [])]
    return {
        "title": markdown[0].splitlines()[0].lstrip("# ").strip(),
        # the prose's formulas, and those of results shown as Markdown (H.show_maths; not an exercise's,
        # whose output the site replaces)
        "maths": sum(markdown_maths(m) for m in markdown) + sum(
            markdown_maths("".join(o["data"]["text/markdown"])) for c in nb["cells"] if c["cell_type"] == "code"
            and "exercise" not in c.get("metadata", {}).get("tags", []) for o in c.get("outputs", [])
            if "text/markdown" in o.get("data", {}) and "text/html" not in o["data"]),
        "your_turn": sum(len(re.findall(r"^#+ .*Your turn", m, flags=re.M)) for m in markdown),
        # the first line of each exercise stub, as the learner sees it
        "stubs": [next(line.strip() for line in s.splitlines() if line.strip()) for s in stubs],
        "alts": sorted({c.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "")
                        for c in nb["cells"] if c["cell_type"] == "code"
                        and any("image/png" in o.get("data", {}) and "text/html" not in o["data"]
                                for o in c.get("outputs", []))}),
        # progress bars: a widget view with no HTML beside it (every explorer saves HTML and runs on the page)
        "progress_bars": sum(any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                                   and "text/html" not in o["data"] for o in c.get("outputs", []))
                               for c in nb["cells"] if c["cell_type"] == "code"),
    }


def test_maths_counter_counts_formulas_not_code():
    assert markdown_maths("Let $p$ be a position and $$\\omega_i = b^{-2i/d}$$ its angle.") == 2
    assert markdown_maths("Costs `$5` in code, and\n```\n$x$\n```\n none here.") == 0
    assert markdown_maths("$$\na + b\n$$ and $q^\\top k$") == 2


# ---------------------------------------------------------------------------------------------
# The site, a server and a browser

@pytest.fixture(scope="module")
def site() -> Path:
    if os.environ.get("SITE_DIR"):
        path = Path(os.environ["SITE_DIR"]).resolve()
        assert (path / "index.html").is_file(), f"$SITE_DIR={path} holds no built site (index.html)"
        return path
    if not Path(CHROMIUM).exists():  # no browser to open it: do not spend a build on it
        unavailable(f"{CHROMIUM} not found: apt-get install -y chromium")
    start = time.monotonic()
    done = subprocess.run(["make", "--no-print-directory", "site"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"make site failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    print(f"\nmake site: {time.monotonic() - start:.1f} s")
    return ROOT / "_build" / "site"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory: Path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def base(site):
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------------------------------------
# Checking a page

class Anchors(html.parser.HTMLParser):
    """Every id (and <a name>) a page defines."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key == "id" or (tag == "a" and key == "name"):
                self.ids.add(value)


@functools.cache
def fetch(url: str) -> tuple[int, frozenset[str]]:
    """A same-site URL's HTTP status and, for a page, the anchors it defines."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body, status, kind = r.read(), r.status, r.headers.get_content_type()
    except urllib.error.HTTPError as e:
        return e.code, frozenset()
    if kind != "text/html":
        return status, frozenset()
    parser = Anchors()
    parser.feed(body.decode("utf-8", "replace"))
    return status, frozenset(parser.ids)


PAGE_FACTS = """() => {
  const article = document.querySelector('.bd-article') || document.body;
  const prose = article.cloneNode(true);
  prose.querySelectorAll('pre, code, .cell_output, .output, mjx-container, script, style')
       .forEach(e => e.remove());
  const maths = [...document.querySelectorAll('.math')];
  return {
    images: [...document.images].map(i => ({src: i.currentSrc || i.src, alt: i.getAttribute('alt') || '',
                                             loaded: i.complete && i.naturalWidth > 0,
                                             // a figure a cell drew: twice the pixels of its width on the page
                                             output: !!i.closest('.cell_output') && i.src.endsWith('.png'),
                                             natural: i.naturalWidth,
                                             width: +(i.getAttribute('width') || i.naturalWidth)})),
    links: [...document.querySelectorAll('a[href], link[href]')].map(a => a.href),
    maths: maths.length,
    rendered: maths.filter(m => m.querySelector('mjx-container')).length,
    texErrors: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent),
    prose: prose.innerText,
    text: article.innerText,
    headings: [...article.querySelectorAll('h1, h2, h3, h4')].map(h => h.innerText),
    footer: (document.querySelector('.bd-footer-content') || {innerText: ''}).innerText,
    nav: [...document.querySelectorAll('.bd-sidebar-primary a[href]')].map(a => a.href),
    whereItRuns: [...article.querySelectorAll('.where-it-runs')].map(p => p.innerText),
  };
}"""


AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


# Sideways scrolling and shrunk figures, at the page's width. A box scrolls sideways when its content is
# wider than it and its overflow lets it scroll; what the box holds says what kind of content it is.
LAYOUT_FACTS = r"""() => {
  const article = document.querySelector('.bd-article') || document.body;
  const kind = (e) => {
    if (e.closest('mjx-container')) return 'maths';
    if (e.querySelector('img, canvas') || e.tagName === 'IMG' || e.tagName === 'CANVAS') return 'figure';
    if (e.tagName === 'TABLE' || e.querySelector('table')) return 'table';
    if (e.tagName === 'PRE' || e.closest('pre') || e.querySelector('pre')) return 'code or printed output';
    return 'prose';
  };
  const wide = [...article.querySelectorAll('*')].filter(e => {
    const style = getComputedStyle(e);
    return e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX);
  }).map(e => ({kind: kind(e), where: e.tagName.toLowerCase() + '.' + [...e.classList].join('.')}));
  const figures = [...article.querySelectorAll('.cell_output img')].filter(i => i.getAttribute('width'))
    .map(i => ({src: i.src, ratio: i.getBoundingClientRect().width / +i.getAttribute('width')}));
  const canvases = [...article.querySelectorAll('canvas')].filter(c => c.width && c.height)
    .map(c => { const r = c.getBoundingClientRect();
                return {drawn: c.width / c.height, shown: r.height ? r.width / r.height : 0}; });
  // an explorer's controls (label, slider, readout) past the right edge of the explorer
  const controls = [...article.querySelectorAll('.pe-explorer')].flatMap(root => {
    const edge = root.getBoundingClientRect().right;
    return [...root.querySelectorAll('.pe-controls label')]
      .filter(l => l.getBoundingClientRect().right > edge + 1)
      .map(l => `${root.dataset.explorer}: "${l.innerText.replace(/\s+/g, ' ')}" ends at `
                + `${Math.round(l.getBoundingClientRect().right)} px, the explorer at ${Math.round(edge)}`);
  });
  return {pageScrolls: document.scrollingElement.scrollWidth > window.innerWidth + 1, wide, figures, canvases,
          controls};
}"""
# figure text is at least 12 CSS px at a figure's own size (tests/test_saved_figures.py); on the page
# it may not shrink below that at desktop width, nor below 10 px at phone width
PHONE = {"width": 390, "height": 844}
MIN_FIGURE_SCALE = {"desktop": 1.0, "phone": 10 / 12}


def layout_problems(facts: dict, width: str) -> list[str]:
    problems = []
    if facts["pageScrolls"]:
        problems.append(f"{width}: the page scrolls sideways")
    if width == "desktop":
        for box in facts["wide"]:
            if box["kind"] in {"prose", "table", "figure"}:
                problems.append(f"{width}: a box of {box['kind']} scrolls sideways ({box['where']})")
    for figure in facts["figures"]:
        if figure["ratio"] < MIN_FIGURE_SCALE[width] - 1e-3:
            problems.append(f"{width}: figure shrunk to {figure['ratio']:.2f} of its size: {figure['src']}")
    problems += [f"{width}: a control sticks out of its explorer: {c}" for c in facts["controls"]]
    for canvas in facts["canvases"]:
        if canvas["shown"] and abs(canvas["shown"] / canvas["drawn"] - 1) > 0.02:
            problems.append(f"{width}: a canvas drawn {canvas['drawn']:.2f} wide per unit height is shown "
                            f"{canvas['shown']:.2f}: squeezed")
    return problems


def phone_layout(browser, base: str, path: str, shot: str | None = None) -> dict:
    """The page at a phone's width: its layout facts, and a photograph of its first screen."""
    problems: list[str] = []
    context, page = local_page(browser, base, problems, viewport=PHONE)
    try:
        page.goto(f"{base}/{path}", wait_until="load")
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise"
                      " ? MathJax.startup.promise.then(() => true) : false")
        page.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=90_000)
        facts = page.evaluate(LAYOUT_FACTS)
        if shot:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{shot}-phone.png"))
    finally:
        context.close()
    return facts


def launch_links(stem: str) -> dict[str, str]:
    """The links a lesson page offers to run or keep its notebook, as sphinx-book-theme builds them from
    site/conf.py's repository settings: Colab and Binder open the notebook on ``main``."""
    import tomllib

    url = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
    repo = url.removeprefix("https://github.com/").rstrip("/")
    return {"Colab": f"https://colab.research.google.com/github/{repo}/blob/main/notebooks/{stem}.ipynb",
            "Binder": f"https://mybinder.org/v2/gh/{repo}/main?urlpath=lab/tree/notebooks/{stem}.ipynb",
            "download": f"_sources/notebooks/{stem}.ipynb"}


def local_page(browser, base: str, problems: list[str], viewport: dict | None = None):
    """A new page (and its context) that may reach only the site at ``base``: any other request is aborted
    and recorded in ``problems``, as are console errors and uncaught page errors."""
    context = browser.new_context(viewport=viewport or {"width": 1400, "height": 1000})
    page = context.new_page()

    def route(r):
        if r.request.url.startswith(base + "/"):
            r.continue_()
        else:
            problems.append(f"tried to reach another server: {r.request.url}")
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return context, page


def visit(browser, base: str, path: str, shot: str | None = None) -> tuple[list[str], dict]:
    """Open one page of the site; return what went wrong while loading it and the page's facts."""
    problems: list[str] = []
    context, page = local_page(browser, base, problems)
    page.on("requestfailed", lambda r: r.url.startswith(base + "/")
            and problems.append(f"request failed: {r.url} ({r.failure})"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
    try:
        response = page.goto(f"{base}/{path}", wait_until="load")
        if response is None or response.status != 200:
            problems.append(f"{path} answered {response.status if response else 'nothing'}")
        # MathJax loads on pages with maths only; wait until it has typeset the page
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise"
                      " ? MathJax.startup.promise.then(() => true) : false")
        # every image in and the fonts ready (what the checks below read); "network idle" is not waited for:
        # on a busy machine it could take its whole timeout on a page that was already complete
        try:
            page.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=90_000)
        except Exception as error:  # playwright's TimeoutError: the images left out are reported below
            if "Timeout" not in type(error).__name__:
                raise
        page.evaluate("() => document.fonts.ready.then(() => true)")
        facts = page.evaluate(PAGE_FACTS)
        facts["layout"] = page.evaluate(LAYOUT_FACTS)
        if AXE.is_file():
            page.add_script_tag(path=str(AXE))
            facts["axe"] = page.evaluate(AXE_RUN)
        else:
            problems.append(f"no axe-core at {AXE.relative_to(ROOT)}: run `npm ci --prefix site` (make site does)")
            facts["axe"] = []
        if shot:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
    finally:
        context.close()

    problems += layout_problems(facts["layout"], "desktop")
    for violation in facts["axe"]:
        if violation["impact"] in AXE_FAILS:
            problems.append(f"accessibility ({violation['impact']}): {violation['id']}, {violation['help']}: "
                            f"{violation['nodes']}")
        else:
            print(f"{path}: accessibility ({violation['impact']}, not failing): {violation['id']}, "
                  f"{violation['help']} ({len(violation['nodes'])} elements)")
    for image in facts["images"]:
        if image["output"] and (not image["alt"].strip() or re.search(r"\.(png|svg|jpe?g)$", image["alt"])):
            problems.append(f"figure without alt text (alt={image['alt']!r}): {image['src']}")
        if not image["loaded"]:
            problems.append(f"image did not load: {image['src']}")
        elif image["output"] and image["natural"] < 1.9 * image["width"]:
            problems.append(f"figure not drawn for 2× screens ({image['natural']} pixels shown "
                            f"{image['width']} wide): {image['src']}")
    for href in facts["links"]:
        if not href.startswith(base + "/"):
            continue  # another site: not followed
        url, _, anchor = href.partition("#")
        status, ids = fetch(url)
        if status != 200:
            problems.append(f"link {href} answers {status}")
        elif anchor and urllib.parse.unquote(anchor) not in ids:
            problems.append(f"link {href}: no #{anchor} on that page")
    if facts["rendered"] != facts["maths"]:
        problems.append(f"{facts['maths'] - facts['rendered']} of {facts['maths']} formulas not rendered by MathJax")
    if facts["texErrors"]:
        problems.append(f"TeX errors: {facts['texErrors']}")
    raw = re.findall(r"\$[^$\n]+\$", facts["prose"])
    if raw:
        problems.append(f"raw TeX left in the text: {raw[:5]}")
    return problems, facts


def common_checks(facts: dict, base: str) -> list[str]:
    """What every page carries: the lessons in order, the glossary and references, the licences."""
    problems = []
    glossary = {f"{base}/{GLOSSARY}#glossary", f"{base}/{GLOSSARY}#references"}
    if not glossary <= set(facts["links"]):
        problems.append(f"no link to lesson 11's glossary and references ({sorted(glossary - set(facts['links']))})")
    lessons = [f"{base}/notebooks/{stem}.html" for stem in LESSONS]
    in_nav = [href.partition("#")[0] for href in facts["nav"] if href.partition("#")[0] in lessons]
    if list(dict.fromkeys(in_nav)) != lessons:
        problems.append(f"the sidebar does not list the lessons in order: {in_nav}")
    for words in ("CC BY 4.0", "MIT licence"):
        if words not in facts["footer"]:
            problems.append(f"the footer does not state the licence {words!r}: {facts['footer'][:300]!r}")
    return problems


# ---------------------------------------------------------------------------------------------
# The tests

@pytest.mark.parametrize("path", ["index.html", "README.html"])
def test_home_page(browser, base, path):
    problems, facts = visit(browser, base, path, shot=f"site-{Path(path).stem}")
    problems += common_checks(facts, base)
    problems += layout_problems(phone_layout(browser, base, path, shot=f"site-{Path(path).stem}"), "phone")
    readme_links = re.findall(r"\]\((notebooks/[0-9][0-9]_\w+)\.ipynb\)", (ROOT / "README.md").read_text())
    assert readme_links, "the README links no lesson"
    for target in readme_links:  # the README's links to the notebooks lead to their pages
        if f"{base}/{target}.html" not in facts["links"]:
            problems.append(f"the README's link to {target}.ipynb does not lead to {target}.html")
    assert not problems, f"{path}:\n" + "\n".join(problems)


@pytest.mark.parametrize("stem", LESSONS)
def test_lesson_page(browser, base, stem):
    start = time.monotonic()
    problems, facts = visit(browser, base, f"notebooks/{stem}.html", shot=f"site-{stem}")
    problems += common_checks(facts, base)
    problems += layout_problems(phone_layout(browser, base, f"notebooks/{stem}.html", shot=f"site-{stem}"), "phone")
    expect = lesson_expectations(stem)
    if expect["title"] not in facts["headings"]:
        problems.append(f"the page's headings lack the lesson title {expect['title']!r}")
    if facts["maths"] != expect["maths"]:
        problems.append(f"{facts['maths']} formulas on the page, {expect['maths']} in the notebook's Markdown")
    your_turn = sum("Your turn" in h for h in facts["headings"])
    if your_turn != expect["your_turn"]:
        problems.append(f"{your_turn} 'Your turn' headings on the page, {expect['your_turn']} in the notebook")
    for stub in expect["stubs"]:
        if stub not in facts["text"]:
            problems.append(f"exercise stub not shown: {stub!r}")
    shown = sorted({i["alt"] for i in facts["images"] if i["output"]})
    if not set(shown) <= set(expect["alts"]):  # a picture shown twice appears once: an alt may be left out
        problems.append(f"figure alt texts not the notebook's: {sorted(set(shown) - set(expect['alts']))}")
    notes = [n for n in facts["whereItRuns"] if n.startswith("Progress bar (")]
    if len(notes) != expect["progress_bars"]:
        problems.append(f"{len(notes)} notes on finished progress bars, {expect['progress_bars']} cells with one")
    if any("sliders move where Python runs" in n or "still picture" in n for n in facts["whereItRuns"]):
        problems.append("a note calls an explorer a still picture: every explorer runs on the page")
    if "not attempted yet" in facts["text"]:
        problems.append("an exercise stub's notebook output (\"not attempted yet\") is shown; the site says where "
                        "to run it instead")
    notes = [n for n in facts["whereItRuns"] if "This exercise is checked where Python runs" in n]
    if len(notes) != len(expect["stubs"]):
        problems.append(f"{len(notes)} notes on where exercises run, {len(expect['stubs'])} exercise stubs")
    for kind, link in launch_links(stem).items():
        if kind == "download":
            link = f"{base}/{link}"  # fetched by the link check above: it answers 200
        if link not in facts["links"]:
            problems.append(f"no {kind} link ({link}) on the page")
    print(f"{stem}: {facts['maths']} formulas, {len(facts['images'])} images, {len(facts['links'])} links, "
          f"{your_turn} exercises checked in {time.monotonic() - start:.1f} s")
    assert not problems, f"{stem}:\n" + "\n".join(problems)


def test_every_lesson_has_a_page(site):
    pages = sorted(p.stem for p in (site / "notebooks").glob("*.html"))
    assert pages == LESSONS


def test_every_page_shows_the_courses_icon(site):
    """A tab or a bookmark shows the course's icon: each page links it, and the file is the site's own."""
    icon = site / "_static" / "favicon.svg"
    assert icon.read_bytes() == (ROOT / "site" / "_static" / "favicon.svg").read_bytes()
    for page in [site / "index.html", *sorted((site / "notebooks").glob("*.html"))]:
        links = re.findall(r'<link rel="icon" href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert links, f"{page.name} names no icon"
        assert (page.parent / links[0]).resolve() == icon.resolve(), f"{page.name}: {links[0]}"


def pages_url() -> str:
    """GitHub Pages' address for the repository URL in pyproject.toml."""
    import tomllib

    url = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
    owner, name = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)/?", url).groups()
    return f"https://{owner.lower()}.github.io/{name}/"


def test_readme_links_the_published_site():
    assert pages_url() == "https://pe-course.github.io/positional-encoding-course/"
    assert f"<{pages_url()}>" in (ROOT / "README.md").read_text()


def test_ci_keeps_the_site_and_pages_publishes_it_from_main():
    import yaml

    workflows = ROOT / ".github" / "workflows"
    test = yaml.safe_load((workflows / "test.yml").read_text())["jobs"]["test"]["steps"]
    runs = [s.get("run", "").strip() for s in test]
    assert runs.index("make site") < runs.index("make test")
    kept = [s for s in test if "upload-artifact" in s.get("uses", "") and s["with"]["name"] == "site"]
    assert kept and kept[0]["with"]["path"].rstrip("/") == "_build/site" and "!cancelled()" in kept[0]["if"]

    pages = yaml.safe_load((workflows / "pages.yml").read_text())
    assert pages[True]["push"]["branches"] == ["main"]  # YAML 1.1 reads the key `on` as a boolean
    build, deploy = pages["jobs"]["build"]["steps"], pages["jobs"]["deploy"]
    assert "make site" in [s.get("run", "").strip() for s in build]
    upload = next(s for s in build if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"].rstrip("/") == "_build/site"
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any("deploy-pages" in s.get("uses", "") for s in deploy["steps"])


def test_the_checks_catch_a_broken_site(browser, site, tmp_path):
    """The same checks over a damaged copy: a missing image, a figure without twice its pixels or without
    its alt text, a link to no page, an anchor that does not exist, a formula left as raw TeX, a request
    to another server, a heading without its level (a critical accessibility violation), a paragraph
    that scrolls sideways and a page wider than the window are each reported."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / "notebooks" / "04_sinusoidal.html"
    text = page.read_text()
    image = re.search(r'<img[^>]*src="\.\./(_images/[0-9a-f]+\.png)"', text).group(1)
    (copy / image).unlink()
    # the last figure shown at its full pixels, as a figure drawn without twice the pixels would be
    *_, blurred = re.finditer(r'<img[^>]*src="\.\./(_images/[0-9a-f]+\.png)"[^>]*?( width="\d+")', text)
    text = text[:blurred.start(2)] + text[blurred.end(2):]
    text = re.sub(r'(<img[^>]*?) alt="[^"]*"([^>]*src="\.\./' + re.escape(image) + ')', r'\1\2', text, count=1)
    text = text.replace("</article>", '<div role="heading">a heading without its level</div>'
                        '<p style="overflow-x: auto"><span style="display: inline-block; width: 3000px">a'
                        ' line too long</span></p><div style="width: 3000px">wider than the page</div>'
                        '<p><a href="no_such_lesson.html">gone</a> '
                        '<a href="11_the_map.html#no-such-anchor">nowhere</a> left as $x^2$</p>'
                        '<img src="https://example.org/remote.png" alt="remote"></article>', 1)
    page.write_text(text)
    server, base = serve(copy)
    try:
        problems, _ = visit(browser, base, "notebooks/04_sinusoidal.html")
    finally:
        server.shutdown()
        server.server_close()
    report = "\n".join(problems)
    assert f"image did not load: {base}/{image}" in report, report
    assert "figure not drawn for 2× screens" in report and f"{base}/{blurred.group(1)}" in report, report
    assert f"link {base}/notebooks/no_such_lesson.html answers 404" in report, report
    assert "no #no-such-anchor on that page" in report, report
    assert "raw TeX left in the text: ['$x^2$']" in report, report
    assert "tried to reach another server: https://example.org/remote.png" in report, report
    assert "figure without alt text (alt='')" in report, report
    assert "accessibility (critical): aria-required-attr" in report, report
    assert "desktop: a box of prose scrolls sideways (p.)" in report, report
    assert "desktop: the page scrolls sideways" in report, report


# ---------------------------------------------------------------------------------------------
# Lesson 04's explorer drawn by the browser: on the site it runs from the page's own script

BROWSER_EXPLORER_PAGE = "notebooks/04_sinusoidal.html"


def test_only_the_browser_explorer_saves_html_beside_a_picture_or_a_widget():
    """site/conf.py puts text/html first: only the explorers' outputs carry HTML beside a picture or a widget,
    and each carries the page that runs it; every other output keeps its picture."""
    carrying = []
    for stem in LESSONS:
        for cell in json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text())["cells"]:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if "text/html" in data and ({"image/png", "application/vnd.jupyter.widget-view+json"} & set(data)):
                    saved = "".join(data["text/html"])
                    static = 'class="pe-explorer-static"' in saved
                    carrying.append((stem, static))
    from .explorer_cases import IN_LESSONS

    shown = [stem for stem in LESSONS for _ in IN_LESSONS.get(f"{stem}.ipynb", [])]  # every explorer a lesson shows
    assert carrying == [(stem, True) for stem in shown]


def browser_explorer_problems(browser, base: str, shot: str | None = None) -> tuple[list[str], list[dict]]:
    """Open lesson 04's page, find the explorer drawn by the browser, check the table it drew at its
    start and after two key presses on d_model; return what went wrong and the values checked."""
    from .explorer_page import ROOT_SELECTOR, drawn, table_problems, wait_for_values

    problems: list[str] = []
    checked: list[dict] = []
    context, page = local_page(browser, base, problems)
    try:
        page.goto(f"{base}/{BROWSER_EXPLORER_PAGE}", wait_until="load")
        root = page.locator(ROOT_SELECTOR)
        root.wait_for(timeout=20_000)
        if root.count() != 1 or page.locator(".pe-explorer-static .pe-fallback").count():
            problems.append(f"{root.count()} explorers mounted, the still stand-in still shown: "
                            f"{page.locator('.pe-fallback').count()}")
        for step in ("start", "two key presses on d_model"):
            if step != "start":
                draws = int(root.get_attribute("data-draws"))
                root.locator('input[name="d_model"]').focus()
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowRight")
            expected = {"d_model": 128 if step == "start" else 132, "position": 20, "length": 128, "base": 10000}
            checked.append(wait_for_values(root, **expected))
            if step != "start" and not int(root.get_attribute("data-draws")) > draws:
                problems.append("moving d_model drew nothing")
            problems += [f"{step}: {p}" for p in table_problems(drawn(root))]
        if shot:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            root.screenshot(path=str(ARTIFACTS / f"{shot}.png"))
    finally:
        context.close()
    return problems, checked


def test_lesson_04s_browser_explorer_runs_without_a_kernel(browser, base):
    problems, checked = browser_explorer_problems(browser, base, shot="site-04_sinusoidal-browser-explorer")
    assert not problems, "\n".join(problems)
    assert [v["d_model"] for v in checked] == [128, 132]


def test_the_explorer_check_catches_a_wrong_formula(browser, site, tmp_path):
    """The same check over a copy of the site whose inlined bundle swaps sine and cosine (its names are
    esbuild's, minified: [\\w$]+)."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / BROWSER_EXPLORER_PAGE
    # table[row + 2 * i] = Math.sin(angle) in js/src/l04_sinusoidal.js
    wrong, planted = re.subn(r"(\[[\w$]+\+2\*[\w$]+\]=Math\.)sin\(", r"\1cos(", page.read_text())
    assert planted == 1, "the page does not inline the explorer's bundle"
    page.write_text(wrong)
    server, copy_base = serve(copy)
    try:
        problems, _ = browser_explorer_problems(browser, copy_base)
    finally:
        server.shutdown()
        server.server_close()
    assert any("the drawn table differs from H.sinusoidal(128, 128, 10000)" in p for p in problems), problems


# ---------------------------------------------------------------------------------------------
# The explorers built on the course's bundles (test_browser_explorers.py): on the site, with no kernel
@pytest.mark.parametrize("notebook", sorted(BUNDLED_IN_LESSONS))
def test_on_the_site_the_lessons_explorer_moves_without_a_kernel(browser, base, notebook):
    problems: list[str] = []
    context, page = local_page(browser, base, problems)
    try:
        page.goto(f"{base}/notebooks/{notebook[:-6]}.html", wait_until="load")
        for case in BUNDLED_IN_LESSONS[notebook]:
            root = page.locator(f'.pe-explorer[data-explorer="{case.explorer}"]')
            root.wait_for(timeout=20_000)
            assert root.count() == 1 and page.locator(".pe-explorer-static .pe-fallback").count() == 0
            root.scroll_into_view_if_needed()
            before = int(root.get_attribute("data-draws"))
            root.locator(f'input[name="{case.slider}"]').press(case.key)
            selector = f'.pe-explorer[data-explorer="{case.explorer}"]'
            page.wait_for_function(f"() => Number(document.querySelector({selector!r}).dataset.draws) > {before}",
                                   timeout=10_000)
            state = root.evaluate("r => globalThis.__pe_explorers[r.dataset.peId]")
            assert reached(state["values"], case.expected), (case.explorer, state["values"])
            assert case.error(state["drawn"], state["values"]) < 1e-6, case.explorer
        assert not problems, problems
    finally:
        context.close()
