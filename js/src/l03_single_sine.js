// Lesson 03's explorer, computed and drawn by the browser: positions 0 … L − 1 on the wave sin(ω·p)
// and on the circle (cos ω·p, sin ω·p), the closest pair of distinct positions ringed on each, as
// helpers.sine_snapshot computes them (helpers/measure/l03_single_sine.py).

import { mount, stubModel } from "./explorer.js";
import {
  COLOURS, DASHES, EMPHASIS, LIGHT, curve, dots, general, level, linear, lines, panel, viridis,
} from "./plot.js";

export { stubModel };

export const LIMITS = { omega: { min: 1e-3, max: Math.PI, step: 0.01 }, length: { min: 2, step: 1 } };

/** sine_snapshot: the wave's values, the circle's points, the closest pair on each, the smallest step
 *  between neighbours on the wave and how many times the positions go round. */
export function sineSnapshot(omega, length) {
  const values = new Float64Array(length);
  const cos = new Float64Array(length);
  for (let p = 0; p < length; p++) {
    values[p] = Math.sin(omega * p);
    cos[p] = Math.cos(omega * p);
  }
  // on the wave: sorted values, the smallest gap between neighbours in that order
  const order = Array.from(values, (_, p) => p).sort((a, b) => values[a] - values[b]);
  let wave = { i: 0, j: 1, gap: Infinity };
  for (let k = 0; k + 1 < length; k++) {
    const gap = values[order[k + 1]] - values[order[k]];
    if (gap < wave.gap) wave = { i: Math.min(order[k], order[k + 1]), j: Math.max(order[k], order[k + 1]), gap };
  }
  // on the circle: every pair (L ≤ a few hundred)
  let circle = { i: 0, j: 1, gap: Infinity };
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j < length; j++) {
      const gap = Math.hypot(cos[i] - cos[j], values[i] - values[j]);
      if (gap < circle.gap) circle = { i, j, gap };
    }
  }
  let neighbour = Infinity;
  for (let p = 1; p < length; p++) neighbour = Math.min(neighbour, Math.abs(values[p] - values[p - 1]));
  return { values, cos, wave, circle, neighbour, turns: (omega * (length - 1)) / (2 * Math.PI) };
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  if (w >= 600) return { width: w, height: 400, wide: true };
  // narrow (a phone): the circle under the wave; 98 px of titles, the wave 260, 108 between, 60 under
  return { width: w, height: 98 + 260 + 108 + Math.min(w - 74, 300) + 60, wide: false };
}

function draw(ctx, v, size) {
  const { omega, length } = v;
  const s = sineSnapshot(omega, length);
  const { width, height, wide } = size;
  lines(ctx, [`ω = ${general(omega)}, L = ${length}: the positions go round ${general(s.turns)} times`,
    `(period 2π/ω = ${general((2 * Math.PI) / omega)} positions)`], 8, 4);

  const top = 58 + 40;
  const waveBox = wide
    ? { x: 62, y: top, w: Math.round((width - 62 - 20) * 0.64) - 40, h: height - top - 60 }
    : { x: 62, y: top, w: width - 62 - 12, h: 260 };
  const side = wide ? Math.min(waveBox.h, width - (waveBox.x + waveBox.w + 40 + 62) - 8) : Math.min(width - 74, 300);
  const circleBox = wide
    ? { x: waveBox.x + waveBox.w + 40 + 62, y: top + (waveBox.h - side) / 2, w: side, h: side }
    : { x: 62, y: waveBox.y + waveBox.h + 60 + 40 + 8, w: side, h: side };

  // the wave: the curve, every position's dot, the closest pair ringed and its level dotted
  const wave = panel(ctx, waveBox, linear().domain([-0.5, length - 0.5]), linear().domain([-1.15, 1.15]),
    { xName: "position p", yName: "sin(ω·p)", yTickValues: [-1, -0.5, 0, 0.5, 1] });
  const n = 2000;
  const t = Float64Array.from({ length: n }, (_, k) => ((length - 1) * k) / (n - 1));
  curve(ctx, wave, t, t.map((x) => Math.sin(omega * x)), { colour: LIGHT, width: 1 });
  const positions = Float64Array.from(s.values, (_, p) => p);
  dots(ctx, wave, positions, s.values, { fill: COLOURS.blue, radius: 2.5 });
  const { i, j } = s.wave;
  level(ctx, wave, s.values[i], { colour: EMPHASIS, dash: DASHES.dotted });
  dots(ctx, wave, [i, j], [s.values[i], s.values[j]], { fill: EMPHASIS, radius: 6, ring: true });
  lines(ctx, [`on the wave: closest pair ${i}, ${j} (gap ${general(s.wave.gap, 2)});`,
    `smallest step to a neighbour ${general(s.neighbour, 2)}`], waveBox.x, waveBox.y - 40);

  // the circle: each position's point coloured by p, the closest pair ringed
  const circle = panel(ctx, circleBox, linear().domain([-1.3, 1.3]), linear().domain([-1.3, 1.3]),
    { xName: "cos(ω·p)", yName: "sin(ω·p)", xTickValues: [-1, 0, 1], yTickValues: [-1, 0, 1] });
  const ring = Float64Array.from({ length: 241 }, (_, k) => (2 * Math.PI * k) / 240);
  curve(ctx, circle, ring.map(Math.cos), ring.map(Math.sin), { colour: LIGHT, width: 1 });
  dots(ctx, circle, s.cos, s.values, { fill: (p) => viridis(length > 1 ? p / (length - 1) : 0), radius: 2.6 });
  const c = s.circle;
  dots(ctx, circle, [s.cos[c.i], s.cos[c.j]], [s.values[c.i], s.values[c.j]], { fill: EMPHASIS, radius: 6.5, ring: true });
  lines(ctx, ["on the circle:", `closest ${c.i}, ${c.j} (${general(c.gap, 2)})`], circleBox.x, circleBox.y - 40);

  return {
    values: Array.from(s.values), circle: Array.from(s.cos, (x, p) => [x, s.values[p]]),
    wave_pair: [s.wave.i, s.wave.j, s.wave.gap], circle_pair: [c.i, c.j, c.gap],
    neighbour_gap: s.neighbour, turns: s.turns, width, height,
  };
}

function describe(v, drawn) {
  return `Positions 0 to ${v.length - 1} on the wave sin(ω·p) and on the circle, ω = ${general(v.omega)}; `
    + `closest pair on the wave ${drawn.wave_pair[0]} and ${drawn.wave_pair[1]}, `
    + `on the circle ${drawn.circle_pair[0]} and ${drawn.circle_pair[1]}.`;
}

function render({ model, el }) {
  const maxLength = model.get("max_length") || 200;
  return mount({ model, el }, {
    name: "sine",
    controls: [
      { name: "omega", label: "ω", min: LIMITS.omega.min, max: LIMITS.omega.max, step: LIMITS.omega.step, log: true,
        format: (x) => general(x) },
      { name: "length", label: "length L", min: LIMITS.length.min, max: maxLength, step: 1, integer: true },
    ],
    layout, draw, describe,
  });
}

export default { render };
