/* apdp exercise replay: a round of the reactive, deliberative or centralized exercise, event by event.
   Position p: the first p events have begun (0: every vehicle at home; E: the end). A move's vehicle
   is drawn at the city it drives to; the figures are the acting agent's once the event began
   (computed by apdp from the replayed round, as the platform counts them). */
"use strict";

const D = pageData();
const CITIES = D.topology.cities; // [name, x, y]
const NA = D.agents.length;
const COLOURS = D.agents.map((_, i) => PALETTE[i % PALETTE.length]);
const EV = D.events; // columns: time, vehicle, kind, target, units, cost, reward
const E = EV.time.length;
const TRAIL = 6; // the last moves drawn bold
const WINDOW = 15; // events listed around the cursor

/* The vehicles, flat, in the companies' order: the events' vehicle index. */
const VEHICLES = [];
D.companies.forEach((company, a) => company.vehicles.forEach((v, k) => VEHICLES.push(Object.assign({ agent: a, number: k }, v))));

/* Per vehicle: its events, its city after each of them (0: at home), the tasks it carries after
   each (arrays shared while unchanged), and the roads it drove with the count of its own events by
   which it first had. Per agent: its events and its deliveries. Per batch task: the first pickup. */
const VEH = VEHICLES.map((v) => ({ events: [], cities: [v.home], carried: [[]], roads: new Map() }));
const AGENT_EVENTS = D.agents.map(() => []);
const AGENT_DELIVERIES = D.agents.map(() => []);
const PICKED_AT = new Map();
for (let e = 0; e < E; e++) {
  const v = EV.vehicle[e];
  const kind = EV.kind[e];
  const target = EV.target[e];
  const s = VEH[v];
  const here = s.cities[s.cities.length - 1];
  let city = here;
  let carried = s.carried[s.carried.length - 1];
  if (kind === 0) {
    city = target;
    const key = Math.min(here, city) + "-" + Math.max(here, city);
    if (!s.roads.has(key)) s.roads.set(key, { a: here, b: city, from: s.events.length + 1 });
  } else if (kind === 1) {
    carried = carried.concat([target]);
    if (target < D.batch && !PICKED_AT.has(target)) PICKED_AT.set(target, e);
  } else {
    carried = carried.filter((t) => t !== target);
    AGENT_DELIVERIES[VEHICLES[v].agent].push(e);
  }
  s.events.push(e);
  s.cities.push(city);
  s.carried.push(carried);
  AGENT_EVENTS[VEHICLES[v].agent].push(e);
}

/* How many of the sorted numbers of `list` are below p. */
function below(list, p) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function cityName(c) {
  return c === null || c === undefined ? "?" : CITIES[c][0];
}

function taskName(t) {
  const task = D.tasks[t];
  return task[5] === null ? `task ${task[0]}` : `offer ${task[5]}`;
}

function taskRoute(t) {
  const task = D.tasks[t];
  return `${cityName(task[1])} → ${cityName(task[2])}`;
}

let position = 0;
let timer = null;

/* ---------- the map ---------- */

const map = document.getElementById("map");
const { layers, R, FONT } = drawNetwork(map, CITIES, D.topology.roads,
  ["roads", "driven", "trails", "carried", "cities", "badges", "vehicles"]);
/* The batch's tasks still waiting for a pickup, right of the city's name. */
const badges = CITIES.map(([name, x, y]) => {
  const t = svgEl("text", { class: "badge", x: x + name.length * FONT * 0.3 + FONT * 0.3, y: y - R * 1.6, "data-city": name });
  layers.badges.appendChild(t);
  return t;
});

/* Vehicles stand beside their city, below its name: even companies on the left, odd ones on the
   right, a company's vehicles in columns of two, outwards. */
const COLUMNS = Math.max(1, ...D.companies.map((c) => Math.ceil(c.vehicles.length / 2)));
function vehicleOffset(a, k) {
  const side = a % 2 === 0 ? -1 : 1;
  return [side * R * 3.3 * (1 + Math.floor(a / 2) * COLUMNS + Math.floor(k / 2)), R * 0.9 + (k % 2) * R * 3.5];
}

const views = VEHICLES.map((vehicle, v) => {
  const colour = COLOURS[vehicle.agent];
  const driven = svgEl("path", { class: "driven", stroke: colour, "data-vehicle": v });
  const trail = svgEl("polyline", { class: "trail", stroke: colour, "data-vehicle": v });
  const carried = svgEl("path", { class: "carried", stroke: colour, "data-vehicle": v });
  layers.driven.appendChild(driven);
  layers.trails.appendChild(trail);
  layers.carried.appendChild(carried);
  const g = svgEl("g", { class: "vehicle", "data-vehicle": v, "data-agent": vehicle.agent });
  const w = R * 3.2;
  g.appendChild(svgEl("rect", { x: -w / 2, y: -w / 2, width: w, height: w, rx: R * 0.6, fill: colour }));
  g.appendChild(svgEl("text", { class: "vehicle-label", x: 0, y: R * 0.55, "text-anchor": "middle" }, String(vehicle.number + 1)));
  g.appendChild(svgEl("title", {}, `${vehicle.name} (${D.agents[vehicle.agent]}): capacity ${fmt(vehicle.capacity, 0)}, ` +
    `${fmt(vehicle.cost_per_km, 0)} per km`));
  layers.vehicles.appendChild(g);
  return { g, driven, trail, carried, offset: vehicleOffset(vehicle.agent, vehicle.number) };
});

/* ---------- the panel ---------- */

document.getElementById("title").textContent = D.title;
const ends = [];
if (D.kinds.includes("reactive")) {
  if (D.end.hours !== null) ends.push(`${fmt(D.end.hours, 0)} simulated hours`);
  if (D.end.acts !== null) ends.push(`${fmt(D.end.acts, 0)} act calls`);
}
document.getElementById("subtitle").textContent = `${D.topology.title || D.topology.name}, ${CITIES.length} cities; ` +
  `${D.scenario}; ${D.draws === "secret" ? `tasks drawn from the secret, seed ${D.seed}` : "the platform's own task draw"}; ` +
  `${fmt(E, 0)} events${D.batch ? `, ${D.batch} tasks in the batch` : ""}${ends.length ? `; until ${ends.join(" or ")}` : ""}`;

const swatch = (a) => ({ node: el("span", { class: "swatch", style: `background:${COLOURS[a]}` }) });
const standingCells = [];
/* An agent's name, and the exercise it plays when it is not the round's (kinds may be mixed). */
const agentName = (a) => (D.kinds[a] === D.exercise ? D.agents[a] : `${D.agents[a]} (${D.kinds[a]})`);
fillTable(document.getElementById("standing"), ["", "agent", "delivered", "km", "cost", "reward", "profit"], D.agents.map((name, a) => {
  const tr = row([swatch(a), { text: agentName(a), title: `plays the ${D.kinds[a]} exercise` }, "", "", "", "", ""]);
  tr.setAttribute("data-agent", a);
  const cells = {};
  ["delivered", "km", "cost", "reward", "profit"].forEach((key, i) => {
    cells[key] = tr.children[2 + i];
    cells[key].className = `num ${key}`;
  });
  standingCells.push(cells);
  return tr;
}));
document.getElementById("standing").after(el("p", { class: "note" }, "Once the current event began: km driven, " +
  "cost (km x cost per km, rounded as the platform does), the rewards of the tasks delivered, and profit = reward - cost."));

const vehicleCells = [];
fillTable(document.getElementById("vehicles"), ["", "vehicle", "city", "last action", "carries", "load"], VEHICLES.map((vehicle, v) => {
  const tr = row([swatch(vehicle.agent), { text: vehicle.name, title: `${D.agents[vehicle.agent]}'s vehicle ${vehicle.number + 1}` }, "", "", "", ""]);
  tr.setAttribute("data-vehicle", v);
  vehicleCells.push({ city: tr.children[2], doing: tr.children[3], carries: tr.children[4], load: tr.children[5] });
  tr.children[5].className = "num";
  return tr;
}));

/* An event in a few words (the vehicles' table). */
function eventShort(e) {
  const kind = EV.kind[e];
  return kind === 0 ? `move to ${cityName(EV.target[e])}` : `${kind === 1 ? "pick up" : "deliver"} ${taskName(EV.target[e])}`;
}

function eventText(e) {
  const kind = EV.kind[e];
  const target = EV.target[e];
  if (kind === 0) return `move to ${cityName(target)}`;
  const task = D.tasks[target];
  if (kind === 1) {
    const known = task[3] === null ? "" : `, weight ${fmt(task[3], 0)}, reward ${fmt(task[4], 0)}`;
    return `pick up ${taskName(target)} (${taskRoute(target)}${known})`;
  }
  return `deliver ${taskName(target)} (${taskRoute(target)}, reward ${fmt(task[4], 0)})`;
}

const eventsTable = document.getElementById("events");
fillTable(eventsTable, ["#", "hour", "", "vehicle", "action", "agent's km", "agent's reward"], []);
const eventsBody = eventsTable.querySelector("tbody");
eventsTable.after(el("p", { class: "note" }, `The events around the current one (highlighted); click one to go to it. ` +
  "A reactive agent's offers are all its task 0: they are numbered apart here, in the order they were picked up."));

/* ---------- the result ---------- */

(function drawResult() {
  fillTable(document.getElementById("statistics"), ["rank", "agent", "total tasks", "km", "cost", "reward", "profit"],
    D.statistics.map((s) => [s.rank, s.agent, { text: fmt(s.total_tasks, 0), cls: "num" }, { text: fmt(s.distance, 1), cls: "num" },
      { text: fmt(s.cost, 0), cls: "num" }, { text: fmt(s.reward, 0), cls: "num" },
      { text: fmt(s.profit, 0), cls: "num final-profit", value: s.profit }]));
  const faults = document.getElementById("faults");
  if (D.fault) {
    const box = el("div", { class: "fault" });
    const f = D.fault;
    box.appendChild(el("strong", {}, `${f.agent >= 0 && f.agent < NA ? agentName(f.agent) : `agent ${f.agent}`}: ${f.kind} in ${f.phase}` +
      `${f.task === null || f.task === undefined ? "" : ` (task ${f.task})`}`));
    box.appendChild(el("p", {}, f.message));
    box.appendChild(el("p", {}, "The round stopped there, as the Logist platform stops its run."));
    if (D.traceback) {
      const details = el("details");
      details.appendChild(el("summary", {}, "traceback"));
      details.appendChild(el("pre", {}, D.traceback));
      box.appendChild(details);
    }
    faults.appendChild(box);
  } else {
    faults.appendChild(el("p", {}, "No faults."));
  }
  if (D.stopped) {
    const who = D.stopped_agent === null ? "" : ` (${D.agents[D.stopped_agent]})`;
    faults.appendChild(el("p", { class: "stopped" }, `Played again, the round stops${who}: ${D.stopped}`));
  }
  if (D.referee_error) faults.appendChild(el("p", { class: "warning" }, `The referee failed (apdp's fault, not an agent's): ${D.referee_error}`));
  if (D.recorded_events !== E) {
    faults.appendChild(el("p", { class: "warning" }, `The record says ${fmt(D.recorded_events, 0)} events; played again, the round has ${fmt(E, 0)}.`));
  }
  if (D.stuck) faults.appendChild(el("p", {}, `${fmt(D.stuck, 0)} action(s) refused on the way (a task another agent took first), not drawn.`));
})();

/* ---------- stepping ---------- */

const slider = document.getElementById("slider");
slider.max = String(E);
slider.addEventListener("input", () => setPosition(Number(slider.value)));
document.getElementById("first").addEventListener("click", () => setPosition(0));
document.getElementById("prev").addEventListener("click", () => setPosition(position - 1));
document.getElementById("next").addEventListener("click", () => setPosition(position + 1));
document.getElementById("last").addEventListener("click", () => setPosition(E));
const speed = document.getElementById("speed");
const playButton = document.getElementById("play");
playButton.addEventListener("click", () => (timer ? pause() : play()));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement && e.target !== slider) return;
  if (e.target instanceof HTMLSelectElement) return;
  const moves = { ArrowRight: position + 1, ArrowLeft: position - 1, Home: 0, End: E };
  if (e.key in moves) { e.preventDefault(); setPosition(moves[e.key]); }
  if (e.key === " ") { e.preventDefault(); timer ? pause() : play(); }
});

function play() {
  if (position >= E) setPosition(0);
  playButton.textContent = "❚❚";
  const tick = () => {
    if (position >= E) return pause();
    setPosition(position + Number(speed.value));
    timer = setTimeout(tick, 250);
  };
  timer = setTimeout(tick, 150);
}

function pause() {
  clearTimeout(timer);
  timer = null;
  playButton.textContent = "▶";
}

function setPosition(p) {
  position = Math.max(0, Math.min(E, p));
  slider.value = String(position);
  document.getElementById("position").textContent = position === 0 ? "start (every vehicle at home)"
    : `event ${fmt(position, 0)} of ${fmt(E, 0)}, hour ${fmt(EV.time[position - 1], 2)}${position === E ? " (end)" : ""}`;
  document.body.dataset.position = position;
  document.body.dataset.end = position === E ? "1" : "0";
  drawVehicles();
  drawBadges();
  drawStanding();
  drawEvents();
}

function drawVehicles() {
  VEHICLES.forEach((vehicle, v) => {
    const s = VEH[v];
    const view = views[v];
    const n = below(s.events, position); // its events begun
    const city = s.cities[n];
    view.g.style.transform = `translate(${CITIES[city][1] + view.offset[0]}px, ${CITIES[city][2] + view.offset[1]}px)`;
    view.g.setAttribute("data-city", CITIES[city][0]);
    let d = "";
    for (const road of s.roads.values()) {
      if (road.from <= n) d += `M${CITIES[road.a][1]},${CITIES[road.a][2]} L${CITIES[road.b][1]},${CITIES[road.b][2]} `;
    }
    view.driven.setAttribute("d", d);
    view.trail.setAttribute("points", s.cities.slice(Math.max(0, n - TRAIL), n + 1).map((c) => `${CITIES[c][1]},${CITIES[c][2]}`).join(" "));
    const carried = s.carried[n];
    let lines = "";
    let load = 0;
    for (const t of carried) {
      const task = D.tasks[t];
      if (task[2] !== null) lines += `M${CITIES[city][1]},${CITIES[city][2]} L${CITIES[task[2]][1]},${CITIES[task[2]][2]} `;
      load = load === null || task[3] === null ? null : load + task[3];
    }
    view.carried.setAttribute("d", lines);
    const cells = vehicleCells[v];
    cells.city.textContent = CITIES[city][0];
    cells.doing.textContent = n === 0 ? "at home" : eventShort(s.events[n - 1]);
    cells.carries.textContent = carried.length ? carried.map((t) => `${taskName(t)} (${taskRoute(t)})`).join(", ") : "-";
    cells.load.textContent = `${load === null ? "?" : fmt(load, 0)} / ${fmt(vehicle.capacity, 0)}`;
  });
}

function drawBadges() {
  const waiting = CITIES.map(() => 0);
  for (let t = 0; t < D.batch; t++) {
    const at = PICKED_AT.get(t);
    if (at === undefined || at >= position) waiting[D.tasks[t][1]]++;
  }
  waiting.forEach((count, city) => { badges[city].textContent = count ? `↑${count}` : ""; });
}

function drawStanding() {
  for (let a = 0; a < NA; a++) {
    const n = below(AGENT_EVENTS[a], position);
    const e = n === 0 ? null : AGENT_EVENTS[a][n - 1];
    const units = e === null ? 0 : EV.units[e];
    const cost = e === null ? 0 : EV.cost[e];
    const reward = e === null ? 0 : EV.reward[e];
    const values = { delivered: below(AGENT_DELIVERIES[a], position), km: units / 1000, cost, reward, profit: reward - cost };
    const cells = standingCells[a];
    for (const [key, value] of Object.entries(values)) {
      cells[key].textContent = fmt(value, key === "km" ? 1 : 0);
      cells[key].dataset.value = value;
    }
  }
}

function drawEvents() {
  clear(eventsBody);
  const start = Math.max(0, Math.min(position - Math.ceil(WINDOW / 2), E - WINDOW));
  for (let e = start; e < Math.min(E, start + WINDOW); e++) {
    const vehicle = VEHICLES[EV.vehicle[e]];
    const tr = row([e + 1, { text: fmt(EV.time[e], 2), cls: "num" }, swatch(vehicle.agent), vehicle.name, eventText(e),
      { text: fmt(EV.units[e] / 1000, 1), cls: "num" }, { text: fmt(EV.reward[e], 0), cls: "num" }]);
    tr.setAttribute("data-event", e);
    if (e === position - 1) tr.classList.add("current");
    if (e >= position) tr.classList.add("ahead");
    tr.addEventListener("click", () => setPosition(e + 1));
    eventsBody.appendChild(tr);
  }
  if (E === 0) eventsBody.appendChild(row(["", "", "", "", "The round has no events."]));
}

setPosition(0);
document.body.dataset.ready = "1";
