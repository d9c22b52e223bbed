/* apdp report page: every table and plot is drawn from the JSON report embedded in the page. */
"use strict";

const started = performance.now();
const R = pageData();
const AGENTS = R.agents.map((a) => a.agent);
const AGENT_COLOUR = new Map(AGENTS.map((a, i) => [a, PALETTE[i % PALETTE.length]]));

document.getElementById("title").textContent = R.title;
document.getElementById("subtitle").textContent =
  `${R.tournaments_text || R.tournaments + " tournament(s)"}, ${R.matches.length} matches, ${AGENTS.length} agents`;

/* ---------- notes on what was pooled, and the matches the referee could not finish ---------- */

(function notes() {
  const notes = R.notes || [];
  const errors = R.referee_errors || [];
  if (!notes.length && !errors.length) return;
  document.getElementById("notes-section").hidden = false;
  const list = document.getElementById("notes");
  notes.forEach((n) => list.appendChild(el("li", {}, n)));
  if (!errors.length) return;
  document.getElementById("referee-errors-box").hidden = false;
  fillTable(document.getElementById("referee-errors"), ["tournament", "match", "reason"],
    errors.map((e) => [`${e.results}: ${e.topology} seed ${e.seed}`, e.match, e.reason]));
})();

/* ---------- the study's table ---------- */

/* Columns of the standings: [JSON field, header, decimals]. */
const STANDING_COLUMNS = [
  ["avg_wins", "avg wins", 2], ["sd_wins", "sd", 2], ["avg_losses", "avg losses", 2], ["sd_losses", "sd", 2],
  ["total_wins", "wins", 0], ["total_losses", "losses", 0], ["draws", "draws", 0], ["win_rate", "win rate", 3],
  ["faults", "faults", 0], ["rating", "rating", 0], ["rating_low", "95% low", 0], ["rating_high", "95% high", 0],
  ["matches", "matches", 0],
];
/* A standings table of JSON `agents` entries (the pooled ones, or one network's). */
function standingsTable(table, agents) {
  const rows = agents.map((a, rank) => {
    const tr = row([{ text: rank + 1, cls: "num" }, { node: agentName(a.agent) },
      ...STANDING_COLUMNS.map(([field, , d]) => ({ text: fmt(a[field], d), cls: "num", value: a[field] }))]);
    tr.setAttribute("data-agent", a.agent);
    STANDING_COLUMNS.forEach(([field], k) => tr.children[k + 2].setAttribute("data-field", field));
    return tr;
  });
  fillTable(table, ["#", "agent", ...STANDING_COLUMNS.map((c) => ({ text: c[1], cls: "num" }))], rows);
}
standingsTable(document.getElementById("standings"), R.agents);

/* With more than one network, the standings of each network (the terminal report's too). */
(function networks() {
  const networks = R.networks || [];
  if (!networks.length) return;
  document.getElementById("networks-section").hidden = false;
  const box = document.getElementById("networks");
  for (const n of networks) {
    const tournaments = `${n.tournaments} tournament${n.tournaments === 1 ? "" : "s"}`;
    box.appendChild(el("h3", {}, `${n.network}: ${tournaments}, ${n.matches} match${n.matches === 1 ? "" : "es"}`));
    const table = el("table", { class: "network-standings", "data-network": n.network });
    standingsTable(table, n.agents);
    const scroll = el("div", { class: "scroll" });
    scroll.appendChild(table);
    box.appendChild(scroll);
  }
})();

function agentName(name) {
  const span = el("span");
  span.appendChild(el("span", { class: "swatch", style: `background:${AGENT_COLOUR.get(name)}` }));
  span.appendChild(document.createTextNode(name));
  return span;
}

/* ---------- groups and model usage ---------- */

(function groups() {
  if (!R.groups) return;
  document.getElementById("groups-section").hidden = false;
  document.getElementById("groups-title").textContent = `Groups by ${R.group_by}`;
  const how = R.group_interval || "";
  document.getElementById("groups-note").textContent = "Agents: the samples behind each figure (agent matches count a match "
    + `once per agent of the group in it). ${how.charAt(0).toUpperCase()}${how.slice(1)}.`;
  /* [JSON field, header, decimals] of each figure; the interval's origin is text ("-": no interval). */
  const columns = [["samples", "agents", 0], ["matches", "agent matches", 0], ["wins", "wins", 0], ["losses", "losses", 0],
    ["draws", "draws", 0], ["win_rate", "win rate", 3], ["faults", "faults", 0], ["mean_rating", "rating", 0],
    ["rating_low", "95% low", 0], ["rating_high", "95% high", 0]];
  const rows = R.groups.map((g) => {
    const tr = row([g.group, ...columns.map(([field, , d]) => ({ text: fmt(g[field], d), cls: "num", value: g[field] })),
      g.interval_from || "-", g.agents.join(", ")]);
    tr.setAttribute("data-group", g.group);
    [...columns.map((c) => c[0]), "interval_from", "agents"].forEach((field, k) => tr.children[k + 1].setAttribute("data-field", field));
    return tr;
  });
  /* the agents' names last: a long list does not push the figures out of sight */
  fillTable(document.getElementById("groups"), ["group", ...columns.map((c) => ({ text: c[1], cls: "num" })), "interval from",
    "agent names"], rows);
  const usage = R.usage || [];
  const n = (x, d) => ({ text: x === null || x === undefined ? "-" : fmt(x, d || 0), cls: "num" });
  fillTable(document.getElementById("usage"), ["agent", "model", "model calls", "prompt tokens", "completion tokens", "total tokens", "model seconds", "wins", "win rate", "tokens per win"],
    usage.map((u) => [u.agent, u.model || "-", n(u.calls), n(u.prompt_tokens), n(u.completion_tokens), n(u.total_tokens), n(u.seconds, 1),
      n(u.wins), n(u.win_rate, 3), n(u.tokens_per_win)]));
})();

/* ---------- lineage: children against parents, evolve curves ---------- */

(function lineage() {
  const found = R.lineage || { pairs: [], curves: [] };
  if (!found.pairs.length && !found.curves.length) return;
  document.getElementById("lineage-section").hidden = false;
  const n = (x, d) => ({ text: x === null || x === undefined ? "-" : fmt(x, d || 0), cls: "num" });
  fillTable(document.getElementById("lineage"), ["agent", "parent", "matches", "W", "D", "L", "win rate", "parent's win rate", "rating", "parent's rating"],
    found.pairs.map((p) => [p.agent, p.parent, n(p.matches), n(p.wins), n(p.draws), n(p.losses), n(p.win_rate, 3),
      n(p.parent_win_rate, 3), n(p.rating), n(p.parent_rating)]));
  const box = document.getElementById("curves");
  for (const curve of found.curves) {
    box.appendChild(el("h3", {}, `Lineage ${curve.lineage}: rating per round`));
    const table = el("table");
    fillTable(table, ["round", "agent", "tokens", "rating", "95% low", "95% high", "win rate"],
      curve.points.map((p) => [n(p.round), p.agent, n(p.cumulative_tokens), n(p.rating), n(p.rating_low), n(p.rating_high), n(p.win_rate, 3)]));
    const scroll = el("div", { class: "scroll" });
    scroll.appendChild(table);
    box.appendChild(scroll);
  }
})();

/* ---------- ratings with intervals ---------- */

(function ratings() {
  const svg = document.getElementById("ratings");
  const sorted = R.agents.slice().sort((a, b) => b.rating - a.rating);
  const labelWidth = Math.min(260, 30 + 7 * Math.max(...AGENTS.map((a) => a.length)));
  const box = { w: 900, h: 40 + 18 * sorted.length, left: labelWidth, right: 20, top: 8, bottom: 30 };
  svg.setAttribute("viewBox", `0 0 ${box.w} ${box.h}`);
  /* An interval is null where it has no meaning (too few matches): the rating alone is drawn. */
  const low = (a) => (a.rating_low === null ? a.rating : a.rating_low), high = (a) => (a.rating_high === null ? a.rating : a.rating_high);
  const lo = Math.min(...sorted.map(low)), hi = Math.max(...sorted.map(high));
  const pad = Math.max(10, (hi - lo) * 0.05);
  const ax = { x: scale(lo - pad, hi + pad, box.left, box.w - box.right) };
  for (const t of ticks(lo - pad, hi + pad, 8)) {
    svg.appendChild(svgEl("line", { x1: ax.x(t), x2: ax.x(t), y1: box.top, y2: box.h - box.bottom, class: "vgrid" }));
    svg.appendChild(svgEl("text", { x: ax.x(t), y: box.h - box.bottom + 13, "text-anchor": "middle", class: "tick" }, fmt(t, 0)));
  }
  svg.appendChild(svgEl("text", { x: (box.left + box.w - box.right) / 2, y: box.h - 2, "text-anchor": "middle", class: "tick" }, "rating (Elo scale)"));
  sorted.forEach((a, i) => {
    const y = box.top + 10 + i * 18;
    const g = svgEl("g", { class: "rating", "data-agent": a.agent });
    g.appendChild(svgEl("text", { x: box.left - 8, y: y + 4, "text-anchor": "end", class: "row-label" }, a.agent));
    if (a.rating_low !== null) g.appendChild(svgEl("line", { x1: ax.x(a.rating_low), x2: ax.x(a.rating_high), y1: y, y2: y, stroke: AGENT_COLOUR.get(a.agent), class: "interval" }));
    g.appendChild(svgEl("circle", { cx: ax.x(a.rating), cy: y, r: 4, fill: AGENT_COLOUR.get(a.agent) }));
    const interval = a.rating_low === null ? "no interval: too few matches" : `95%: ${fmt(a.rating_low, 0)} to ${fmt(a.rating_high, 0)}`;
    g.appendChild(svgEl("title", {}, `${a.agent}: ${fmt(a.rating, 0)} (${interval})`));
    svg.appendChild(g);
  });
})();

/* ---------- pairwise grid as a heat map ---------- */

(function grid() {
  const cell = new Map(); // "a\u0000b" -> [W, D, L] of a against b
  const add = (a, b, w, d, l) => {
    const key = `${a}\u0000${b}`;
    const c = cell.get(key) || [0, 0, 0];
    cell.set(key, [c[0] + w, c[1] + d, c[2] + l]);
  };
  for (const p of R.pairs) {
    add(p.agent, p.opponent, p.wins, p.draws, p.losses);
    add(p.opponent, p.agent, p.losses, p.draws, p.wins);
  }
  const rows = AGENTS.map((a) => {
    const cells = [{ node: agentName(a) }];
    for (const b of AGENTS) {
      const c = cell.get(`${a}\u0000${b}`);
      if (a === b || !c) { cells.push({ text: "", cls: "empty" }); continue; }
      const games = c[0] + c[1] + c[2];
      const score = games ? (c[0] + c[1] / 2) / games : 0.5;
      cells.push({ text: `${c[0]}-${c[1]}-${c[2]}`, cls: "heat", style: `background:${heat(score)};color:${Math.abs(score - 0.5) > 0.3 ? "#fff" : "inherit"}`, title: `${a} vs ${b}: score ${fmt(score, 3)}`, value: score });
    }
    return cells;
  });
  fillTable(document.getElementById("grid"), ["", ...AGENTS.map((a) => ({ text: a, cls: "col" }))], rows);
})();

/* Red (0) through white (0.5) to blue (1). */
function heat(score) {
  const s = Math.max(0, Math.min(1, score));
  const [from, to, t] = s < 0.5 ? [[214, 69, 43], [248, 248, 248], s * 2] : [[248, 248, 248], [31, 111, 180], (s - 0.5) * 2];
  const mix = from.map((f, i) => Math.round(f + (to[i] - f) * t));
  return `rgb(${mix.join(",")})`;
}

/* ---------- profit distributions ---------- */

(function profits() {
  const values = new Map(AGENTS.map((a) => [a, []]));
  /* A side's profit in a match where it faulted is left out, as in the report's profit table. */
  for (const m of R.matches) {
    const faulted = new Set(m.faults.map((f) => f.company));
    m.agents.forEach((a, side) => { if (!faulted.has(side)) values.get(a).push(m.profit[side]); });
  }
  const svg = document.getElementById("profits");
  const labelWidth = Math.min(260, 30 + 7 * Math.max(...AGENTS.map((a) => a.length)));
  const box = { w: 900, h: 40 + 22 * AGENTS.length, left: labelWidth, right: 20, top: 8, bottom: 30 };
  svg.setAttribute("viewBox", `0 0 ${box.w} ${box.h}`);
  const all = R.profits.filter((p) => p.mean !== null).flatMap((p) => [p.min, p.max]);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const x = scale(lo, hi, box.left, box.w - box.right);
  for (const t of ticks(lo, hi, 8)) {
    svg.appendChild(svgEl("line", { x1: x(t), x2: x(t), y1: box.top, y2: box.h - box.bottom, class: t === 0 ? "zero" : "vgrid" }));
    svg.appendChild(svgEl("text", { x: x(t), y: box.h - box.bottom + 13, "text-anchor": "middle", class: "tick" }, fmt(t, 0)));
  }
  svg.appendChild(svgEl("text", { x: (box.left + box.w - box.right) / 2, y: box.h - 2, "text-anchor": "middle", class: "tick" }, "profit per match"));
  R.profits.forEach((p, i) => {
    const v = values.get(p.agent).slice().sort((a, b) => a - b);
    const q = (f) => quantile(v, f);
    const y = box.top + 12 + i * 22;
    const colour = AGENT_COLOUR.get(p.agent);
    const g = svgEl("g", { class: "box", "data-agent": p.agent });
    g.appendChild(svgEl("text", { x: box.left - 8, y: y + 4, "text-anchor": "end", class: "row-label" }, p.agent));
    if (p.mean === null) { /* every entry faulted: no profit to draw */
      g.appendChild(svgEl("text", { x: box.left + 4, y: y + 4, class: "tick" }, `faulted in all ${p.faulted} matches`));
      svg.appendChild(g);
      return;
    }
    g.appendChild(svgEl("line", { x1: x(p.min), x2: x(p.max), y1: y, y2: y, stroke: colour, class: "whisker" }));
    g.appendChild(svgEl("rect", { x: x(q(0.25)), y: y - 7, width: Math.max(1, x(q(0.75)) - x(q(0.25))), height: 14, fill: colour, "fill-opacity": 0.25, stroke: colour }));
    g.appendChild(svgEl("line", { x1: x(p.median), x2: x(p.median), y1: y - 7, y2: y + 7, stroke: colour, "stroke-width": 2 }));
    g.appendChild(svgEl("circle", { cx: x(p.mean), cy: y, r: 3, fill: "#222" }));
    g.appendChild(svgEl("title", {}, `${p.agent}: ${p.matches} matches without a fault (${p.faulted} left out), mean ${fmt(p.mean, 1)}, sd ${fmt(p.sd, 1)}, min ${fmt(p.min, 1)}, median ${fmt(p.median, 1)}, max ${fmt(p.max, 1)}`));
    svg.appendChild(g);
  });
})();

function quantile(sorted, f) {
  if (!sorted.length) return 0;
  const pos = (sorted.length - 1) * f;
  const i = Math.floor(pos);
  return i + 1 < sorted.length ? sorted[i] + (sorted[i + 1] - sorted[i]) * (pos - i) : sorted[i];
}

/* ---------- bidding and planning (apdp analyze; with apdp report --analysis) ---------- */

(function analysis() {
  const A = R.analysis;
  if (!A) return;
  document.getElementById("analysis-section").hidden = false;
  const colour = (a, i) => AGENT_COLOUR.get(a) || PALETTE[i % PALETTE.length];
  const pct = (x) => (x === null || x === undefined ? "-" : `${x >= 0 ? "+" : ""}${fmt(100 * x, 1)}%`);
  const num = (x, d) => ({ text: x === null || x === undefined ? "-" : fmt(x, d), cls: "num", value: x });
  const left = [A.faulted ? `${A.faulted} with a fault` : "", A.referee_errors ? `${A.referee_errors} with a referee error` : "",
    A.unreadable.length ? `${A.unreadable.length} unreadable` : ""].filter(Boolean);
  document.getElementById("analysis-count").textContent =
    `${A.matches} match${A.matches === 1 ? "" : "es"} analysed${left.length ? `; left out: ${left.join(", ")}` : ""}.`;
  const rows = A.agents.map((a, i) => {
    const tr = row([{ node: agentName(a.agent) }, num(a.matches, 0), { text: pct(a.planning_gap), cls: "num", value: a.planning_gap },
      { text: pct(a.markup), cls: "num", value: a.markup }, { text: pct(a.markup_median), cls: "num", value: a.markup_median },
      num(a.left_on_table, 0), num(a.left_per_task, 0), num(a.lost, 0), num(a.lost_on_planning, 0), num(a.faulted, 0)]);
    tr.setAttribute("data-agent", a.agent);
    tr.children[0].querySelector(".swatch").style.background = colour(a.agent, i);
    return tr;
  });
  fillTable(document.getElementById("analysis"), ["agent", ...["matches", "planning gap", "mean markup", "median markup",
    "left per match", "left per task", "lost", "lost on planning", "faulted"].map((h) => ({ text: h, cls: "num" }))], rows);

  /* Mean markup by auction index, one line per agent, on a log scale of bid / marginal cost. */
  const svg = document.getElementById("markups");
  const ratio = (m) => Math.max(0.01, 1 + m);
  const all = A.agents.flatMap((a) => a.markup_by_auction.filter((m) => m !== null).map(ratio));
  const auctions = Math.max(1, ...A.agents.map((a) => a.markup_by_auction.length));
  const box = { w: 900, h: 300, left: 60, right: 20, top: 10, bottom: 34 };
  svg.setAttribute("viewBox", `0 0 ${box.w} ${box.h}`);
  const lo = Math.log10(Math.min(0.5, ...all)), hi = Math.log10(Math.max(2, ...all));
  const x = scale(1, Math.max(2, auctions), box.left, box.w - box.right);
  const y = scale(lo, hi, box.h - box.bottom, box.top);
  const g = svgEl("g", { class: "axes" });
  for (const r of [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) {
    const t = Math.log10(r);
    if (t < lo || t > hi) continue;
    g.appendChild(svgEl("line", { x1: box.left, x2: box.w - box.right, y1: y(t), y2: y(t), class: r === 1 ? "zero" : "grid" }));
    g.appendChild(svgEl("text", { x: box.left - 4, y: y(t) + 3, "text-anchor": "end" }, pct(r - 1)));
  }
  for (const t of ticks(1, Math.max(2, auctions), 10)) {
    g.appendChild(svgEl("text", { x: x(t), y: box.h - box.bottom + 13, "text-anchor": "middle" }, fmt(t, 0)));
  }
  g.appendChild(svgEl("text", { x: (box.left + box.w - box.right) / 2, y: box.h - 2, "text-anchor": "middle", class: "label" },
    "auction (1: the first task)"));
  svg.appendChild(g);
  A.agents.forEach((a, i) => {
    let path = "";
    let pen = "M";
    a.markup_by_auction.forEach((m, k) => {
      if (m === null) { pen = "M"; return; }
      path += `${pen}${x(k + 1).toFixed(1)},${y(Math.log10(ratio(m))).toFixed(1)} `;
      pen = "L";
    });
    const line = svgEl("path", { d: path.trim() || "M0,0", class: "series", stroke: colour(a.agent, i), "data-agent": a.agent });
    line.appendChild(svgEl("title", {}, `${a.agent}: mean markup ${pct(a.markup)}, median ${pct(a.markup_median)}`));
    svg.appendChild(line);
  });
  svg.after(legend(A.agents.map((a) => a.agent), A.agents.map((a, i) => colour(a.agent, i))));
})();

/* ---------- faults by kind ---------- */

(function faults() {
  const div = document.getElementById("faults");
  const agents = Object.keys(R.faults);
  if (!agents.length) { div.appendChild(el("p", {}, "No faults.")); return; }
  const kinds = [...new Set(agents.flatMap((a) => Object.keys(R.faults[a])))].sort();
  const colours = kinds.map((_, i) => PALETTE[(i + 3) % PALETTE.length]);
  const totals = agents.map((a) => kinds.reduce((s, k) => s + (R.faults[a][k] || 0), 0));
  const labelWidth = Math.min(260, 30 + 7 * Math.max(...agents.map((a) => a.length)));
  const box = { w: 900, h: 40 + 20 * agents.length, left: labelWidth, right: 40, top: 8, bottom: 30 };
  const svg = svgEl("svg", { class: "chart", id: "faults-chart", viewBox: `0 0 ${box.w} ${box.h}` });
  const x = scale(0, Math.max(...totals), box.left, box.w - box.right);
  for (const t of ticks(0, Math.max(...totals), 6)) {
    svg.appendChild(svgEl("line", { x1: x(t), x2: x(t), y1: box.top, y2: box.h - box.bottom, class: "vgrid" }));
    svg.appendChild(svgEl("text", { x: x(t), y: box.h - box.bottom + 13, "text-anchor": "middle", class: "tick" }, fmt(t, 0)));
  }
  agents.forEach((a, i) => {
    const y = box.top + 10 + i * 20;
    svg.appendChild(svgEl("text", { x: box.left - 8, y: y + 4, "text-anchor": "end", class: "row-label" }, a));
    let start = 0;
    kinds.forEach((k, j) => {
      const n = R.faults[a][k] || 0;
      if (!n) return;
      const bar = svgEl("rect", { x: x(start), y: y - 7, width: x(start + n) - x(start), height: 14, fill: colours[j] });
      bar.appendChild(svgEl("title", {}, `${a}: ${n} ${k}`));
      svg.appendChild(bar);
      start += n;
    });
    svg.appendChild(svgEl("text", { x: x(start) + 4, y: y + 4, class: "tick" }, String(start)));
  });
  div.appendChild(svg);
  div.appendChild(legend(kinds, colours));
  const table = el("table", { id: "faults-table" });
  fillTable(table, ["agent", ...kinds, "total"], agents.map((a, i) => [a, ...kinds.map((k) => ({ text: R.faults[a][k] || 0, cls: "num" })), { text: totals[i], cls: "num" }]));
  div.appendChild(table);
})();

/* ---------- matches ---------- */

function quote(text) {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/* Matches: a page of rows at a time (a report may hold tens of thousands), with a filter. */
const MATCHES_PER_PAGE = 100;

(function matches() {
  const note = document.getElementById("replay-note");
  note.textContent = R.replays
    ? "Each match links to its replay, written beside this page."
    : "Make a match's replay with the command in its row (or write them all with apdp report --format html --replays).";
  const faultText = R.matches.map((m) => m.faults.map((f) => `${f.agent}: ${f.kind} in ${f.phase}`).join("; "));
  const search = R.matches.map((m, i) =>
    `${m.topology} ${m.tournament_seed} ${m.seed} ${m.agents.join(" ")} ${m.winner || "draw"} ${faultText[i]}`.toLowerCase());
  const table = document.getElementById("matches");
  const body = fillTable(table, ["#", "network", "tournament", "company 0", "company 1",
    { text: "profit 0", cls: "num" }, { text: "profit 1", cls: "num" }, "winner", "faults", "replay"], []);
  const count = document.getElementById("match-count");
  const pager = el("div", { class: "pager" });
  const previous = el("button", { id: "matches-previous" }, "◀ previous");
  const next = el("button", { id: "matches-next" }, "next ▶");
  const where = el("span", { id: "matches-page" });
  pager.append(previous, where, next);
  table.parentNode.after(pager);
  let shown = R.matches.map((_, i) => i);
  let first = 0;

  function matchRow(i) {
    const m = R.matches[i];
    let replay;
    if (R.replays) {
      replay = { node: el("a", { href: R.replays[i], class: "replay" }, "replay") };
    } else {
      replay = { node: el("code", { class: "replay-command" }, `apdp replay ${quote(m.results)} --match ${quote(m.match_id)} --out replay.html`) };
    }
    const tr = row([{ text: i + 1, cls: "num" }, m.topology, { text: m.tournament_seed, cls: "num" }, m.agents[0], m.agents[1],
      { text: fmt(m.profit[0], 1), cls: "num" }, { text: fmt(m.profit[1], 1), cls: "num" }, m.winner === null ? "draw" : m.winner,
      { text: faultText[i], cls: "faults" }, replay]);
    tr.setAttribute("data-match", i);
    return tr;
  }

  function draw() {
    const fragment = document.createDocumentFragment();
    for (const i of shown.slice(first, first + MATCHES_PER_PAGE)) fragment.appendChild(matchRow(i));
    clear(body).appendChild(fragment);
    count.textContent = `${shown.length} of ${R.matches.length} matches`;
    where.textContent = shown.length ? ` ${first + 1} to ${Math.min(first + MATCHES_PER_PAGE, shown.length)} of ${shown.length} ` : " none ";
    previous.disabled = first === 0;
    next.disabled = first + MATCHES_PER_PAGE >= shown.length;
  }
  previous.addEventListener("click", () => { first = Math.max(0, first - MATCHES_PER_PAGE); draw(); });
  next.addEventListener("click", () => { first += MATCHES_PER_PAGE; draw(); });
  document.getElementById("filter").addEventListener("input", (e) => {
    const words = e.target.value.toLowerCase().split(/\s+/).filter(Boolean);
    shown = R.matches.map((_, i) => i).filter((i) => words.every((w) => search[i].includes(w)));
    first = 0;
    draw();
  });
  draw();
})();

/* ---------- table of contents ---------- */

(function toc() {
  const nav = document.getElementById("toc");
  for (const section of document.querySelectorAll("main > section")) {
    if (section.hidden) continue;
    const title = section.querySelector("h2");
    nav.appendChild(el("a", { href: `#${section.id}` }, title.textContent));
  }
})();

document.body.dataset.renderMs = String(Math.round(performance.now() - started));
document.body.dataset.openMs = String(Math.round(performance.now())); // since the page was asked for
document.body.dataset.ready = "1";
