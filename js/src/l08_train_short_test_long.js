// Lesson 08's explorer, drawn by the browser: the trained models' loss by position, overlaid, up to a chosen
// evaluation length n. The curves need trained models: they come from Python once (a ShortContextRun, with
// the entropy floor and the training length L); here they are only cut at n, and the panel beside them lists
// each shown scheme's mean loss over the first n tokens and its perplexity, as
// ShortContextRun.prefix_losses computes them (helpers/measure/l08_train_short_test_long/runs.py).

import { mount, stubModel } from "./explorer.js";
import { DASHES, GREY, INK, TICK_PX, curve, legend, linear, panel, text } from "./plot.js";

export { stubModel };

/** The float64 values of losses sent as float32 in base64 (little-endian, as Python's encode writes them). */
export function decode(text) {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  return Float64Array.from(new Float32Array(bytes.buffer));
}

/** The mean of curve[0 … n − 1], NaN when the curve stops before n (a learned table's). */
export function prefixMean(curve, n) {
  if (curve.length < n) return NaN;
  let sum = 0;
  for (let t = 0; t < n; t++) sum += curve[t];
  return sum / n;
}

/** prefix_losses: scheme -> mean loss over the first n tokens, and its perplexity exp(loss). */
export function prefixLosses(curves, n, names) {
  const loss = {}, perplexity = {};
  for (const name of names) {
    loss[name] = prefixMean(curves[name], n);
    perplexity[name] = Math.exp(loss[name]);
  }
  return { loss, perplexity };
}

/** The curves and the floor decoded, for the Python side's data object. */
export function decodeAll(d) {
  return { curves: Object.fromEntries(d.schemes.map((name) => [name, decode(d.curves[name])])), floor: decode(d.floor) };
}

/** The panel's numbers for the first n tokens: each scheme's mean loss and perplexity, and the floor's. */
export function prefixTable(d, n, names) {
  const { curves, floor } = decodeAll(d);
  const floorLoss = prefixMean(floor, n);
  return { ...prefixLosses(curves, n, names), floor_loss: floorLoss, floor_perplexity: Math.exp(floorLoss) };
}

// what does not change with the sliders, computed once per data object
const prepared = new WeakMap();
function prepare(d) {
  if (prepared.has(d)) return prepared.get(d);
  const { curves, floor } = decodeAll(d);
  const positions = Float64Array.from({ length: floor.length }, (_, t) => t);
  let top = 0;
  for (const name of d.schemes) for (const v of curves[name]) if (v > top) top = v;
  const groups = Object.fromEntries(d.groups);
  const p = { curves, floor, positions, top, groups };
  prepared.set(d, p);
  return p;
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 700 ? { width: w, height: 420, wide: true } : { width: w, height: 40 + 250 + 70 + 175 + 90, wide: false };
}

const ROW = 17; // the side panel's line height

function number(value) {
  return value.toFixed(2);
}

function draw(ctx, v, size) {
  const d = v.data, n = v.length, L = d.train_length;
  const { curves, floor, positions, top, groups } = prepare(d);
  const nMax = floor.length;
  const shown = groups[v.group];
  text(ctx, `trained on L = ${L} tokens, evaluated on n = ${n} = ${n / L}L`, 8, 6, { baseline: "top" });

  const box = size.wide
    ? { x: 62, y: 52, w: Math.round(size.width * 0.6) - 62, h: size.height - 52 - 58 }
    : { x: 62, y: 52, w: size.width - 62 - 14, h: 250 };
  const p = panel(ctx, box, linear().domain([0, nMax]), linear().domain([0, 1.05 * top]),
    { xName: "position in the sequence", yName: "next-token loss (nats)", xTicks: size.wide ? 6 : 4 });
  // the training length and its multiples
  const marks = [[L, "L", "#4d4d4d", 1.2], ...[2, 4].filter((k) => k * L < nMax).map((k) => [k * L, `${k}L`, "#cccccc", 0.8])];
  for (const [x, label, colour, width] of marks) {
    curve(ctx, p, [x, x], [0, 1.05 * top], { colour, width });
    text(ctx, label, p.x(x), box.y - 3, { align: "center", px: TICK_PX, colour: label === "L" ? INK : "#595959" });
  }
  curve(ctx, p, positions, floor, { colour: "#000", width: 1, dash: DASHES.dashed });
  const cut = {}, walls = [];
  for (const name of d.schemes) {
    if (!shown.includes(name)) continue;
    const c = curves[name];
    cut[name] = Array.from(c.subarray(0, n));
    const style = d.styles[name];
    curve(ctx, p, positions.subarray(0, cut[name].length), cut[name], { colour: style.colour, width: 1.5, dash: style.dash });
    if (c.length < n) { // a learned table: no row at or past its end
      walls.push(name);
      ctx.save();
      ctx.globalAlpha = 0.6;
      curve(ctx, p, [c.length, c.length], [0, 1.05 * top], { colour: style.colour, width: 2.5 });
      ctx.restore();
    }
  }

  // the side panel: each shown scheme's mean loss over the first n tokens and its perplexity
  const { loss, perplexity } = prefixLosses(curves, n, shown);
  const floorLoss = prefixMean(floor, n);
  const side = size.wide ? { x: box.x + box.w + 24, y: box.y } : { x: 14, y: box.y + box.h + 66 };
  const col = { loss: side.x + 150, ppl: side.x + 215 };
  text(ctx, `first ${n} tokens:`, side.x, side.y, { baseline: "top", px: TICK_PX });
  text(ctx, "loss", col.loss, side.y + ROW, { align: "right", baseline: "top", px: TICK_PX });
  text(ctx, "ppl", col.ppl, side.y + ROW, { align: "right", baseline: "top", px: TICK_PX });
  const rows = [...shown.map((name) => [name, loss[name], perplexity[name]]), ["floor", floorLoss, Math.exp(floorLoss)]];
  rows.forEach(([name, l, ppl], k) => {
    const y = side.y + (k + 2) * ROW;
    text(ctx, name, side.x, y, { baseline: "top", px: TICK_PX });
    if (Number.isNaN(l)) {
      text(ctx, `no row past ${curves[name].length}`, col.ppl, y, { align: "right", baseline: "top", px: TICK_PX, colour: GREY });
    } else {
      text(ctx, number(l), col.loss, y, { align: "right", baseline: "top", px: TICK_PX });
      text(ctx, number(ppl), col.ppl, y, { align: "right", baseline: "top", px: TICK_PX });
    }
  });
  // the legend: the floor and every scheme (two columns), below the table
  const entries = [{ colour: "#000", dash: DASHES.dashed, label: "entropy floor" },
    ...d.schemes.map((name) => ({ colour: d.styles[name].colour, dash: d.styles[name].dash, label: name }))];
  const legendTop = size.wide ? box.y + box.h - 4 * 20 + 6 : side.y + (shown.length + 3) * ROW + 18;
  const half = Math.ceil(entries.length / 2);
  const columnWidth = size.wide ? Math.min(160, (size.width - side.x) / 2) : 150;
  entries.forEach((entry, k) => {
    ctx.save();
    legend(ctx, side.x + (k < half ? 0 : columnWidth), legendTop + (k % half) * 20, [entry]);
    ctx.restore();
  });
  return { length: n, shown, cut, walls, prefix: loss, perplexity, floor_loss: floorLoss,
    floor_perplexity: Math.exp(floorLoss) };
}

function describe(v, drawn) {
  const parts = drawn.shown.map((name) => (Number.isNaN(drawn.prefix[name])
    ? `${name} no row past ${prepare(v.data).curves[name].length}`
    : `${name} ${number(drawn.prefix[name])} (perplexity ${number(drawn.perplexity[name])})`));
  return `Loss by position of models trained on L = ${v.data.train_length} tokens, cut at n = ${v.length}; mean loss `
    + `over the first ${v.length} tokens: ${parts.join(", ")}; entropy floor ${number(drawn.floor_loss)}.`;
}

// the control bar fits a phone's width: shorter sliders than the frame's, a group named by its words before ":"
const STYLE = '.pe-explorer[data-explorer="loss_curves"] input[type=range] { width: 120px; }';
const short = (label) => label.split(":")[0].replace("no positions", "none");

function render({ model, el }) {
  const style = document.createElement("style");
  style.textContent = STYLE;
  el.appendChild(style);
  const d = model.get("data");
  const labels = d.groups.map(([label]) => label);
  const L = d.train_length;
  return mount({ model, el }, {
    name: "loss_curves",
    controls: [
      { name: "group", label: "schemes", options: labels, min: labels[0], max: labels[labels.length - 1], step: 1,
        format: short },
      { name: "length", label: "evaluation length n", min: L, max: d.length, step: Math.max(1, Math.floor(L / 4)),
        integer: true },
    ],
    constants: ["data"],
    layout, draw, describe,
  });
}

export default { render };
