// Lesson 00's explorer, drawn by the browser: the tokens in a chosen order, attention without and with a
// position signal, and how far the mean-pooled output moves from the original order's. The attention of
// the random layer needs torch: it is computed once in Python for every order
// (helpers.measure.l00_order_blindness.order_snapshot) and sent; a move only picks an order and draws.

import { mount, stubModel } from "./explorer.js";
import { COLOURS, EMPHASIS, INK, TICK_PX, general, linear, panel, text, viridis } from "./plot.js";

export { stubModel };

function layout(width) {
  const w = Math.max(300, Math.min(width, 860));
  return w >= 600 ? { width: w, height: 330, wide: true } : { width: w, height: 300 + 290, wide: false };
}

function heatmap(ctx, box, weights, names, title, first) {
  const n = names.length;
  const cell = box.w / n;
  weights.forEach((row, i) => row.forEach((w, j) => {
    ctx.fillStyle = viridis(Math.min(Math.max(w, 0), 1));
    ctx.fillRect(box.x + j * cell, box.y + i * cell, cell + 0.5, cell + 0.5);
    text(ctx, w.toFixed(2), box.x + (j + 0.5) * cell, box.y + (i + 0.5) * cell,
      { align: "center", baseline: "middle", px: TICK_PX, colour: w < 0.5 ? "#fff" : "#000" });
  }));
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.strokeRect(box.x, box.y, box.w, box.w);
  ctx.strokeStyle = EMPHASIS; // the row of the first token, wherever the order puts it
  ctx.lineWidth = 2.5;
  ctx.strokeRect(box.x + 1.25, box.y + first * cell + 1.25, box.w - 2.5, cell - 2.5);
  names.forEach((name, i) => {
    text(ctx, name, box.x - 6, box.y + (i + 0.5) * cell, { align: "right", baseline: "middle", px: TICK_PX });
    ctx.save();
    ctx.translate(box.x + (i + 0.5) * cell, box.y + box.w + 6);
    ctx.rotate(-Math.PI / 4);
    text(ctx, name, 0, 0, { align: "right", baseline: "middle", px: TICK_PX });
    ctx.restore();
  });
  text(ctx, title, box.x + box.w / 2, box.y - 10, { align: "center" });
}

function draw(ctx, v, size) {
  const d = v.snapshots;
  const k = d.labels.indexOf(v.order);
  const order = d.orders[k];
  const names = order.map((i) => d.tokens[i]);
  const first = order.indexOf(0);
  const side = size.wide ? Math.min(190, (size.width - 276) / 2 - 70) : Math.min(150, (size.width - 166) / 2);
  const top = 34;
  const left = { x: 86, y: top, w: side };
  const right = { x: 86 + side + (size.wide ? 90 : 70), y: top, w: side };
  heatmap(ctx, left, d.weights_plain[k], names, "no position signal", first);
  heatmap(ctx, right, d.weights_with_position[k], names, "with position signal", first);
  ctx.save();
  ctx.translate(14, top + side / 2);
  ctx.rotate(-Math.PI / 2);
  text(ctx, "query", 0, 0, { align: "center", baseline: "middle", px: TICK_PX });
  ctx.restore();
  text(ctx, "key", left.x + side / 2, top + side + 62, { align: "center", px: TICK_PX });

  const moved = [d.moved_plain[k], d.moved_with_position[k]];
  const barBox = size.wide
    ? { x: right.x + side + 90, y: top + 20, w: size.width - (right.x + side + 90) - 16, h: side + 10 }
    : { x: 86, y: top + side + 120, w: size.width - 102, h: 160 };
  const bars = panel(ctx, barBox, linear().domain([-0.5, 1.5]), linear().domain([0, 1.3 * d.largest + 1e-6]),
    { xTickValues: [0, 1], xFormat: (t) => (t === 0 ? "without" : "with"), yTicks: 4, xName: "position signal" });
  const width = barBox.w / 3.5;
  moved.forEach((value, j) => {
    ctx.fillStyle = j === 0 ? "#999999" : COLOURS.blue;
    const y = bars.y(value);
    ctx.fillRect(bars.x(j) - width / 2, y, width, barBox.y + barBox.h - y);
    text(ctx, value.toFixed(3), bars.x(j), y - 4, { align: "center", baseline: "bottom" });
  });
  text(ctx, "pooled output moved", barBox.x + barBox.w / 2, barBox.y - 10, { align: "center" });
  return { order, weights_plain: d.weights_plain[k], weights_with_position: d.weights_with_position[k], moved };
}

function describe(v, drawn) {
  return `Attention of the tokens in the order ${v.order}, without and with a position signal; the pooled output `
    + `moved ${general(drawn.moved[0])} without and ${general(drawn.moved[1])} with.`;
}

function render({ model, el }) {
  const labels = model.get("snapshots").labels;
  return mount({ model, el }, {
    name: "order",
    controls: [{ name: "order", label: "order", options: labels, min: labels[0], max: labels[labels.length - 1],
      step: 1 }],
    constants: ["snapshots"],
    layout, draw, describe,
  });
}

export default { render };
