// Drawing on a canvas with d3's scales, ticks, number formats, line generator and colour maps: the one
// place the browser-drawn explorers take their axes, legends and palettes from. The colours are the
// course's Python figures' (helpers/plots.py: Okabe-Ito, colour-blind safe); text is at least 12 CSS px.

import { format } from "d3-format";
import { scaleLinear, scaleLog } from "d3-scale";
import { interpolateViridis } from "d3-scale-chromatic";

export const COLOURS = {
  blue: "#0072B2", vermillion: "#D55E00", green: "#009E73", purple: "#CC79A7",
  orange: "#E69F00", sky: "#56B4E9", yellow: "#F0E442", black: "#000000",
};
export const EMPHASIS = COLOURS.vermillion;
export const INK = "#222";
export const GREY = "#737373"; // Matplotlib's "0.45"
export const LIGHT = "#bfbfbf";
export const FONT = '"DejaVu Sans", "Helvetica Neue", Arial, sans-serif';
export const TEXT_PX = 13; // labels and titles
export const TICK_PX = 12; // tick labels: the smallest text drawn
export const DASHES = { solid: [], dashed: [6, 3], dashdot: [6, 2, 1.5, 2], dotted: [1.5, 2] };

export { interpolateViridis as viridis, scaleLinear as linear, scaleLog as log };

/** A canvas's 2-D context, sized to `width` × `height` CSS px at the screen's devicePixelRatio. */
export function sizeCanvas(canvas, width, height) {
  const ratio = globalThis.devicePixelRatio || 1;
  const w = Math.round(width * ratio), h = Math.round(height * ratio);
  // only when the size changes: a new size reallocates the canvas and lays out the page again
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext("2d");
  // a kept canvas keeps the last draw's state (styles, dashes, alpha): start each draw from the defaults
  if (typeof ctx.reset === "function") ctx.reset();
  else Object.assign(ctx, { globalAlpha: 1, lineWidth: 1, lineCap: "butt", lineJoin: "miter", textAlign: "start",
    textBaseline: "alphabetic", fillStyle: "#000", strokeStyle: "#000" }).setLineDash([]);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** A minus sign where a number is negative, as the Python figures print it. */
export function minus(text) {
  return String(text).replace(/^-/, "\u2212");
}

/** A number in `digits` significant figures, as Python's `:.{digits}g`. */
export function general(value, digits = 3) {
  if (value === 0) return "0";
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent < -4 || exponent >= digits) {
    const [m, e] = value.toExponential(digits - 1).split("e");
    const mantissa = m.includes(".") ? m.replace(/\.?0+$/, "") : m;
    const sign = e[0] === "-" ? "-" : "+";
    return minus(`${mantissa}e${sign}${e.slice(1).padStart(2, "0")}`);
  }
  return minus(format(`.${digits}~g`)(value));
}

export function text(ctx, value, x, y, { align = "left", baseline = "alphabetic", px = TEXT_PX, colour = INK,
  weight = "" } = {}) {
  ctx.font = `${weight ? weight + " " : ""}${px}px ${FONT}`;
  ctx.fillStyle = colour;
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  ctx.fillText(value, x, y);
}

/**
 * A panel: its box in CSS px and its two d3 scales, with the frame, ticks and axis names drawn.
 * `x` and `y` are d3 scales whose domains are set; their ranges are set here to the box.
 */
export function panel(ctx, box, x, y, { xName = "", yName = "", xTicks = 6, yTicks = 5, xTickValues, yTickValues,
  xFormat, yFormat } = {}) {
  x.range([box.x, box.x + box.w]);
  y.range([box.y + box.h, box.y]);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeRect(box.x, box.y, box.w, box.h);
  const xs = xTickValues || x.ticks(xTicks);
  const ys = yTickValues || y.ticks(yTicks);
  const fx = xFormat || x.tickFormat(xTicks);
  const fy = yFormat || y.tickFormat(yTicks);
  ctx.beginPath();
  for (const t of xs) {
    ctx.moveTo(x(t), box.y + box.h);
    ctx.lineTo(x(t), box.y + box.h + 4);
  }
  for (const t of ys) {
    ctx.moveTo(box.x, y(t));
    ctx.lineTo(box.x - 4, y(t));
  }
  ctx.stroke();
  for (const t of xs) text(ctx, minus(fx(t)), x(t), box.y + box.h + 7, { align: "center", baseline: "top", px: TICK_PX });
  for (const t of ys) text(ctx, minus(fy(t)), box.x - 7, y(t), { align: "right", baseline: "middle", px: TICK_PX });
  if (xName) text(ctx, xName, box.x + box.w / 2, box.y + box.h + 26, { align: "center", baseline: "top" });
  if (yName) {
    ctx.save();
    ctx.translate(box.x - 44, box.y + box.h / 2);
    ctx.rotate(-Math.PI / 2);
    text(ctx, yName, 0, 0, { align: "center", baseline: "bottom" });
    ctx.restore();
  }
  return { x, y, box };
}

/** Draw the curve through (xs[k], ys[k]) in a panel, clipped to its box. */
export function curve(ctx, p, xs, ys, { colour = INK, width = 1.5, dash = DASHES.solid } = {}) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(p.box.x, p.box.y, p.box.w, p.box.h);
  ctx.clip();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  for (let k = 0; k < xs.length; k++) ctx[k ? "lineTo" : "moveTo"](p.x(xs[k]), p.y(ys[k]));
  ctx.stroke();
  ctx.restore();
}

/** Dots at (xs[k], ys[k]); `fill` a colour or a function of k; `ring` draws open circles. */
export function dots(ctx, p, xs, ys, { fill = INK, radius = 2.5, ring = false, width = 2 } = {}) {
  ctx.save();
  ctx.setLineDash([]);
  ctx.lineWidth = width;
  for (let k = 0; k < xs.length; k++) {
    const colour = typeof fill === "function" ? fill(k) : fill;
    ctx.beginPath();
    ctx.arc(p.x(xs[k]), p.y(ys[k]), radius, 0, 2 * Math.PI);
    if (ring) {
      ctx.strokeStyle = colour;
      ctx.stroke();
    } else {
      ctx.fillStyle = colour;
      ctx.fill();
    }
  }
  ctx.restore();
}

/** A horizontal line across a panel at y = value. */
export function level(ctx, p, value, { colour = GREY, dash = DASHES.dotted, width = 1 } = {}) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(p.box.x, p.y(value));
  ctx.lineTo(p.box.x + p.box.w, p.y(value));
  ctx.stroke();
  ctx.restore();
}

/** Lines of text from (x, y) down, `px` high, `gap` apart. */
export function lines(ctx, values, x, y, { px = TEXT_PX, gap = 4, align = "left", colour = INK } = {}) {
  values.forEach((value, k) => text(ctx, value, x, y + k * (px + gap), { align, baseline: "top", px, colour }));
}

/** A legend row: a short stroke in each entry's colour and dash, then its text. */
export function legend(ctx, x, y, entries) {
  for (const { colour, dash = DASHES.solid, label, marker = false } of entries) {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.setLineDash(dash);
    ctx.beginPath();
    if (marker) ctx.arc(x + 11, y, 3, 0, 2 * Math.PI), ctx.fill();
    else ctx.moveTo(x, y), ctx.lineTo(x + 22, y), ctx.stroke();
    ctx.restore();
    text(ctx, label, x + 28, y, { baseline: "middle", px: TICK_PX });
    ctx.font = `${TICK_PX}px ${FONT}`;
    x += 28 + ctx.measureText(label).width + 20;
  }
}
