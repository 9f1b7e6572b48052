// Lesson 11's explorer, drawn by the browser: one attention layer from the tokens x to the output, the
// three places a position scheme enters it (added to x, rotating q and k, a bias on the scores) and the
// schemes at each. Which scheme enters where is found in Python by calling every scheme's hooks
// (helpers.measure.l11_the_map.where_position_enters and hook_effects), once, and sent; a choice of
// scheme only lights its places. Side by side on a wide page, the boxes go down the page on a narrow one.

import { mount, stubModel } from "./explorer.js";
import { COLOURS, FONT, INK, TEXT_PX, TICK_PX, text } from "./plot.js";

export { stubModel };

export const EVERY = "every scheme";
// each place's colour (a lit box's fill) and the darker one of its words (as helpers.plots.TEXT_COLORS)
const PLACE_COLOURS = {
  "added to x": [COLOURS.blue, "#0072B2"], "rotates q, k": [COLOURS.vermillion, "#BE5400"],
  "bias on scores": [COLOURS.green, "#008460"],
};
const NOWHERE_COLOURS = [COLOURS.purple, "#BB4D8A"];
const OFF = "#737373"; // words of a place not lit
const V_NOTE = "v (no scheme in this course rotates or biases it)";

function names(list) {
  return list.length ? list.join(", ") : "(no scheme)";
}

/** What the layer shows for a choice: the heading, the places lit, the words under each place and the note
 *  of the scheme with no hook (as layer_view in Python writes them). */
export function layerView(scheme, groups, effects, nowhere) {
  let lit, heading;
  if (scheme === EVERY) {
    lit = Object.keys(groups);
    heading = "where position enters one attention layer (schemes placed by calling their hooks)";
  } else {
    const effect = effects[scheme];
    lit = effect.places.slice();
    const kind = effect.parameters ? "learned: it has trainable parameters" : "fixed: nothing to train";
    heading = `${scheme}: ${effect.places.join(" and ")} (${kind})`;
  }
  const notes = {};
  for (const place of Object.keys(groups)) {
    if (place === nowhere) continue;
    const on = lit.includes(place);
    const shown = scheme === EVERY ? groups[place] : groups[place].filter((n) => n === scheme);
    notes[place] = [place, on ? names(shown) : ""];
  }
  return { scheme, heading, lit: lit.filter((p) => p !== nowhere), notes,
    nowhere: `${names(groups[nowhere])}: no scheme, so no hook`, nowhere_lit: lit.includes(nowhere) };
}

/** Words broken into lines no wider than `width` px at the context's font. */
function wrap(ctx, words, width) {
  const out = [];
  let current = "";
  for (const word of words.split(" ")) {
    const next = current ? `${current} ${word}` : word;
    if (current && ctx.measureText(next).width > width) {
      out.push(current);
      current = word;
    } else current = next;
  }
  out.push(current);
  return out;
}

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 262, wide: true } : { width: w, height: 90 + 8 * 62 + 24, wide: false };
}

function roundedBox(ctx, x, y, w, h, { fill = "#fff", edge = "#595959", width = 1.2 } = {}) {
  const r = 6;
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = edge;
  ctx.lineWidth = width;
  ctx.setLineDash([]);
  ctx.stroke();
}

function arrow(ctx, x0, y0, x1, y1, colour = "#595959") {
  const angle = Math.atan2(y1 - y0, x1 - x0);
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - 6 * Math.cos(angle), y1 - 6 * Math.sin(angle));
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - 8 * Math.cos(angle - 0.4), y1 - 8 * Math.sin(angle - 0.4));
  ctx.lineTo(x1 - 8 * Math.cos(angle + 0.4), y1 - 8 * Math.sin(angle + 0.4));
  ctx.closePath();
  ctx.fill();
}

/** A lit box's fill: its colour at 30 % on white (as the still's alpha 0.3). */
function tint(hex) {
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  return `rgb(${[r, g, b].map((c) => Math.round(255 - 0.3 * (255 - c))).join(",")})`;
}

function drawBox(ctx, label, place, view, x, y, w, h) {
  const on = place !== null && view.lit.includes(place);
  const [colour] = place !== null ? PLACE_COLOURS[place] : [null];
  if (place === null) roundedBox(ctx, x, y, w, h);
  else roundedBox(ctx, x, y, w, h, on ? { fill: tint(colour), edge: colour, width: 2.2 } : { edge: "#bfbfbf", width: 1 });
  const labelLines = label.split("\n");
  labelLines.forEach((line, k) => text(ctx, line, x + w / 2, y + h / 2 + (k - (labelLines.length - 1) / 2) * 14,
    { align: "center", baseline: "middle", px: TICK_PX, colour: place === null || on ? "#000" : OFF }));
}

function draw(ctx, v, size) {
  const view = layerView(v.scheme, v.groups, v.effects, v.nowhere_place);
  const boxes = v.boxes; // [label, place or null], from the tokens to the output
  ctx.font = `bold ${TEXT_PX}px ${FONT}`;
  const headingLines = wrap(ctx, view.heading, size.width - 16);
  headingLines.forEach((line, k) => text(ctx, line, size.width / 2, 18 + 17 * k,
    { align: "center", px: TEXT_PX, weight: "bold" }));
  const noteColour = (place) => (view.lit.includes(place) ? PLACE_COLOURS[place][1] : OFF);
  const notesDrawn = {};

  if (size.wide) {
    const step = (size.width - 16) / boxes.length;
    const w = 0.81 * step, h = 58, y = 100;
    const cx = (k) => 8 + (k + 0.5) * step;
    boxes.forEach(([label, place], k) => drawBox(ctx, label, place, view, cx(k) - w / 2, y, w, h));
    for (let k = 0; k + 1 < boxes.length; k++) arrow(ctx, cx(k) + w / 2 + 2, y + h / 2, cx(k + 1) - w / 2 - 2, y + h / 2);
    // v skips the rotation and the scores: an arc from the projections to · V
    const from = cx(2), to = cx(boxes.length - 1);
    ctx.strokeStyle = "#8c8c8c";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(from, y - 3);
    ctx.quadraticCurveTo((from + to) / 2, y - 46, to - 3, y - 6);
    ctx.stroke();
    arrow(ctx, to - 8, y - 12, to, y - 3, "#8c8c8c");
    text(ctx, V_NOTE, (from + to) / 2, y - 30, { align: "center", baseline: "bottom", px: TICK_PX, colour: OFF });
    boxes.forEach(([, place], k) => {
      if (place === null) return;
      const lines = view.notes[place].filter((line) => line);
      notesDrawn[place] = lines;
      lines.forEach((line, j) => text(ctx, line, cx(k), y + h + 10 + j * 16,
        { align: "center", baseline: "top", px: TICK_PX, colour: noteColour(place) }));
    });
    text(ctx, view.nowhere, 8, size.height - 10,
      { px: TICK_PX, colour: view.nowhere_lit ? NOWHERE_COLOURS[1] : OFF });
  } else {
    // down the page: the boxes in a column, the notes to their right
    const w = 96, h = 50, gap = 62, x = 34, top = 24 + 17 * headingLines.length + 8;
    const cy = (k) => top + k * gap + h / 2;
    boxes.forEach(([label, place], k) => drawBox(ctx, label, place, view, x, cy(k) - h / 2, w, h));
    for (let k = 0; k + 1 < boxes.length; k++) arrow(ctx, x + w / 2, cy(k) + h / 2 + 1, x + w / 2, cy(k + 1) - h / 2 - 1);
    const from = cy(2), to = cy(boxes.length - 1);
    ctx.strokeStyle = "#8c8c8c";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x - 2, from);
    ctx.quadraticCurveTo(x - 40, (from + to) / 2, x - 5, to);
    ctx.stroke();
    arrow(ctx, x - 12, to - 4, x - 2, to, "#8c8c8c");
    ctx.font = `${TICK_PX}px ${FONT}`;
    const room = size.width - (x + w + 14) - 6;
    wrap(ctx, V_NOTE, room).forEach((line, j) => text(ctx, line, x + w + 14, cy(boxes.length - 1) - 8 + j * 15,
      { baseline: "middle", px: TICK_PX, colour: OFF }));
    boxes.forEach(([, place], k) => {
      if (place === null) return;
      const lines = view.notes[place].filter((line) => line);
      notesDrawn[place] = lines;
      const shown = lines.flatMap((line) => wrap(ctx, line, room));
      shown.forEach((line, j) => text(ctx, line, x + w + 14, cy(k) + (j - (shown.length - 1) / 2) * 15,
        { baseline: "middle", px: TICK_PX, colour: noteColour(place) }));
    });
    wrap(ctx, view.nowhere, size.width - 16).forEach((line, j) => text(ctx, line, 8,
      size.height - 26 + j * 15, { px: TICK_PX, colour: view.nowhere_lit ? NOWHERE_COLOURS[1] : OFF }));
  }
  return { ...view, notes_drawn: notesDrawn, boxes: boxes.map(([label]) => label) };
}

function describe(v, drawn) {
  const placed = Object.entries(drawn.notes).filter(([, [, who]]) => who).map(([place, [, who]]) => `${place}: ${who}`);
  return `One attention layer from the tokens x to the output. ${drawn.heading}. ${placed.join("; ")}.`;
}

function render({ model, el }) {
  const options = [EVERY, ...model.get("schemes")];
  return mount({ model, el }, {
    name: "attention-layer",
    controls: [{ name: "scheme", label: "scheme", options, min: options[0], max: options[options.length - 1], step: 1 }],
    constants: ["schemes", "groups", "effects", "boxes", "nowhere_place"],
    layout, draw, describe,
  });
}

export default { render };
