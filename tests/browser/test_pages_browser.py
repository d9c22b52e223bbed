"""The replay and report pages in a real headless Chromium (driven by Playwright).

Each page must load with no console error and no request but its own file; the replay's map has one
marker per city and one line per road, and stepping to the end shows the record's profits; the
report's table shows exactly the figures of ``--format json``; a report of 2,000 matches opens and
pages through them (how long it takes to open is a figure of ``bench/pages.py``, whose budget is
3 s: not a test's, on a machine that runs other tests at the same time). The browser is the
system's Chromium (``apt-get install chromium``; or set APDP_CHROMIUM): without it these tests
skip, except under CI (``CI`` set), where they fail.

With ``APDP_SCREENSHOTS=DIR`` the screenshots shown in the README are written to DIR (``docs``).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from apdp.pages.replay import write_replay
from apdp.referee.match import play_match
from apdp.referee.record import RECORD_FORMAT
from apdp.scenario import make_scenario
from apdp.scenario.networks import load_topology
from apdp.tournament.report import report
from apdp.tournament.report_page import report_html
from apdp.tournament.schedule import double_round_robin
from apdp.tournament.store import ResultsStore
from tests.records import typed_record

VIEWPORT = {"width": 1400, "height": 1050}


@dataclass
class Watched:
    """A page and everything it did that it should not have."""

    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


def open_page(browser: Any, path: Path) -> Watched:
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    page = context.new_page()
    watched = Watched(page)
    page.on("console", lambda m: watched.errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: watched.errors.append(str(e)))
    page.on("requestfailed", lambda r: watched.errors.append(f"failed: {r.url}"))
    page.on("request", lambda r: watched.requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=10_000)
    return watched


def screenshot(page: Any, tmp_path: Path, name: str) -> None:
    """Save a screenshot; also into $APDP_SCREENSHOTS for the README."""
    shot = page.screenshot(full_page=False)
    assert len(shot) > 10_000  # a real picture, not a blank page
    (tmp_path / name).write_bytes(shot)
    folder = os.environ.get("APDP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(shot)


def number(text: str) -> float:
    return float(text.replace(",", ""))


# -- the replay ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A full-length match on France between two baselines that both win tasks."""
    return play_match(make_scenario({"topology": "france", "seed": 11}), ["honest", "exp-cost-fixed-bid"]).to_json()


def test_replay_steps_to_the_records_profits(browser: Any, record: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "replay.html"
    write_replay(record, path)
    watched = open_page(browser, path)
    page = watched.page
    topology = load_topology("france")
    assert page.locator("#map circle.city").count() == len(topology.cities)
    assert page.locator("#map line.road").count() == len(topology.roads)
    assert page.locator("#map g.vehicle").count() == sum(len(c["vehicles"]) for c in record["companies"])

    page.click("#next")  # the first auction: its task, bids and winner
    first = record["auctions"][0]
    assert f"Task {first['task']}:" in page.inner_text("#now")
    assert record["agents"][first["winner"]] in page.inner_text("#now .price")

    last = int(page.get_attribute("#slider", "max"))
    assert last > len(record["tasks"])  # the auction, then the plans step by step
    steps = 1
    while page.get_attribute("body", "data-end") != "1":
        if steps == len(record["tasks"]) + 20:
            screenshot(page, tmp_path, "replay.png")
        page.click("#next")
        steps += 1
        assert steps <= last
    assert steps == last
    for c, profit in enumerate(record["result"]["profit"]):
        cell = page.locator(f"#standing tr[data-company='{c}'] td.profit")
        assert float(cell.get_attribute("data-value")) == pytest.approx(profit, abs=1e-6)
        assert number(cell.inner_text()) == pytest.approx(profit, abs=0.005)
        assert number(page.inner_text(f"#result-table tr[data-company='{c}'] td.final-profit")) == pytest.approx(
            profit, abs=0.005)
    assert "(end)" in page.inner_text("#position")
    page.click("#first")
    assert page.inner_text("#position") == "start"
    assert watched.errors == []
    assert watched.requests == [path.resolve().as_uri()]


BOXES = """() => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  return {
    labels: [...document.querySelectorAll("#map text.city-name")].map((e) => [e.dataset.city, box(e)]),
    vehicles: [...document.querySelectorAll("#map g.vehicle rect")].map((e) => {
      const b = e.getBoundingClientRect(), m = e.ownerSVGElement.getScreenCTM().inverse();
      const p = new DOMPoint(b.left, b.top).matrixTransform(m), q = new DOMPoint(b.right, b.bottom).matrixTransform(m);
      const g = e.parentNode, home = D.companies[g.dataset.company].vehicles[g.dataset.vehicle].home;
      return [CITIES[home][0], [p.x, p.y, q.x, q.y]];
    }),
    badges: [...document.querySelectorAll("#map text.badge")].filter((e) => e.textContent)
      .map((e) => [e.dataset.city, e.textContent, box(e)]),
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("network", ["france", "england"])
def test_replay_badges_and_vehicles_leave_the_city_names_clear(browser: Any, network: str, tmp_path: Path) -> None:
    played = play_match(make_scenario({"topology": network, "seed": 5}), ["honest", "exp-cost-fixed-bid"]).to_json()
    path = tmp_path / "replay.html"
    write_replay(played, path)
    watched = open_page(browser, path)
    page = watched.page
    labels = dict((city, box) for city, box in page.evaluate(BOXES)["labels"])
    page.locator("#slider").fill(str(len(played["tasks"])))  # every auction done: the most badges
    page.wait_for_timeout(400)  # the vehicles' move home (a CSS transition) is over
    boxes = page.evaluate(BOXES)
    for home, vehicle in boxes["vehicles"]:  # the vehicles stand at home, beside their city, under its name
        assert not overlap(vehicle, labels[home]), home
    assert len(labels) == len(load_topology(network).cities)
    assert len({city for city, _, _ in boxes["badges"]}) >= 5  # pending pickups and deliveries in many cities
    for city, text, badge in boxes["badges"]:
        label = labels[city]
        assert not overlap(badge, label), (city, text)
        assert [other for other, box in labels.items() if overlap(badge, box)] == [], (city, text)
        height = label[3] - label[1]  # beside the name: at most two lines above it, or next to it
        assert max(label[0] - badge[2], badge[0] - label[2]) < height and label[1] - badge[3] < 2 * height
        assert badge[1] < label[3], (city, text)  # never below the name, over the city
    assert watched.errors == []


# -- the report ------------------------------------------------------------------------------

FLAKY = '''\
from apdp import Agent, Stop, plan_from_stops


class Flaky(Agent):
    """Bids its cost plus a margin, and raises on one task in five."""

    def bid(self, task):
        if task.id % 5 == 4:
            raise RuntimeError("flaky on purpose")
        vehicle = self.company.vehicles[0]
        return self.topology.distance(task.pickup, task.delivery) * vehicle.cost_per_km + 300.0

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
'''

STANDING_DECIMALS = {
    "avg_wins": 2, "sd_wins": 2, "avg_losses": 2, "sd_losses": 2, "total_wins": 0, "total_losses": 0,
    "draws": 0, "win_rate": 3, "faults": 0, "rating": 0, "rating_low": 0, "rating_high": 0, "matches": 0,
}


def apdp(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


def test_report_table_equals_json(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament

    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "flaky.py").write_text(FLAKY)
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology="france", agents=["honest", "exp-cost-fixed-bid", "template", "flaky"], seed=3,
                         overrides={"tasks": 10})
    results = tmp_path / "results"
    assert run_tournament(config, results, jobs=2, progress=False).played == 12
    expected = json.loads(report([results], "json"))
    page_path = tmp_path / "report.html"
    assert apdp(["report", str(results), "--format", "html", "--out", str(page_path), "--replays"], monkeypatch) == 0

    watched = open_page(browser, page_path)
    page = watched.page
    rows = page.locator("#standings tbody tr")
    assert rows.count() == len(expected["agents"])
    for k, agent in enumerate(expected["agents"]):
        row = rows.nth(k)
        assert row.get_attribute("data-agent") == agent["agent"]
        for name, decimals in STANDING_DECIMALS.items():
            cell = row.locator(f"td[data-field='{name}']")
            if agent[name] is None:  # a figure with no meaning (an SD of one tournament) reads "-"
                assert cell.inner_text() == "-", name
                continue
            assert float(cell.get_attribute("data-value")) == agent[name], name
            assert number(cell.inner_text()) == pytest.approx(agent[name], abs=0.5 * 10**-decimals + 1e-9), name
    n = len(expected["agents"])
    assert page.locator("#ratings g.rating").count() == n
    assert page.locator("#grid td.heat").count() == n * (n - 1)
    assert page.locator("#profits g.box").count() == n
    faults = page.locator("#faults-table tbody tr")
    assert faults.count() == len(expected["faults"]) == 1
    assert number(faults.nth(0).locator("td").last.inner_text()) == sum(expected["faults"]["flaky"].values())
    assert page.locator("#matches tbody tr").count() == len(expected["matches"])
    page.fill("#filter", "flaky")
    assert page.locator("#matches tbody tr").count() == 6
    assert page.inner_text("#match-count") == f"6 of {len(expected['matches'])} matches"
    assert page.locator("#analysis-section").is_hidden()  # only with --analysis
    page.fill("#filter", "")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, tmp_path, "report.png")
    assert watched.errors == []
    assert watched.requests == [page_path.resolve().as_uri()]

    link = page.locator("#matches a.replay").first
    href = link.get_attribute("href")
    assert (tmp_path / href).is_file()
    replay = open_page(browser, tmp_path / href)
    first = expected["matches"][0]
    assert replay.page.locator("#standing tbody tr").count() == 2
    assert first["agents"][0] in replay.page.inner_text("#title")
    assert replay.errors == []


def test_report_with_analysis_shows_each_agents_figures_and_markups(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament

    config = make_config(topology="switzerland", agents=["honest", "naive", "exp-cost-fixed-bid"], seed=5,
                         overrides={"tasks": 8})
    results = tmp_path / "results"
    assert run_tournament(config, results, jobs=2, progress=False).played == 6
    data = tmp_path / "report.json"
    assert apdp(["report", str(results), "--analysis", "--format", "json", "--out", str(data)], monkeypatch) == 0
    expected = json.loads(data.read_text())["analysis"]
    page_path = tmp_path / "report.html"
    assert apdp(["report", str(results), "--analysis", "--format", "html", "--out", str(page_path)], monkeypatch) == 0

    watched = open_page(browser, page_path)
    page = watched.page
    assert page.locator("#analysis-section").is_visible()
    assert "Bidding and planning" in page.inner_text("#toc")
    rows = page.locator("#analysis tbody tr")
    assert rows.count() == len(expected["agents"]) == 3
    for k, agent in enumerate(expected["agents"]):
        row = rows.nth(k)
        assert row.get_attribute("data-agent") == agent["agent"]
        cells = row.locator("td")
        assert number(cells.nth(1).inner_text()) == agent["matches"] == 4
        for column, name in ((2, "planning_gap"), (3, "markup"), (4, "markup_median")):
            shown = cells.nth(column)
            if agent[name] is None:
                assert shown.inner_text() == "-"
            else:
                assert float(shown.get_attribute("data-value")) == agent[name]
                assert number(shown.inner_text().rstrip("%")) == pytest.approx(100 * agent[name], abs=0.051)
    paths = page.locator("#markups path.series")
    assert paths.count() == 3
    for k, agent in enumerate(expected["agents"]):  # one point per auction with a markup
        points = sum(1 for m in agent["markup_by_auction"] if m is not None)
        assert paths.nth(k).get_attribute("d").count(",") == points
    page.locator("#analysis-section").scroll_into_view_if_needed()
    screenshot(page, tmp_path, "analysis.png")
    assert watched.errors == []


NETWORKS = ("france", "switzerland", "england", "netherlands")


def synthetic_store(folder: Path, matches: int, agents: int = 16, networks: Sequence[str] = NETWORKS,
                    seed: int = 1) -> None:
    """A results store of ``matches`` made-up matches (of ``agents`` agents on ``networks``, 3
    tournaments each from ``seed``): results only."""
    names = [f"agent-{k:02d}" for k in range(agents)]
    schedule = double_round_robin(names, networks, seed, 3)[:matches]
    rng = random.Random(0)
    strength = {a: rng.uniform(-1, 1) for a in names}
    store = ResultsStore.create_or_resume(folder, {"synthetic": True})
    try:
        for spec in schedule:
            profit = [round(rng.gauss(2000 * strength[a], 3000), 1) for a in spec.agents]
            faults = [{"agent": 1, "kind": rng.choice(["timeout", "exception"]), "phase": "bid", "task": 3,
                       "message": "made up"}] if rng.random() < 0.03 else []
            winner = 0 if faults else (None if profit[0] == profit[1] else int(profit[1] > profit[0]))
            result = {"profit": profit, "winner": winner, "faults": faults}
            store.add(spec, typed_record({"format": RECORD_FORMAT, "agents": list(spec.agents), "result": result}))
    finally:
        store.close()


def test_report_of_2000_matches_opens_and_pages_through_them(browser: Any, tmp_path: Path) -> None:
    synthetic_store(tmp_path / "results", 2000)
    data = json.loads(report([tmp_path / "results"], "json"))
    assert len(data["matches"]) == 2000
    path = tmp_path / "report.html"
    path.write_text(report_html(data))
    watched = open_page(browser, path)
    page = watched.page
    assert int(page.get_attribute("body", "data-open-ms")) >= 0  # drawn: the figure bench/pages.py reads
    assert page.inner_text("#match-count") == "2000 of 2000 matches"
    assert page.locator("#matches tbody tr").count() == 100  # a page of them at a time
    page.click("#matches-next")
    assert page.locator("#matches tbody tr").first.get_attribute("data-match") == "100"
    assert page.locator("#standings tbody tr").count() == 16
    assert page.locator("#grid td.heat").count() == 16 * 15
    assert watched.errors == []


def test_report_shows_each_networks_standings(browser: Any, tmp_path: Path) -> None:
    synthetic_store(tmp_path / "results", 10_000, agents=4, networks=("france", "england"))
    data = json.loads(report([tmp_path / "results"], "json"))
    assert [n["network"] for n in data["networks"]] == ["england", "france"]
    path = tmp_path / "report.html"
    path.write_text(report_html(data))
    watched = open_page(browser, path)
    page = watched.page
    assert page.locator("#networks-section").is_visible()
    assert "Standings per network" in page.inner_text("#toc")
    tables = page.locator("#networks table.network-standings")
    assert tables.count() == 2
    for k, network in enumerate(data["networks"]):
        table = tables.nth(k)
        assert table.get_attribute("data-network") == network["network"]
        assert page.locator("#networks h3").nth(k).inner_text() == f"{network['network']}: 3 tournaments, 36 matches"
        rows = table.locator("tbody tr")
        assert rows.count() == len(network["agents"]) == 4
        for r, agent in enumerate(network["agents"]):
            assert rows.nth(r).get_attribute("data-agent") == agent["agent"]
            for name in ("total_wins", "total_losses", "draws", "faults", "matches"):
                assert float(rows.nth(r).locator(f"td[data-field='{name}']").get_attribute("data-value")) == agent[name]
    assert watched.errors == []


def test_grouped_report_shows_each_groups_samples_rating_and_interval(browser: Any, tmp_path: Path) -> None:
    synthetic_store(tmp_path / "results", 10_000, agents=5, networks=("france",))
    generated = {"origin": "generated", "provenance": {"model": "model-x", "strategy": "a1"}}
    identities = {"agent-00": generated, "agent-01": generated, "agent-02": generated,
                  "agent-03": {**generated, "provenance": {"model": "model-y", "strategy": "a1"}},
                  "agent-04": {"origin": "baseline"}}
    store = ResultsStore.open(tmp_path / "results")
    store.add_identities({name: {"name": name, **i} for name, i in identities.items()})
    store.close()
    data = json.loads(report([tmp_path / "results"], "json", group_by="model,strategy"))
    path = tmp_path / "report.html"
    path.write_text(report_html(data))
    watched = open_page(browser, path)
    page = watched.page
    assert page.inner_text("#groups-title") == "Groups by model,strategy"
    assert "two-level bootstrap (1000 resamples" in page.inner_text("#groups-note")
    rows = page.locator("#groups tbody tr")
    assert rows.count() == len(data["groups"]) == 3
    for k, group in enumerate(data["groups"]):
        row = rows.nth(k)
        assert row.get_attribute("data-group") == group["group"]
        for name in ("samples", "matches", "wins", "mean_rating", "rating_low", "rating_high"):
            assert float(row.locator(f"td[data-field='{name}']").get_attribute("data-value")) == group[name], name
        assert row.locator("td[data-field='interval_from']").inner_text() == group["interval_from"]
    by_group = {g["group"]: g for g in data["groups"]}
    assert (by_group["model-x / a1"]["samples"], by_group["model-x / a1"]["interval_from"]) == (3, "agents and matches")
    assert (by_group["model-y / a1"]["samples"], by_group["model-y / a1"]["interval_from"]) == (1, "matches only")
    assert watched.errors == []


def test_report_of_one_network_has_no_network_standings(browser: Any, tmp_path: Path) -> None:
    synthetic_store(tmp_path / "results", 10_000, agents=3, networks=("france",))
    path = tmp_path / "report.html"
    path.write_text(report_html(json.loads(report([tmp_path / "results"], "json"))))
    watched = open_page(browser, path)
    assert not watched.page.locator("#networks-section").is_visible()
    assert "Standings per network" not in watched.page.inner_text("#toc")
    assert watched.errors == []


def test_report_shows_children_against_parents_and_the_evolve_curve(browser: Any, tmp_path: Path) -> None:
    synthetic_store(tmp_path / "results", 10_000, agents=3, networks=("france",))
    data = json.loads(report([tmp_path / "results"], "json"))
    assert data["lineage"] == {"pairs": [], "curves": []}  # no agent here was made from another
    path = tmp_path / "report.html"
    path.write_text(report_html(data))
    assert not open_page(browser, path).page.locator("#lineage-section").is_visible()
    a, b, c = (x["agent"] for x in data["agents"])
    pair = {"agent": b, "parent": a, "matches": 6, "wins": 4, "draws": 0, "losses": 2, "win_rate": 0.6,
            "parent_win_rate": 0.4, "rating": 1550.0, "parent_rating": 1450.0, "lineage": "evo", "evolve_round": 1}
    points = [{"round": k, "agent": x, "cumulative_tokens": 1000 * (k + 1), "rating": 1400.0 + 100 * k,
               "rating_low": None, "rating_high": None, "win_rate": 0.5} for k, x in enumerate((a, b, c))]
    data["lineage"] = {"pairs": [pair], "curves": [{"lineage": "evo", "points": points}]}
    path.write_text(report_html(data))
    watched = open_page(browser, path)
    page = watched.page
    assert page.locator("#lineage-section").is_visible() and "Lineage" in page.inner_text("#toc")
    assert page.locator("#lineage tbody tr").count() == 1
    assert b in page.inner_text("#lineage") and a in page.inner_text("#lineage")
    assert page.locator("#curves h3").inner_text() == "Lineage evo: rating per round"
    assert page.locator("#curves tbody tr").count() == 3
    assert watched.errors == []


def test_the_filter_finds_a_seed_above_2_to_the_53(browser: Any, tmp_path: Path) -> None:
    seed = 3358432059346614871  # a JavaScript number would read 3358432059346615000
    assert seed > 2**53 and float(seed) != seed
    synthetic_store(tmp_path / "results", 10_000, agents=3, networks=("france",), seed=seed)
    data = json.loads(report([tmp_path / "results"], "json"))
    path = tmp_path / "report.html"
    path.write_text(report_html(data))
    watched = open_page(browser, path)
    page = watched.page
    total = len(data["matches"])
    for wanted in (seed, seed + 2):  # the first and the third tournament: 6 matches each
        page.fill("#filter", str(wanted))
        assert page.inner_text("#match-count") == f"6 of {total} matches"
        cells = page.locator("#matches tbody tr td:nth-child(3)")
        assert cells.all_inner_texts() == [str(wanted)] * 6
    page.fill("#filter", "3358432059346615000")  # the rounded seed is no seed of the store
    assert page.inner_text("#match-count") == f"0 of {total} matches"
    match_seed = str(data["matches"][0]["seed"])
    page.fill("#filter", match_seed)
    assert page.inner_text("#match-count") == f"2 of {total} matches"  # both legs of the pair
    assert watched.errors == []


def test_replay_pays_on_delivery_and_shows_no_time_for_calls_never_made(
        browser: Any, record: dict[str, Any], tmp_path: Path) -> None:
    faulted = json.loads(json.dumps(record))  # company 1 timed out in its plan: it delivers nothing
    faulted["plans"][1] = None
    faulted["settlement"] = "delivered"
    faulted["result"]["faults"] = [{"agent": 1, "kind": "timeout", "phase": "plan", "task": None,
                                    "message": "no plans within 5 s"}]
    result = faulted["result"]
    result["revenue"][1] = result["cost"][1] = result["profit"][1] = 0.0
    result["winner"] = 0
    faulted["timing"]["agents"][1].update(plan=0.0, faulted_call=5.0)
    path = tmp_path / "replay.html"
    write_replay(faulted, path)
    watched = open_page(browser, path)
    page = watched.page

    def cells(c: int) -> dict[str, float]:
        row = f"#standing tr[data-company='{c}']"
        return {k: float(page.get_attribute(f"{row} td.{k}", "data-value"))
                for k in ("won", "revenue", "cost", "profit")}

    tasks = len(faulted["tasks"])
    page.locator("#slider").fill(str(tasks))  # every auction done, no plan step yet
    for c in (0, 1):
        won = sum(a["bids"][c] for a in faulted["auctions"] if a["winner"] == c)
        assert cells(c) == {"won": pytest.approx(won), "revenue": 0.0, "cost": 0.0, "profit": 0.0}
    page.locator("#slider").fill(str(tasks + 3))  # three plan steps: paid only what is delivered
    first = cells(0)
    assert first["profit"] == pytest.approx(first["revenue"] - first["cost"])
    assert first["revenue"] < first["won"]
    page.click("#last")
    for c in (0, 1):
        assert cells(c)["profit"] == pytest.approx(result["profit"][c])
    timing = page.locator("#timing tbody tr").nth(1).locator("td")
    assert timing.nth(7).inner_text() == "-"  # plan wall: the plan call faulted (its time is the faulted call's)
    assert timing.nth(9).inner_text() == "5.000"
    assert watched.errors == []
