// Lesson 06's explorer, computed and drawn by the browser: a query q at position m and a key k at
// position n, turned by RoPE (interleaved pairs). Left, the plane of one pair: q's and k's pair before
// (dashed) and after (solid) the turn; right, the score ⟨R_m q, R_n k⟩ against the offset m − n with the
// current point marked. q and k come from Python once (the widget's values); the rest is computed here,
// as helpers.rope_pair_view and helpers.scores_by_offset compute it (helpers/measure/l06_rope.py).

import { mount, stubModel } from "./explorer.js";
import { COLOURS, DASHES, GREY, TICK_PX, curve, dots, general, legend, level, linear, lines, panel, text } from "./plot.js";

export { stubModel };

export function frequencies(d, base) {
  return Float64Array.from({ length: d / 2 }, (_, i) => Math.pow(base, (-2 * i) / d));
}

/** x turned by RoPE at position p (interleaved pairs: (a, b) -> (a cos − b sin, a sin + b cos)). */
export function rotate(x, p, omega) {
  const out = new Float64Array(x.length);
  for (let i = 0; i < omega.length; i++) {
    const c = Math.cos(p * omega[i]), s = Math.sin(p * omega[i]);
    out[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
    out[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c;
  }
  return out;
}

function dot(a, b) {
  let sum = 0;
  for (let j = 0; j < a.length; j++) sum += a[j] * b[j];
  return sum;
}

/** rope_pair_view: the pair's turned q and k, its share of the score, the score, the offset. */
export function pairView(q, k, m, n, pair, base) {
  const omega = frequencies(q.length, base);
  const qr = rotate(q, m, omega), kr = rotate(k, n, omega);
  const qp = [qr[2 * pair], qr[2 * pair + 1]], kp = [kr[2 * pair], kr[2 * pair + 1]];
  return { q_xy: qp, k_xy: kp, pair_score: qp[0] * kp[0] + qp[1] * kp[1], score: dot(qr, kr), offset: m - n };
}

/** scores_by_offset: the score at each offset δ, the query at max(δ, 0) and the key at max(−δ, 0). */
export function scoresByOffset(q, k, offsets, base) {
  const omega = frequencies(q.length, base);
  return offsets.map((delta) => dot(rotate(q, Math.max(delta, 0), omega), rotate(k, Math.max(-delta, 0), omega)));
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 430, wide: true } : { width: w, height: 40 + 330 + 60 + 300, wide: false };
}

function draw(ctx, v, size) {
  const q = Float64Array.from(v.q), k = Float64Array.from(v.k);
  const view = pairView(q, k, v.m, v.n, v.pair, v.base);
  const offsets = Array.from({ length: 2 * v.max_position + 1 }, (_, j) => j - v.max_position);
  const profile = scoresByOffset(q, k, offsets, v.base);
  const omega = frequencies(q.length, v.base)[v.pair];
  lines(ctx, [`query at m = ${v.m}, key at n = ${v.n}`], 8, 4);

  // the plane of the pair: a square panel, the circle through the longer of the two
  const side = size.wide ? Math.min(260, size.height - 170) : Math.min(size.width - 40, 260);
  const plane = { x: size.wide ? 20 : (size.width - side) / 2, y: 78, w: side, h: side };
  const start = { q: [q[2 * v.pair], q[2 * v.pair + 1]], k: [k[2 * v.pair], k[2 * v.pair + 1]] };
  const radius = 1.15 * Math.max(Math.hypot(...start.q), Math.hypot(...start.k), 1e-6);
  const px = linear().domain([-radius, radius]).range([plane.x, plane.x + side]);
  const py = linear().domain([-radius, radius]).range([plane.y + side, plane.y]);
  const box = { x: px, y: py, box: plane };
  ctx.strokeStyle = "#222";
  ctx.lineWidth = 1;
  ctx.strokeRect(plane.x, plane.y, side, side);
  ctx.strokeStyle = "#e6e6e6"; // the pair's two axes
  ctx.beginPath();
  ctx.moveTo(px(0), plane.y);
  ctx.lineTo(px(0), plane.y + side);
  ctx.moveTo(plane.x, py(0));
  ctx.lineTo(plane.x + side, py(0));
  ctx.stroke();
  const ring = Float64Array.from({ length: 121 }, (_, j) => (2 * Math.PI * j) / 120);
  curve(ctx, box, ring.map((t) => (radius / 1.15) * Math.cos(t)), ring.map((t) => (radius / 1.15) * Math.sin(t)),
    { colour: "#d9d9d9", width: 1 });
  for (const [name, colour] of [["q", COLOURS.blue], ["k", COLOURS.vermillion]]) {
    const turned = name === "q" ? view.q_xy : view.k_xy;
    curve(ctx, box, [0, start[name][0]], [0, start[name][1]], { colour, width: 1.8, dash: DASHES.dashed });
    curve(ctx, box, [0, turned[0]], [0, turned[1]], { colour, width: 2.5 });
    dots(ctx, box, [turned[0]], [turned[1]], { fill: colour, radius: 4 });
  }
  lines(ctx, [`pair ${v.pair}: ω = ${general(omega)}; q turned ${general(v.m * omega)} rad, k ${general(v.n * omega)} rad`,
    `this pair's share of the score: ${view.pair_score.toFixed(3).replace("-", "\u2212")}`], 8, 30, { px: TICK_PX });
  legend(ctx, plane.x, plane.y + side + 16, [
    { colour: COLOURS.blue, dash: DASHES.dashed, label: "q before" }, { colour: COLOURS.blue, label: "q turned" },
  ]);
  legend(ctx, plane.x, plane.y + side + 34, [
    { colour: COLOURS.vermillion, dash: DASHES.dashed, label: "k before" }, { colour: COLOURS.vermillion, label: "k turned" },
  ]);

  // the score against the offset
  const curveBox = size.wide
    ? { x: plane.x + side + 90, y: 100, w: size.width - (plane.x + side + 90) - 16, h: size.height - 100 - 64 }
    : { x: 70, y: plane.y + side + 100, w: size.width - 70 - 16, h: 240 };
  const low = Math.min(...profile, 0), high = Math.max(...profile, 0);
  const pad = 0.05 * (high - low || 1);
  const p = panel(ctx, curveBox, linear().domain([offsets[0], offsets[offsets.length - 1]]),
    linear().domain([low - pad, high + pad]), { xName: "offset m − n", yName: "score ⟨R_m q, R_n k⟩" });
  level(ctx, p, 0, { colour: "#d9d9d9", dash: DASHES.solid });
  curve(ctx, p, offsets, profile, { colour: GREY, width: 1.2 });
  dots(ctx, p, [view.offset], [view.score], { fill: "#000", radius: 4.5 });
  text(ctx, `score = ${view.score.toFixed(4).replace("-", "\u2212")} at m − n = ${view.offset}`, curveBox.x,
    curveBox.y - 10, { px: TICK_PX });
  return { ...view, offsets, profile };
}

function describe(v, drawn) {
  return `A query at m = ${v.m} and a key at n = ${v.n} turned by RoPE, seen in pair ${v.pair}; `
    + `their score ${drawn.score.toFixed(3)} at offset ${drawn.offset}.`;
}

function render({ model, el }) {
  const maxPosition = model.get("max_position") || 64;
  const pairs = (model.get("q") || []).length / 2;
  return mount({ model, el }, {
    name: "rope",
    controls: [
      { name: "m", label: "query position m", min: 0, max: maxPosition, step: 1, integer: true },
      { name: "n", label: "key position n", min: 0, max: maxPosition, step: 1, integer: true },
      { name: "pair", label: "pair i", min: 0, max: pairs - 1, step: 1, integer: true },
    ],
    constants: ["q", "k", "base", "max_position"],
    layout, draw, describe,
  });
}

export default { render };
