// Lesson 12's explorer, computed and drawn by the browser: 2-D axial RoPE on a grid of image patches. A
// query patch at (row, column) scores a key on every patch (left: the map over the grid, the query ringed);
// right, the score against the offset key − query, the same for every query, with the window that the
// current query's grid cuts out of it. q and k come from Python once (the widget's values); the turns of
// every pair by its axis's position are computed here, as helpers.measure.l12_rope_today's two_axis_split,
// grid_scores and offset_scores compute them (multi_axis_rope, half layout: pair i = features (i, i + d/2)).

import { mount, stubModel } from "./explorer.js";
import { DASHES, GREY, INK, TICK_PX, general, linear, lines, minus, panel, text, viridis } from "./plot.js";

export { stubModel };

export const SPLITS = ["halves", "alternate pairs", "blocks"];

/** two_axis_split: each pair's frequency and axis (0: row, 1: column) for a head of d features. */
export function splitAxes(d, split, base) {
  const h = d / 2, quarter = d / 4;
  const freqs = new Float64Array(h), axes = new Int32Array(h);
  for (let i = 0; i < h; i++) {
    if (split === "halves") { // axial_2d: each half with the frequencies of a head of d/2 features
      freqs[i] = Math.pow(base, (-2 * (i % quarter)) / (d / 2));
      axes[i] = i < quarter ? 0 : 1;
    } else {
      freqs[i] = Math.pow(base, (-2 * i) / d);
      axes[i] = split === "blocks" ? (i < quarter ? 0 : 1) : i % 2;
    }
  }
  return { freqs, axes };
}

/** x turned at the patch (row, col): pair i = (x_i, x_{i+d/2}) turned by (row or col)·ω_i, counter-clockwise. */
export function turn(x, row, col, freqs, axes) {
  const h = freqs.length, out = new Float64Array(2 * h);
  for (let i = 0; i < h; i++) {
    const angle = (axes[i] === 0 ? row : col) * freqs[i];
    const c = Math.cos(angle), s = Math.sin(angle);
    out[i] = x[i] * c - x[i + h] * s;
    out[i + h] = x[i] * s + x[i + h] * c;
  }
  return out;
}

function dot(a, b) {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += a[j] * b[j];
  return sum;
}

/** grid_scores: [r'][c'] = ⟨q turned at (row, col), k turned at (r', c')⟩ on a rows × cols grid. */
export function gridScores(q, k, row, col, rows, cols, split, base) {
  return scoresOn(turnedKeys(k, rows, cols, splitAxes(q.length, split, base)), q, row, col);
}

/** k turned at every patch of the grid, row by row, with the split's frequencies and axes. */
function turnedKeys(k, rows, cols, { freqs, axes }) {
  const keys = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => turn(k, r, c, freqs, axes)));
  return { keys, freqs, axes };
}

function scoresOn({ keys, freqs, axes }, q, row, col) {
  const tq = turn(q, row, col, freqs, axes);
  return keys.map((line) => line.map((key) => dot(tq, key)));
}

/** offset_scores: [a + rows − 1][b + cols − 1] = the score at key − query = (a, b), the query at (max(−a, 0), max(−b, 0)). */
export function offsetScores(q, k, rows, cols, split, base) {
  const { freqs, axes } = splitAxes(q.length, split, base);
  return Array.from({ length: 2 * rows - 1 }, (_, i) => Array.from({ length: 2 * cols - 1 }, (_, j) => {
    const a = i - (rows - 1), b = j - (cols - 1);
    return dot(turn(q, Math.max(-a, 0), Math.max(-b, 0), freqs, axes), turn(k, Math.max(a, 0), Math.max(b, 0), freqs, axes));
  }));
}

/** The largest frequency among the pairs of each axis, and how many pairs each axis has. */
export function axisSummary(d, split, base) {
  const { freqs, axes } = splitAxes(d, split, base);
  const fastest = [0, 0], pairs = [0, 0];
  freqs.forEach((f, i) => { fastest[axes[i]] = Math.max(fastest[axes[i]], f); pairs[axes[i]] += 1; });
  return { fastest, pairs };
}

const GAP = 20; // between the left panel and the colour bar
const TOP = 86; // the panels' top, under three lines of text
const BAR_ROOM = 104; // the colour bar, its ticks and its label, right of the left panel
const AXIS_ROOM = 60; // the right panel's row ticks and axis name

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  if (w >= 600) {
    const side = Math.min(300, Math.floor((w - 56 - BAR_ROOM - AXIS_ROOM - 16) / 2));
    return { width: w, height: TOP + side + 94, wide: true, side };
  }
  const side = Math.min(300, w - 56 - BAR_ROOM - 8);
  return { width: w, height: TOP + side + 92 + side + 118, wide: false, side };
}

/** A heat map of `values` (rows of numbers) in a panel whose scales put the cell (i, j) at (x0 + j, y0 + i). */
function heat(ctx, p, values, colour, x0, y0) {
  const cw = Math.abs(p.x(1) - p.x(0)), ch = Math.abs(p.y(1) - p.y(0));
  values.forEach((row, i) => row.forEach((v, j) => {
    ctx.fillStyle = colour(v);
    ctx.fillRect(p.x(x0 + j) - cw / 2, p.y(y0 + i) - ch / 2, cw + 0.6, ch + 0.6);
  }));
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeRect(p.box.x, p.box.y, p.box.w, p.box.h);
}

/** A ring: white under black, seen on every colour of viridis. */
function ring(ctx, x, y, radius) {
  for (const [colour, width] of [["#fff", 4], [INK, 2]]) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.stroke();
  }
}

/** A dashed rectangle: black dashes on white, seen on every colour of viridis. */
function outline(ctx, x, y, w, h) {
  ctx.save();
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 4;
  ctx.setLineDash([]);
  ctx.strokeRect(x, y, w, h);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 2;
  ctx.setLineDash(DASHES.dashed);
  ctx.strokeRect(x, y, w, h);
  ctx.restore();
}

/** At most about `most` integer ticks from lo to hi, 0 among them. */
function integers(lo, hi, most) {
  const step = Math.max(1, Math.ceil((hi - lo + 1) / most));
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) out.push(t);
  return out;
}

const signed = (t) => minus(String(t));

const cache = new Map(); // split, base and grid -> what a move of the query leaves as it is

function draw(ctx, v, size) {
  const q = Float64Array.from(v.q), k = Float64Array.from(v.k);
  const { rows, cols, side } = { ...v, side: size.side };
  const key = `${v.split} ${v.base} ${rows} ${cols}`;
  if (!cache.has(key) || cache.get(key).q !== v.q || cache.get(key).k !== v.k) {
    // what the query's patch does not change: the turned keys, the map over key − query and its range
    const offsets = offsetScores(q, k, rows, cols, v.split, v.base);
    let low = Infinity, high = -Infinity;
    for (const row of offsets) for (const value of row) low = Math.min(low, value), high = Math.max(high, value);
    cache.set(key, { q: v.q, k: v.k, offsets, low, high, turned: turnedKeys(k, rows, cols, splitAxes(q.length, v.split, v.base)) });
  }
  const { offsets, low, high, turned } = cache.get(key);
  const grid = scoresOn(turned, q, v.query_row, v.query_col);
  const toUnit = linear().domain([low, high]).range([0, 1]).clamp(true);
  const colour = (value) => viridis(toUnit(value));
  const summary = axisSummary(q.length, v.split, v.base);

  text(ctx, `query patch at row ${v.query_row}, column ${v.query_col}` + (size.wide ? `; pairs split in ${v.split}` : ""),
    8, 4, { baseline: "top" });
  lines(ctx, [`rows: ${summary.pairs[0]} pairs, the fastest turns ${general(summary.fastest[0])} rad per row`,
    `columns: ${summary.pairs[1]} pairs, the fastest turns ${general(summary.fastest[1])} rad per column`], 8, 24,
  { px: TICK_PX });

  // left: the map over the grid, row 0 at the top
  const most = Math.max(rows, cols);
  const left = { x: 56, y: TOP, w: (side * cols) / most, h: (side * rows) / most };
  const pl = panel(ctx, left, linear().domain([-0.5, cols - 0.5]), linear().domain([rows - 0.5, -0.5]),
    { xName: "key column", yName: "key row", xTickValues: integers(0, cols - 1, 8),
      yTickValues: integers(0, rows - 1, 8), xFormat: String, yFormat: String });
  heat(ctx, pl, grid, colour, 0, 0);
  ring(ctx, pl.x(v.query_col), pl.y(v.query_row), Math.max(4, 0.32 * Math.abs(pl.x(1) - pl.x(0))));
  text(ctx, "score with a key on each patch", left.x, left.y - 8, { px: TICK_PX });

  // the colour bar, shared by both maps
  const bar = { x: left.x + left.w + GAP, y: left.y, w: 14, h: left.h };
  const values = linear().domain([low, high]).range([bar.y + bar.h, bar.y]);
  for (let s = 0; s < 64; s++) {
    ctx.fillStyle = viridis((s + 0.5) / 64);
    ctx.fillRect(bar.x, bar.y + bar.h * (1 - (s + 1) / 64), bar.w, bar.h / 64 + 0.6);
  }
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.strokeRect(bar.x, bar.y, bar.w, bar.h);
  const ticks = values.ticks(5), fmt = values.tickFormat(5);
  ctx.beginPath();
  for (const t of ticks) ctx.moveTo(bar.x + bar.w, values(t)), ctx.lineTo(bar.x + bar.w + 4, values(t));
  ctx.stroke();
  for (const t of ticks) text(ctx, minus(fmt(t)), bar.x + bar.w + 6, values(t), { baseline: "middle", px: TICK_PX });
  ctx.save();
  ctx.translate(bar.x + bar.w + 56, bar.y + bar.h / 2);
  ctx.rotate(-Math.PI / 2);
  text(ctx, "score after 2-D RoPE", 0, 0, { align: "center", baseline: "bottom", px: TICK_PX });
  ctx.restore();

  // right (or below): the score against key − query, the query's window outlined
  const span = Math.max(2 * rows - 1, 2 * cols - 1);
  const right = size.wide
    ? { x: left.x + left.w + BAR_ROOM + AXIS_ROOM, y: TOP, w: (side * (2 * cols - 1)) / span, h: (side * (2 * rows - 1)) / span }
    : { x: left.x, y: left.y + left.h + 92, w: (side * (2 * cols - 1)) / span, h: (side * (2 * rows - 1)) / span };
  const pr = panel(ctx, right, linear().domain([0.5 - cols, cols - 0.5]), linear().domain([rows - 0.5, 0.5 - rows]),
    { xName: "key column − query column", yName: "key row − query row", xTickValues: integers(1 - cols, cols - 1, 8),
      yTickValues: integers(1 - rows, rows - 1, 8), xFormat: signed, yFormat: signed });
  heat(ctx, pr, offsets, colour, 1 - cols, 1 - rows);
  const window = [-v.query_row, -v.query_col]; // the offsets of the grid's patch (0, 0)
  const x0 = pr.x(window[1] - 0.5), y0 = pr.y(window[0] - 0.5);
  outline(ctx, x0, y0, pr.x(window[1] + cols - 0.5) - x0, pr.y(window[0] + rows - 0.5) - y0);
  ring(ctx, pr.x(0), pr.y(0), Math.max(4, 0.32 * Math.abs(pr.x(1) - pr.x(0))));
  text(ctx, "the same, against key − query", right.x, right.y - 8, { px: TICK_PX });

  // the legend, under the panels
  const y = Math.max(left.y + left.h, right.y + right.h) + 56;
  ring(ctx, 16, y, 6);
  text(ctx, "the query's patch (offset 0, 0)", 30, y, { baseline: "middle", px: TICK_PX });
  const [x2, y2] = size.wide ? [260, y] : [8, y + 22];
  outline(ctx, x2, y2 - 6, 22, 12);
  text(ctx, `the grid as this query sees it (the ${size.wide ? "left" : "upper"} map)`, x2 + 30, y2, { baseline: "middle", px: TICK_PX });
  text(ctx, `the same colours on both maps, from ${general(low)} to ${general(high)}`, 8, y2 + 22,
    { baseline: "middle", px: TICK_PX, colour: GREY });

  return { grid, offsets, window, fastest: summary.fastest, pairs: summary.pairs, low, high };
}

function describe(v, drawn) {
  return `Scores of a query patch at row ${v.query_row}, column ${v.query_col} with a key on every patch of the `
    + `${v.rows} × ${v.cols} grid, 2-D RoPE with the pairs split in ${v.split}: left over the grid, right against `
    + `key − query, where the grid is a window at offsets from (${drawn.window[0]}, ${drawn.window[1]}); scores from `
    + `${general(drawn.low)} to ${general(drawn.high)}.`;
}

function render({ model, el }) {
  const rows = model.get("rows") || 8, cols = model.get("cols") || 8;
  return mount({ model, el }, {
    name: "grid-rope",
    controls: [
      { name: "query_row", label: "query row", min: 0, max: rows - 1, step: 1, integer: true },
      { name: "query_col", label: "query column", min: 0, max: cols - 1, step: 1, integer: true },
      { name: "split", label: "pairs split in", options: SPLITS, min: SPLITS[0], max: SPLITS[SPLITS.length - 1],
        step: 1 },
    ],
    constants: ["q", "k", "base", "rows", "cols"],
    layout, draw, describe,
  });
}

export default { render };
