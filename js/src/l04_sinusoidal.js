// Lesson 04's explorer, computed and drawn by the browser: the sinusoidal table as helpers.sinusoidal
// computes it,
//   omega_i = base^(-2i / d_model),  PE[p, 2i] = sin(p * omega_i),  PE[p, 2i + 1] = cos(p * omega_i),
// in three panels: the
// table as a heatmap (cividis, the course's signed colour map) with the chosen position's row marked; that row (the
// position's vector); the sine column of a few frequency pairs (the fastest, two middle ones, the
// slowest: wavePairs) over all positions, stacked, each labelled with its pair index i and wavelength,
// the chosen position marked. Side by side from 600 px wide, one under another below.
//
// What a draw returns (the test contract's `drawn`): the chosen row, its norm, the pairs drawn and
// their waves; the whole table (a Float64Array, row by row) and its heatmap image (a canvas d_model
// pixels wide, one pixel per entry, whose top `length` rows are the table's) are on it too, as
// properties that are not enumerable (a million numbers at the largest settings, read only by the tests
// that ask for them).

import { interpolateCividis } from "d3-scale-chromatic";

import { mount, stubModel } from "./explorer.js";
import {
  COLOURS, DASHES, FONT, INK, LIGHT, TICK_PX, curve, general, legend, level, linear, minus, panel, text,
} from "./plot.js";

export { stubModel };

export const LIMITS = {
  d_model: { min: 2, max: 1024, step: 2 },
  length: { min: 8, max: 1024, step: 8 },
  log10_base: { min: 1, max: 6, step: 0.05 },
};

// The course's signed colour map, cividis (dark blue at -1, grey at 0, yellow at +1: lightness rises
// throughout, so the sign survives in greyscale and for colour-blind readers), from d3-scale-chromatic,
// sampled into 256 entries once, as Matplotlib samples its colour maps
const LUT_SIZE = 256;
const LUT = (() => {
  const lut = new Uint8ClampedArray(LUT_SIZE * 3);
  for (let k = 0; k < LUT_SIZE; k++) {
    lut.set(interpolateCividis(k / (LUT_SIZE - 1)).match(/\d+/g).map(Number), 3 * k); // "rgb(r, g, b)"
  }
  return lut;
})();

// the waves, fastest first: a colour and a marker each (Matplotlib's v, s, D, o, as in the still
// picture), the same as their column's mark above the heatmap
const WAVE_MARKS = [[COLOURS.blue, "v"], [COLOURS.vermillion, "s"], [COLOURS.green, "D"], [COLOURS.purple, "o"]];
const WAVE_GAP = 2.4; // the waves' spacing, in units of their amplitude

/** Rows from … to - 1 of the sinusoidal table of d_model columns, written into `table` (row by row). The
 * first from the formula; each next row turns every pair (sin, cos) of the row before by its angle
 * omega_i, as lesson 05 shows the table does: sin(a + w) = sin a cos w + cos a sin w and
 * cos(a + w) = cos a cos w - sin a sin w, four products for two calls of Math.sin and Math.cos (a
 * thousand turns leave it within 1e-12 of the formula). */
function fillRows(table, dModel, base, from, to) {
  const half = dModel / 2;
  const turnCos = new Float64Array(half), turnSin = new Float64Array(half);
  const row = from * dModel;
  for (let i = 0; i < half; i++) {
    const omega = Math.pow(base, (-2 * i) / dModel);
    turnCos[i] = Math.cos(omega);
    turnSin[i] = Math.sin(omega);
    const angle = from * omega;
    table[row + 2 * i] = Math.sin(angle);
    table[row + 2 * i + 1] = Math.cos(angle);
  }
  for (let at = row + dModel; at < to * dModel; at += dModel) {
    for (let k = 0; k < dModel; k += 2) {
      const sin = table[at - dModel + k], cos = table[at - dModel + k + 1];
      table[at + k] = sin * turnCos[k / 2] + cos * turnSin[k / 2];
      table[at + k + 1] = cos * turnCos[k / 2] - sin * turnSin[k / 2];
    }
  }
}

/** The (length × d_model) sinusoidal table, row by row, in double precision. */
export function sinusoidalTable(length, dModel, base) {
  const table = new Float64Array(length * dModel);
  fillRows(table, dModel, base, 0, length);
  return table;
}

/** Python's round(): halves go to the even neighbour. */
function roundHalfEven(x) {
  const floor = Math.floor(x);
  if (x - floor !== 0.5) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The pairs drawn as waves: up to four, spread from the fastest (0) to the slowest (nPairs - 1), as
 * the still picture picks them (round(f * (nPairs - 1)) for f = 0, 1/8, 1/3, 1, each once). */
export function wavePairs(nPairs) {
  const last = nPairs - 1;
  const picked = new Set([0.0, 1 / 8, 1 / 3, 1.0].map((f) => roundHalfEven(f * last)));
  return [...picked].sort((a, b) => a - b);
}

/** The waves drawn bottom right, fastest first: for each pair i of wavePairs, its sine column 2i of the
 * table (sin(p * omega_i) at every position p) and its wavelength 2 pi / omega_i. */
export function waveColumns(table, length, dModel, base) {
  return wavePairs(dModel / 2).map((i) => {
    const values = new Float64Array(length);
    for (let p = 0; p < length; p++) values[p] = table[p * dModel + 2 * i];
    return { pair: i, wavelength: (2 * Math.PI) / Math.pow(base, (-2 * i) / dModel), values };
  });
}

/** A positive number, short: 6.28, 628, 54.5k, 5.95M (as the still picture labels wavelengths). */
export function shortNumber(x) {
  const three = (y) => Number(y.toPrecision(3)).toString();
  if (x < 999.5) return three(x);
  if (x < 999.5e3) return `${three(x / 1e3)}k`;
  return `${three(x / 1e6)}M`;
}

/** The heatmap's colour of a value (clipped to -1..1), as [r, g, b]: the 256-entry cividis. */
export function colourOf(value) {
  const x = (Math.min(Math.max(value, -1), 1) + 1) / 2;
  const k = Math.min(Math.floor(x * LUT_SIZE), LUT_SIZE - 1);
  return [LUT[3 * k], LUT[3 * k + 1], LUT[3 * k + 2]];
}

/** The base as a reader writes it: 10 000, 1 000 000, 17.8, 316. */
export function formatBase(base) {
  if (base >= 1000) {
    const rounded = Number(base.toPrecision(3));
    return Math.round(rounded).toString().replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
  }
  return Number(base.toPrecision(3)).toString();
}

let barImage = null;

/** The colour bar's picture: one pixel wide, the colour map's entries from +1 (top) to -1. */
function colourBar() {
  if (barImage) return barImage;
  barImage = document.createElement("canvas");
  barImage.width = 1;
  barImage.height = LUT_SIZE;
  const ctx = barImage.getContext("2d");
  const pixels = ctx.createImageData(1, LUT_SIZE);
  for (let k = 0; k < LUT_SIZE; k++) {
    const c = 3 * (LUT_SIZE - 1 - k);
    pixels.data.set([LUT[c], LUT[c + 1], LUT[c + 2], 255], 4 * k);
  }
  ctx.putImageData(pixels, 0, 0);
  return barImage;
}

// The table and its heatmap, kept from step to step. A row depends only on its position, d_model and the
// base, so a longer length adds rows, a shorter one shows fewer, and a new position computes none; the
// buffers grow, never shrink, and are reused when the base moves: a step allocates no new table (a new
// buffer to fill, and later to collect, costs the browser more than the rows themselves).
// One per explorer on the page (keyed by its canvas): {d_model, base, rows (rows computed), table
// (Float64Array), pixels (ImageData d_model wide), image}
const keptFor = new WeakMap();

// the same entries packed as one 32-bit RGBA pixel each (in the machine's byte order, as ImageData holds them)
const LUT_RGBA = (() => {
  const packed = new Uint32Array(LUT_SIZE);
  const bytes = new Uint8Array(packed.buffer);
  for (let k = 0; k < LUT_SIZE; k++) bytes.set([LUT[3 * k], LUT[3 * k + 1], LUT[3 * k + 2], 255], 4 * k);
  return packed;
})();

/** Rows from … to - 1 of the heatmap: each entry's cividis colour (colourOf's, one store a pixel). */
function colourRows(table, pixels, from, to) {
  const data = new Uint32Array(pixels.data.buffer);
  const end = to * pixels.width; // read once: each read of an ImageData's size is a call into the browser
  for (let k = from * pixels.width; k < end; k++) {
    const entry = Math.floor((table[k] + 1) * (LUT_SIZE / 2)); // (value + 1) / 2 of the way along the map
    data[k] = LUT_RGBA[entry < 0 ? 0 : entry >= LUT_SIZE ? LUT_SIZE - 1 : entry];
  }
}

function tableFor({ d_model: d, length, base }, canvas) {
  if (!keptFor.has(canvas)) {
    keptFor.set(canvas, { image: document.createElement("canvas"), table: new Float64Array(0), pixels: null });
  }
  const kept = keptFor.get(canvas);
  const image = kept.image;
  // the tests read it back; a canvas kept on the CPU side is also cheaper to redraw from after a change
  const ctx = image.getContext("2d", { willReadFrequently: true });
  if (kept.d_model !== d || kept.pixels.height < length) { // room for twice the rows, up to the slider's end
    const rows = Math.min(LIMITS.length.max, Math.max(length, 2 * (kept.d_model === d ? kept.pixels.height : 0)));
    if (kept.table.length < rows * d) kept.table = new Float64Array(rows * d);
    kept.pixels = ctx.createImageData(d, rows);
    image.width = d; // a new size clears the canvas: every row is drawn again
    image.height = rows;
    Object.assign(kept, { d_model: d, rows: 0 });
  }
  if (kept.base !== base) Object.assign(kept, { base, rows: 0 });
  if (kept.rows < length) {
    fillRows(kept.table, d, base, kept.rows, length);
    colourRows(kept.table, kept.pixels, kept.rows, length);
    ctx.putImageData(kept.pixels, 0, 0, 0, kept.rows, d, length - kept.rows);
    kept.rows = length;
  }
  return { table: kept.table.subarray(0, length * d), image };
}

// as wide as the site's column: a wider, taller canvas costs the browser more to paint at every step
const WIDEST = 784;
const NARROW = { heat: 320, vector: 180, wave: 230 }; // the panels' heights, one under another

function layout(width) {
  const w = Math.max(300, Math.min(width, WIDEST));
  if (w >= 600) return { width: w, height: 500, wide: true };
  return { width: w, height: 36 + NARROW.heat + 80 + NARROW.vector + 92 + NARROW.wave + 56, wide: false };
}

/** Where each panel goes: the heatmap and its colour bar, the vector, the waves. */
function boxes(size, oneRow) {
  const { width, height, wide } = size;
  const heat = wide
    ? { x: 66, y: 36, w: Math.round(width * 0.4), h: height - 36 - 56 }
    : { x: 66, y: 36, w: width - 66 - 56, h: NARROW.heat };
  const bar = { x: heat.x + heat.w + 12, y: heat.y, w: 12, h: heat.h };
  const x = wide ? bar.x + bar.w + 62 : 74;
  const top = wide ? heat.y : heat.y + heat.h + 80; // the top of the vector's legend
  const vector = { x, w: width - x - 14, y: top + (oneRow ? 26 : 42) };
  vector.h = top + (wide ? 160 : NARROW.vector) - vector.y;
  const wave = { x, w: vector.w, y: vector.y + vector.h + 92 };
  wave.h = wide ? heat.y + heat.h - wave.y : NARROW.wave;
  return { heat, bar, vector, wave, top };
}

/** A filled marker centred on (x, y): Matplotlib's "v" (triangle down), "s", "D" or "o", about r px out. */
function marker(ctx, shape, colour, x, y, r) {
  ctx.save();
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
  ctx.restore();
}

/** Integer ticks of a scale over cells -0.5 … n - 0.5, labelled as integers. */
function cellTicks(scale, n) {
  return { values: scale.ticks(4).filter((t) => Number.isInteger(t) && t >= 0 && t <= n - 1), format: String };
}

/** Text centred at x, or `short` where `long` would be wider than `room` or leave the canvas. */
function title(ctx, long, short, x, y, room, width) {
  ctx.font = `13px ${FONT}`;
  const fits = ctx.measureText(long).width <= Math.min(room, 2 * Math.min(x, width - x) - 4);
  text(ctx, fits ? long : short, x, y, { align: "center" });
}

function draw(ctx, v, size) {
  const { table, image } = tableFor(v, ctx.canvas);
  const { d_model: d, position, length, base } = v;
  const entries = [
    { colour: COLOURS.blue, label: "sin (dims 0, 2, 4, \u2026)" },
    { colour: COLOURS.vermillion, dash: DASHES.dashed, label: "cos (dims 1, 3, 5, \u2026)" },
  ];
  ctx.font = `${TICK_PX}px ${FONT}`;
  const legendWidth = entries.reduce((sum, e) => sum + 48 + ctx.measureText(e.label).width, 0);
  const oneRow = size.wide && legendWidth <= size.width - (Math.round(size.width * 0.4) + 66 + 86) - 14;
  const { heat, bar, vector, wave, top } = boxes(size, oneRow);

  // the table as a heatmap, the chosen position's row marked
  const ratio = globalThis.devicePixelRatio || 1;
  ctx.imageSmoothingEnabled = d > heat.w * ratio || length > heat.h * ratio; // average where it shrinks
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, 0, 0, d, length, heat.x, heat.y, heat.w, heat.h); // the image may hold more rows
  const hx = linear().domain([-0.5, d - 0.5]), hy = linear().domain([length - 0.5, -0.5]);
  const dims = cellTicks(hx, d), rows = cellTicks(hy, length);
  const map = panel(ctx, heat, hx, hy, { xName: "dimension", yName: "position", xTickValues: dims.values,
    xFormat: dims.format, yTickValues: rows.values, yFormat: rows.format });
  ctx.save();
  for (const [colour, width] of [["#fff", 4], ["#000", 2]]) { // a white edge keeps it seen on the dark blue
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(heat.x, map.y(position));
    ctx.lineTo(heat.x + heat.w, map.y(position));
    ctx.stroke();
  }
  ctx.restore();
  title(ctx, `PE: ${length} positions \u00d7 ${d} dims, base ${formatBase(base)}`,
    `PE: ${length} \u00d7 ${d}, base ${formatBase(base)}`, heat.x + heat.w / 2, 22, size.width, size.width);

  // the colour bar, -1 to 1: the colour map's 256 entries, +1 on top, one image stretched to the bar
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(colourBar(), bar.x, bar.y, bar.w, bar.h);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeRect(bar.x, bar.y, bar.w, bar.h);
  for (const t of [-1, 0, 1]) {
    text(ctx, minus(String(t)), bar.x + bar.w + 5, bar.y + ((1 - t) / 2) * bar.h, { baseline: "middle", px: TICK_PX });
  }

  // the columns drawn as waves, each marked above the heatmap in its wave's colour and marker
  const pairs = wavePairs(d / 2);
  pairs.forEach((i, j) => marker(ctx, WAVE_MARKS[j][1], WAVE_MARKS[j][0], map.x(2 * i), heat.y - 7, 4.5));

  // the chosen position's vector: sines at even dimensions, cosines at odd ones, under its legend
  const row = table.subarray(position * d, (position + 1) * d);
  let squares = 0;
  for (let k = 0; k < d; k++) squares += row[k] * row[k];
  const norm = Math.sqrt(squares);
  const even = Float64Array.from({ length: d / 2 }, (_, i) => 2 * i);
  const odd = even.map((k) => k + 1);
  const vx = linear().domain([-0.5, d - 0.5]), vy = linear().domain([-1.15, 1.15]);
  const vecTicks = cellTicks(vx, d);
  const vec = panel(ctx, vector, vx, vy, { xName: "dimension", xTickValues: vecTicks.values,
    xFormat: vecTicks.format, yTickValues: [-1, 0, 1], yFormat: String });
  level(ctx, vec, 0, { colour: LIGHT, dash: DASHES.solid });
  curve(ctx, vec, even, even.map((k) => row[k]), { colour: COLOURS.blue });
  curve(ctx, vec, odd, odd.map((k) => row[k]), { colour: COLOURS.vermillion, dash: DASHES.dashed });
  title(ctx, `the vector PE[${position}]   (norm ${general(norm)} = \u221a(d/2))`,
    `PE[${position}], norm ${general(norm)}`, vector.x + vector.w / 2, top - 14, vector.w + 40, size.width);
  if (oneRow) legend(ctx, vector.x + 4, top + 8, entries);
  else entries.forEach((entry, k) => legend(ctx, vector.x + 4, top + 6 + 16 * k, [entry]));

  // the sine column of each chosen pair over all positions, stacked, fastest on top, the position marked
  const positions = Float64Array.from({ length }, (_, p) => p);
  const waves = waveColumns(table, length, d, base);
  const wx = linear().domain([-0.5, length - 0.5]), wy = linear().domain([-WAVE_GAP * 3 - 1.3, 1.3]);
  const waveTicks = cellTicks(wx, length);
  const waveBox = panel(ctx, wave, wx, wy, { xName: "position", xTickValues: waveTicks.values,
    xFormat: waveTicks.format, yTickValues: [] });
  waves.forEach(({ pair, wavelength, values }, j) => {
    const [colour, shape] = WAVE_MARKS[j];
    curve(ctx, waveBox, positions, values.map((y) => y - WAVE_GAP * j), { colour });
    marker(ctx, shape, colour, wx(0), wy(values[0] - WAVE_GAP * j), 4);
    text(ctx, `pair ${pair}`, wave.x - 8, wy(-WAVE_GAP * j) - 7, { align: "right", baseline: "middle", px: TICK_PX });
    text(ctx, `\u03bb=${shortNumber(wavelength)}`, wave.x - 8, wy(-WAVE_GAP * j) + 8,
      { align: "right", baseline: "middle", px: TICK_PX });
  });
  ctx.save();
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(wx(position), wave.y);
  ctx.lineTo(wx(position), wave.y + wave.h);
  ctx.stroke();
  ctx.restore();
  title(ctx, "sin(p\u00b7\u03c9_i) of a few pairs i, fastest on top", "sin(p\u00b7\u03c9_i), fastest on top",
    wave.x + wave.w / 2, wave.y - 14, wave.w + 40, size.width);

  const drawn = {
    d_model: d, position, length, base, row: Array.from(row), norm, pairs,
    waves: waves.map((w) => ({ pair: w.pair, wavelength: w.wavelength, values: Array.from(w.values) })),
    width: size.width, height: size.height,
  };
  return Object.defineProperties(drawn, { table: { value: table }, image: { value: image } });
}

function describe(v, drawn) {
  return `Sinusoidal table, ${v.length} positions by ${v.d_model} dimensions, base ${formatBase(v.base)}: `
    + `row ${v.position} marked and drawn as a vector (norm ${general(drawn.norm)}); below it the sine of `
    + `pairs ${drawn.pairs.join(", ")} over all positions.`;
}

function render({ model, el }) {
  const d = LIMITS.d_model, n = LIMITS.length, b = LIMITS.log10_base;
  return mount({ model, el }, {
    name: "sinusoidal",
    controls: [
      { name: "d_model", label: "d_model", min: d.min, max: d.max, step: d.step, integer: true },
      { name: "position", label: "position", min: 0, max: (values) => values.length - 1, step: 1, integer: true },
      { name: "length", label: "length", min: n.min, max: n.max, step: n.step, integer: true },
      { name: "base", label: "base", min: 10 ** b.min, max: 10 ** b.max, step: b.step, log: true, format: formatBase },
    ],
    layout, draw, describe, maxWidth: WIDEST,
  });
}

export default { render };
