"""The explorers built on the course's bundles (helpers/explorers/browser/base.py), each in a page of
its own saved output, in headless Chromium at device scale factor 2, with no kernel: the page's script
loads the bundle, draws, and a key on each slider redraws. What it drew (read back through the test
contract: class pe-explorer, data-draws, globalThis.__pe_explorers) is compared with the Python
reference at the sliders' ends and at the starting values; no console error is allowed.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import helpers as H  # noqa: E402
from helpers import explorers  # noqa: E402

from .common import ARTIFACTS  # noqa: E402


def reached(values: dict, expected: dict) -> bool:
    """Whether the page's slider values are the expected ones: numbers to 1e-12, text exactly."""
    return all(values[name] == value if isinstance(value, str) else values[name] == pytest.approx(value, rel=1e-12)
               for name, value in expected.items())


def sine_error(drawn: dict, values: dict) -> float:
    ref = H.sine_snapshot(values["omega"], values["length"])
    circle = ref.circle.numpy()
    wave_i, wave_j, wave_gap = drawn["wave_pair"]
    ci, cj, circle_gap = drawn["circle_pair"]
    return float(max(
        np.abs(np.asarray(drawn["values"]) - ref.values.numpy()).max(),
        np.abs(np.asarray(drawn["circle"]) - circle).max(),
        abs(wave_gap - ref.wave_pair.distance), abs(circle_gap - ref.circle_pair.distance),
        abs(abs(circle[wave_j, 1] - circle[wave_i, 1]) - ref.wave_pair.distance),  # a tie may pick another pair
        abs(float(np.linalg.norm(circle[ci] - circle[cj])) - ref.circle_pair.distance),
        abs(drawn["neighbour_gap"] - ref.neighbour_gap), abs(drawn["turns"] - ref.turns)))


def normalised_error(drawn: dict, values: dict) -> float:
    ref = H.compare_lengths(values["length_a"], values["length_b"])
    if [tuple(pair) for pair in drawn["shared"]] != ref.shared:
        return math.inf
    return float(max(np.abs(np.asarray(drawn["codes_a"]) - ref.codes_a.numpy()).max(),
                     np.abs(np.asarray(drawn["codes_b"]) - ref.codes_b.numpy()).max(),
                     abs(drawn["step_a"] - ref.step_a), abs(drawn["step_b"] - ref.step_b),
                     abs(drawn["second_a"] - ref.second_a), abs(drawn["second_b"] - ref.second_b)))


def clock_error(drawn: dict, values: dict) -> float:
    from helpers.explorers.browser.l05_rotation_matrix import clock_pairs
    from helpers.measure.l05_rotation_matrix import shift_snapshot

    if drawn["pairs"] != clock_pairs(values["d_model"], values["n_clocks"]):
        return math.inf
    ref = shift_snapshot(values["k"], values["position"], values["d_model"], values["base"])
    return float(max(np.abs(np.asarray(drawn[name]) - getattr(ref, name).double().numpy()).max()
                     for name in ("start", "moved", "omega", "turns")))


def rope_error(drawn: dict, values: dict) -> float:
    import torch

    q, k = torch.tensor(values["q"], dtype=torch.float64), torch.tensor(values["k"], dtype=torch.float64)
    ref = H.rope_pair_view(q, k, values["m"], values["n"], values["pair"], values["base"])
    profile = H.scores_by_offset(q, k, torch.tensor(drawn["offsets"]), values["base"]).numpy()
    if drawn["offsets"] != list(range(-values["max_position"], values["max_position"] + 1)):
        return math.inf
    return float(max(np.abs(np.asarray(drawn["q_xy"]) - ref.q_xy).max(),
                     np.abs(np.asarray(drawn["k_xy"]) - ref.k_xy).max(), abs(drawn["pair_score"] - ref.pair_score),
                     abs(drawn["score"] - ref.score),
                     abs(drawn["offset"] - ref.offset), np.abs(np.asarray(drawn["profile"]) - profile).max()))


def counting_error(drawn: dict, values: dict) -> float:
    length = values["length"]
    plain, feature = H.counting_snapshot(length, mode="none"), H.counting_snapshot(length, mode="feature")
    added = H.counting_snapshot(length, mode="added")
    n = min(20, length)
    return float(max(abs(drawn["sizes"][0] - feature.embedding_rms), abs(drawn["sizes"][1] - (length - 1)),
                     abs(drawn["sizes"][2] - feature.max_logit) / feature.max_logit,
                     np.abs(np.asarray(drawn["weights_none"]) - plain.weights.flip(0)[:n].numpy()).max(),
                     np.abs(np.asarray(drawn["weights_feature"]) - feature.weights.flip(0)[:n].numpy()).max(),
                     abs(drawn["entropy"][0] - plain.entropy), abs(drawn["entropy"][1] - feature.entropy),
                     abs(drawn["entropy"][2] - added.entropy)))


def order_error(drawn: dict, values: dict) -> float:
    from helpers.explorers.l00_order_blindness import _example
    from helpers.measure.l00_order_blindness import order_snapshot

    example = _example()
    order = tuple(drawn["order"])
    if " ".join(example["tokens"][i] for i in order) != values["order"]:
        return math.inf
    ref = order_snapshot(example["mha"], example["x"], order, example["position"])
    return float(max(np.abs(np.asarray(drawn["weights_plain"]) - ref.weights_plain.numpy()).max(),
                     np.abs(np.asarray(drawn["weights_with_position"]) - ref.weights_with_position.numpy()).max(),
                     abs(drawn["moved"][0] - ref.moved_plain), abs(drawn["moved"][1] - ref.moved_with_position)))


def order_truths(drawn: dict, values: dict) -> float:
    """For any layer and tokens (a lesson's own): each attention row sums to 1, and without a position signal
    the pooled output does not move when the tokens are reordered (attention is order-blind)."""
    rows = np.asarray(drawn["weights_plain"] + drawn["weights_with_position"]).sum(axis=1)
    return float(max(np.abs(rows - 1).max(), abs(drawn["moved"][0])))


def _order_explorer():
    from helpers.explorers.l00_order_blindness import _example

    return explorers.browser.order_explorer(**_example())


# each explorer: its builder's call, the keys pressed (slider name, key) and the values they must reach,
# and the function that measures how far what was drawn is from the Python reference
CASES = {
    "l02 normalised": (lambda: explorers.browser.normalised_explorer(length_a=5, length_b=12),
                       [(None, None, {"length_a": 5, "length_b": 12}),
                        ("length_a", "End", {"length_a": 40, "length_b": 12}),
                        ("length_b", "Home", {"length_a": 40, "length_b": 2}),
                        ("length_a", "ArrowLeft", {"length_a": 39, "length_b": 2})],
                       normalised_error),
    "l05 clock hands": (lambda: explorers.browser.clock_hands_explorer(d_model=16, k=10),
                        [(None, None, {"k": 10, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}),
                         ("k", "Home", {"k": -200, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}),
                         ("position", "End", {"k": -200, "position": 200, "d_model": 16, "base": 10000,
                                              "n_clocks": 8}),
                         ("k", "End", {"k": 200, "position": 200, "d_model": 16, "base": 10000, "n_clocks": 8})],
                        clock_error),
    "l06 rope": (lambda: explorers.browser.rope_explorer(m=3, n=1, pair=1),
                 [(None, None, {"m": 3, "n": 1, "pair": 1}),
                  ("m", "End", {"m": 64, "n": 1, "pair": 1}),
                  ("pair", "End", {"m": 64, "n": 1, "pair": 15}),
                  ("n", "End", {"m": 64, "n": 64, "pair": 15}),
                  ("m", "Home", {"m": 0, "n": 64, "pair": 15})],
                 rope_error),
    "l01 counting": (lambda: explorers.browser.counting_explorer(length=1000),
                     [(None, None, {"length": 1000}), ("length", "End", {"length": 100000}),
                      ("length", "Home", {"length": 4}), ("length", "ArrowRight", {"length": 5})],
                     counting_error),
    "l00 order": (_order_explorer,
                  [(None, None, {"order": "dog bites man"}), ("order", "End", {"order": "man bites dog"}),
                   ("order", "ArrowLeft", {"order": "man dog bites"}), ("order", "Home", {"order": "dog bites man"})],
                  order_error),
    "l03 sine": (lambda: explorers.browser.sine_explorer(omega=0.3, length=50),
                 [(None, None, {"omega": 0.3, "length": 50}),
                  ("omega", "End", {"omega": math.pi, "length": 50}),
                  ("length", "End", {"omega": math.pi, "length": 200}),
                  ("omega", "Home", {"omega": 1e-3, "length": 200}),
                  ("length", "Home", {"omega": 1e-3, "length": 2})],
                 sine_error),
}


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


# each lesson that shows a bundled explorer: the words of the cell that builds it, the slider and key
# pressed in JupyterLab, and the values that key reaches
IN_LESSONS = {
    "00_order_blindness.ipynb": ("explorers.browser.order_explorer(", "order", "End", {}, order_truths),
    "01_counting.ipynb": ("explorers.browser.counting_explorer(", "length", "End", {"length": 100000}, counting_error),
    "06_rope.ipynb": ("explorers.browser.rope_explorer(", "m", "End", {"m": 64, "n": 1, "pair": 1}, rope_error),
    "05_rotation_matrix.ipynb": ("explorers.browser.clock_hands_explorer(", "k", "End",
                                 {"k": 200, "position": 0, "d_model": 16, "base": 10000, "n_clocks": 8}, clock_error),
    "02_normalised_positions.ipynb": ("explorers.browser.normalised_explorer(", "length_a", "End",
                                      {"length_a": 40, "length_b": 12}, normalised_error),
    "03_single_sine.ipynb": ("explorers.browser.sine_explorer(", "omega", "End", {"omega": math.pi, "length": 50},
                             sine_error),
}


@pytest.mark.parametrize("notebook", sorted(IN_LESSONS))
def test_in_jupyterlab_the_lessons_explorer_is_a_live_widget(lab, browser, notebook):
    from .test_lab_sliders import errors_shown, run_all_cells, shut_down_kernels

    words, slider, key, expected, error = IN_LESSONS[notebook]
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    console = []
    page.on("console", lambda m: m.type == "error" and m.location.get("url", "").startswith(lab["base"])
            and console.append(f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda e: console.append(str(e)))
    try:
        page.goto(f"{lab['base']}/lab/workspaces/bundled/tree/notebooks/{notebook}?reset&token={lab['token']}")
        # a notebook from a clone is not trusted: before it runs, the saved output shows the still picture
        cell = page.locator(".jp-CodeCell").filter(has_text=words)
        cell.locator('.jp-OutputArea-output img[src^="data:image/png"]').wait_for(timeout=60_000)
        assert page.locator(".pe-explorer").count() == 0
        run_all_cells(page)
        problems = errors_shown(page)
        assert not problems, f"{notebook}: cells show errors:\n" + "\n---\n".join(problems)
        root = page.locator(".jp-OutputArea-output .pe-explorer")
        root.wait_for(timeout=30_000)
        assert root.count() == 1 and page.locator(".pe-explorer-static").count() == 0
        output = root.evaluate("r => r.closest('.jp-OutputArea-output').className")
        assert "jp-RenderedHTML" not in output, f"rendered from the saved HTML ({output}), not as a widget"
        root.scroll_into_view_if_needed()
        before = int(root.get_attribute("data-draws"))
        root.locator(f'input[name="{slider}"]').press(key)
        page.wait_for_function(f"() => Number(document.querySelector('.jp-OutputArea-output .pe-explorer')"
                               f".dataset.draws) > {before}", timeout=10_000)
        state = root.evaluate("r => globalThis.__pe_explorers[r.dataset.peId]")
        assert reached(state["values"], expected), state["values"]
        assert error(state["drawn"], state["values"]) < 1e-6
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        root.screenshot(path=str(ARTIFACTS / f"{notebook[:-6]}-bundled-explorer.png"))
        assert not console, f"console errors: {console}"
    finally:
        page.close()
        shut_down_kernels(lab)

