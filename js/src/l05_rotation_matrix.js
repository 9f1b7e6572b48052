// Lesson 05's explorer, computed and drawn by the browser: for a few pairs i of PE, the point
// (sin pω_i, cos pω_i) on the unit circle as a clock hand (12 o'clock at p = 0, turning clockwise as p
// grows); grey PE(p), vermillion M_k·PE(p) = PE(p + k), the arc the turn k·ω_i, as
// helpers.measure.l05_rotation_matrix.shift_snapshot computes them.

import { mount, stubModel } from "./explorer.js";
import { EMPHASIS, LIGHT, TICK_PX, general, lines, text } from "./plot.js";

export { stubModel };

/** The pairs drawn: n_clocks indices spread from the fastest (0) to the slowest, as numpy's linspace, rounded
 *  half to even as Python's round, without repeats. */
export function clockPairs(dModel, nClocks) {
  const nPairs = dModel / 2;
  const n = Math.min(nClocks, nPairs);
  const roundHalfEven = (x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  };
  const picked = new Set();
  for (let k = 0; k < n; k++) picked.add(roundHalfEven(n === 1 ? 0 : (k * (nPairs - 1)) / (n - 1)));
  return [...picked].sort((a, b) => a - b);
}

/** shift_snapshot: PE(p), PE(p + k) as M_k turns it, ω_i and the turns k·ω_i/2π of every pair. */
export function shiftSnapshot(k, position, dModel, base) {
  const nPairs = dModel / 2;
  const omega = Float64Array.from({ length: nPairs }, (_, i) => Math.pow(base, (-2 * i) / dModel));
  const start = new Float64Array(dModel);
  const moved = new Float64Array(dModel);
  for (let i = 0; i < nPairs; i++) {
    start[2 * i] = Math.sin(position * omega[i]);
    start[2 * i + 1] = Math.cos(position * omega[i]);
    // M_k turns each pair by k·ω_i: (sin a, cos a) -> (sin(a + b), cos(a + b))
    const c = Math.cos(k * omega[i]), s = Math.sin(k * omega[i]);
    moved[2 * i] = start[2 * i] * c + start[2 * i + 1] * s;
    moved[2 * i + 1] = start[2 * i + 1] * c - start[2 * i] * s;
  }
  return { start, moved, omega, turns: omega.map((w) => (k * w) / (2 * Math.PI)) };
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  const cols = w >= 600 ? 4 : 2;
  return { width: w, cols };
}

function signed(x) {
  const shown = general(x);
  return x >= 0 ? `+${shown}` : shown;
}

function draw(ctx, v, size) {
  const pairs = clockPairs(v.d_model, v.n_clocks);
  const s = shiftSnapshot(v.k, v.position, v.d_model, v.base);
  const heading = `k = ${v.k}.   grey: PE(${v.position}),   vermillion: M_k·PE(${v.position}) = PE(${v.position + v.k})`;
  lines(ctx, size.cols === 4 ? [heading] : [`k = ${v.k}.   grey: PE(${v.position}),`,
    `vermillion: M_k·PE(${v.position}) = PE(${v.position + v.k})`], 8, 4);
  const top = size.cols === 4 ? 30 : 48;
  const cell = (size.width - 16) / size.cols;
  const radius = Math.min(cell * 0.36, 70);
  pairs.forEach((i, n) => {
    const cx = 8 + cell * (n % size.cols) + cell / 2;
    const cy = top + 44 + Math.floor(n / size.cols) * (2 * radius + 70) + radius * 1.15;
    const at = (x, y, r = radius) => [cx + r * x, cy - r * y];
    text(ctx, `pair ${i}: ω=${general(s.omega[i])}`, cx, cy - radius * 1.15 - 36, { align: "center", baseline: "top",
      px: TICK_PX });
    text(ctx, `k·ω/2π = ${signed(s.turns[i])} turns`, cx, cy - radius * 1.15 - 20, { align: "center", baseline: "top",
      px: TICK_PX });
    ctx.setLineDash([]);
    ctx.strokeStyle = LIGHT;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = "#4d4d4d";
    ctx.beginPath();
    ctx.arc(cx, cy, 2, 0, 2 * Math.PI);
    ctx.fill();
    const hand = (x, y, colour, width) => {
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.lineTo(...at(x, y));
      ctx.stroke();
    };
    hand(s.start[2 * i], s.start[2 * i + 1], "#999999", 2);
    // the arc: from the grey hand (angle p·ω_i) sweeping k·ω_i, at most one turn either way
    const sweep = Math.max(-2 * Math.PI, Math.min(2 * Math.PI, 2 * Math.PI * s.turns[i]));
    const t0 = v.position * s.omega[i];
    ctx.save();
    ctx.globalAlpha = 0.5;
    ctx.strokeStyle = EMPHASIS;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    for (let m = 0; m <= 60; m++) {
      const t = t0 + (sweep * m) / 60;
      const [x, y] = at(Math.sin(t), Math.cos(t), radius * 1.1);
      if (m === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
    ctx.restore();
    hand(s.moved[2 * i], s.moved[2 * i + 1], EMPHASIS, 2.5);
    ctx.fillStyle = EMPHASIS;
    ctx.beginPath();
    ctx.arc(...at(s.moved[2 * i], s.moved[2 * i + 1]), 4.5, 0, 2 * Math.PI);
    ctx.fill();
  });
  return {
    pairs, start: Array.from(s.start), moved: Array.from(s.moved), omega: Array.from(s.omega),
    turns: Array.from(s.turns),
  };
}

function describe(v, drawn) {
  return `Clock hands of pairs ${drawn.pairs.join(", ")} of PE(${v.position}) (grey) and of PE(${v.position + v.k}) `
    + `(vermillion), turned by k = ${v.k}.`;
}

function render({ model, el }) {
  const maxK = model.get("max_k") || 200;
  const pairs = (v) => clockPairs(v.d_model, v.n_clocks).length;
  return mount({ model, el }, {
    name: "clock-hands",
    controls: [
      { name: "k", label: "offset k", min: -maxK, max: maxK, step: 1, integer: true },
      { name: "position", label: "start p", min: 0, max: maxK, step: 1, integer: true },
    ],
    constants: ["d_model", "base", "n_clocks"],
    layout: (width) => {
      const size = layout(width);
      const cell = (size.width - 16) / size.cols;
      const radius = Math.min(cell * 0.36, 70);
      const rows = Math.ceil(pairs({ d_model: model.get("d_model"), n_clocks: model.get("n_clocks") }) / size.cols);
      return { ...size, height: (size.cols === 4 ? 30 : 48) + 44 + rows * (2 * radius + 70) };
    },
    draw, describe,
  });
}

export default { render };
