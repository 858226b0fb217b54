// Capacity over time per table and index, drawn as an SVG line chart.
//
// The server keeps no per-table counters yet, so by default the chart
// shows the capacity of the console's own requests (recorded from every
// ConsumedCapacity the page receives). When the server answers
// /console/api/capacity, the chart takes its series from there instead.

import { consoleApi, onCapacity } from "./api.js";
import { h, fill, errorBox, units } from "./dom.js";

const samples = []; // {time (ms), table, index, read, write}
const maxSamples = 20000;
const readOps = new Set(["GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems", "ExecuteStatement"]);

// record adds one ConsumedCapacity, split per table and index.
function record(op, cc) {
  const now = Date.now();
  const split = (c) => {
    if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
      return [c.ReadCapacityUnits || 0, c.WriteCapacityUnits || 0];
    }
    return readOps.has(op) ? [c.CapacityUnits || 0, 0] : [0, c.CapacityUnits || 0];
  };
  const parts = [];
  if (cc.Table) parts.push(["", cc.Table]);
  for (const kind of ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"]) {
    for (const [ix, c] of Object.entries(cc[kind] || {})) parts.push([ix, c]);
  }
  if (parts.length === 0) parts.push(["", cc]);
  for (const [index, c] of parts) {
    const [read, write] = split(c);
    samples.push({ time: now, table: cc.TableName, index, read, write });
  }
  if (samples.length > maxSamples) samples.splice(0, samples.length - maxSamples);
}

export function startRecording() {
  onCapacity(record);
}

// series buckets samples into per-source sums over the last span ms.
export function series(list, span, bucket, now, kind) {
  const n = Math.ceil(span / bucket);
  const out = new Map();
  for (const s of list) {
    const i = n - 1 - Math.floor((now - s.time) / bucket);
    if (i < 0 || i >= n) continue;
    const name = s.index ? `${s.table} / ${s.index}` : s.table;
    if (!out.has(name)) out.set(name, new Array(n).fill(0));
    out.get(name)[i] += kind === "write" ? s.write : s.read;
  }
  for (const [name, pts] of out) {
    if (pts.every((v) => v === 0)) out.delete(name);
  }
  return out;
}

const colors = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777"];
const svgNS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const k of kids) el.append(k);
  return el;
}

// chart draws the series as lines; x is time, y is units per bucket.
export function chart(data, bucketSec, title) {
  const W = 720, H = 240, L = 48, B = 24, T = 12;
  const vals = [...data.values()].flat();
  const max = Math.max(1, ...vals);
  const n = vals.length ? [...data.values()][0].length : 1;
  const x = (i) => L + (i * (W - L - 8)) / Math.max(1, n - 1);
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  for (let g = 0; g <= 4; g++) {
    const v = (max * g) / 4;
    root.append(svg("line", { x1: L, x2: W - 8, y1: y(v), y2: y(v), class: "gridline" }),
      svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, units(v)));
  }
  root.append(svg("text", { x: L, y: H - 6, class: "axis" }, `-${Math.round((n * bucketSec) / 60)} min`),
    svg("text", { x: W - 8, y: H - 6, "text-anchor": "end", class: "axis" }, "now"));
  let c = 0;
  for (const [, pts] of data) {
    root.append(svg("polyline", { points: pts.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colors[c++ % colors.length], "stroke-width": 2 }));
  }
  return root;
}

function swatch(color) {
  const el = h("span", { class: "swatch" });
  el.style.background = color; // CSSOM, which the page's CSP allows
  return el;
}

function legend(data) {
  let c = 0;
  return h("ul", { class: "legend" }, [...data.entries()].map(([name, pts]) => h("li", {},
    swatch(colors[c++ % colors.length]), `${name}: ${units(pts.reduce((a, b) => a + b, 0))} units`)));
}

export async function capacityView(root, onLeave) {
  const head = h("p", { id: "capacity-source" });
  const reads = h("div", { id: "capacity-read" });
  const writes = h("div", { id: "capacity-write" });
  fill(root, h("h2", {}, "Capacity over time"), head, h("h3", {}, "Read units per 5 s"), reads, h("h3", {}, "Write units per 5 s"), writes);
  const info = await consoleApi("info").catch(() => ({}));
  let timer;
  onLeave(() => clearTimeout(timer));
  const span = 5 * 60 * 1000, bucket = 5000;
  const draw = async () => {
    let list = samples;
    if (info.capacity) {
      try {
        list = (await consoleApi("capacity")).samples.map((s) => ({ time: Date.parse(s.time), table: s.table, index: s.index || "", read: s.readUnits, write: s.writeUnits }));
        fill(head, "Server-wide capacity per table and index, from the server's counters.");
      } catch (e) {
        fill(head, errorBox(e));
      }
    } else {
      fill(head, "This server keeps no capacity counters: the charts show the capacity of this console's own requests, since the page was opened.");
    }
    const now = Date.now();
    for (const [el, kind] of [[reads, "read"], [writes, "write"]]) {
      const d = series(list, span, bucket, now, kind);
      fill(el, d.size ? [chart(d, bucket / 1000, `${kind} units`), legend(d)] : h("p", {}, "Nothing consumed in the last 5 minutes."));
    }
    if (root.isConnected) timer = setTimeout(draw, 2000);
  };
  await draw();
}
