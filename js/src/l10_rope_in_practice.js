// Lesson 10's explorer, computed and drawn by the browser: RoPE's angles p·ω_i computed in float16,
// bfloat16 or float32, against float64. Left, the angle error of every pair at the chosen position for
// the three dtypes (the chosen one bold); right, the largest error over the pairs against the position
// (computed once in Python and sent: it does not change with the sliders), the position marked.
//
// The per-pair errors are computed here as helpers.measure.l10_rope_in_practice.angle_error computes
// them with torch: the position (an integer) and ω_i (float64, sent) are converted to the dtype (torch
// goes through float32: float64 → float32 → dtype, each rounded to nearest, ties to even), multiplied
// there (exactly, then rounded once to the dtype, as torch's CPU kernels do in float32), brought back to
// float64, and the difference from p·ω_i in float64 wrapped to [−π, π) (torch.remainder) and made positive.

import { mount, stubModel } from "./explorer.js";
import { COLOURS, DASHES, EMPHASIS, FONT, TICK_PX, curve, dots, general, legend, linear, log, panel, text } from "./plot.js";

export { stubModel };

export const DTYPES = ["float16", "bfloat16", "float32"];
const STYLES = { float16: [COLOURS.blue, DASHES.solid], bfloat16: [COLOURS.vermillion, DASHES.dashed],
  float32: [COLOURS.green, DASHES.dashdot] };
export const FLOOR = 1e-9; // errors of exactly 0 drawn here, on the log axis
const ERROR_TICKS = [1e-8, 1e-6, 1e-4, 1e-2, 1];
const ERROR_LABELS = ["1e-8", "1e-6", "1e-4", "0.01", "1"];
const POSITION_TICKS = [1, 10, 100, 1e3, 1e4, 1e5];
const POSITION_LABELS = ["1", "10", "100", "1000", "10⁴", "10⁵"];

/** The exponent e of a finite nonzero |x|: 2^e ≤ |x| < 2^(e+1). */
function exponent(a) {
  let e = Math.floor(Math.log2(a));
  while (Math.pow(2, e) > a) e -= 1;
  while (Math.pow(2, e + 1) <= a) e += 1;
  return e;
}

/** x rounded to nearest, ties to even, on a grid of `bits` significant bits (subnormal below 2^emin),
 *  infinity past `largest` (an IEEE binary format's rounding). */
function roundToBits(x, bits, emin, largest) {
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  const ulp = Math.pow(2, Math.max(exponent(a), emin) - bits + 1);
  const q = a / ulp; // exact: a power of two
  const f = Math.floor(q);
  const r = q - f > 0.5 || (q - f === 0.5 && f % 2 === 1) ? f + 1 : f;
  const out = r * ulp;
  return Math.sign(x) * (out > largest ? Infinity : out);
}

/** A float32 value rounded to `dtype` ("float16", "bfloat16" or "float32"), as torch's c10 conversions do. */
export function fromFloat32(x, dtype) {
  if (dtype === "float32") return x;
  if (dtype === "float16") return roundToBits(x, 11, -14, 65504);
  if (dtype === "bfloat16") return roundToBits(x, 8, -126, (2 - Math.pow(2, -7)) * Math.pow(2, 127));
  throw new Error(`unknown dtype ${dtype}`);
}

/** A float64 (or integer) value converted to `dtype` as torch's .to(dtype) does: through float32. */
export function toDtype(x, dtype) {
  return fromFloat32(Math.fround(x), dtype);
}

/** torch.remainder(θ + π, 2π) − π: an angle brought into [−π, π) (inf and nan give nan). */
export function wrapAngle(theta) {
  const b = 2 * Math.PI;
  let mod = (theta + Math.PI) % b; // C's fmod
  if (mod !== 0 && mod < 0) mod += b;
  return mod - Math.PI;
}

/** angle_error at one position: |wrap(p·ω_i computed in dtype − p·ω_i in float64)| per pair (nan where inf). */
export function angleErrors(position, omega, dtype) {
  const p = toDtype(position, dtype);
  const errors = new Float64Array(omega.length);
  for (let i = 0; i < omega.length; i++) {
    const w = toDtype(omega[i], dtype);
    const low = fromFloat32(Math.fround(p * w), dtype); // the exact product rounded once
    errors[i] = Math.abs(wrapAngle(low - position * omega[i]));
  }
  return errors;
}

/** precision_view: how the dtype stores the position, each pair's error, the largest, the pairs off > 0.1 rad. */
export function precisionView(position, omega, dtype) {
  const stored = toDtype(position, dtype);
  const errors = angleErrors(position, omega, dtype);
  if (!Number.isFinite(stored)) return { position, stored, errors, worst: NaN, pairs_off: omega.length };
  let worst = -Infinity, off = 0;
  for (const e of errors) {
    worst = Math.max(worst, e);
    if (e > 0.1) off += 1;
  }
  return { position, stored, errors, worst, pairs_off: off };
}

/** Python's round: to the nearest integer, halves to even. */
export function roundHalfEven(x) {
  const f = Math.floor(x);
  return x - f > 0.5 || (x - f === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

/** The lines above the panels: the dtype and d, how the position is stored, the largest error, the pairs off. */
export function headingLines(p, dtype, view, pairs) {
  const summary = Number.isFinite(view.stored)
    ? [`${dtype} stores position ${p} as ${general(view.stored, 6)}; largest angle error ${general(view.worst, 2)} rad,`,
      `${view.pairs_off} of ${pairs} pairs off by more than 0.1 rad`]
    : [`${dtype} stores position ${p} as infinity: every angle is lost`];
  return [`angles p·ω_i computed in ${dtype}, d = ${2 * pairs}`, ...summary];
}

/** A view as plain numbers a test reads: "inf" for an infinite position, null for nan. */
function plain(view) {
  const number = (x) => (Number.isNaN(x) ? null : x);
  return { position: view.position, stored: Number.isFinite(view.stored) ? view.stored : "inf",
    errors: Array.from(view.errors, number), worst: number(view.worst), pairs_off: view.pairs_off };
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 440, wide: true } : { width: w, height: 130 + 2 * 290 + 30, wide: false };
}

function errorAxis(ctx, box, x, xOptions, yLabels = true) {
  return panel(ctx, box, x, log().domain([FLOOR / 2, 10]), {
    yTickValues: ERROR_TICKS, yFormat: (t) => (yLabels ? ERROR_LABELS[ERROR_TICKS.indexOf(t)] : ""), ...xOptions,
  });
}

function oneRadian(ctx, p) {
  ctx.save();
  ctx.strokeStyle = EMPHASIS;
  ctx.lineWidth = 1;
  ctx.setLineDash(DASHES.dotted);
  ctx.beginPath();
  ctx.moveTo(p.box.x, p.y(1));
  ctx.lineTo(p.box.x + p.box.w, p.y(1));
  ctx.stroke();
  ctx.restore();
}

/** The curve through the points of (xs, ys) where y is a number, split where it is not. */
function gappedCurve(ctx, p, xs, ys, style) {
  let run = [];
  const flush = () => {
    if (run.length) curve(ctx, p, run.map((k) => xs[k]), run.map((k) => ys[k]), style);
    run = [];
  };
  ys.forEach((y, k) => (y === null || Number.isNaN(y) ? flush() : run.push(k)));
  flush();
}

function draw(ctx, v, size) {
  const omega = Float64Array.from(v.omega);
  const pairs = omega.length;
  const p = roundHalfEven(v.position);
  const views = Object.fromEntries(DTYPES.map((name) => [name, precisionView(p, omega, name)]));
  const view = views[v.dtype];

  const heading = headingLines(p, v.dtype, view, pairs);
  // the heading's lines, each wrapped at a word where the canvas is narrower than it
  const shown = [];
  heading.forEach((line, k) => {
    ctx.font = `${k === 0 ? "bold " : ""}13px ${FONT}`;
    let current = "";
    for (const word of line.split(" ")) {
      const next = current ? `${current} ${word}` : word;
      if (current && ctx.measureText(next).width > size.width - 16) {
        shown.push([current, k]);
        current = word;
      } else current = next;
    }
    shown.push([current, k]);
  });
  shown.forEach(([line, k], row) => text(ctx, line, 8, 16 + 17 * row, { px: 13, weight: k === 0 ? "bold" : "" }));
  const legendY = 16 + 17 * Math.max(3, shown.length) + 4;
  legend(ctx, 8, legendY, DTYPES.map((name) => ({ colour: STYLES[name][0], dash: STYLES[name][1],
    label: name === v.dtype ? `${name} (chosen)` : name })));

  const top = legendY + 36;
  const boxes = size.wide
    ? [{ x: 64, y: top, w: (size.width - 64 - 40) / 2, h: size.height - top - 48 }]
    : [{ x: 64, y: top, w: size.width - 64 - 20, h: 230 }];
  boxes.push(size.wide ? { x: boxes[0].x + boxes[0].w + 24, y: top, w: boxes[0].w, h: boxes[0].h }
    : { x: 64, y: top + 230 + 80, w: boxes[0].w, h: 230 });

  // left: every pair's error at the position, the three dtypes, the chosen one bold
  const last = pairs - 1, every = Math.max(1, Math.floor(pairs / 4)); // as pair_ticks: every d/8, then the last
  const pairTicks = [...Array.from({ length: Math.ceil(last / every) }, (_, k) => k * every), last];
  const byPair = errorAxis(ctx, boxes[0], linear().domain(last > 0 ? [0, last] : [-0.5, 0.5]), {
    xTickValues: pairTicks, xFormat: String, xName: "pair i (fast → slow)", yName: "angle error (rad)",
  });
  oneRadian(ctx, byPair);
  text(ctx, "1 rad", boxes[0].x + boxes[0].w - 4, byPair.y(1) - 4, { align: "right", px: TICK_PX, colour: "#B34700" });
  const indices = Array.from({ length: pairs }, (_, i) => i);
  const drawnErrors = {};
  for (const name of [...DTYPES.filter((n) => n !== v.dtype), v.dtype]) {
    const ys = Array.from(views[name].errors, (e) => (Number.isNaN(e) ? null : Math.max(e, FLOOR)));
    drawnErrors[name] = ys;
    const [colour, dash] = STYLES[name];
    ctx.globalAlpha = name === v.dtype ? 1 : 0.45;
    gappedCurve(ctx, byPair, indices, ys, { colour, dash, width: name === v.dtype ? 2.4 : 1.0 });
    ctx.globalAlpha = 1;
  }
  text(ctx, `every pair's angle error at position ${p}`, boxes[0].x, boxes[0].y - 8, { px: TICK_PX });

  // right: the largest error against the position (sent), the position marked
  const byPosition = errorAxis(ctx, boxes[1], log().domain([1, 1e5]), {
    xTickValues: POSITION_TICKS, xFormat: (t) => POSITION_LABELS[POSITION_TICKS.indexOf(t)], xName: "position",
  }, !size.wide); // side by side, the two panels share the error axis's labels
  oneRadian(ctx, byPosition);
  for (const name of DTYPES) {
    const [colour, dash] = STYLES[name];
    gappedCurve(ctx, byPosition, v.sweep, v.sweep_worst[name], { colour, dash, width: 1.2 });
  }
  ctx.save();
  ctx.strokeStyle = "#4d4d4d";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(byPosition.x(p), boxes[1].y);
  ctx.lineTo(byPosition.x(p), boxes[1].y + boxes[1].h);
  ctx.stroke();
  ctx.restore();
  const marker = Number.isNaN(view.worst) ? null : Math.max(view.worst, FLOOR);
  if (marker !== null) dots(ctx, byPosition, [p], [marker], { fill: "#000", radius: 4.5 });
  text(ctx, "largest angle error over the pairs", boxes[1].x, boxes[1].y - 8, { px: TICK_PX });

  return { position: p, dtype: v.dtype, views: Object.fromEntries(DTYPES.map((n) => [n, plain(views[n])])),
    drawn_errors: drawnErrors, marker, heading, sweep: v.sweep, sweep_worst: v.sweep_worst };
}

function describe(v, drawn) {
  const view = drawn.views[v.dtype];
  if (view.stored === "inf") return `RoPE's angles computed in ${v.dtype}: it stores position ${drawn.position} as `
    + "infinity, so every angle is lost.";
  return `RoPE's angles computed in ${v.dtype} at position ${drawn.position} (stored as ${general(view.stored, 6)}): the largest `
    + `angle error is ${general(view.worst, 2)} rad, ${view.pairs_off} of ${view.errors.length} pairs are off by `
    + "more than 0.1 rad.";
}

function render({ model, el }) {
  return mount({ model, el }, {
    name: "angle-precision",
    controls: [
      { name: "position", label: "query position", min: 1, max: 100000, step: 0.02, log: true,
        format: (x) => String(roundHalfEven(x)) },
      { name: "dtype", label: "angles computed in", options: DTYPES, min: DTYPES[0], max: DTYPES[DTYPES.length - 1],
        step: 1 },
    ],
    constants: ["omega", "sweep", "sweep_worst", "d", "base"],
    layout, draw, describe,
  });
}

export default { render };
