// What every browser-drawn explorer shares: labelled, keyboard-operable sliders bound to the widget's
// model, one draw per move (before the next frame), a canvas sized to its container at the screen's
// devicePixelRatio, and what a test reads back.
//
// The test contract: the explorer's root element has the class "pe-explorer", data-explorer (its
// name), data-pe-id and data-draws (how many times it has drawn); globalThis.__pe_explorers[data-pe-id]
// holds {values, drawn, draw_ms}: the slider values and the numbers the last draw put on the canvas.
//
// In Jupyter the model is anywidget's; on a page with no kernel (the course's web site) it is
// stubModel(values), which keeps the values in the page.

import { FONT, INK, sizeCanvas } from "./plot.js";

/** A model that keeps its values in the page, for a saved output that runs without a kernel. */
export function stubModel(state) {
  const values = { ...state };
  const handlers = new Map();
  return {
    get: (name) => values[name],
    set(name, value) {
      if (values[name] === value) return;
      values[name] = value;
      for (const handler of handlers.get(`change:${name}`) || []) handler();
    },
    on(event, handler) {
      if (!handlers.has(event)) handlers.set(event, []);
      handlers.get(event).push(handler);
    },
    off(event, handler) {
      if (!event) return handlers.clear();
      handlers.set(event, (handlers.get(event) || []).filter((h) => h !== handler));
    },
    save_changes() {},
    send() {},
  };
}

const STYLE = `
.pe-explorer { font-family: ${FONT}; color: ${INK}; max-width: 100%; }
.pe-explorer .pe-controls { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 4px 0 6px; }
.pe-explorer label { display: inline-flex; align-items: center; gap: 8px; font-size: 14px; white-space: nowrap;
  max-width: 100%; }
.pe-explorer label span { min-width: 4.6em; }
/* on a narrow screen a long name or readout wraps rather than run under the slider or out of the box */
.pe-explorer label span, .pe-explorer output { white-space: normal; }
.pe-explorer input[type=range] { width: 170px; min-width: 64px; flex: 0 1 auto; margin: 0; }
.pe-explorer output { display: inline-block; min-width: 4.5em; font-variant-numeric: tabular-nums; }
.pe-explorer canvas { display: block; background: #fff; }
`;

/** The slider position of a value: its log10 on a log slider, its index on a slider over options. */
function toSlider(control, value) {
  if (control.options) return control.options.indexOf(value);
  return control.log ? Math.log10(value) : value;
}

function fromSlider(control, position) {
  if (control.options) return control.options[Math.round(position)];
  if (control.log) return Number(Math.pow(10, position).toPrecision(12));
  return control.integer ? Math.round(position) : position;
}

/**
 * Mount an explorer on `el`, bound to `model`.
 *   name: the explorer's name (data-explorer);
 *   controls: [{name, label, min, max, step, log?, integer?, options?, format(value)}] (options: the
 *     values a slider steps through, min and max their first and last); min and max may be
 *     functions of the current values (a position that ends at length - 1);
 *   constants: names of the model's other values that draw reads (set by the builder, no slider);
 *   layout(width): {width, height} of the canvas for a container `width` CSS px wide;
 *   draw(ctx, values, size): draws and returns the numbers it drew (for the tests);
 *   describe(values): the canvas's text alternative.
 * Returns anywidget's clean-up function.
 */
export function mount({ model, el }, { name, controls, constants = [], layout, draw, describe, maxWidth = 860 }) {
  const registry = (globalThis.__pe_explorers = globalThis.__pe_explorers || {});
  globalThis.__pe_next_id = (globalThis.__pe_next_id || 0) + 1;
  const id = `pe-${name}-${globalThis.__pe_next_id}`;

  const root = document.createElement("div");
  root.className = "pe-explorer";
  root.style.maxWidth = `${maxWidth}px`; // no wider than its canvas can grow: a wide page leaves no blank strip
  Object.assign(root.dataset, { explorer: name, peId: id, draws: "0" });
  // the sliders' keys move the sliders: JupyterLab's notebook shortcuts (arrows, Home, End, …) leave them alone
  root.dataset.lmSuppressShortcuts = "true";
  root.addEventListener("keydown", (event) => event.stopPropagation());
  const style = document.createElement("style");
  style.textContent = STYLE;
  const bar = document.createElement("div");
  bar.className = "pe-controls";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  root.append(style, bar, canvas);
  el.appendChild(root);

  const names = [...controls.map((c) => c.name), ...constants];
  const values = () => Object.fromEntries(names.map((n) => [n, model.get(n)]));
  const limit = (bound, v) => (typeof bound === "function" ? bound(v) : bound);
  const inputs = {};
  const outputs = {};
  for (const control of controls) {
    const wrap = document.createElement("label");
    const caption = document.createElement("span");
    caption.textContent = control.label;
    const input = document.createElement("input");
    input.type = "range";
    input.name = control.name;
    input.step = control.step;
    input.setAttribute("aria-label", control.label);
    const output = document.createElement("output");
    wrap.append(caption, input, output);
    bar.appendChild(wrap);
    inputs[control.name] = input;
    outputs[control.name] = output;
    input.addEventListener("input", () => {
      const hi = limit(control.max, values());
      const position = Number(input.value);
      // the slider's last notch is its end, though the end (π, say) is not on the notch grid
      const value = position > toSlider(control, hi) - control.step ? hi : fromSlider(control, position);
      model.set(control.name, value);
      const v = values(); // a control whose range follows this one is kept inside it
      for (const other of controls) {
        if (other.options) continue; // a list of values has no range to keep inside
        const lo = limit(other.min, v), hi = limit(other.max, v);
        if (v[other.name] > hi) model.set(other.name, hi);
        if (v[other.name] < lo) model.set(other.name, lo);
      }
      model.save_changes();
    });
  }

  function showValues(v) {
    for (const control of controls) {
      const input = inputs[control.name];
      // written only when changed: each write would make the browser lay the controls out again
      const lo = String(toSlider(control, limit(control.min, v))), hi = String(toSlider(control, limit(control.max, v)));
      if (input.min !== lo) input.min = lo;
      if (input.max !== hi) input.max = hi;
      const at = toSlider(control, v[control.name]);
      if (Math.abs(Number(input.value) - at) > 1e-9) input.value = at;
      const shown = control.format ? control.format(v[control.name]) : String(v[control.name]);
      if (outputs[control.name].textContent !== shown) outputs[control.name].textContent = shown;
      if (input.getAttribute("aria-valuetext") !== shown) input.setAttribute("aria-valuetext", shown);
    }
  }

  let width = 0;
  function redraw() {
    const start = performance.now();
    const v = values();
    showValues(v);
    const size = layout(width || Math.min(maxWidth, el.clientWidth || maxWidth));
    const ctx = sizeCanvas(canvas, size.width, size.height);
    const drawn = draw(ctx, v, size);
    canvas.setAttribute("aria-label", describe(v, drawn));
    const drawMs = performance.now() - start;
    registry[id] = { values: v, drawn, draw_ms: drawMs };
    root.dataset.draws = String(Number(root.dataset.draws) + 1);
  }

  // one draw after all the changes of a move (a control that follows another changes too)
  let pending = false;
  const onChange = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      redraw();
    });
  };
  for (const control of controls) model.on(`change:${control.name}`, onChange);

  const fit = () => {
    const available = Math.min(maxWidth, Math.floor(root.clientWidth || el.clientWidth || maxWidth));
    if (available > 0 && available !== width) {
      width = available;
      redraw();
    }
  };
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(fit) : null;
  if (resize) resize.observe(root);
  fit();
  if (!width) redraw();

  return () => {
    for (const control of controls) model.off(`change:${control.name}`, onChange);
    if (resize) resize.disconnect();
    delete registry[id];
  };
}
