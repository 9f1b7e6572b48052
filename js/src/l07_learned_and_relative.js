// Lesson 07's two explorers, computed and drawn by the browser; the model's `kind` picks one.
//
// "t5-buckets": T5's relative-position buckets: the bucket of every offset (T5's key − query, drawn
// against δ = query − key as the lesson's figures are) on an axis
// linear up to ±10 and logarithmic beyond, and where each bucket of keys before the query starts
// against the log-spaced formula. The buckets are computed here as helpers.t5_bucket computes them in
// torch's float32 (every rounding emulated with Math.fround, the truncation with Math.trunc), so every
// offset lands in the same bucket; the rest as helpers.measure.l07_learned_and_relative.t5_bucket_view.
//
// "alibi": ALiBi's causal bias of one head as a heatmap, every head's slope (with the interleaving of a
// head count that is not a power of two), and the softmax weights of the last query when every content
// score is equal: helpers.alibi_slopes and helpers.measure.l07_learned_and_relative.alibi_view.

import { mount, stubModel } from "./explorer.js";
import {
  COLOURS, DASHES, EMPHASIS, FONT, GREY, INK, TEXT_PX, TICK_PX, curve, dots, general, legend, linear, log, minus,
  panel, text, viridis,
} from "./plot.js";

export { stubModel };

const f32 = Math.fround;

// ---------------------------------------------------------------------------------------------------
// T5's buckets.

/** T5's bucket of one offset (key − query), as helpers.t5_bucket computes it in float32. */
export function t5Bucket(offset, bidirectional, numBuckets, maxDistance) {
  let n = numBuckets, bucket = 0, distance;
  if (bidirectional) {
    n = Math.floor(n / 2);
    bucket = offset > 0 ? n : 0;
    distance = Math.abs(offset);
  } else {
    distance = Math.max(-offset, 0); // keys after the query all share bucket 0
  }
  const exact = Math.floor(n / 2);
  if (distance < exact) return bucket + distance;
  // torch: log(distance.float() / exact) / math.log(max_distance / exact), each step rounded to float32
  const scaled = f32(f32(Math.log(f32(Math.max(distance, 1) / exact))) / f32(Math.log(maxDistance / exact)));
  return bucket + Math.min(exact + Math.trunc(f32(scaled * (n - exact))), n - 1);
}

/** t5_bucket_view: the offsets −span … 0 (causal) or −span … span, their buckets, how many offsets each
 * bucket holds, where each bucket of keys before the query starts (NaN: empty) and the formula's starts. */
export function t5View(numBuckets, maxDistance, bidirectional, span) {
  const last = bidirectional ? span : 0;
  const offsets = [], buckets = [];
  for (let o = -span; o <= last; o++) {
    offsets.push(o);
    buckets.push(t5Bucket(o, bidirectional, numBuckets, maxDistance));
  }
  const widths = new Array(numBuckets).fill(0);
  for (const b of buckets) widths[b] += 1;
  const n = bidirectional ? Math.floor(numBuckets / 2) : numBuckets;
  const exact = Math.floor(n / 2);
  const starts = new Array(n).fill(NaN);
  for (let k = 0; k < offsets.length && offsets[k] <= 0; k++) { // offsets rise: the last seen is the smallest distance
    starts[buckets[k]] = -offsets[k];
  }
  const edges = Array.from({ length: n }, (_, b) => (b < exact ? b
    : exact * Math.pow(maxDistance / exact, (b - exact) / (n - exact))));
  return { offsets, buckets, widths, starts, edges, exact };
}

export const T5_SPAN = 600; // the explorer's offsets: 1.5 times the largest max_distance

/** Matplotlib's symlog (base 10, linthresh 10, linscale 0.6) as a scale that panel() can use. */
function symlog(domain) {
  const linthresh = 10, linscale = 0.6 / (1 - 1 / 10);
  const u = (a) => (Math.abs(a) <= linthresh ? (a / linthresh) * linscale
    : Math.sign(a) * (linscale + Math.log10(Math.abs(a) / linthresh)));
  let range = [0, 1];
  const u0 = u(domain[0]), u1 = u(domain[1]);
  const scale = (a) => range[0] + ((u(a) - u0) / (u1 - u0)) * (range[1] - range[0]);
  scale.range = (r) => ((range = r), scale);
  return scale;
}

/** Text parts joined by "; " on one line where they fit in `width`, one line each where not. */
function fitted(ctx, parts, width, px = TEXT_PX) {
  ctx.font = `${px}px ${FONT}`;
  const one = parts.join("; ");
  return ctx.measureText(one).width <= width ? [one] : parts.map((p, k) => (k < parts.length - 1 ? `${p};` : p));
}

function yName(ctx, name, x, y) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  text(ctx, name, 0, 0, { align: "center", baseline: "bottom" });
  ctx.restore();
}

function t5Layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return { width: w, height: w >= 600 ? 580 : 640, wide: w >= 600 };
}

function t5Draw(ctx, v, size) {
  const view = t5View(v.num_buckets, v.max_distance, v.bidirectional, v.span);
  const { offsets, buckets, starts, edges, exact } = view;
  const n = edges.length;
  const left = 62, right = size.width - 16, w = right - left;

  const direction = v.bidirectional ? "bidirectional: half the buckets for keys after the query"
    : "causal: every key after the query in bucket 0";
  const title = fitted(ctx, [`${v.num_buckets} buckets, max_distance ${v.max_distance}`, direction], size.width - 16);
  title.forEach((line, k) => text(ctx, line, size.width / 2, 6 + 18 * k, { align: "center", baseline: "top" }));
  let y = 6 + 18 * title.length + 12;
  legend(ctx, size.wide ? left : 8, y, [
    { colour: GREY, dash: DASHES.dotted, label: "end of the exact buckets" },
    { colour: EMPHASIS, dash: DASHES.dashed, label: "max_distance" },
  ]);
  y += 16;

  // the bucket of every offset
  const mapBox = { x: left, y, w, h: size.wide ? 190 : 200 };
  // plotted against δ = query − key = −offset, as the lesson's figures are
  const lo = v.bidirectional ? -v.span : -10; // causal: a glimpse of the keys after the query
  const ticks = [-500, -100, -30, -10, 0, 10, 30, 100, 500].filter((t) => t >= lo && t <= v.span)
    .filter((t) => size.wide || ![-30, 30].includes(t));
  const yTicks = linear().domain([-1, v.num_buckets]).ticks(6).filter((t) => Number.isInteger(t));
  const map = panel(ctx, mapBox, symlog([lo, v.span]), linear().domain([-1, v.num_buckets]),
    { xTickValues: ticks, xFormat: String, yTickValues: yTicks, yName: "bucket" });
  const mapName = size.wide ? ["δ = query − key position (positive: the key comes before the query)"]
    : ["δ = query − key position", "(positive: the key comes before the query)"];
  mapName.forEach((line, k) => text(ctx, line, left + w / 2, mapBox.y + mapBox.h + 26 + 16 * k,
    { align: "center", baseline: "top" }));
  // steps-mid, as Matplotlib draws it: each offset's bucket held from half-way to its neighbours
  const sx = [-offsets[0]], sy = [buckets[0]];
  for (let k = 1; k < offsets.length; k++) {
    const mid = -(offsets[k - 1] + offsets[k]) / 2;
    sx.push(mid, mid);
    sy.push(buckets[k - 1], buckets[k]);
  }
  sx.push(-offsets[offsets.length - 1]);
  sy.push(buckets[buckets.length - 1]);
  const sides = v.bidirectional ? [-1, 1] : [1];
  for (const side of sides) {
    curve(ctx, map, [side * (exact - 0.5), side * (exact - 0.5)], [-1, v.num_buckets], { colour: GREY, width: 1.2, dash: DASHES.dotted });
    curve(ctx, map, [side * v.max_distance, side * v.max_distance], [-1, v.num_buckets], { colour: EMPHASIS, width: 1.2, dash: DASHES.dashed });
  }
  curve(ctx, map, sx, sy, { colour: COLOURS.blue, width: 1.4 });

  // where each bucket of keys before the query starts
  y = mapBox.y + mapBox.h + 26 + 16 * mapName.length + 24;
  const empty = starts.filter((s) => Number.isNaN(s)).length;
  const edgesTitle = fitted(ctx, [`distances 0 … ${exact - 1} exact, then log-spaced up to ${v.max_distance}`,
    ...(empty ? [`${empty} buckets left empty`] : [])], size.width - 16);
  edgesTitle.forEach((line, k) => text(ctx, line, size.width / 2, y + 18 * k, { align: "center", baseline: "top" }));
  y += 18 * edgesTitle.length + 8;
  const edgesBox = { x: left, y, w, h: size.height - y - 50 };
  const ex = panel(ctx, edgesBox, linear().domain([-0.5, n - 0.5]), log().domain([0.8, 1.5 * 400]),
    { xTickValues: linear().domain([0, n - 1]).ticks(8).filter((t) => Number.isInteger(t)), xFormat: String,
      yTickValues: [1, 10, 100], yFormat: String,
      xName: "bucket (keys before the query)", yName: "distance" });
  const b = Array.from({ length: n }, (_, k) => k);
  curve(ctx, ex, b.slice(exact), edges.slice(exact), { colour: GREY, width: 1.2, dash: DASHES.dashed });
  const filled = b.slice(1).filter((k) => !Number.isNaN(starts[k])); // bucket 0 starts at distance 0, off a log scale
  dots(ctx, ex, filled, filled.map((k) => starts[k]), { fill: COLOURS.blue, radius: 3 });
  legend(ctx, edgesBox.x + 8, edgesBox.y + 14, [{ colour: GREY, dash: DASHES.dashed, label: "formula" }]);
  legend(ctx, edgesBox.x + 8, edgesBox.y + 32, [{ colour: COLOURS.blue, marker: true, label: "first distance in the bucket" }]);
  return { ...view, empty, span: v.span };
}

function t5Describe(v, drawn) {
  return `T5's buckets: ${v.num_buckets} buckets, max_distance ${v.max_distance}, `
    + `${v.bidirectional ? "bidirectional" : "causal"}; distances 0 … ${drawn.exact - 1} have a bucket each, then `
    + `log-spaced buckets up to ${v.max_distance}${drawn.empty ? `; ${drawn.empty} buckets left empty` : ""}.`;
}

// ---------------------------------------------------------------------------------------------------
// ALiBi.

/** helpers.alibi_slopes: 2^(−8h/n0) for the largest power of two n0 ≤ n, then every other slope of
 * 2·n0 heads (1st, 3rd, …) for the rest; rounded to float32 as the course's tensor holds them. */
export function alibiSlopes(nHeads) {
  const n0 = 2 ** Math.floor(Math.log2(nHeads));
  const geometric = (n) => Array.from({ length: n }, (_, h) => Math.pow(2, (-8 * (h + 1)) / n));
  const extra = geometric(2 * n0).filter((_, k) => k % 2 === 0).slice(0, nHeads - n0);
  return [...geometric(n0), ...extra].map(f32);
}

/** alibi_view: the slopes, the chosen head's causal bias −m·(i − j) (NaN above the diagonal), the last
 * query's softmax weights over the keys when every content score is equal, and ln 2 / m. */
export function alibiView(nHeads, length, head) {
  const slopes = alibiSlopes(nHeads);
  const slope = slopes[head - 1];
  const bias = Array.from({ length }, (_, i) => Array.from({ length }, (_, j) => (j <= i ? -slope * (i - j) : NaN)));
  const row = bias[length - 1];
  const top = Math.max(...row);
  const e = row.map((x) => Math.exp(x - top));
  const sum = e.reduce((a, x) => a + x, 0);
  return {
    slopes, head, slope, bias, weights: e.map((x) => x / sum), half_distance: Math.LN2 / slope,
    power_of_two: (nHeads & (nHeads - 1)) === 0,
  };
}

export const BIAS_FLOOR = -6; // the heatmap's colour scale: 0 down to −6, the same for every head
const LUT = Array.from({ length: 256 }, (_, k) => {
  const hex = viridis(k / 255).replace("#", "");
  return [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
});

function colourIndex(value) {
  return Math.min(255, Math.max(0, Math.floor(((value - BIAS_FLOOR) / -BIAS_FLOOR) * 256)));
}

let heatImage = null; // one canvas, kept from draw to draw and resized when the length changes

function heatmap(ctx, box, bias) {
  const n = bias.length;
  if (!heatImage) heatImage = document.createElement("canvas");
  if (heatImage.width !== n || heatImage.height !== n) {
    heatImage.width = n;
    heatImage.height = n;
  }
  const image = heatImage.getContext("2d");
  const pixels = image.createImageData(n, n);
  const data = pixels.data; // read once: each read of an ImageData's data is a call into the browser
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const colour = LUT[colourIndex(bias[i][j])];
      const at = 4 * (i * n + j);
      data[at] = colour[0];
      data[at + 1] = colour[1];
      data[at + 2] = colour[2];
      data[at + 3] = 255; // above the diagonal stays blank: future keys are masked
    }
  }
  image.putImageData(pixels, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(heatImage, box.x, box.y, box.w, box.h);
  ctx.restore();
}

function colourBar(ctx, box) {
  const steps = 64;
  for (let k = 0; k < steps; k++) {
    ctx.fillStyle = viridis((k + 0.5) / steps);
    const y0 = box.y + box.h - ((k + 1) * box.h) / steps;
    ctx.fillRect(box.x, y0, box.w, box.h / steps + 0.5);
  }
  ctx.fillStyle = viridis(0); // below −6: clipped to the colour of −6
  ctx.beginPath();
  ctx.moveTo(box.x, box.y + box.h);
  ctx.lineTo(box.x + box.w, box.y + box.h);
  ctx.lineTo(box.x + box.w / 2, box.y + box.h + 12);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.stroke();
  ctx.strokeRect(box.x, box.y, box.w, box.h);
  for (let t = 0; t >= BIAS_FLOOR; t -= 2) {
    const y = box.y + (t / BIAS_FLOOR) * box.h;
    ctx.beginPath();
    ctx.moveTo(box.x + box.w, y);
    ctx.lineTo(box.x + box.w + 4, y);
    ctx.stroke();
    text(ctx, minus(String(t)), box.x + box.w + 7, y, { baseline: "middle", px: TICK_PX });
  }
  text(ctx, "bias", box.x + box.w / 2, box.y - 8, { align: "center", px: TICK_PX });
}

function alibiLayout(width) {
  const w = Math.max(300, Math.min(width, 860));
  if (w >= 680) return { width: w, height: 440, wide: true, side: Math.min(300, Math.round(0.34 * w)) };
  const side = Math.min(300, w - 62 - 72);
  return { width: w, height: 548 + side, wide: false, side };
}

function alibiDraw(ctx, v, size) {
  const view = alibiView(v.n_heads, v.length, v.head);
  const { side } = size;
  const L = v.length;

  // the chosen head's bias
  const heat = { x: 58, y: 52, w: side, h: side };
  text(ctx, `head ${v.head}: bias −${general(view.slope, 4)}·(i − j)`, heat.x + side / 2, 18,
    { align: "center", baseline: "top" });
  const cells = linear().domain([0, L - 1]).ticks(5).filter((t) => Number.isInteger(t));
  heatmap(ctx, heat, view.bias);
  panel(ctx, heat, linear().domain([-0.5, L - 0.5]), linear().domain([L - 0.5, -0.5]),
    { xTickValues: cells, yTickValues: cells, xFormat: String, yFormat: String, xName: "key position j" });
  yName(ctx, "query position i", heat.x - 36, heat.y + side / 2);
  colourBar(ctx, { x: heat.x + side + 14, y: heat.y, w: 12, h: side });

  // every head's slope
  const rx = size.wide ? heat.x + side + 118 : 70;
  const rw = size.width - rx - 16;
  const slopesBox = { x: rx, y: size.wide ? 52 : heat.y + side + 96, w: rw, h: size.wide ? 118 : 130 };
  const n0 = 2 ** Math.floor(Math.log2(v.n_heads));
  const rule = view.power_of_two ? "one geometric sequence" : `${n0} geometric, then ${v.n_heads - n0} in between`;
  const titleX = size.wide ? rx - 50 : rx + rw / 2, titleAlign = size.wide ? "left" : "center";
  text(ctx, `${v.n_heads} slopes: ${rule}`, titleX, slopesBox.y - 10, { align: titleAlign });
  const heads = Array.from({ length: v.n_heads }, (_, k) => k + 1);
  const sp = panel(ctx, slopesBox, linear().domain([0.5, 16.5]), log().base(2).domain([2 ** -8.6, 1.2]),
    { xTickValues: [2, 4, 6, 8, 10, 12, 14, 16], xFormat: String, yTickValues: [1, 1 / 4, 1 / 16, 1 / 64, 1 / 256],
      yFormat: (t) => (t === 1 ? "1" : `1/${Math.round(1 / t)}`), xName: "head" });
  yName(ctx, "slope m", rx - 50, slopesBox.y + slopesBox.h / 2);
  curve(ctx, sp, heads, view.slopes, { colour: "#8c8c8c", width: 0.8 });
  dots(ctx, sp, heads, view.slopes, { fill: "#8c8c8c", radius: 2.5 });
  dots(ctx, sp, [v.head], [view.slope], { fill: EMPHASIS, radius: 6.5, ring: true, width: 2 });

  // the last query's weights
  const weightsBox = { x: rx, y: slopesBox.y + slopesBox.h + 78, w: rw, h: size.wide ? 128 : 130 };
  text(ctx, `weight halves every ${general(view.half_distance)} tokens (ln 2 / m)`, titleX, weightsBox.y - 10,
    { align: titleAlign });
  const distance = Array.from({ length: L }, (_, k) => k);
  const fromLast = [...view.weights].reverse();
  const wp = panel(ctx, weightsBox, linear().domain([-0.5, L - 0.5]), log().domain([5e-5, 1.5]),
    { xTickValues: linear().domain([0, L - 1]).ticks(5).filter((t) => Number.isInteger(t)), xFormat: String,
      yTickValues: [1e-4, 1e-3, 1e-2, 1e-1, 1],
      yFormat: (t) => ["0.0001", "0.001", "0.01", "0.1", "1"][Math.round(Math.log10(t)) + 4],
      xName: "distance i − j from the last query" });
  yName(ctx, "weight", rx - 50, weightsBox.y + weightsBox.h / 2);
  curve(ctx, wp, [0, L - 1], [1 / L, 1 / L], { colour: GREY, width: 1.2, dash: DASHES.dotted });
  text(ctx, "no bias (uniform)", wp.x(L - 1), wp.y(1.15 / L) - 2, { align: "right", px: TICK_PX, colour: "#4d4d4d" });
  curve(ctx, wp, distance, fromLast, { colour: EMPHASIS, width: 1.6 });
  return { ...view, distance, weights_from_last: fromLast };
}

function alibiDescribe(v, drawn) {
  return `ALiBi, head ${v.head} of ${v.n_heads} over ${v.length} tokens: slope ${general(drawn.slope, 4)}, so the `
    + `last query's weight halves every ${general(drawn.half_distance)} tokens when every content score is equal.`;
}

// ---------------------------------------------------------------------------------------------------

function render({ model, el }) {
  if (model.get("kind") === "alibi") {
    const maxLength = model.get("max_length") || 128;
    return mount({ model, el }, {
      name: "alibi",
      controls: [
        { name: "n_heads", label: "n_heads", min: 1, max: 16, step: 1, integer: true },
        { name: "length", label: "length", min: 8, max: maxLength, step: 8, integer: true },
        { name: "head", label: "head", min: 1, max: (values) => values.n_heads, step: 1, integer: true },
      ],
      constants: ["kind", "max_length"],
      layout: alibiLayout, draw: alibiDraw, describe: alibiDescribe,
    });
  }
  return mount({ model, el }, {
    name: "t5-buckets",
    controls: [
      { name: "num_buckets", label: "num_buckets", min: 4, max: 64, step: 4, integer: true },
      { name: "max_distance", label: "max_distance", min: 40, max: 400, step: 8, integer: true },
      { name: "bidirectional", label: "attention", options: [false, true], min: false, max: true, step: 1,
        format: (b) => (b ? "bidirectional (encoder)" : "causal (decoder)") },
    ],
    constants: ["kind", "span"],
    layout: t5Layout, draw: t5Draw, describe: t5Describe,
  });
}

export default { render };
