// Lesson 01's explorer, drawn by the browser: the raw index as a position signal, over sequence lengths
// L = 4 … 100 000. What needs torch (random embeddings, a random attention layer) is computed once in
// Python for every length the slider offers (helpers.counting_snapshot) and sent as numbers; a move only
// picks a length and draws.

import { mount, stubModel } from "./explorer.js";
import {
  COLOURS, DASHES, TICK_PX, curve, dots, general, legend, linear, lines, log, panel, text,
} from "./plot.js";

export { stubModel };

const NO_INDEX = "#737373", FEATURE = COLOURS.blue, ADDED = COLOURS.vermillion;
const SUPERSCRIPT = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹" };

function power(t) {
  const e = Math.round(Math.log10(t));
  return e <= 2 ? String(t) : `10${String(e).split("").map((c) => SUPERSCRIPT[c]).join("")}`;
}

/** A number with thousands separated by commas, as Python's {:,}. */
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 560, wide: true } : { width: w, height: 90 + 3 * 250 + 40, wide: false };
}

function draw(ctx, v, size) {
  const data = v.snapshots;
  const k = data.lengths.indexOf(v.length);
  const s = { rms: data.embedding_rms[k], index: v.length - 1, logit: data.max_logit[k], ratio: data.ratio[k] };
  lines(ctx, [`L = ${grouped(v.length)}: the last token's index is ${grouped(v.length - 1)},`,
    `${general(s.ratio)}× a typical embedding entry (RMS ${general(s.rms, 4)})`], 8, 4);

  const top = 96;
  const boxes = size.wide
    ? { size: { x: 72, y: top, w: Math.round(size.width * 0.3), h: size.height - top - 70 },
      row: { x: Math.round(size.width * 0.3) + 160, y: top, w: size.width - Math.round(size.width * 0.3) - 176, h: 150 },
      ent: { x: Math.round(size.width * 0.3) + 160, y: top + 150 + 100, w: size.width - Math.round(size.width * 0.3) - 176,
        h: size.height - top - 150 - 100 - 62 } }
    : { size: { x: 72, y: top, w: size.width - 88, h: 170 },
      row: { x: 72, y: top + 170 + 110, w: size.width - 88, h: 150 },
      ent: { x: 72, y: top + 170 + 110 + 150 + 110, w: size.width - 88, h: 170 } };

  // sizes on a log scale: a typical embedding entry, the largest index, the largest logit
  const sizes = [s.rms, s.index, s.logit];
  const names = ["embedding entry (RMS)", "largest index", "largest logit"];
  const bars = panel(ctx, boxes.size, linear().domain([-0.5, 2.5]), log().domain([0.1, 1e11]),
    { xTickValues: [], yTickValues: [1, 1e2, 1e4, 1e6, 1e8, 1e10], yFormat: power });
  text(ctx, "sizes (log scale)", boxes.size.x, boxes.size.y - 10, { px: TICK_PX });
  const colours = ["#999999", COLOURS.orange, COLOURS.vermillion];
  const barWidth = boxes.size.w / 4.5;
  sizes.forEach((value, j) => {
    const x = bars.x(j), y = bars.y(Math.max(value, 0.1));
    ctx.fillStyle = colours[j];
    ctx.fillRect(x - barWidth / 2, y, barWidth, boxes.size.y + boxes.size.h - y);
    text(ctx, j === 0 ? general(value, 4) : general(value), x, y - 4, { align: "center", baseline: "bottom", px: TICK_PX });
    names[j].split(" ").reduce((rows, word) => {
      const last = rows[rows.length - 1];
      if (last && (last + " " + word).length <= 10) rows[rows.length - 1] = last + " " + word;
      else rows.push(word);
      return rows;
    }, []).forEach((row, r) => text(ctx, row, x, boxes.size.y + boxes.size.h + 6 + 15 * r,
      { align: "center", baseline: "top", px: TICK_PX }));
  });

  // the last token's weights on the last keys, without and with the index
  const shown = data.shown_keys, n = Math.min(shown, v.length);
  const back = Array.from({ length: n }, (_, j) => j);
  const plain = data.weights_none[k].slice(0, n), indexed = data.weights_feature[k].slice(0, n);
  const row = panel(ctx, boxes.row, linear().domain([-0.5, shown - 0.5]), linear().domain([-0.03, 1.03]),
    { xName: "keys back from the last token (0: itself)", yName: "weight", xTicks: 6, yTickValues: [0, 0.5, 1] });
  curve(ctx, row, [-0.5, shown - 0.5], [1 / v.length, 1 / v.length], { colour: "#000", width: 1, dash: DASHES.dotted });
  curve(ctx, row, back, plain, { colour: NO_INDEX, width: 1.5 });
  dots(ctx, row, back, plain, { fill: NO_INDEX, radius: 2.5 });
  curve(ctx, row, back, indexed, { colour: FEATURE, width: 1.5, dash: DASHES.dashed });
  dots(ctx, row, back, indexed, { fill: FEATURE, radius: 2.5 });
  text(ctx, `weight on itself: ${general(data.weight_on_last_none[k], 2)} → ${general(data.weight_on_last_feature[k])}`,
    boxes.row.x, boxes.row.y - 10, { px: TICK_PX });

  // the entropy of that row against L, the three ways, and ln L
  const lengths = data.lengths;
  const ent = panel(ctx, boxes.ent, log().domain([lengths[0], lengths[lengths.length - 1]]),
    linear().domain([0, Math.log(lengths[lengths.length - 1]) * 1.05]),
    { xName: "sequence length L", yName: "entropy (nats)", xTickValues: [10, 1e3, 1e5], xFormat: power, yTicks: 4 });
  curve(ctx, ent, lengths, lengths.map(Math.log), { colour: "#000", width: 1, dash: DASHES.dotted });
  for (const [ys, colour, dash] of [[data.entropy_none, NO_INDEX, DASHES.solid], [data.entropy_feature, FEATURE, DASHES.dashed],
    [data.entropy_added, ADDED, DASHES.dashdot]]) {
    curve(ctx, ent, lengths, ys, { colour, width: 1.5, dash });
    dots(ctx, ent, lengths, ys, { fill: colour, radius: 2.2 });
  }
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1.2;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(ent.x(v.length), boxes.ent.y);
  ctx.lineTo(ent.x(v.length), boxes.ent.y + boxes.ent.h);
  ctx.stroke();
  text(ctx, `entropy ${general(data.entropy_none[k])} → ${general(data.entropy_feature[k])}  (ln L = `
    + `${general(Math.log(v.length))})`, boxes.ent.x, boxes.ent.y - 10, { px: TICK_PX });
  const legendY = size.wide ? 12 : boxes.row.y - 52;
  legend(ctx, size.wide ? boxes.row.x : 8, legendY, [
    { colour: "#000", dash: DASHES.dotted, label: "ln L (uniform)" }, { colour: NO_INDEX, label: "no index" },
  ]);
  legend(ctx, size.wide ? boxes.row.x : 8, legendY + 18, [
    { colour: FEATURE, dash: DASHES.dashed, label: "index as a feature" }, { colour: ADDED, dash: DASHES.dashdot, label: "index added" },
  ]);
  return { length: v.length, sizes, weights_none: plain, weights_feature: indexed, entropy: [data.entropy_none[k],
    data.entropy_feature[k], data.entropy_added[k]] };
}

function describe(v, drawn) {
  return `L = ${grouped(v.length)}: the largest index ${grouped(v.length - 1)} against an embedding entry of about `
    + `${general(drawn.sizes[0], 3)}; the last token's attention entropy ${general(drawn.entropy[0])} without the index, `
    + `${general(drawn.entropy[1])} with it.`;
}

function render({ model, el }) {
  const lengths = model.get("snapshots").lengths;
  return mount({ model, el }, {
    name: "counting",
    controls: [{ name: "length", label: "length L", options: lengths, min: lengths[0], max: lengths[lengths.length - 1],
      step: 1, format: grouped }],
    constants: ["snapshots"],
    layout, draw, describe,
  });
}

export default { render };
