// Lesson 04's sinusoidal explorer, computed and drawn by the browser (an anywidget ES module).
//
// The table follows the course's convention (helpers.encodings.sinusoidal):
//   omega_i = base^(-2i / d_model),  PE[p, 2i] = sin(p * omega_i),  PE[p, 2i + 1] = cos(p * omega_i).
// Sliders change the model's values and the picture is redrawn here, at once: nothing waits for
// a kernel. Where a kernel is attached, the new values are sent to it as well.
//
// Three panels, as the kernel-drawn explorer (helpers.explorers.sinusoidal_explorer) has them: left,
// the table as a heatmap with the chosen position's row marked; top right, that row (the position's
// vector); bottom right, the sine column of a few frequency pairs (the fastest, two middle ones, the
// slowest: wavePairs) over all positions, stacked, each labelled with its pair index i and wavelength,
// the chosen position marked.
//
// What a test can read (the table as drawn): the widget's root element (class "pe-sinusoidal")
// carries data-pe-id, data-d-model, data-position, data-length, data-base and data-draws (how many
// times it has been drawn), and globalThis.__pe_tables[data-pe-id] holds the last table drawn:
// {d_model, position, length, base, table (a Float64Array, row by row), image (a canvas of
// d_model x length pixels, one per entry, in the heatmap's colours), waves (one {pair, wavelength,
// values} per wave drawn, fastest first: values a Float64Array of the length sines sin(p * omega_i)),
// draw_ms}.
//
// No imports: the same text runs in JupyterLab, Colab and VS Code through anywidget, and on the
// course's web site, where the saved output mounts it on stubModel() without a kernel.

// Matplotlib's RdBu_r (the course's heatmap): ColorBrewer's eleven RdBu colours, blue at -1, red at +1
const RDBU_R = [
  [5, 48, 97], [33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247],
  [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43], [103, 0, 31],
];
const LUT_SIZE = 256;
const LUT = (() => {
  const lut = new Uint8ClampedArray(LUT_SIZE * 3);
  for (let k = 0; k < LUT_SIZE; k++) {
    const x = (k / (LUT_SIZE - 1)) * (RDBU_R.length - 1);
    const j = Math.min(Math.floor(x), RDBU_R.length - 2);
    const f = x - j;
    for (let c = 0; c < 3; c++) lut[3 * k + c] = Math.round(RDBU_R[j][c] * (1 - f) + RDBU_R[j + 1][c] * f);
  }
  return lut;
})();

const SIN_COLOUR = "#0072B2"; // the course's blue and vermillion (Okabe-Ito), as the kernel-drawn explorer
const COS_COLOUR = "#D55E00";
// the waves, fastest first: a colour and a marker each (Okabe-Ito blue, vermillion, green, purple, and
// Matplotlib's v, s, D, o as the kernel-drawn explorer), the same as their column's mark on the heatmap
const WAVE_MARKS = [["#0072B2", "v"], ["#D55E00", "s"], ["#009E73", "D"], ["#CC79A7", "o"]];
const WAVE_GAP = 2.4; // the waves' spacing, in units of their amplitude
const INK = "#222";
const FONT = '"DejaVu Sans", "Helvetica Neue", Arial, sans-serif';

export const LIMITS = {
  d_model: { min: 2, max: 1024, step: 2 },
  length: { min: 8, max: 1024, step: 8 },
  log10_base: { min: 1, max: 6, step: 0.05 },
};

/** The (length x d_model) sinusoidal table, row by row, in double precision. */
export function sinusoidalTable(length, dModel, base) {
  const half = dModel / 2;
  const omega = new Float64Array(half);
  for (let i = 0; i < half; i++) omega[i] = Math.pow(base, (-2 * i) / dModel);
  const table = new Float64Array(length * dModel);
  for (let p = 0; p < length; p++) {
    const row = p * dModel;
    for (let i = 0; i < half; i++) {
      const angle = p * omega[i];
      table[row + 2 * i] = Math.sin(angle);
      table[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return table;
}

/** Python's round(): halves go to the even neighbour. */
function roundHalfEven(x) {
  const floor = Math.floor(x);
  if (x - floor !== 0.5) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The pairs drawn as waves: up to four, spread from the fastest (0) to the slowest (nPairs - 1), as
 * the kernel-drawn explorer picks them (round(f * (nPairs - 1)) for f = 0, 1/8, 1/3, 1, each once). */
export function wavePairs(nPairs) {
  const last = nPairs - 1;
  const picked = new Set([0.0, 1 / 8, 1 / 3, 1.0].map((f) => roundHalfEven(f * last)));
  return [...picked].sort((a, b) => a - b);
}

/** A positive number, short: 6.28, 628, 54.5k, 5.95M (as the kernel-drawn explorer labels wavelengths). */
export function shortNumber(x) {
  const three = (y) => Number(y.toPrecision(3)).toString();
  if (x < 999.5) return three(x);
  if (x < 999.5e3) return `${three(x / 1e3)}k`;
  return `${three(x / 1e6)}M`;
}

/** The heatmap's colour of a value (clipped to -1..1), as [r, g, b]: Matplotlib's 256-entry RdBu_r. */
export function colourOf(value) {
  const x = (Math.min(Math.max(value, -1), 1) + 1) / 2;
  const k = Math.min(Math.floor(x * LUT_SIZE), LUT_SIZE - 1);
  return [LUT[3 * k], LUT[3 * k + 1], LUT[3 * k + 2]];
}

/** A model with anywidget's interface (get, set, on, off, save_changes, send) and no kernel behind it. */
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

/** A number as a reader would write it: 10 000, 1 000 000, 17.8, 3.16. */
export function formatBase(base) {
  if (base >= 1000) {
    const rounded = Number(base.toPrecision(3));
    return Math.round(rounded).toString().replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
  }
  return Number(base.toPrecision(3)).toString();
}

/** Up to about `count` round tick values between lo and hi (integers when `integer`). */
function ticks(lo, hi, count, integer) {
  const span = hi - lo;
  if (span <= 0) return [lo];
  const raw = span / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  if (integer) step = Math.max(1, Math.round(step));
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Number(t.toFixed(6)));
  return out;
}

const STYLE = `
.pe-sinusoidal { font-family: ${FONT}; color: ${INK}; max-width: 900px; overflow-x: auto; }
.pe-sinusoidal .pe-controls { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 4px 0 6px; }
.pe-sinusoidal label { display: inline-flex; align-items: center; gap: 8px; font-size: 14px; white-space: nowrap; }
.pe-sinusoidal label span { min-width: 4.6em; }
.pe-sinusoidal input[type=range] { width: 170px; margin: 0; }
.pe-sinusoidal output { display: inline-block; min-width: 5.5em; font-variant-numeric: tabular-nums; }
.pe-sinusoidal canvas { display: block; }
`;

const CONTROLS = [
  { name: "d_model", label: "d_model" },
  { name: "position", label: "position" },
  { name: "length", label: "length" },
  { name: "base", label: "base" },
];

function render({ model, el }) {
  const registry = (globalThis.__pe_tables = globalThis.__pe_tables || {});
  globalThis.__pe_next_id = (globalThis.__pe_next_id || 0) + 1;
  const id = `pe-sinusoidal-${globalThis.__pe_next_id}`;

  const root = document.createElement("div");
  root.className = "pe-sinusoidal";
  root.dataset.peId = id;
  root.dataset.draws = "0";
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

  const inputs = {};
  const outputs = {};
  for (const { name, label } of CONTROLS) {
    const wrap = document.createElement("label");
    const text = document.createElement("span");
    text.textContent = label;
    const input = document.createElement("input");
    input.type = "range";
    input.name = name;
    input.setAttribute("aria-label", label);
    const output = document.createElement("output");
    wrap.append(text, input, output);
    bar.appendChild(wrap);
    inputs[name] = input;
    outputs[name] = output;
  }
  const d = LIMITS.d_model, n = LIMITS.length, b = LIMITS.log10_base;
  Object.assign(inputs.d_model, { min: d.min, max: d.max, step: d.step });
  Object.assign(inputs.length, { min: n.min, max: n.max, step: n.step });
  Object.assign(inputs.position, { min: 0, step: 1 });
  Object.assign(inputs.base, { min: b.min, max: b.max, step: b.step });

  const current = () => ({
    d_model: model.get("d_model"), position: model.get("position"),
    length: model.get("length"), base: model.get("base"),
  });

  function showValues(v) {
    inputs.position.max = v.length - 1;
    for (const name of ["d_model", "position", "length"]) {
      if (Number(inputs[name].value) !== v[name]) inputs[name].value = v[name];
      outputs[name].textContent = String(v[name]);
    }
    const log = Math.log10(v.base);
    if (Math.abs(Number(inputs.base.value) - log) > 1e-9) inputs.base.value = log;
    outputs.base.textContent = formatBase(v.base);
    inputs.base.setAttribute("aria-valuetext", formatBase(v.base));
  }

  // Moving a slider: the model changes here, and its change handler below draws the picture before
  // the browser's next frame.
  function onInput(name) {
    const input = inputs[name];
    if (name === "base") {
      model.set("base", Number(Math.pow(10, Number(input.value)).toPrecision(12)));
    } else {
      const value = Math.round(Number(input.value));
      model.set(name, value);
      if (name === "length" && model.get("position") > value - 1) model.set("position", value - 1);
    }
    model.save_changes();
  }
  const listeners = CONTROLS.map(({ name }) => {
    const listener = () => onInput(name);
    inputs[name].addEventListener("input", listener);
    return [name, listener];
  });

  // One draw after all the changes of a move (a shorter length moves the position too), whether they
  // come from a slider here or from Python
  let pending = false;
  const onModelChange = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      draw();
    });
  };
  for (const { name } of CONTROLS) model.on(`change:${name}`, onModelChange);

  let cached = null; // the last table and its picture, reused while only the position moves
  function tableFor(v) {
    if (!cached || cached.d_model !== v.d_model || cached.length !== v.length || cached.base !== v.base) {
      const table = sinusoidalTable(v.length, v.d_model, v.base);
      const image = document.createElement("canvas");
      image.width = v.d_model;
      image.height = v.length;
      const ctx = image.getContext("2d");
      const pixels = ctx.createImageData(v.d_model, v.length);
      const data = pixels.data;
      for (let k = 0; k < table.length; k++) { // colourOf, inlined: a table has up to a million entries
        const x = (Math.min(Math.max(table[k], -1), 1) + 1) / 2;
        const c = 3 * Math.min(Math.floor(x * LUT_SIZE), LUT_SIZE - 1);
        data[4 * k] = LUT[c];
        data[4 * k + 1] = LUT[c + 1];
        data[4 * k + 2] = LUT[c + 2];
        data[4 * k + 3] = 255;
      }
      ctx.putImageData(pixels, 0, 0);
      cached = { d_model: v.d_model, length: v.length, base: v.base, table, image };
    }
    return cached;
  }

  function draw() {
    const start = performance.now();
    const v = current();
    if (v.position > v.length - 1) v.position = v.length - 1;
    showValues(v);
    const { table, image } = tableFor(v);

    const width = Math.max(520, Math.min(900, Math.round(root.clientWidth || 860)));
    const height = 580;
    const ratio = globalThis.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.height = `${height}px`;
      canvas.style.width = `${width}px`; // never squeezed: where the box is narrower, it scrolls
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    ctx.font = `13px ${FONT}`;
    ctx.fillStyle = INK;
    ctx.strokeStyle = INK;

    // left: the table as a heatmap, the chosen position's row marked
    const heat = { x: 66, y: 36, w: Math.round(width * 0.4), h: height - 36 - 56 };
    ctx.imageSmoothingEnabled = v.d_model > heat.w * ratio || v.length > heat.h * ratio; // average when shrinking
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(image, heat.x, heat.y, heat.w, heat.h);
    ctx.lineWidth = 1;
    ctx.strokeRect(heat.x - 0.5, heat.y - 0.5, heat.w + 1, heat.h + 1);
    const rowY = heat.y + ((v.position + 0.5) / v.length) * heat.h;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(heat.x, rowY);
    ctx.lineTo(heat.x + heat.w, rowY);
    ctx.stroke();
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillText(`PE: ${v.length} positions \u00d7 ${v.d_model} dims, base ${formatBase(v.base)}`,
      heat.x + heat.w / 2, 22);
    axisTicks(ctx, ticks(0, v.d_model - 1, 5, true), (t) => heat.x + ((t + 0.5) / v.d_model) * heat.w,
      heat.y + heat.h, "x");
    axisTicks(ctx, ticks(0, v.length - 1, 5, true), (t) => heat.y + ((t + 0.5) / v.length) * heat.h, heat.x, "y");
    ctx.fillText("dimension", heat.x + heat.w / 2, heat.y + heat.h + 42);
    ctx.save();
    ctx.translate(16, heat.y + heat.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText("position", 0, 0);
    ctx.restore();

    // the colour bar, -1 to 1
    const bar = { x: heat.x + heat.w + 12, y: heat.y, w: 12, h: heat.h };
    for (let k = 0; k < bar.h; k++) {
      const [r, g, bl] = colourOf(1 - (2 * (k + 0.5)) / bar.h);
      ctx.fillStyle = `rgb(${r},${g},${bl})`;
      ctx.fillRect(bar.x, bar.y + k, bar.w, 1);
    }
    ctx.fillStyle = INK;
    ctx.lineWidth = 1;
    ctx.strokeRect(bar.x - 0.5, bar.y - 0.5, bar.w + 1, bar.h + 1);
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    for (const t of [-1, 0, 1]) ctx.fillText(String(t).replace("-", "\u2212"), bar.x + bar.w + 5, bar.y + ((1 - t) / 2) * bar.h);

    // the columns drawn as waves (bottom right), each marked above the heatmap in its wave's colour
    const pairs = wavePairs(v.d_model / 2);
    pairs.forEach((i, j) => marker(ctx, WAVE_MARKS[j][1], WAVE_MARKS[j][0],
      heat.x + ((2 * i + 0.5) / v.d_model) * heat.w, heat.y - 7, 4.5));

    // top right: the chosen position's vector, sines at even dimensions, cosines at odd ones, under a
    // legend of one row, or two where the panel is narrow
    const entries = [[SIN_COLOUR, [], "sin (dims 0, 2, 4, \u2026)"], [COS_COLOUR, [5, 3], "cos (dims 1, 3, 5, \u2026)"]];
    const plot = { x: bar.x + bar.w + 62 };
    plot.w = width - plot.x - 14;
    ctx.font = `12px ${FONT}`;
    const oneRow = entries.reduce((sum, e) => sum + 50 + ctx.measureText(e[2]).width, 0) <= plot.w;
    ctx.font = `13px ${FONT}`;
    plot.y = heat.y + (oneRow ? 26 : 42);
    plot.h = heat.y + 200 - plot.y;
    let squares = 0;
    const row = v.position * v.d_model;
    for (let k = 0; k < v.d_model; k++) squares += table[row + k] * table[row + k];
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    const norm = Number(Math.sqrt(squares).toPrecision(3));
    const title = `the vector PE[${v.position}]   (norm ${norm} = \u221a(d/2))`;
    ctx.fillText(ctx.measureText(title).width <= plot.w + 40 ? title : `PE[${v.position}], norm ${norm}`,
      plot.x + plot.w / 2, 22);
    const px = (k) => plot.x + ((k + 0.5) / v.d_model) * plot.w;
    const py = (y) => plot.y + ((1.15 - y) / 2.3) * plot.h;
    ctx.strokeStyle = "#bbb";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(plot.x, py(0));
    ctx.lineTo(plot.x + plot.w, py(0));
    ctx.stroke();
    for (const [offset, colour] of [[0, SIN_COLOUR], [1, COS_COLOUR]]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.setLineDash(offset ? [5, 3] : []);
      ctx.beginPath();
      for (let k = offset; k < v.d_model; k += 2) {
        const x = px(k), y = py(table[row + k]);
        if (k === offset) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.strokeStyle = INK;
    ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
    axisTicks(ctx, ticks(0, v.d_model - 1, 5, true), px, plot.y + plot.h, "x");
    axisTicks(ctx, [-1, 0, 1], py, plot.x, "y");
    ctx.fillStyle = INK;
    ctx.textAlign = "center";
    ctx.fillText("dimension", plot.x + plot.w / 2, plot.y + plot.h + 42);
    // the legend above the curves, never on them
    if (oneRow) legend(ctx, plot.x + 4, heat.y + 8, entries);
    else entries.forEach((entry, k) => legend(ctx, plot.x + 4, heat.y + 6 + 16 * k, [entry]));

    // bottom right: the sine column of each chosen pair over all positions, stacked, fastest on top,
    // the chosen position marked by a vertical line
    const wave = { x: plot.x, w: plot.w, y: plot.y + plot.h + 92 };
    wave.h = heat.y + heat.h - wave.y;
    const omegaOf = (i) => Math.pow(v.base, (-2 * i) / v.d_model);
    const waves = pairs.map((i) => {
      const values = new Float64Array(v.length);
      for (let p = 0; p < v.length; p++) values[p] = table[p * v.d_model + 2 * i];
      return { pair: i, wavelength: (2 * Math.PI) / omegaOf(i), values };
    });
    ctx.fillStyle = INK;
    ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    const waveTitle = "sin(p\u00b7\u03c9_i) of a few pairs i, fastest on top";
    ctx.fillText(ctx.measureText(waveTitle).width <= wave.w + 40 ? waveTitle : "sin(p\u00b7\u03c9_i), fastest on top",
      wave.x + wave.w / 2, wave.y - 14);
    const span = WAVE_GAP * 3 + 2.6; // four waves' room, as the kernel-drawn explorer's axis: 1.3 above, below
    const wx = (p) => wave.x + ((p + 0.5) / v.length) * wave.w;
    const wy = (j, y) => wave.y + ((1.3 - y + WAVE_GAP * j) / span) * wave.h;
    waves.forEach(({ pair, wavelength, values }, j) => {
      const [colour, shape] = WAVE_MARKS[j];
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (let p = 0; p < v.length; p++) {
        if (p === 0) ctx.moveTo(wx(p), wy(j, values[p]));
        else ctx.lineTo(wx(p), wy(j, values[p]));
      }
      ctx.stroke();
      marker(ctx, shape, colour, wx(0), wy(j, values[0]), 4);
      ctx.fillStyle = INK;
      ctx.font = `12px ${FONT}`;
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      ctx.fillText(`pair ${pair}`, wave.x - 8, wy(j, 0) - 7);
      ctx.fillText(`\u03bb=${shortNumber(wavelength)}`, wave.x - 8, wy(j, 0) + 8);
      ctx.font = `13px ${FONT}`;
    });
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(wx(v.position), wave.y);
    ctx.lineTo(wx(v.position), wave.y + wave.h);
    ctx.stroke();
    ctx.strokeRect(wave.x - 0.5, wave.y - 0.5, wave.w + 1, wave.h + 1);
    axisTicks(ctx, ticks(0, v.length - 1, 5, true), wx, wave.y + wave.h, "x");
    ctx.fillStyle = INK;
    ctx.textAlign = "center";
    ctx.fillText("position", wave.x + wave.w / 2, wave.y + wave.h + 42);

    canvas.setAttribute("aria-label", `Sinusoidal table, ${v.length} positions by ${v.d_model} dimensions, `
      + `base ${formatBase(v.base)}; row ${v.position} marked and drawn top right; below it the sine of pairs `
      + `${pairs.join(", ")} over all positions`);
    const drawMs = performance.now() - start;
    registry[id] = { ...v, table, image, waves, draw_ms: drawMs };
    Object.assign(root.dataset, {
      dModel: v.d_model, position: v.position, length: v.length, base: v.base,
      drawMs: drawMs.toFixed(2), draws: String(Number(root.dataset.draws) + 1),
    });
  }

  const resize = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    const width = Math.max(520, Math.min(900, Math.round(root.clientWidth || 860)));
    if (Math.round(width * (globalThis.devicePixelRatio || 1)) !== canvas.width) draw();
  });
  if (resize) resize.observe(root);
  draw();

  return () => {
    for (const [name, listener] of listeners) inputs[name].removeEventListener("input", listener);
    for (const { name } of CONTROLS) model.off(`change:${name}`, onModelChange);
    if (resize) resize.disconnect();
    delete registry[id];
  };
}

function axisTicks(ctx, values, at, edge, axis) {
  ctx.fillStyle = INK;
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.font = `12px ${FONT}`;
  for (const t of values) {
    const p = at(t);
    ctx.beginPath();
    if (axis === "x") {
      ctx.moveTo(p, edge);
      ctx.lineTo(p, edge + 4);
      ctx.stroke();
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(String(t).replace("-", "\u2212"), p, edge + 7);
    } else {
      ctx.moveTo(edge, p);
      ctx.lineTo(edge - 4, p);
      ctx.stroke();
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      ctx.fillText(String(t).replace("-", "\u2212"), edge - 7, p);
    }
  }
  ctx.font = `13px ${FONT}`;
  ctx.textBaseline = "alphabetic";
}

/** A filled marker centred on (x, y): Matplotlib's "v" (triangle down), "s", "D" or "o", about r pixels out. */
function marker(ctx, shape, colour, x, y, r) {
  ctx.fillStyle = colour;
  ctx.beginPath();
  if (shape === "v") {
    ctx.moveTo(x - r, y - r * 0.8);
    ctx.lineTo(x + r, y - r * 0.8);
    ctx.lineTo(x, y + r);
  } else if (shape === "s") {
    ctx.rect(x - r * 0.8, y - r * 0.8, 1.6 * r, 1.6 * r);
  } else if (shape === "D") {
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r * 0.8, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r * 0.8, y);
  } else {
    ctx.arc(x, y, r * 0.85, 0, 2 * Math.PI);
  }
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = INK;
}

function legend(ctx, x, y, entries) {
  ctx.font = `12px ${FONT}`;
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const [colour, dash, text] of entries) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 22, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = INK;
    ctx.fillText(text, x + 28, y);
    x += 28 + ctx.measureText(text).width + 22;
  }
  ctx.font = `13px ${FONT}`;
  ctx.textBaseline = "alphabetic";
}

export default { render };
