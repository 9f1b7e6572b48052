// Lesson 09's explorer, computed and drawn by the browser: for one model shape, the scale s_i = ω_i / ω'_i
// each RoPE-stretching method gives each frequency pair, against the pair's wavelength ÷ the training
// length L, both on log axes; every method a thin line, the chosen one bold with its pairs marked kept,
// blended or interpolated, their counts and YaRN's attention temperature. The shapes (head dimension, base,
// L) come from Python once; the rest is computed here, as helpers.measure.l09_stretching_rope.shape_pictures
// computes it (helpers/rope_scaling.py: scaled_frequencies, pair_scales, classify_pairs, relative_wavelengths).

import { mount, stubModel } from "./explorer.js";
import { COLOURS, DASHES, FONT, GREY, INK, TEXT_PX, TICK_PX, curve, general, lines, log, panel, text } from "./plot.js";

export { stubModel };

export const METHODS = ["linear", "ntk", "dynamic", "yarn", "llama3"];
export const KINDS = ["extrapolated", "blended", "interpolated"];
// YaRN's cut-offs (turns within L) and Llama 3.1's ramp ends, as helpers.rope_scaling and the lesson use them
const BETA_FAST = 32, BETA_SLOW = 1, LOW_FREQ = 1, HIGH_FREQ = 4;
const REL_TOL = 1e-9; // classify_pairs: equal within this relative tolerance, as math.isclose

/** Python's round: halves to the even neighbour. */
function pyRound(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function isClose(a, b) {
  return a === b || Math.abs(a - b) <= REL_TOL * Math.max(Math.abs(a), Math.abs(b));
}

/** ω_i = base^(−2i/d), i = 0 … d/2 − 1. */
export function frequencies(d, base) {
  return Float64Array.from({ length: d / 2 }, (_, i) => Math.pow(base, (-2 * i) / d));
}

/** dynamic_ntk_factor: factor·n/L − (factor − 1) past L, else 1. */
export function dynamicFactor(factor, seqLen, L) {
  return seqLen <= L ? 1 : (factor * seqLen) / L - (factor - 1);
}

function ntk(omega, factor) {
  const d = 2 * omega.length;
  return omega.map((w, i) => w * Math.pow(factor, (-2 * i) / (d - 2)));
}

/** YaRN's interpolated share of each pair (0 kept … 1 divided by the factor), as the released code ramps it. */
export function yarnRamp(d, base, L) {
  const pairTurning = (rotations) => (d * Math.log(L / (2 * Math.PI * rotations))) / (2 * Math.log(base));
  const first = Math.max(Math.floor(pairTurning(BETA_FAST)), 0);
  const last = Math.min(Math.ceil(pairTurning(BETA_SLOW)), d - 1);
  return Float64Array.from({ length: d / 2 }, (_, i) => (last > first
    ? Math.min(Math.max((i - first) / (last - first), 0), 1) : (i > first ? 1 : 0)));
}

/**
 * stretched_frequencies as lesson 09 configures each method: (inv_freq, attention_scale, full factor).
 * "dynamic" reads n = factor·L, where its factor is factor·n/L − (factor − 1); "llama3" has Llama 3.1's ramp.
 */
export function stretched(method, factor, { head_dim: d, base, original_max_len: L }) {
  const omega = frequencies(d, base);
  if (method === "linear") return { inv: omega.map((w) => w / factor), attention: 1, full: factor };
  if (method === "ntk") return { inv: ntk(omega, factor), attention: 1, full: factor };
  if (method === "dynamic") {
    const full = dynamicFactor(factor, pyRound(factor * L), L);
    return { inv: ntk(omega, full), attention: 1, full };
  }
  if (method === "yarn") {
    const share = yarnRamp(d, base, L);
    return { inv: omega.map((w, i) => w * (1 - share[i]) + (w / factor) * share[i]),
      attention: 0.1 * Math.log(factor) + 1, full: factor };
  }
  if (method === "llama3") {
    return { inv: omega.map((w) => {
      const kept = Math.min(Math.max(((L * w) / (2 * Math.PI) - LOW_FREQ) / (HIGH_FREQ - LOW_FREQ), 0), 1);
      return w * kept + (w / factor) * (1 - kept);
    }), attention: 1, full: factor };
  }
  throw new Error(`unknown method ${method}`);
}

/** classify_pairs: "extrapolated" (s ≈ 1), "interpolated" (s ≈ the full factor) or "blended". */
export function classify(scale, full) {
  return Array.from(scale, (s) => (isClose(s, 1) ? "extrapolated" : isClose(s, full) ? "interpolated" : "blended"));
}

/** pair_picture: each pair's wavelength ÷ L, its scale and kind, the counts, the attention scale, the full factor. */
export function pairPicture(method, factor, shape) {
  const omega = frequencies(shape.head_dim, shape.base);
  const { inv, attention, full } = stretched(method, factor, shape);
  const scale = Array.from(omega, (w, i) => w / inv[i]);
  const kinds = classify(scale, full);
  return {
    method, factor: full, scale, kinds, attention_scale: attention,
    relative_wavelength: Array.from(omega, (w) => (2 * Math.PI) / (w * shape.original_max_len)),
    counts: KINDS.map((kind) => kinds.filter((k) => k === kind).length),
  };
}

/** shape_pictures: method -> pairPicture, for one shape at one factor. */
export function shapePictures(shape, factor) {
  return Object.fromEntries(METHODS.map((m) => [m, pairPicture(m, factor, shape)]));
}

// each method its colour and dash (lesson 09's METHOD_LINES); each kind its colour and marker (KIND_LABELS)
const LINES = {
  linear: { colour: COLOURS.blue, dash: DASHES.solid, label: "linear" },
  ntk: { colour: COLOURS.purple, dash: DASHES.dashed, label: "ntk" },
  dynamic: { colour: COLOURS.orange, dash: DASHES.dashdot, label: "dynamic at n = factor·L" },
  yarn: { colour: COLOURS.vermillion, dash: [1.6, 1.6], label: "yarn" },
  llama3: { colour: COLOURS.green, dash: [9.6, 3.2, 1.6, 3.2, 1.6, 3.2], label: "llama3" },
};
const MARKS = {
  extrapolated: { colour: COLOURS.green, shape: "circle", label: "extrapolated (s = 1)" },
  blended: { colour: COLOURS.orange, shape: "square", label: "blended" },
  interpolated: { colour: COLOURS.blue, shape: "triangle", label: "interpolated (s = factor)" },
};
const Y_TICKS = [1, 2, 4, 8, 16, 32, 64, 128];
const X_TICKS = [1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3];
const Y_DOMAIN = [0.8, 2 * 64 * 1.1]; // fixed: dynamic's slowest pairs leave the top from factor 12 on
const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

function decade(t) {
  return `10${String(Math.round(Math.log10(t))).split("").map((c) => SUPERSCRIPT[c]).join("")}`;
}

function marker(ctx, shape, x, y, colour) {
  ctx.fillStyle = colour;
  ctx.beginPath();
  if (shape === "circle") ctx.arc(x, y, 3.6, 0, 2 * Math.PI);
  else if (shape === "square") ctx.rect(x - 3.3, y - 3.3, 6.6, 6.6);
  else ctx.moveTo(x, y - 4.4), ctx.lineTo(x + 4, y + 2.8), ctx.lineTo(x - 4, y + 2.8), ctx.closePath();
  ctx.fill();
}

/** A legend of one column: each entry a stroke (colour, dash, width) or a marker, then its text. */
function legendColumn(ctx, x, y, entries, gap = 19) {
  entries.forEach((entry, k) => {
    const at = y + k * gap;
    ctx.save();
    if (entry.shape) marker(ctx, entry.shape, x + 13, at, entry.colour);
    else {
      ctx.strokeStyle = entry.colour;
      ctx.lineWidth = entry.width || 1.6;
      ctx.setLineDash(entry.dash || []);
      ctx.beginPath();
      ctx.moveTo(x, at);
      ctx.lineTo(x + 26, at);
      ctx.stroke();
    }
    ctx.restore();
    text(ctx, entry.label, x + 32, at, { baseline: "middle", px: TICK_PX });
  });
}

/** `value` broken into lines at most `width` px wide (at the size ctx's font has). */
function wrap(ctx, value, width) {
  const out = [];
  for (const paragraph of value.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      const tried = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(tried).width > width) out.push(line), line = word;
      else line = tried;
    }
    out.push(line);
  }
  return out;
}

const HEADING_LINES_NARROW = 4;
const NARROW_TOP = 8 + HEADING_LINES_NARROW * 17 + 20; // the heading, then room for "wavelength = L"

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 470, wide: true }
    : { width: w, height: NARROW_TOP + 284 + 96 + 9 * 19, wide: false };
}

export function heading(shape, picture) {
  const where = picture.method === "dynamic" ? " at n = factor·L" : "";
  const [kept, blended, divided] = picture.counts;
  return `${shape.name}\n${picture.method}${where}, factor ${general(picture.requested, 6)}: ${kept} pair`
    + `${kept !== 1 ? "s" : ""} kept, ${blended} blended, ${divided} divided by ${general(picture.factor, 6)}`;
}

function draw(ctx, v, size) {
  const shape = v.shapes[v.model];
  const pictures = shapePictures(shape, v.factor);
  const picture = { ...pictures[v.method], requested: v.factor };
  const xs = picture.relative_wavelength;

  ctx.font = `${TEXT_PX}px ${FONT}`;
  const head = size.wide ? heading(shape, picture).split("\n") : wrap(ctx, heading(shape, picture), size.width - 16)
    .slice(0, HEADING_LINES_NARROW);
  lines(ctx, head, 8, 4);

  const top = size.wide ? 56 : NARROW_TOP;
  const box = size.wide
    ? { x: 64, y: top, w: Math.round(size.width * 0.6) - 64, h: size.height - top - 64 }
    : { x: 64, y: top, w: size.width - 64 - 12, h: 284 };
  const lo = Math.min(...xs) / 2, hi = Math.max(...xs) * 2;
  const p = panel(ctx, box, log().domain([lo, hi]), log().domain(Y_DOMAIN), {
    xTickValues: X_TICKS.filter((t) => t >= lo && t <= hi), xFormat: decade,
    yTickValues: Y_TICKS, yFormat: (t) => String(t),
    yName: "scale s = ω / ω′",
  });
  // the axis's name in two lines, or three on a narrow screen
  const xName = size.wide ? ["original wavelength of the pair ÷ training length L", "(fast pairs on the left)"]
    : ["original wavelength of the pair", "÷ training length L", "(fast pairs on the left)"];
  xName.forEach((line, k) => text(ctx, line, box.x + box.w / 2, box.y + box.h + 26 + 17 * k,
    { align: "center", baseline: "top" }));
  // wavelength = L: the line, named above the panel (never over the curves)
  ctx.save();
  ctx.strokeStyle = "#999999";
  ctx.lineWidth = 1;
  ctx.setLineDash(DASHES.dotted);
  ctx.beginPath();
  ctx.moveTo(p.x(1), box.y);
  ctx.lineTo(p.x(1), box.y + box.h);
  ctx.stroke();
  ctx.restore();
  text(ctx, "wavelength = L", p.x(1), box.y - 4, { align: "center", baseline: "bottom", px: TICK_PX, colour: "#666666" });

  // the chosen method: a bold black line, its pairs marked by kind, under every method's thin line
  curve(ctx, p, xs, picture.scale, { colour: "#000", width: 2.2 });
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.w, box.h);
  ctx.clip();
  picture.kinds.forEach((kind, i) => marker(ctx, MARKS[kind].shape, p.x(xs[i]), p.y(picture.scale[i]),
    MARKS[kind].colour));
  ctx.restore();
  for (const m of METHODS) {
    ctx.globalAlpha = 0.9;
    curve(ctx, p, xs, pictures[m].scale, { colour: LINES[m].colour, width: 1.6, dash: LINES[m].dash });
    ctx.globalAlpha = 1;
  }

  // the legend and the summary: beside the panel, or below it on a narrow screen
  const entries = [{ colour: "#000", width: 2.2, label: "the chosen method" },
    ...KINDS.map((k) => MARKS[k]), ...METHODS.map((m) => LINES[m])];
  const legendX = size.wide ? box.x + box.w + 20 : 8;
  const legendY = size.wide ? box.y + 8 : box.y + box.h + 90;
  legendColumn(ctx, legendX, legendY, entries);
  const scale = picture.attention_scale;
  const summary = [...KINDS.map((kind, k) => `${kind.padEnd(13)}${String(picture.counts[k]).padStart(3)}`),
    "temperature:", `q, k ×${scale.toFixed(3)}`, `logits ×${(scale * scale).toFixed(3)}`];
  ctx.font = `${TICK_PX}px "DejaVu Sans Mono", Menlo, Consolas, monospace`;
  const summaryX = size.wide ? legendX : size.width - 8 - Math.max(...summary.map((s) => ctx.measureText(s).width));
  const summaryY = size.wide ? legendY + entries.length * 19 + 14 : legendY - 8;
  summary.forEach((line, k) => {
    ctx.font = `${TICK_PX}px "DejaVu Sans Mono", Menlo, Consolas, monospace`;
    ctx.fillStyle = INK;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(line, summaryX, summaryY + k * 16);
  });

  return {
    shape: shape.name, method: v.method, factor: v.factor, full_factor: picture.factor,
    relative_wavelength: xs, scale: picture.scale, kinds: picture.kinds, counts: picture.counts,
    attention_scale: scale, scales: Object.fromEntries(METHODS.map((m) => [m, pictures[m].scale])),
    kinds_by_method: Object.fromEntries(METHODS.map((m) => [m, pictures[m].kinds])),
    full_factors: Object.fromEntries(METHODS.map((m) => [m, pictures[m].factor])),
    heading: heading(shape, picture),
  };
}

function describe(v, drawn) {
  const where = v.method === "dynamic" ? " at n = factor·L" : "";
  const [kept, blended, divided] = drawn.counts;
  return `${drawn.shape}; ${v.method}${where} at factor ${general(v.factor, 6)}: ${kept} pair${kept !== 1 ? "s" : ""} `
    + `kept, ${blended} blended, ${divided} divided by ${general(drawn.full_factor, 6)}; q, k ×`
    + `${drawn.attention_scale.toFixed(3)}.`;
}

function render({ model, el }) {
  const shapes = model.get("shapes");
  const factors = model.get("factors");
  const models = shapes.map((_, k) => k);
  return mount({ model, el }, {
    name: "pair-scale",
    controls: [
      { name: "method", label: "method", options: METHODS, min: METHODS[0], max: METHODS[METHODS.length - 1], step: 1 },
      { name: "factor", label: "factor", options: factors, min: factors[0], max: factors[factors.length - 1], step: 1,
        format: (f) => general(f, 6) },
      { name: "model", label: "model", options: models, min: 0, max: models.length - 1, step: 1,
        format: (k) => shapes[k].label },
    ],
    constants: ["shapes", "factors"],
    layout, draw, describe,
  });
}

export default { render };
