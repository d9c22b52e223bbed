/* apdp pages: shared helpers. Text goes in through textContent only, never as HTML. */
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
/* One colour per company (index), then per agent in reports. */
const PALETTE = ["#1f6fb4", "#d2452b", "#2a9d4b", "#8e44ad", "#e08a00", "#16a3b8", "#7f5539", "#c2185b"];

function pageData() {
  return JSON.parse(document.getElementById("apdp-data").textContent);
}

/* An HTML element with attributes and optional text. */
function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/* An SVG element with attributes and optional text. */
function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/* x with d decimals and thousands separators: 12,345.60 ("-" for null). */
function fmt(x, d) {
  if (x === null || x === undefined || Number.isNaN(x)) return "-";
  const digits = d === undefined ? 1 : d;
  let text = (Math.abs(x) < 0.5 * Math.pow(10, -digits) ? 0 : x).toFixed(digits);
  const negative = text.startsWith("-");
  if (negative) text = text.slice(1);
  const [whole, frac] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (negative ? "-" : "") + grouped + (frac ? "." + frac : "");
}

/* A table row of cells; a cell is text, or {text, cls, value, title, style, node}. */
function row(cells, header) {
  const tr = el("tr");
  for (const cell of cells) {
    const c = typeof cell === "object" && cell !== null ? cell : { text: cell };
    const td = el(header ? "th" : "td", { class: c.cls, "data-value": c.value, title: c.title, style: c.style });
    if (c.node) td.appendChild(c.node);
    else td.textContent = c.text === undefined || c.text === null ? "" : String(c.text);
    tr.appendChild(td);
  }
  return tr;
}

/* Fill a table with a header and rows. */
function fillTable(table, headers, rows) {
  clear(table);
  const head = el("thead");
  head.appendChild(row(headers, true));
  table.appendChild(head);
  const body = el("tbody");
  for (const r of rows) body.appendChild(r instanceof Element ? r : row(r));
  table.appendChild(body);
  return body;
}

/* About `count` round tick values covering [lo, hi]. */
function ticks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  return out;
}

/* A linear scale from [d0, d1] to [r0, r1]. */
function scale(d0, d1, r0, r1) {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/* Axes on an SVG chart; returns {x, y} scales. box = {w, h, left, right, top, bottom}. */
function axes(svg, box, xDomain, yDomain, opts) {
  const o = opts || {};
  const x = scale(xDomain[0], xDomain[1], box.left, box.w - box.right);
  const y = scale(yDomain[0], yDomain[1], box.h - box.bottom, box.top);
  const g = svgEl("g", { class: "axes" });
  for (const t of ticks(yDomain[0], yDomain[1], o.yTicks || 4)) {
    g.appendChild(svgEl("line", { x1: box.left, x2: box.w - box.right, y1: y(t), y2: y(t), class: "grid" }));
    g.appendChild(svgEl("text", { x: box.left - 4, y: y(t) + 3, "text-anchor": "end" }, o.yFormat ? o.yFormat(t) : fmt(t, 0)));
  }
  if (!o.noX) {
    for (const t of ticks(xDomain[0], xDomain[1], o.xTicks || 6)) {
      g.appendChild(svgEl("text", { x: x(t), y: box.h - box.bottom + 13, "text-anchor": "middle" }, o.xFormat ? o.xFormat(t) : fmt(t, 0)));
    }
  }
  if (o.xLabel) g.appendChild(svgEl("text", { x: (box.left + box.w - box.right) / 2, y: box.h - 2, "text-anchor": "middle", class: "label" }, o.xLabel));
  svg.appendChild(g);
  return { x, y };
}

/* A legend: one coloured swatch and name per entry. */
function legend(names, colours) {
  const div = el("div", { class: "legend" });
  names.forEach((name, i) => {
    const item = el("span", { class: "legend-item" });
    item.appendChild(el("span", { class: "swatch", style: `background:${colours[i]}` }));
    item.appendChild(document.createTextNode(name));
    div.appendChild(item);
  });
  return div;
}

/* The network on the SVG `svg`: its view fitted to the cities ([name, x, y]), one group per name of
   `layerNames` (drawn in that order; "roads" and "cities" among them), each road with its km and each
   city with its name. Returns the layers, the city names' text elements and the sizes the drawing
   uses: R (a city's marker radius) and FONT (a city name's size). */
function drawNetwork(svg, cities, roads, layerNames) {
  const xs = cities.map((c) => c[1]);
  const ys = cities.map((c) => c[2]);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const size = Math.max(maxX - minX, maxY - minY, 1);
  const pad = size * 0.09;
  const R = size * 0.011;
  const FONT = size * 0.028;
  svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  svg.style.setProperty("--font", `${FONT}px`);
  const layers = {};
  for (const name of layerNames) {
    layers[name] = svgEl("g", { class: `layer-${name}` });
    svg.appendChild(layers[name]);
  }
  for (const [a, b, distance] of roads) {
    const line = svgEl("line", { class: "road", x1: cities[a][1], y1: cities[a][2], x2: cities[b][1], y2: cities[b][2] });
    line.appendChild(svgEl("title", {}, `${cities[a][0]} - ${cities[b][0]}: ${fmt(distance, 0)} km`));
    layers.roads.appendChild(line);
  }
  const names = cities.map(([name, x, y]) => {
    const dot = svgEl("circle", { class: "city", cx: x, cy: y, r: R, "data-city": name });
    dot.appendChild(svgEl("title", {}, name));
    layers.cities.appendChild(dot);
    const label = svgEl("text", { class: "city-name", x: x, y: y - R * 1.6, "text-anchor": "middle", "data-city": name }, name);
    layers.cities.appendChild(label);
    return label;
  });
  return { layers, names, R, FONT };
}
