"""Reading lesson 04's browser-drawn explorer (js/src/l04_sinusoidal.js) from a page, for the browser
tests (JupyterLab, the site, tests/browser/explorer_cases/l04_sinusoidal.py) and ARM_STEP for
benchmarks/browser_slider_latency.py.

The explorer's root element (``.pe-explorer[data-explorer="sinusoidal"]``) carries a draw counter,
``data-draws``; ``globalThis.__pe_explorers[<data-pe-id>]`` (js/src/explorer.js's test contract) holds
the slider values it last drew at and what it drew: the chosen row, the waves drawn bottom right (each
pair's sine over all positions) and, not enumerable, the whole table and its heatmap image, one pixel
per entry. What is read here is compared with ``H.sinusoidal``, with the pairs the still
picture picks and with Matplotlib's cividis (within d3's fit of it), computed by Python, never by the page.
"""

from __future__ import annotations

import time

import matplotlib
import numpy as np
import torch

import helpers as H
from helpers.explorers.browser.l04_sinusoidal import _wave_pairs

ROOT_SELECTOR = '.pe-explorer[data-explorer="sinusoidal"]'

READ_DRAWN = """root => {
  const state = globalThis.__pe_explorers[root.dataset.peId];
  const drawn = state.drawn;
  const pixels = drawn.image.getContext("2d").getImageData(0, 0, drawn.d_model, drawn.length).data;
  const rgb = new Array((pixels.length / 4) * 3);
  for (let k = 0; k < pixels.length / 4; k++) {
    rgb[3 * k] = pixels[4 * k]; rgb[3 * k + 1] = pixels[4 * k + 1]; rgb[3 * k + 2] = pixels[4 * k + 2];
  }
  return {d_model: drawn.d_model, position: drawn.position, length: drawn.length, base: drawn.base,
          table: Array.from(drawn.table), rgb, dataset: {...root.dataset}, draw_ms: state.draw_ms,
          row: drawn.row, norm: drawn.norm, waves: drawn.waves};
}"""

READ_VALUES = """root => {
  const state = globalThis.__pe_explorers && globalThis.__pe_explorers[root.dataset.peId];
  return state ? state.values : {};
}"""

# Arm a timer for one key press: from the keydown event to the first frame after the element
# `target` changed (a canvas redrawn: its data-draws attribute; a figure: a new <img>), then one task
# later, once that frame has been painted. The result is awaited as window.__pe_step.
ARM_STEP = """([target, what]) => {
  window.__pe_step = new Promise((resolve, reject) => {
    let start = null;
    document.addEventListener("keydown", e => { start = e.timeStamp; }, {capture: true, once: true});
    const before = what === "img" ? (target.querySelector("img") || {}).src : target.dataset.draws;
    const changed = () => what === "img" ? (target.querySelector("img") || {}).src !== before
                                         : target.dataset.draws !== before;
    const observer = new MutationObserver(() => {
      if (start === null || !changed()) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
    });
    observer.observe(target, {attributes: true, childList: true, subtree: true});
    setTimeout(() => { observer.disconnect(); reject(new Error("nothing changed within 10 s")); }, 10000);
  });
}"""


def drawn(root) -> dict:
    """What the explorer under ``root`` (a Playwright locator of its root element) last drew."""
    return root.evaluate(READ_DRAWN)


def wait_for_values(root, timeout_s: float = 10.0, **expected) -> dict:
    """Wait until the explorer has drawn at the values ``expected`` (d_model=…, length=…); return them all."""
    deadline = time.monotonic() + timeout_s
    while True:
        values = {k: float(v) for k, v in root.evaluate(READ_VALUES).items()}
        if all(values.get(k) == float(v) for k, v in expected.items()):
            return values
        if time.monotonic() > deadline:
            raise AssertionError(f"the explorer shows {values}, expected {expected}")
        time.sleep(0.05)


def table_problems(picture: dict) -> list[str]:
    """How the drawn table, its heatmap, its row and its waves differ from H.sinusoidal at the values they
    were drawn at (the row and the waves: :func:`wave_problems`)."""
    n, d, base = int(picture["length"]), int(picture["d_model"]), float(picture["base"])
    expected = H.sinusoidal(n, d, base).double().numpy()
    table = np.asarray(picture["table"], dtype=np.float64)
    if table.size != n * d:
        return [f"{table.size} numbers drawn, the table at length {n}, d_model {d} has {n * d}"]
    problems = []
    error = float(np.abs(table.reshape(n, d) - expected).max())
    if not error < 1e-6:
        problems.append(f"the drawn table differs from H.sinusoidal({n}, {d}, {base:g}) by up to {error:.3g}")
    # the course's cividis: d3's polynomial fit of Matplotlib's map is within 20 of 255 of it
    colours = matplotlib.colormaps["cividis"](matplotlib.colors.Normalize(-1, 1)(expected), bytes=True)[..., :3]
    pixels = np.asarray(picture["rgb"], dtype=int).reshape(n, d, 3)
    off = np.abs(pixels - colours.astype(int)).max(axis=-1) > 20
    if off.mean() > 1e-3:  # an entry within a rounding error of a colour step may take the next colour
        problems.append(f"{off.mean():.1%} of the heatmap's pixels are not cividis of H.sinusoidal's entries")
    return problems + wave_problems(picture)


def wave_problems(picture: dict) -> list[str]:
    """How the row drawn top right and the waves drawn bottom right differ from what the still
    picture draws there: the chosen position's row of H.sinusoidal and its norm; the pairs it picks
    (fastest, two middle ones, slowest), each one's wavelength 2π/ω_i, and each one's values, the sine
    column 2i of H.sinusoidal over every position, to 1e-6."""
    n, d, base = int(picture["length"]), int(picture["d_model"]), float(picture["base"])
    expected = H.sinusoidal(n, d, base).double().numpy()
    problems = []
    if "row" in picture:
        row = np.asarray(picture["row"], dtype=np.float64)
        position = int(picture["position"])
        if row.shape != (d,):
            problems.append(f"the row drawn has {row.size} numbers, d_model is {d}")
        elif not float(np.abs(row - expected[position]).max()) < 1e-6:
            problems.append(f"the row drawn differs from row {position} of H.sinusoidal({n}, {d}, {base:g}) by up "
                            f"to {float(np.abs(row - expected[position]).max()):.3g}")
        norm = float(np.linalg.norm(expected[position]))  # of float32 entries: to about 1e-6 at d_model 1024
        if not abs(picture["norm"] / norm - 1) < 1e-6:
            problems.append(f"the norm drawn, {picture['norm']:.9g}, is not ‖PE[{position}]‖ = {norm:.9g}")
    waves = picture.get("waves") or []
    pairs = [int(w["pair"]) for w in waves]
    if pairs != _wave_pairs(d // 2):
        return problems + [f"waves drawn for pairs {pairs}, the still picture draws {_wave_pairs(d // 2)}"]
    omega = H.frequencies(d, base, dtype=torch.float64).numpy()
    for wave in waves:
        i = int(wave["pair"])
        values = np.asarray(wave["values"], dtype=np.float64)
        if values.shape != (n,):
            problems.append(f"pair {i}'s wave has {values.size} values, the table {n} positions")
            continue
        error = float(np.abs(values - expected[:, 2 * i]).max())
        if not error < 1e-6:
            problems.append(f"pair {i}'s wave differs from column {2 * i} of H.sinusoidal({n}, {d}, {base:g}) "
                            f"by up to {error:.3g}")
        if not np.isclose(wave["wavelength"], 2 * np.pi / omega[i], rtol=1e-9):
            problems.append(f"pair {i}'s wavelength is labelled {wave['wavelength']:.6g}, 2π/ω_i is "
                            f"{2 * np.pi / omega[i]:.6g}")
    return problems
