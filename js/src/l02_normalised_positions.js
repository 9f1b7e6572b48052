// Lesson 02's explorer, computed and drawn by the browser: the normalised codes p / (L − 1) of two
// sentences on one axis, the second word marked, dashed lines joining the codes both share, as
// helpers.compare_lengths computes them (helpers/measure/l02_normalised_positions.py).

import { mount, stubModel } from "./explorer.js";
import { COLOURS, DASHES, EMPHASIS, INK, TICK_PX, general, linear, lines, panel, text } from "./plot.js";

export { stubModel };

function gcd(a, b) {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** compare_lengths: both sentences' codes, their steps and second words, the index pairs they share. */
export function compareLengths(lengthA, lengthB) {
  const codes = (n) => Float64Array.from({ length: n }, (_, p) => p / (n - 1));
  const g = gcd(lengthA - 1, lengthB - 1);
  const shared = Array.from({ length: g + 1 }, (_, m) => [(m * (lengthA - 1)) / g, (m * (lengthB - 1)) / g]);
  const a = codes(lengthA), b = codes(lengthB);
  return { codesA: a, codesB: b, stepA: 1 / (lengthA - 1), stepB: 1 / (lengthB - 1), secondA: a[1], secondB: b[1],
    shared };
}

function layout(width) {
  return { width: Math.max(300, Math.min(width, 860)), height: 300 };
}

function draw(ctx, v, size) {
  const c = compareLengths(v.length_a, v.length_b);
  const narrow = size.width < 600;
  lines(ctx, narrow
    ? [`second word: ${general(c.secondA)} vs ${general(c.secondB)}`,
      `step: ${general(c.stepA)} vs ${general(c.stepB)}; shared codes: ${c.shared.length}`]
    : [`second word: ${general(c.secondA)} vs ${general(c.secondB)};   step between neighbours: `
      + `${general(c.stepA)} vs ${general(c.stepB)}`, `codes in common: ${c.shared.length}`], 8, 4);
  const box = { x: 70, y: 56, w: size.width - 70 - 16, h: size.height - 56 - 62 };
  const p = panel(ctx, box, linear().domain([-0.04, 1.04]), linear().domain([-0.45, 1.3]),
    { xName: "normalised position p / (L − 1)", yTickValues: [] });
  const rows = [[1, c.codesA, v.length_a], [0, c.codesB, v.length_b]];
  ctx.save();
  ctx.setLineDash(DASHES.dashed);
  ctx.strokeStyle = COLOURS.green;
  ctx.lineWidth = 1;
  for (const [i, j] of c.shared) {
    ctx.beginPath();
    ctx.moveTo(p.x(c.codesA[i]), p.y(1));
    ctx.lineTo(p.x(c.codesB[j]), p.y(0));
    ctx.stroke();
  }
  ctx.restore();
  for (const [y, codes, length] of rows) {
    ctx.strokeStyle = "#d9d9d9";
    ctx.lineWidth = 1;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(box.x, p.y(y));
    ctx.lineTo(box.x + box.w, p.y(y));
    ctx.stroke();
    const every = length <= 20 ? 1 : 5;
    codes.forEach((code, k) => {
      ctx.fillStyle = COLOURS.blue;
      ctx.beginPath();
      ctx.arc(p.x(code), p.y(y), 3.5, 0, 2 * Math.PI);
      ctx.fill();
      if (k % every === 0 || k === 1) {
        text(ctx, String(k), p.x(code), p.y(y) + 10, { align: "center", baseline: "top", px: TICK_PX, colour: INK });
      }
    });
    const second = [p.x(codes[1]), p.y(y)]; // the second word: a larger vermillion diamond
    ctx.fillStyle = EMPHASIS;
    ctx.beginPath();
    ctx.moveTo(second[0], second[1] - 7);
    ctx.lineTo(second[0] + 7, second[1]);
    ctx.lineTo(second[0], second[1] + 7);
    ctx.lineTo(second[0] - 7, second[1]);
    ctx.closePath();
    ctx.fill();
    text(ctx, `L = ${length}`, box.x - 8, p.y(y), { align: "right", baseline: "middle" });
  }
  return {
    codes_a: Array.from(c.codesA), codes_b: Array.from(c.codesB), step_a: c.stepA, step_b: c.stepB,
    second_a: c.secondA, second_b: c.secondB, shared: c.shared,
  };
}

function describe(v, drawn) {
  return `The normalised codes of sentences of ${v.length_a} and ${v.length_b} words: the second word at `
    + `${general(drawn.second_a)} and ${general(drawn.second_b)}; ${drawn.shared.length} codes in common.`;
}

function render({ model, el }) {
  const maxLength = model.get("max_length") || 40;
  return mount({ model, el }, {
    name: "normalised",
    controls: [
      { name: "length_a", label: "length A", min: 2, max: maxLength, step: 1, integer: true },
      { name: "length_b", label: "length B", min: 2, max: maxLength, step: 1, integer: true },
    ],
    layout, draw, describe,
  });
}

export default { render };
