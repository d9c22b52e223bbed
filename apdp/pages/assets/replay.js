/* apdp replay: the map, the auction step by step, then the plans step by step.
   Positions: 0 = before the first auction; 1..T = after auction 1..T; T+k = after k plan steps
   (every vehicle has done its first k actions); the last position shows the final figures. */
"use strict";

const D = pageData();
const T = D.auctions.length;
const CITIES = D.topology.cities; // [name, x, y]
const NC = D.agents.length;
const COLOURS = D.agents.map((_, i) => PALETTE[i % PALETTE.length]);
const GREY = "#888";
const TASKS = new Map(D.tasks.map((t) => [t[0], { id: t[0], pickup: t[1], delivery: t[2], weight: t[3] }]));
const ROUTES = D.routes.map((r) => r || []); // per company, per vehicle: [city, kind, task, load, cost]
const P = Math.max(0, ...ROUTES.flat().map((steps) => steps.length - 1));
const N = T + P;
const KIND = ["move", "pickup", "deliver"];

/* The winning bids of each company after k auctions (paid only on delivery), who won which task
   and at what price. */
const REVENUE = [new Array(NC).fill(0)];
const WINNER = new Map();
const PRICE = new Map();
D.auctions.forEach((a) => {
  const next = REVENUE[REVENUE.length - 1].slice();
  if (a.winner !== null && a.winner !== undefined) {
    next[a.winner] += a.bids[a.winner];
    WINNER.set(a.task, a.winner);
    PRICE.set(a.task, a.bids[a.winner]);
  }
  REVENUE.push(next);
});
/* A faulted company's plans deliver nothing that pays (see the record's settlement). */
const FAULTED = new Set(D.result.faults.map((f) => f.agent));

/* The plan step at which each task is picked up and delivered: [company][task] -> step. */
const PICKED = ROUTES.map(() => new Map());
const DELIVERED = ROUTES.map(() => new Map());
ROUTES.forEach((vehicles, c) => vehicles.forEach((steps) => steps.forEach((s, k) => {
  if (s[1] === 1 && !PICKED[c].has(s[2])) PICKED[c].set(s[2], k);
  if (s[1] === 2 && !DELIVERED[c].has(s[2])) DELIVERED[c].set(s[2], k);
})));

let position = 0;
let timer = null;

/* ---------- the map ---------- */

const map = document.getElementById("map");
const defs = svgEl("defs");
[...COLOURS, GREY].forEach((colour, i) => {
  const marker = svgEl("marker", { id: `arrow-${i}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
  marker.appendChild(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
  defs.appendChild(marker);
});
map.appendChild(defs);
const { layers, names: cityNames, R, FONT } = drawNetwork(map, CITIES, D.topology.roads,
  ["roads", "routes", "task", "cities", "badges", "vehicles"]);

/* Pending pickups (up arrow) and deliveries (down arrow) per city and company, beside the city's
   name, never over it nor over another city's name: even companies on its left, odd ones on its
   right (as their vehicles stand), on the name's line, else a line or more higher, else on the other
   side. */
const LINE = FONT * 1.05;
/* The widest badge, "↑99 ↓99", measured as drawn (estimated where nothing is laid out). */
const BADGE = (() => {
  const probe = svgEl("text", { class: "badge", x: 0, y: 0 }, "↑99 ↓99");
  layers.badges.appendChild(probe);
  const b = probe.getBBox();
  probe.remove();
  return b.width > 0 ? { width: b.width, height: b.height } : { width: FONT * 0.85 * 0.7 * 7, height: FONT * 1.1 };
})();
const labelBoxes = cityNames.map((label, city) => {
  const b = label.getBBox();
  if (b.width > 0) return [b.x, b.y, b.x + b.width, b.y + b.height];
  const [name, x, y] = CITIES[city];
  const width = name.length * FONT * 0.6;
  return [x - width / 2, y - R * 1.6 - FONT, x + width / 2, y - R * 1.6 + FONT * 0.25];
});
const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const placed = [];
const badges = CITIES.map(([name, x], city) => {
  const label = labelBoxes[city];
  return COLOURS.map((colour, c) => {
    const row = Math.floor(c / 2);
    const sides = c % 2 === 0 ? [true, false] : [false, true];
    const candidates = [row, row + 1, row + 2, row + 3].flatMap((r) => sides.map((left) => [left, r]));
    const box = ([left, r]) => {
      const x0 = left ? label[0] - FONT * 0.3 - BADGE.width : label[2] + FONT * 0.3;
      const y1 = label[3] - r * LINE;
      return [x0, y1 - BADGE.height, x0 + BADGE.width, y1];
    };
    const clear = (k, boxes) => boxes.every((other) => !overlaps(box(k), other));
    /* Free of names and other badges; else of names at least (a crowded corner of the map). */
    const free = candidates.find((k) => clear(k, labelBoxes) && clear(k, placed)) ||
      candidates.find((k) => clear(k, labelBoxes)) || candidates[0];
    placed.push(box(free));
    const [left, r] = free;
    const t = svgEl("text", { class: "badge", x: left ? label[0] - FONT * 0.3 : label[2] + FONT * 0.3,
      y: CITIES[city][2] - R * 1.6 - r * LINE, fill: colour, "text-anchor": left ? "end" : "start",
      "data-city": name, "data-company": c });
    layers.badges.appendChild(t);
    return t;
  });
});

/* Routes: the whole plan faint, the part driven so far solid. */
const vehicleViews = [];
ROUTES.forEach((vehicles, c) => vehicles.forEach((steps, v) => {
  const offset = vehicleOffset(c, v);
  const points = steps.map((s) => [CITIES[s[0]][1] + offset[0], CITIES[s[0]][2] + offset[1]]);
  const full = svgEl("polyline", { class: "route", stroke: COLOURS[c], points: points.map((p) => p.join(",")).join(" ") });
  const driven = svgEl("polyline", { class: "route-driven", stroke: COLOURS[c] });
  layers.routes.appendChild(full);
  layers.routes.appendChild(driven);
  vehicleViews.push({ c, v, steps, points, driven });
}));
/* Vehicles that have no route (no plan yet, or their company faulted) still stand at home. */
const vehicleMarkers = [];
D.companies.forEach((company, c) => company.vehicles.forEach((vehicle, v) => {
  const g = svgEl("g", { class: "vehicle", "data-company": c, "data-vehicle": v });
  const w = R * 3.2;
  g.appendChild(svgEl("rect", { x: -w / 2, y: -w / 2, width: w, height: w, rx: R * 0.6, fill: COLOURS[c] }));
  g.appendChild(svgEl("text", { class: "vehicle-label", x: 0, y: R * 0.55, "text-anchor": "middle" }, String(v + 1)));
  g.appendChild(svgEl("title", {}, `${vehicle.name} (${D.agents[c]}): capacity ${fmt(vehicle.capacity, 0)}, ${fmt(vehicle.cost_per_km, 2)} per km`));
  layers.vehicles.appendChild(g);
  vehicleMarkers.push({ c, v, g, home: vehicle.home, view: vehicleViews.find((x) => x.c === c && x.v === v) });
}));

/* Vehicles stand beside their city and below its name (which is above the city): even companies
   on the left, odd ones on the right, one under the other. */
function vehicleOffset(c, v) {
  const side = c % 2 === 0 ? -1 : 1;
  return [side * R * 3.3 * (1 + Math.floor(c / 2)), R * 0.9 + v * R * 3.5];
}

const taskLine = svgEl("line", { class: "task-line" });
layers.task.appendChild(taskLine);

/* ---------- panel, tables and charts ---------- */

document.getElementById("title").textContent = D.title;
const winnerText = D.result.winner === null || D.result.winner === undefined
  ? (D.result.faults.length >= NC ? "no winner: every agent faulted" : "no winner: a draw")
  : `winner: ${D.agents[D.result.winner]}`;
document.getElementById("subtitle").textContent =
  `${D.topology.title || D.topology.name}, ${CITIES.length} cities, ${T} tasks, seed ${D.seed}; ${winnerText}`;

const standing = document.getElementById("standing");
const standingCells = [];
fillTable(standing, ["", "agent", "bids won", "paid", "cost", "profit"], D.agents.map((name, c) => {
  const tr = row([{ node: el("span", { class: "swatch", style: `background:${COLOURS[c]}` }) }, name, "", "", "", ""]);
  tr.setAttribute("data-company", c);
  const [won, revenue, cost, profit] = [2, 3, 4, 5].map((k) => tr.children[k]);
  won.className = "num won";
  revenue.className = "num revenue";
  cost.className = "num cost";
  profit.className = "num profit";
  standingCells.push({ won, revenue, cost, profit });
  return tr;
}));
standing.after(el("p", { class: "note" }, "Bids won are paid on delivery: paid is the winning bids of the tasks " +
  "delivered so far, cost the distance driven so far x cost per km, profit paid - cost; the end shows the record's figures."));

const auctionRows = fillTableAuctions();
function fillTableAuctions() {
  const rows = D.auctions.map((a, i) => {
    const t = TASKS.get(a.task);
    const cells = [i + 1, a.task, `${CITIES[t.pickup][0]} → ${CITIES[t.delivery][0]}`, { text: fmt(t.weight, 0), cls: "num" }];
    a.bids.forEach((b, c) => cells.push({ text: b === null ? "abstained" : fmt(b, 1), cls: `num${c === a.winner ? " won" : ""}`, style: c === a.winner ? `color:${COLOURS[c]}` : null }));
    cells.push(a.winner === null ? "nobody" : D.agents[a.winner]);
    const tr = row(cells);
    tr.addEventListener("click", () => setPosition(i + 1));
    return tr;
  });
  fillTable(document.getElementById("auctions"), ["#", "task", "route", "weight", ...D.agents.map((n) => `bid ${n}`), "winner"], rows);
  return rows;
}

const CHART = { w: 520, h: 200, left: 62, right: 10, top: 10, bottom: 30 };
const bidsChart = document.getElementById("bids-chart");
const revenueChart = document.getElementById("revenue-chart");
const cursors = [];
drawCharts();

function drawCharts() {
  for (const svg of [bidsChart, revenueChart]) svg.setAttribute("viewBox", `0 0 ${CHART.w} ${CHART.h}`);
  const bids = D.auctions.flatMap((a) => a.bids.filter((b) => b !== null));
  const sorted = bids.slice().sort((a, b) => a - b);
  const p90 = sorted.length ? sorted[Math.floor(0.9 * (sorted.length - 1))] : 1;
  const top = Math.max(1, Math.min(sorted.length ? sorted[sorted.length - 1] : 1, 4 * p90) * 1.05);
  const bottom = Math.min(0, sorted.length ? sorted[0] : 0);
  const ax = axes(bidsChart, CHART, [0, Math.max(1, T - 1)], [bottom, top], { xLabel: "auction", xFormat: (t) => fmt(t + 1, 0) });
  const clip = (b) => ax.y(Math.min(b, top));
  for (let c = 0; c < NC; c++) {
    let d = "";
    let pen = "M";
    D.auctions.forEach((a, i) => {
      const b = a.bids[c];
      if (b === null) { pen = "M"; return; }
      d += `${pen}${ax.x(i).toFixed(1)},${clip(b).toFixed(1)} `;
      pen = "L";
    });
    bidsChart.appendChild(svgEl("path", { d, class: "series", stroke: COLOURS[c] }));
    D.auctions.forEach((a, i) => {
      const b = a.bids[c];
      if (b === null) return;
      const won = a.winner === c;
      const dot = svgEl("circle", { cx: ax.x(i), cy: clip(b), r: won ? 3.6 : 2.4, fill: won ? COLOURS[c] : "#fff", stroke: COLOURS[c], class: "bid-dot" });
      dot.appendChild(svgEl("title", {}, `auction ${i + 1}: ${D.agents[c]} bid ${fmt(b, 1)}${won ? " and won" : ""}`));
      dot.addEventListener("click", () => setPosition(i + 1));
      bidsChart.appendChild(dot);
    });
  }
  const maxRevenue = Math.max(1, ...REVENUE[T]);
  const ay = axes(revenueChart, CHART, [0, Math.max(1, T)], [0, maxRevenue * 1.05], { xLabel: "auctions done" });
  for (let c = 0; c < NC; c++) {
    let d = `M${ay.x(0)},${ay.y(0)}`;
    for (let k = 1; k <= T; k++) d += ` H${ay.x(k).toFixed(1)} V${ay.y(REVENUE[k][c]).toFixed(1)}`;
    revenueChart.appendChild(svgEl("path", { d, class: "series", stroke: COLOURS[c] }));
  }
  cursors.push({ svg: bidsChart, line: svgEl("line", { class: "cursor", y1: CHART.top, y2: CHART.h - CHART.bottom }), x: (p) => ax.x(p - 1), show: (p) => p >= 1 && p <= T });
  cursors.push({ svg: revenueChart, line: svgEl("line", { class: "cursor", y1: CHART.top, y2: CHART.h - CHART.bottom }), x: (p) => ay.x(Math.min(p, T)), show: (p) => p <= T });
  for (const cur of cursors) cur.svg.appendChild(cur.line);
  for (const svg of [bidsChart, revenueChart]) svg.parentNode.appendChild(legend(D.agents, COLOURS));
}

/* ---------- the final result ---------- */

(function drawResult() {
  const r = D.result;
  fillTable(document.getElementById("result-table"), ["", "agent", "company", "revenue", "cost", "profit", "outcome"], D.agents.map((name, c) => {
    const faulted = r.faults.some((f) => f.agent === c);
    const outcome = r.winner === c ? "winner" : faulted ? "faulted" : r.winner === null ? "draw" : "lost";
    const tr = row([{ node: el("span", { class: "swatch", style: `background:${COLOURS[c]}` }) }, name, D.companies[c].name,
      { text: fmt(r.revenue[c], 2), cls: "num", value: r.revenue[c] }, { text: fmt(r.cost[c], 2), cls: "num", value: r.cost[c] },
      { text: fmt(r.profit[c], 2), cls: "num final-profit", value: r.profit[c] }, outcome]);
    tr.setAttribute("data-company", c);
    return tr;
  }));
  const faults = document.getElementById("faults");
  if (!r.faults.length) faults.appendChild(el("p", {}, "No faults."));
  for (const f of r.faults) {
    const box = el("div", { class: "fault" });
    const where = `${D.agents[f.agent]}: ${f.kind} in ${f.phase}${f.task === null || f.task === undefined ? "" : ` (task ${f.task})`}`;
    box.appendChild(el("strong", {}, where));
    box.appendChild(el("p", {}, f.message));
    for (const key of ["traceback", "import_error"]) {
      if (f[key]) {
        const details = el("details");
        details.appendChild(el("summary", {}, key.replace("_", " ")));
        details.appendChild(el("pre", {}, f[key]));
        box.appendChild(details);
      }
    }
    faults.appendChild(box);
  }
  if (D.unprotected.length) faults.appendChild(el("p", { class: "warning" }, `Sandbox protections off when this match was played: ${D.unprotected.join(", ")}`));
  const timing = D.timing;
  const table = document.getElementById("timing");
  if (!timing || !timing.agents) {
    table.replaceWith(el("p", {}, "The record has no timing."));
    return;
  }
  /* Wall seconds to the millisecond ("< 0.001" for a quicker call); CPU seconds to the kernel's
     10 ms tick, its resolution. A call never made (at or after the agent's fault: the faulted call
     has its own column) shows "-", not 0. */
  const wall = (x) => (typeof x !== "number" ? "-" : x > 0 && x < 0.0005 ? "< 0.001" : fmt(x, 3));
  const tick = (x) => (typeof x === "number" ? fmt(x, 2) : "-");
  const PHASE = ["setup", "bid", "auction_result", "plan"];
  fillTable(table, ["agent", "setup wall", "setup CPU", "bids wall", "longest bid", "bids CPU", "auction results CPU", "plan wall", "plan CPU", "faulted call"],
    timing.agents.map((t, c) => {
      const cpu = t.cpu || {};
      const fault = D.result.faults.find((f) => f.agent === c);
      const stopped = fault ? PHASE.indexOf(fault.phase) : PHASE.length;
      const made = (phase) => (phase === "bid" ? PHASE.indexOf(phase) <= stopped : PHASE.indexOf(phase) < stopped);
      const cells = [[t.setup, "setup", wall], [cpu.setup, "setup", tick], [t.bid_total, "bid", wall], [t.bid_max, "bid", wall],
        [cpu.bid, "bid", tick], [cpu.auction_result, "auction_result", tick], [t.plan, "plan", wall], [cpu.plan, "plan", tick]];
      return [D.agents[c], ...cells.map(([x, phase, show]) => ({ text: made(phase) ? show(x) : "-", cls: "num" })),
        { text: wall(t.faulted_call), cls: "num" }];
    }));
  table.after(el("p", { class: "note" }, "CPU is what the kernel counts in 10 ms ticks: a phase of many short calls can read " +
    "a few ticks more or less than its wall time. Setup CPU counts the agent's start."));
  if (typeof timing.match === "number") table.after(el("p", {}, `The whole match took ${fmt(timing.match, 2)} s.`));
})();

/* ---------- stepping ---------- */

const slider = document.getElementById("slider");
slider.max = String(N);
slider.addEventListener("input", () => setPosition(Number(slider.value)));
document.getElementById("first").addEventListener("click", () => setPosition(0));
document.getElementById("prev").addEventListener("click", () => setPosition(position - 1));
document.getElementById("next").addEventListener("click", () => setPosition(position + 1));
document.getElementById("last").addEventListener("click", () => setPosition(N));
const playButton = document.getElementById("play");
playButton.addEventListener("click", () => (timer ? pause() : play()));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement && e.target !== slider) return;
  const moves = { ArrowRight: position + 1, ArrowLeft: position - 1, Home: 0, End: N };
  if (e.key in moves) { e.preventDefault(); setPosition(moves[e.key]); }
  if (e.key === " ") { e.preventDefault(); timer ? pause() : play(); }
});

function play() {
  if (position >= N) setPosition(0);
  playButton.textContent = "❚❚";
  const tick = () => {
    if (position >= N) return pause();
    setPosition(position + 1);
    timer = setTimeout(tick, position <= T ? 450 : 220);
  };
  timer = setTimeout(tick, 150);
}

function pause() {
  clearTimeout(timer);
  timer = null;
  playButton.textContent = "▶";
}

function stepAt(steps, k) {
  return steps[Math.min(k, steps.length - 1)];
}

function setPosition(p) {
  position = Math.max(0, Math.min(N, p));
  slider.value = String(position);
  const k = Math.max(0, position - T); // plan steps done
  const won = REVENUE[Math.min(position, T)];
  let revenue = new Array(NC).fill(0);
  let cost = new Array(NC).fill(0);
  if (position > T) {
    ROUTES.forEach((vehicles, c) => vehicles.forEach((steps) => {
      cost[c] += stepAt(steps, k)[4];
      if (FAULTED.has(c)) return;
      for (const step of steps.slice(0, k + 1)) if (step[1] === 2) revenue[c] += PRICE.get(step[2]) || 0;
    }));
  }
  if (position === N && T > 0) [revenue, cost] = [D.result.revenue, D.result.cost];
  for (let c = 0; c < NC; c++) {
    const profit = position === N && T > 0 ? D.result.profit[c] : revenue[c] - cost[c];
    const cells = standingCells[c];
    cells.won.textContent = fmt(won[c], 2);
    cells.won.dataset.value = won[c];
    cells.revenue.textContent = fmt(revenue[c], 2);
    cells.revenue.dataset.value = revenue[c];
    cells.cost.textContent = fmt(cost[c], 2);
    cells.cost.dataset.value = cost[c];
    cells.profit.textContent = fmt(profit, 2);
    cells.profit.dataset.value = profit;
  }
  const label = position === 0 ? "start" : position <= T ? `auction ${position} of ${T}` : `plan step ${k} of ${P}`;
  document.getElementById("position").textContent = position === N ? `${label} (end)` : label;
  document.body.dataset.position = position;
  document.body.dataset.end = position === N ? "1" : "0";
  drawVehicles(k);
  drawBadges(k);
  drawNow(k);
  auctionRows.forEach((tr, i) => tr.classList.toggle("current", position >= 1 && position <= T && i === position - 1));
  for (const cur of cursors) {
    cur.line.style.display = cur.show(position) ? "" : "none";
    const x = cur.x(position);
    cur.line.setAttribute("x1", x);
    cur.line.setAttribute("x2", x);
  }
}

function drawVehicles(k) {
  for (const m of vehicleMarkers) {
    let x, y;
    if (m.view && position > T) {
      [x, y] = m.view.points[Math.min(k, m.view.points.length - 1)];
    } else {
      const offset = vehicleOffset(m.c, m.v);
      [x, y] = [CITIES[m.home][1] + offset[0], CITIES[m.home][2] + offset[1]];
    }
    m.g.style.transform = `translate(${x}px, ${y}px)`;
  }
  for (const view of vehicleViews) {
    const upto = position > T ? Math.min(k, view.points.length - 1) : 0;
    view.driven.setAttribute("points", view.points.slice(0, upto + 1).map((p) => p.join(",")).join(" "));
  }
  document.querySelectorAll(".route").forEach((r) => r.classList.toggle("shown", position > T));
}

function drawBadges(k) {
  const counts = CITIES.map(() => COLOURS.map(() => [0, 0]));
  const done = Math.min(position, T);
  for (let i = 0; i < done; i++) {
    const a = D.auctions[i];
    if (a.winner === null || a.winner === undefined) continue;
    const t = TASKS.get(a.task);
    const picked = position > T && PICKED[a.winner].has(t.id) && PICKED[a.winner].get(t.id) <= k;
    const delivered = position > T && DELIVERED[a.winner].has(t.id) && DELIVERED[a.winner].get(t.id) <= k;
    if (!picked) counts[t.pickup][a.winner][0]++;
    if (!delivered) counts[t.delivery][a.winner][1]++;
  }
  counts.forEach((perCompany, city) => perCompany.forEach(([up, down], c) => {
    badges[city][c].textContent = (up ? `↑${up}` : "") + (up && down ? " " : "") + (down ? `↓${down}` : "");
  }));
  const current = position >= 1 && position <= T ? D.auctions[position - 1] : null;
  if (current) {
    const t = TASKS.get(current.task);
    const colourIndex = current.winner === null ? NC : current.winner;
    taskLine.setAttribute("x1", CITIES[t.pickup][1]);
    taskLine.setAttribute("y1", CITIES[t.pickup][2]);
    taskLine.setAttribute("x2", CITIES[t.delivery][1]);
    taskLine.setAttribute("y2", CITIES[t.delivery][2]);
    taskLine.setAttribute("stroke", colourIndex === NC ? GREY : COLOURS[colourIndex]);
    taskLine.setAttribute("marker-end", `url(#arrow-${colourIndex})`);
    taskLine.style.display = "";
  } else {
    taskLine.style.display = "none";
  }
}

function drawNow(k) {
  const title = document.getElementById("now-title");
  const now = clear(document.getElementById("now"));
  if (position === 0) {
    title.textContent = "Before the auction";
    now.appendChild(el("p", {}, `${T} tasks will be auctioned one at a time; the lowest bid wins and is paid its bid. Press ▶ or → to step.`));
    return;
  }
  if (position <= T) {
    const a = D.auctions[position - 1];
    const t = TASKS.get(a.task);
    title.textContent = `Auction ${position} of ${T}`;
    now.appendChild(el("p", {}, `Task ${t.id}: ${CITIES[t.pickup][0]} → ${CITIES[t.delivery][0]}, weight ${fmt(t.weight, 0)}`));
    const table = el("table");
    fillTable(table, ["agent", "bid", ""], a.bids.map((b, c) => [D.agents[c], { text: b === null ? "abstained" : fmt(b, 2), cls: "num" }, c === a.winner ? "won" : ""]));
    now.appendChild(table);
    now.appendChild(el("p", { class: "price" }, a.winner === null ? "Nobody won this task." : `${D.agents[a.winner]} wins at ${fmt(a.bids[a.winner], 2)}.`));
    return;
  }
  title.textContent = `Plans: step ${k} of ${P}`;
  const rows = [];
  ROUTES.forEach((vehicles, c) => vehicles.forEach((steps, v) => {
    const s = stepAt(steps, k);
    const vehicle = D.companies[c].vehicles[v];
    const doing = k === 0 ? "at home" : k >= steps.length ? "done" : `${KIND[s[1]]}${s[2] === null ? "" : " task " + s[2]}`;
    rows.push([{ node: el("span", { class: "swatch", style: `background:${COLOURS[c]}` }) }, `${D.agents[c]} ${v + 1}`, CITIES[s[0]][0], doing,
      { text: `${fmt(s[3], 0)} / ${fmt(vehicle.capacity, 0)}`, cls: "num" }, { text: fmt(s[4], 2), cls: "num" }]);
  }));
  const table = el("table");
  fillTable(table, ["", "vehicle", "city", "action", "load", "cost"], rows);
  now.appendChild(table);
  if (ROUTES.some((r) => r.length === 0)) now.appendChild(el("p", {}, "A company without plans (it faulted) drives nothing."));
}

setPosition(0);
document.body.dataset.ready = "1";
