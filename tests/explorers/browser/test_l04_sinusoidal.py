"""Lesson 04's explorer drawn by the browser: the Python side (arguments, values shared with the
page, what a saved output carries, that the script ships in the wheel) and the script's own
numbers, run by Node.js: its table against ``H.sinusoidal``, its colours against Matplotlib's
RdBu_r, its slider bounds against the Python ranges. The browser tests (JupyterLab, the site)
are in tests/browser/.

Runs in both environments (ipywidgets 8 here, ipywidgets 7.7.1 in the Colab-like one). Under CI
(CI=true) a missing Node.js is a failure, never a skip.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import types
import zipfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser import l04_sinusoidal as module  # noqa: E402
from helpers.explorers.browser.l04_sinusoidal import (  # noqa: E402
    BASE,
    D_MODEL,
    ESM,
    ESM_PATH,
    SinusoidalExplorer,
    sinusoidal_explorer,
)

ROOT = Path(__file__).resolve().parents[3]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
WIDGET = "application/vnd.jupyter.widget-view+json"


# ---------------------------------------------------------------------------------------------
# Python side

def test_the_lesson_reaches_it_as_explorers_browser():
    assert explorers.browser.sinusoidal_explorer is sinusoidal_explorer
    widget = sinusoidal_explorer(d_model=64, position=5, length=32, base=100.0)
    assert isinstance(widget, SinusoidalExplorer)
    assert widget.values() == {"d_model": 64, "position": 5, "length": 32, "base": 100.0}
    state = widget.get_state()
    assert state["_esm"] == ESM and {k: state[k] for k in widget.values()} == widget.values()


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"d_model": 7}, ValueError, "d_model must be an integer from 2 to 1024 in steps of 2, got 7"),
    ({"d_model": 1026}, ValueError, "d_model must be an integer from 2 to 1024"),
    ({"d_model": 64.0}, TypeError, "d_model must be an integer"),
    ({"position": 128, "length": 128}, ValueError, "position must be an integer from 0 to 127, got 128"),
    ({"position": -1}, ValueError, "position must be an integer from 0 to 127"),
    ({"length": 12}, ValueError, "length must be an integer from 8 to 1024 in steps of 8, got 12"),
    ({"length": 2048}, ValueError, "length must be an integer from 8 to 1024"),
    ({"base": 5}, ValueError, "base must be a number from 10 to 1e\\+06, got 5"),
    ({"base": float("nan")}, ValueError, "base must be a finite real number"),
    ({"base": "10000"}, TypeError, "base must be a finite real number"),
])
def test_bad_arguments_are_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        sinusoidal_explorer(**kwargs)


def test_values_set_from_python_are_checked_and_the_position_follows_the_length():
    widget = sinusoidal_explorer(d_model=64, position=100, length=128)
    with pytest.raises(ValueError, match="d_model must be an integer from 2 to 1024 in steps of 2, got 65"):
        widget.d_model = 65
    with pytest.raises(ValueError, match="position must be an integer from 0 to 127, got 128"):
        widget.position = 128
    with pytest.raises(ValueError, match="base must be a number from 10 to 1e\\+06"):
        widget.base = 2e6
    widget.length = 64
    assert widget.position == 63
    widget.length = 256
    assert widget.position == 63
    widget.set_state({"length": 16, "position": 15})  # as the page sends a shorter length
    assert (widget.length, widget.position) == (16, 15)


def test_the_slider_bounds_are_the_kernel_explorers():
    assert (D_MODEL.low, D_MODEL.high, D_MODEL.step) == (2, 1024, 2)
    assert (module.LENGTH.low, module.LENGTH.high, module.LENGTH.step) == (8, 1024, 8)
    assert (BASE.low, BASE.high) == (10.0, 1e6)


def displayed(widget, monkeypatch) -> tuple[dict, dict]:
    """What the widget sends to the front end when a cell shows it (both ipywidgets 7 and 8)."""
    sent = []
    monkeypatch.setattr(module, "display", lambda data, metadata=None, raw=False: sent.append((data, metadata, raw)))
    widget._ipython_display_()
    assert len(sent) == 1 and sent[0][2] is True
    return sent[0][0], sent[0][1]


def test_the_saved_output_shows_the_explorer_without_a_kernel(monkeypatch):
    widget = sinusoidal_explorer(d_model=32, position=3, length=16, base=1000.0)
    data, _ = displayed(widget, monkeypatch)
    assert set(data) == {WIDGET, "image/png", "text/html", "text/plain"}
    assert data[WIDGET]["model_id"] == widget.model_id
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG")
    assert data["text/plain"] == "<explorer drawn by the browser: d_model 32, position 3, length 16, base 1000>"
    page = data["text/html"]
    # the still picture and a line of text for pages that run no script, the script itself for those that do
    assert f'src="data:image/png;base64,{data["image/png"]}"' in page
    assert "The explorer drawn by your browser, at d_model 32, position 3, length 16, base 1000." in page
    script = re.search(r'<script type="module">\n(.*)</script>', page, flags=re.S).group(1)
    assert script.startswith(ESM)
    assert 'stubModel({"d_model": 32, "position": 3, "length": 16, "base": 1000.0})' in script
    assert not re.search(r"https?://|//cdn|\bsrc=\"(?!data:)", page), "the page must load nothing from anywhere"
    assert page.count("</script>") == 1


def test_the_script_imports_nothing_and_can_be_inlined():
    assert ESM_PATH.name == "l04_sinusoidal.js" and ESM_PATH.parent == Path(module.__file__).parent
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", ESM, flags=re.S)  # comments may name anything
    assert not re.search(r"^\s*import\b|\bimport\s*\(|https?:|fetch\(|XMLHttpRequest", code, flags=re.M)
    assert not re.search(r"</script|<!--", ESM, flags=re.I)
    assert re.search(r"^export default \{ render \};$", ESM, flags=re.M)


def test_in_colab_it_asks_for_colabs_widget_manager(monkeypatch):
    """anywidget, seeing Colab, turns on Colab's manager for third-party widgets and names it in
    the output's metadata; the bundle this widget sends keeps that metadata."""
    enabled = []
    output = types.ModuleType("google.colab.output")
    output.enable_custom_widget_manager = lambda: enabled.append(True)
    output._widgets = types.SimpleNamespace(_installed_url="https://colab.invalid/manager.min.js")
    monkeypatch.setitem(sys.modules, "google.colab.output", output)
    import anywidget._util

    anywidget._util.enable_custom_widget_manager_once.cache_clear()
    try:
        widget = sinusoidal_explorer()
        data, metadata = displayed(widget, monkeypatch)
    finally:
        anywidget._util.enable_custom_widget_manager_once.cache_clear()
    assert enabled
    assert metadata[WIDGET] == {"colab": {"custom_widget_manager": {"url": "https://colab.invalid/manager.min.js"}}}
    assert WIDGET in data


def test_its_picture_has_twice_the_pixels_of_its_size_on_the_page(monkeypatch):
    import base64
    import io

    from PIL import Image

    data, metadata = displayed(sinusoidal_explorer(), monkeypatch)
    width, height = Image.open(io.BytesIO(base64.b64decode(data["image/png"]))).size
    shown = metadata["image/png"]
    assert (width, height) == (2 * shown["width"], 2 * shown["height"]) and shown["width"] == 720
    assert f'width="{shown["width"]}"' in data["text/html"]


def test_the_wheel_ships_the_script(tmp_path):
    """Built from a copy of the package (nothing is written into the checkout)."""
    try:
        import setuptools
    except ImportError:
        pytest.skip("setuptools is not installed here")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools.__version__} cannot read pyproject's licence expression (needs 77)")
    source = tmp_path / "source"
    shutil.copytree(ROOT / "helpers", source / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for pattern in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license-files"]:
        for path in ROOT.glob(pattern):  # the licence files the build must find (LICENSE, LICENSE-CONTENT.md, ...)
            shutil.copy2(path, (source / path.relative_to(ROOT)).parent)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path / "dist"), str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "helpers/explorers/browser/l04_sinusoidal.js" in names
    assert "helpers/explorers/browser/l04_sinusoidal.py" in names


# ---------------------------------------------------------------------------------------------
# The script's numbers, run by Node.js

NODE = shutil.which("node")


def run_script(source: str, program: str, tmp_path: Path):
    """Import ``source`` as an ES module in Node.js, run ``program`` (which may use its exports as
    ``m``) and return what it prints as JSON."""
    if NODE is None:
        if IN_CI:
            pytest.fail("node not found (under CI the script's tests must run)")
        pytest.skip("node (Node.js) not found")
    path = tmp_path / f"widget-{len(list(tmp_path.glob('*.mjs')))}.mjs"
    path.write_text(source)
    code = f"const m = await import({json.dumps(path.as_uri())});\nprocess.stdout.write(JSON.stringify({program}));"
    done = subprocess.run([NODE, "--input-type=module", "-e", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


SETTINGS = [(128, 128, 10000.0), (24, 2, 10.0), (1024, 64, 1e6), (8, 1024, 10 ** 1.5), (200, 96, 316.2277660168)]


def table_error(source: str, tmp_path: Path) -> float:
    """The largest difference between the script's tables and H.sinusoidal over SETTINGS."""
    tables = run_script(source, "[" + ", ".join(f"Array.from(m.sinusoidalTable({n}, {d}, {b!r}))"
                                                for n, d, b in SETTINGS) + "]", tmp_path)
    worst = 0.0
    for (n, d, b), table in zip(SETTINGS, tables, strict=True):
        expected = H.sinusoidal(n, d, b).double().numpy()
        got = np.asarray(table, dtype=np.float64).reshape(n, d)
        worst = max(worst, float(np.abs(got - expected).max()))
    return worst


def test_the_scripts_table_is_the_courses(tmp_path):
    assert table_error(ESM, tmp_path) < 1e-6


@pytest.mark.parametrize(("mistake", "wrong"), [
    ("sin and cos swapped", ("table[row + 2 * i] = Math.sin(angle)", "table[row + 2 * i] = Math.cos(angle)")),
    ("exponent -i/d", ("Math.pow(base, (-2 * i) / dModel)", "Math.pow(base, -i / dModel)")),
    ("positions from 1", ("const angle = p * omega[i]", "const angle = (p + 1) * omega[i]")),
])
def test_the_table_check_catches_a_wrong_formula(tmp_path, mistake, wrong):
    old, new = wrong
    assert old in ESM
    assert table_error(ESM.replace(old, new), tmp_path) > 1e-3, f"{mistake} went unnoticed"


def test_the_scripts_colours_are_matplotlibs_rdbu_r(tmp_path):
    values = np.linspace(-1.0, 1.0, 2001)
    colours = np.asarray(run_script(ESM, f"{json.dumps(values.tolist())}.map(v => m.colourOf(v))", tmp_path))
    expected = matplotlib.colormaps["RdBu_r"](matplotlib.colors.Normalize(-1, 1)(values), bytes=True)[:, :3]
    assert np.abs(colours - expected.astype(int)).max() <= 1


def test_the_scripts_slider_bounds_are_the_pythons(tmp_path):
    limits = run_script(ESM, "m.LIMITS", tmp_path)
    assert limits["d_model"] == {"min": D_MODEL.low, "max": D_MODEL.high, "step": D_MODEL.step}
    assert limits["length"] == {"min": module.LENGTH.low, "max": module.LENGTH.high, "step": module.LENGTH.step}
    assert limits["log10_base"] == {"min": 1, "max": 6, "step": BASE.step}


def test_the_stub_model_tells_its_listeners(tmp_path):
    program = """(() => {
      const model = m.stubModel({d_model: 8}); const seen = [];
      const listener = () => seen.push(model.get("d_model"));
      model.on("change:d_model", listener); model.set("d_model", 10); model.set("d_model", 10);
      model.off("change:d_model", listener); model.set("d_model", 12); model.save_changes();
      const base = [m.formatBase(10000), m.formatBase(1e6), m.formatBase(17.7827941)];
      return {seen, now: model.get("d_model"), base};
    })()"""
    assert run_script(ESM, program, tmp_path) == {"seen": [10], "now": 12,
                                                  "base": ["10\u2009000", "1\u2009000\u2009000", "17.8"]}


def test_the_scripts_waves_are_the_kernel_explorers_pairs(tmp_path):
    """The pairs drawn as waves (fastest, two middle ones, slowest) and their wavelengths' labels are
    the kernel-drawn explorer's, for every d_model (Python's round sends halves to the even neighbour)."""
    from helpers.explorers.browser.l04_sinusoidal import _short_number, _wave_pairs

    n_pairs = list(range(1, 513))
    assert run_script(ESM, f"{json.dumps(n_pairs)}.map(n => m.wavePairs(n))", tmp_path) == \
        [_wave_pairs(n) for n in n_pairs]
    lengths = [6.283185307179586, 9.96, 19.87, 128.6, 999.4, 999.6, 54_351.0, 999_400.0, 999_600.0, 6.18e6]
    assert run_script(ESM, f"{json.dumps(lengths)}.map(x => m.shortNumber(x))", tmp_path) == \
        [_short_number(x) for x in lengths]


# ---------------------------------------------------------------------------------------------
# The script in Chromium: what it draws, slider ends included

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser). The Colab-like
    environment (make test-colab) installs no browser driver: there this part is skipped, and
    make test-unit runs it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed here (requirements-test.txt installs it)")
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"{CHROMIUM} not found (under CI the explorer's drawing must be checked)")
        pytest.skip(f"{CHROMIUM} not found: apt-get install -y chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield browser
        browser.close()


def open_page(browser, page_html: str):
    """A page holding the explorer's saved HTML (its script mounted on a model without a kernel), at
    device scale factor 2; returns the page, its explorer's root and the errors it reports."""
    page = browser.new_page(viewport={"width": 1000, "height": 800}, device_scale_factor=2)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.set_content(f"<!doctype html><html><body>{page_html}</body></html>")
    root = page.locator(".pe-sinusoidal")
    root.wait_for(timeout=20_000)
    return page, root, errors


# From the lesson's start, every slider to its lower end, then every slider to its upper end
# (the length first: the position's end follows it), each reached from the keyboard.
WAVE_SETTINGS = [
    ("start", [], {"d_model": 128, "position": 20, "length": 128, "base": 10000}),
    ("lower ends", [("d_model", "Home"), ("length", "Home"), ("position", "Home"), ("base", "Home")],
     {"d_model": 2, "position": 0, "length": 8, "base": 10}),
    ("upper ends", [("d_model", "End"), ("length", "End"), ("position", "End"), ("base", "End")],
     {"d_model": 1024, "position": 1023, "length": 1024, "base": 1e6}),
]


def test_chromium_draws_the_courses_waves_at_the_slider_ends(chromium):
    from tests.browser.explorer_page import drawn, drawn_waves, table_problems, wait_for_values, wave_problems

    page, root, errors = open_page(chromium, sinusoidal_explorer().static_html())
    try:
        seen = []
        for name, keys, expected in WAVE_SETTINGS:
            for control, key in keys:
                root.locator(f'input[name="{control}"]').focus()
                page.keyboard.press(key)
            wait_for_values(root, **expected)
            picture = drawn_waves(root)
            assert picture["waves"], f"{name}: no waves drawn"
            problems = wave_problems(picture)
            assert not problems, f"{name} ({expected}):\n" + "\n".join(problems)
            if expected["length"] * expected["d_model"] <= 128 * 128:  # the whole table where it is small
                assert not table_problems(drawn(root)), table_problems(drawn(root))
            seen.append((name, [w["pair"] for w in picture["waves"]], picture["draw_ms"]))
            # the picture is drawn for the screen's pixels (device scale factor 2), never stretched
            canvas = root.locator("canvas").evaluate("c => [c.width, c.height, c.getBoundingClientRect().width,"
                                                     " c.getBoundingClientRect().height]")
            assert canvas[0] == round(2 * canvas[2]) and canvas[1] == round(2 * canvas[3]), canvas
        assert [pairs for _, pairs, _ in seen] == [[0, 8, 21, 63], [0], [0, 64, 170, 511]]
        assert not errors, errors
        print("waves checked; draw times: " + ", ".join(f"{name} {ms:.1f} ms" for name, _, ms in seen))
    finally:
        page.close()


def test_the_wave_check_catches_a_wrong_column(chromium):
    """The same check over a script that draws each pair's cosine column instead of its sine."""
    right = "values[p] = table[p * v.d_model + 2 * i];"
    assert ESM.count(right) == 1
    page_html = sinusoidal_explorer().static_html().replace(right, "values[p] = table[p * v.d_model + 2 * i + 1];")
    page, root, _ = open_page(chromium, page_html)
    try:
        from tests.browser.explorer_page import drawn_waves, wave_problems

        problems = wave_problems(drawn_waves(root))
        assert any("pair 8's wave differs from column 16 of H.sinusoidal(128, 128, 10000)" in p for p in problems), \
            problems
    finally:
        page.close()
