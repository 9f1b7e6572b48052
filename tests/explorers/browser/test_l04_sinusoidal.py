"""Lesson 04's explorer drawn by the browser: the Python side (arguments, values shared with the
page, what a saved output carries, that the bundle ships in the wheel) and the bundle's own
numbers, run by Node.js: its table and waves against ``H.sinusoidal``, its colours against
the course's cividis, its slider bounds against the Python ranges, each check shown to fail on a
planted mistake. Drawing in Chromium (the sliders' ends, JupyterLab, the site):
tests/browser/explorer_cases/l04_sinusoidal.py, tests/browser/test_lab_anywidget.py and
tests/browser/test_site.py.

Runs in both environments (ipywidgets 8 here, ipywidgets 7.7.1 in the Colab-like one). Under CI
(CI=true) a missing Node.js is a failure, never a skip.
"""

from __future__ import annotations

import base64
import json
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
import torch  # noqa: E402

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402
from helpers.explorers.browser import base as browser_base  # noqa: E402
from helpers.explorers.browser import l04_sinusoidal as module  # noqa: E402
from helpers.explorers.browser.base import BUNDLE_DIR  # noqa: E402
from helpers.explorers.browser.l04_sinusoidal import (  # noqa: E402
    BASE,
    D_MODEL,
    SinusoidalExplorer,
    format_base,
    sinusoidal_explorer,
)
from helpers.plots import SIGNED_CMAP  # noqa: E402

from .node import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
WIDGET = "application/vnd.jupyter.widget-view+json"
BUNDLE = BUNDLE_DIR / "l04_sinusoidal.js"
ESM = BUNDLE.read_text(encoding="utf-8")
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


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
    monkeypatch.setattr(browser_base, "display",
                        lambda data, metadata=None, raw=False: sent.append((data, metadata, raw)))
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
    described = ("Sinusoidal table, 16 positions by 32 dimensions, base 1\u2009000: row 3 marked and drawn as a "
                 "vector (norm 4); below it the sine of pairs 0, 2, 5, 15 over all positions.")
    assert widget.describe() == described
    assert data["text/plain"] == f"<explorer drawn by the browser: {described}>"
    page = data["text/html"]
    # the still picture and a line of text for pages that run no script, the script itself for those that do
    assert f'src="data:image/png;base64,{data["image/png"]}"' in page
    assert described in page
    script = re.search(r'<script type="module">\n(.*)</script>', page, flags=re.S).group(1)
    assert script.startswith(f"const source = {json.dumps(ESM)};")
    assert 'stubModel({"base": 1000.0, "d_model": 32, "length": 16, "position": 3})' in script
    loads = page.replace(json.dumps(ESM), "")  # the bundle: test_the_bundle_imports_nothing_and_can_be_inlined
    assert not re.search(r"https?://|//cdn|\bsrc=\"(?!data:)", loads), "the page must load nothing from anywhere"
    assert page.count("</script>") == 1


def test_the_bundle_imports_nothing_and_can_be_inlined():
    assert SinusoidalExplorer._esm == ESM
    assert not (Path(module.__file__).parent / "l04_sinusoidal.js").exists(), "the old hand-written script is back"
    code = "\n".join(line for line in ESM.splitlines() if not line.startswith("//"))  # the licences' comments
    code = code.replace(SVG_NAMESPACE, "")  # d3-interpolate names SVG's namespace: a name, nothing loaded
    assert not re.search(r"\bimport\s*[({\"']|https?:|fetch\(|XMLHttpRequest", code)
    assert not re.search(r"</script|<!--", ESM, flags=re.I)
    assert re.search(r"export\{.*\bas default\b", code) and "stubModel" in code


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
    assert (width, height) == (2 * shown["width"], 2 * shown["height"]) and shown["width"] == 784  # the site's column
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
    assert "helpers/explorers/browser/bundle/l04_sinusoidal.js" in names
    assert "helpers/explorers/browser/l04_sinusoidal.py" in names


# ---------------------------------------------------------------------------------------------
# The bundle's numbers, run by Node.js

def run_script(source: str, program: str, tmp_path: Path):
    """Import ``source`` (the bundle's text) as ``m`` in Node.js and return ``program``, through JSON."""
    return evaluate(tmp_path, source, program)


# the sliders' ends (d_model 2 and 1024, length 8 and 1024, base 10 and 10⁶) and settings between
SETTINGS = [(128, 128, 10000.0), (8, 2, 10.0), (1024, 64, 1e6), (8, 1024, 10 ** 1.5), (200, 96, 316.2277660168),
            (1024, 1024, 10000.0)]


def table_error(source: str, tmp_path: Path) -> float:
    """The largest difference between the bundle's tables and H.sinusoidal over SETTINGS."""
    tables = run_script(source, "[" + ", ".join(f"Array.from(m.sinusoidalTable({n}, {d}, {b!r}))"
                                                for n, d, b in SETTINGS) + "]", tmp_path)
    worst = 0.0
    for (n, d, b), table in zip(SETTINGS, tables, strict=True):
        expected = H.sinusoidal(n, d, b).double().numpy()
        got = np.asarray(table, dtype=np.float64).reshape(n, d)
        worst = max(worst, float(np.abs(got - expected).max()))
    return worst


def test_the_bundles_table_is_the_courses(tmp_path):
    error = table_error(ESM, tmp_path)
    print(f"the bundle's tables differ from H.sinusoidal by at most {error:.2g}")
    assert error < 1e-6


def test_the_turned_rows_stay_on_the_formula(tmp_path):
    """The bundle computes the first row from the formula and turns each next row by omega_i; after a
    thousand turns it is still within 1e-12 of sin(p omega_i) and cos(p omega_i) in double precision
    (numpy's, computed here), at the sliders' largest table and at the extreme bases."""
    for n, d, b in [(1024, 1024, 10000.0), (1024, 64, 1e6), (1024, 2, 10.0)]:
        table = np.asarray(run_script(ESM, f"Array.from(m.sinusoidalTable({n}, {d}, {b!r}))", tmp_path)).reshape(n, d)
        angles = np.arange(n)[:, None] * b ** (-2.0 * np.arange(d // 2) / d)[None, :]
        assert np.abs(table[:, 0::2] - np.sin(angles)).max() < 1e-12
        assert np.abs(table[:, 1::2] - np.cos(angles)).max() < 1e-12


# mistakes planted in the minified bundle (its names are esbuild's: [\w$]+)
MISTAKES = {
    "sin and cos swapped": (r"(\[[\w$]+\+2\*[\w$]+\]=Math\.)sin\(", r"\1cos("),
    "exponent -i/d": (r"(=Math\.pow\([\w$]+,)-2\*([\w$]+/[\w$]+\);[\w$]+\[)", r"\1-\2"),
    "positions from 1": (r"let ([\w$]+)=([\w$]+)\*([\w$]+);([\w$]+\[[\w$]+\+2\*)", r"let \1=(\2+1)*\3;\4"),
    # each row after the first turns the row before: sin(a + w) = sin a cos w + cos a sin w, here with a minus
    "turned the wrong way": (r"(\]=[\w$]+\*[\w$]+\[[\w$]+/2\])\+([\w$]+\*[\w$]+\[[\w$]+/2\],)", r"\1-\2"),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_the_table_check_catches_a_wrong_formula(tmp_path, mistake):
    pattern, replacement = MISTAKES[mistake]
    wrong, planted = re.subn(pattern, replacement, ESM)
    assert planted == 1, f"{mistake}: the formula is not found in the bundle"
    assert table_error(wrong, tmp_path) > 1e-3, f"{mistake} went unnoticed"


def wave_error(source: str, tmp_path: Path) -> float:
    """The largest difference between the bundle's waves (pairs, wavelengths, values) and H.sinusoidal's
    sine columns of the kernel-drawn explorer's pairs over SETTINGS."""
    from helpers.explorers.browser.l04_sinusoidal import _wave_pairs

    calls = ", ".join(f"m.waveColumns(m.sinusoidalTable({n}, {d}, {b!r}), {n}, {d}, {b!r})" for n, d, b in SETTINGS)
    out = run_script(source, f"[{calls}].map(ws => ws.map(w => ({{pair: w.pair, wavelength: w.wavelength, "
                             "values: Array.from(w.values)})))", tmp_path)
    worst = 0.0
    for (n, d, b), waves in zip(SETTINGS, out, strict=True):
        if [w["pair"] for w in waves] != _wave_pairs(d // 2):
            return np.inf
        expected = H.sinusoidal(n, d, b).double().numpy()
        omega = H.frequencies(d, b, dtype=torch.float64).numpy()
        for w in waves:
            i = w["pair"]
            worst = max(worst, float(np.abs(np.asarray(w["values"]) - expected[:, 2 * i]).max()),
                        abs(w["wavelength"] / (2 * np.pi / omega[i]) - 1))
    return worst


def test_the_bundles_waves_are_the_kernel_explorers(tmp_path):
    assert wave_error(ESM, tmp_path) < 1e-6


def test_the_wave_check_catches_a_wrong_column(tmp_path):
    """The same check over a bundle that draws each pair's cosine column instead of its sine."""
    wrong, planted = re.subn(r"(\]=[\w$]+\[[\w$]+\*[\w$]+\+2\*[\w$]+)\]", r"\1+1]", ESM)
    assert planted == 1, "the wave's column is not found in the bundle"
    assert wave_error(wrong, tmp_path) > 0.1


def test_the_bundles_colours_are_the_courses_cividis(tmp_path):
    """The heatmap's colours are cividis, the colour map of the course's signed heatmaps: d3's cividis is a
    polynomial fit of Matplotlib's, within 20 of 255 of it on every channel, and its lightness rises from −1
    to +1 (the sign survives in greyscale); Matplotlib's RdBu_r, the map it replaced, is far from it."""
    values = np.linspace(-1.0, 1.0, 2001)
    colours = np.asarray(run_script(ESM, f"{json.dumps(values.tolist())}.map(v => m.colourOf(v))", tmp_path))
    normal = matplotlib.colors.Normalize(-1, 1)(values)
    expected = matplotlib.colormaps[SIGNED_CMAP](normal, bytes=True)[:, :3].astype(int)
    assert SIGNED_CMAP == "cividis" and np.abs(colours - expected).max() <= 20
    luminance = colours @ np.array([0.2126, 0.7152, 0.0722])
    assert np.all(np.diff(luminance[::100]) > 0)
    other = matplotlib.colormaps["RdBu_r"](normal, bytes=True)[:, :3].astype(int)
    assert np.abs(colours - other).max() > 100


def test_the_bundles_slider_bounds_are_the_pythons(tmp_path):
    limits = run_script(ESM, "m.LIMITS", tmp_path)
    assert limits["d_model"] == {"min": D_MODEL.low, "max": D_MODEL.high, "step": D_MODEL.step}
    assert limits["length"] == {"min": module.LENGTH.low, "max": module.LENGTH.high, "step": module.LENGTH.step}
    assert limits["log10_base"] == {"min": 1, "max": 6, "step": BASE.step}


def test_the_stub_model_tells_its_listeners_and_the_base_reads_as_in_python(tmp_path):
    program = """(() => {
      const model = m.stubModel({d_model: 8}); const seen = [];
      const listener = () => seen.push(model.get("d_model"));
      model.on("change:d_model", listener); model.set("d_model", 10); model.set("d_model", 10);
      model.off("change:d_model", listener); model.set("d_model", 12); model.save_changes();
      return {seen, now: model.get("d_model")};
    })()"""
    assert run_script(ESM, program, tmp_path) == {"seen": [10], "now": 12}
    bases = [10.0, 17.7827941, 100.0, 316.2277660168, 891.250938, 999.7, 1000.0, 10000.0, 11220.1845430, 1e6]
    shown = run_script(ESM, f"{json.dumps(bases)}.map(b => m.formatBase(b))", tmp_path)
    assert shown == [format_base(b) for b in bases]
    assert shown[:2] == ["10", "17.8"] and shown[-1] == "1\u2009000\u2009000"


def test_the_bundles_waves_are_the_kernel_explorers_pairs(tmp_path):
    """The pairs drawn as waves (fastest, two middle ones, slowest) and their wavelengths' labels are
    the kernel-drawn explorer's, for every d_model (Python's round sends halves to the even neighbour)."""
    from helpers.explorers.browser.l04_sinusoidal import _short_number, _wave_pairs

    n_pairs = list(range(1, 513))
    assert run_script(ESM, f"{json.dumps(n_pairs)}.map(n => m.wavePairs(n))", tmp_path) == \
        [_wave_pairs(n) for n in n_pairs]
    lengths = [6.283185307179586, 9.96, 19.87, 128.6, 999.4, 999.6, 54_351.0, 999_400.0, 999_600.0, 6.18e6]
    assert run_script(ESM, f"{json.dumps(lengths)}.map(x => m.shortNumber(x))", tmp_path) == \
        [_short_number(x) for x in lengths]
