"""The explorers built on the course's bundles (helpers/explorers/browser/base.py), each in a page of
its own saved output, in headless Chromium at device scale factor 2, with no kernel: the page's script
loads the bundle, draws, and a key on each slider redraws. What it drew (read back through the test
contract: class pe-explorer, data-draws, globalThis.__pe_explorers) is compared with the Python
reference at the sliders' ends and at the starting values; no console error is allowed.
"""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")


from .common import ARTIFACTS  # noqa: E402
from .explorer_cases import CASES, IN_LESSONS  # noqa: E402


def reached(values: dict, expected: dict) -> bool:
    """Whether the page's slider values are the expected ones: numbers to 1e-12, text exactly."""
    return all(values[name] == value if isinstance(value, str) else values[name] == pytest.approx(value, rel=1e-12)
               for name, value in expected.items())


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_setting_drawn_by_the_browser_is_the_pythons(browser, tmp_path, name):
    build, steps, error = CASES[name]
    widget = build()
    page_path = tmp_path / "explorer.html"
    page_path.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{name}</title>"
                         f"</head><body>{widget.static_html()}</body></html>", encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 900}, device_scale_factor=2)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(page_path.as_uri())
        root = page.locator(".pe-explorer")
        page.wait_for_function("() => document.querySelector('.pe-explorer')?.dataset.draws >= '1'", timeout=20000)
        assert page.locator(".pe-fallback").count() == 0, "the still picture was not replaced by the explorer"
        for slider, key, expected in steps:
            before = int(root.get_attribute("data-draws"))
            if slider is not None:
                page.locator(f".pe-explorer input[name={slider}]").press(key)
                page.wait_for_function(f"() => Number(document.querySelector('.pe-explorer').dataset.draws) > {before}",
                                       timeout=10000)
            state = page.evaluate("() => globalThis.__pe_explorers[document.querySelector('.pe-explorer')"
                                  ".dataset.peId]")
            assert reached(state["values"], expected), (slider, key, state["values"])
            assert error(state["drawn"], state["values"]) < 1e-6, (slider, key, state["values"])
            canvas = page.locator(".pe-explorer canvas")
            box = canvas.bounding_box()
            size = canvas.evaluate("c => [c.width, c.height]")
            assert size == [round(2 * box["width"]), round(2 * box["height"])], "canvas not at devicePixelRatio 2"
        for slider in page.locator(".pe-explorer input[type=range]").all():
            assert slider.get_attribute("aria-label"), "a slider with no label"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"bundle-{name.replace(' ', '-')}.png"))
        assert problems == []
    finally:
        page.close()


@pytest.mark.parametrize("notebook", sorted(IN_LESSONS))
def test_in_jupyterlab_the_lessons_explorer_is_a_live_widget(lab, browser, notebook):
    from .lab import errors_shown, run_all_cells, shut_down_kernels

    shown = IN_LESSONS[notebook]
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    console = []
    page.on("console", lambda m: m.type == "error" and m.location.get("url", "").startswith(lab["base"])
            and console.append(f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda e: console.append(str(e)))
    try:
        page.goto(f"{lab['base']}/lab/workspaces/bundled/tree/notebooks/{notebook}?reset&token={lab['token']}")
        # a notebook from a clone is not trusted: before it runs, the saved output shows the still picture
        for case in shown:
            cell = page.locator(".jp-CodeCell").filter(has_text=case.words)
            cell.locator('.jp-OutputArea-output img[src^="data:image/png"]').first.wait_for(timeout=60_000)
        assert page.locator(".pe-explorer").count() == 0
        run_all_cells(page)
        problems = errors_shown(page)
        assert not problems, f"{notebook}: cells show errors:\n" + "\n---\n".join(problems)
        assert page.locator(".pe-explorer-static").count() == 0
        for case in shown:
            root = page.locator(f'.jp-OutputArea-output .pe-explorer[data-explorer="{case.explorer}"]')
            root.wait_for(timeout=30_000)
            assert root.count() == 1, f"{case.explorer}: {root.count()} explorers"
            output = root.evaluate("r => r.closest('.jp-OutputArea-output').className")
            assert "jp-RenderedHTML" not in output, f"rendered from the saved HTML ({output}), not as a widget"
            root.scroll_into_view_if_needed()
            before = int(root.get_attribute("data-draws"))
            root.locator(f'input[name="{case.slider}"]').press(case.key)
            root.evaluate("(r, before) => new Promise((done, fail) => { const t0 = Date.now();"
                          " (function poll() { if (Number(r.dataset.draws) > before) done();"
                          " else if (Date.now() - t0 > 10000) fail(new Error('no redraw'));"
                          " else requestAnimationFrame(poll); })(); })", before)
            state = root.evaluate("r => globalThis.__pe_explorers[r.dataset.peId]")
            assert reached(state["values"], case.expected), (case.explorer, state["values"])
            assert case.error(state["drawn"], state["values"]) < 1e-6, case.explorer
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            root.screenshot(path=str(ARTIFACTS / f"{notebook[:-6]}-{case.explorer}-explorer.png"))
        assert not console, f"console errors: {console}"
    finally:
        page.close()
        shut_down_kernels(lab)



def test_two_sinusoidal_explorers_sharing_one_module_keep_their_own_tables(browser, tmp_path):
    """Lesson 04's explorer keeps its table from step to step, one per explorer. Two explorers mounted from
    one instance of the bundle (as a page that loads the module once shows them), at other sizes and bases:
    a step of either leaves the other's table and heatmap as they were, both H.sinusoidal's."""
    import json

    from helpers.explorers.browser.base import bundle_source

    from .explorer_page import drawn, table_problems

    starts = [{"d_model": 64, "position": 3, "length": 40, "base": 10000.0},
              {"d_model": 128, "position": 20, "length": 128, "base": 500.0}]
    page_path = tmp_path / "two.html"
    page_path.write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>two</title></head><body>"
        "<div id='a'></div><div id='b'></div><script type='module'>\n"
        f"const source = {json.dumps(bundle_source('l04_sinusoidal'))};\n"
        f"const starts = {json.dumps(starts)};\n"
        "const m = await import(URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));\n"
        "['a', 'b'].forEach((id, k) =>\n"
        "  m.default.render({model: m.stubModel(starts[k]), el: document.getElementById(id)}));\n"
        "</script></body></html>", encoding="utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        page.goto(page_path.as_uri())
        page.wait_for_function("() => [...document.querySelectorAll('.pe-explorer')].length === 2 && "
                               "[...document.querySelectorAll('.pe-explorer')].every(r => r.dataset.draws >= '1')",
                               timeout=20000)
        first, second = page.locator(".pe-explorer").nth(0), page.locator(".pe-explorer").nth(1)
        for root, slider in [(second, "base"), (first, "length"), (second, "length"), (first, "base")]:
            before = int(root.get_attribute("data-draws"))
            root.locator(f"input[name={slider}]").press("ArrowRight")
            page.wait_for_function("([r, n]) => Number(r.dataset.draws) > n", arg=[root.element_handle(), before])
            pictures = [drawn(first), drawn(second)]
            assert [int(p["d_model"]) for p in pictures] == [64, 128]
            for picture in pictures:
                assert table_problems(picture) == [], (slider, picture["d_model"], picture["length"])
    finally:
        page.close()
