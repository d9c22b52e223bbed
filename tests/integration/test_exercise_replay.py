"""The replay page of an exercise's round without a browser: its data (every event in order, on the
right cities, with the platform's figures; a reactive agent's offers numbered apart), its safety,
and the commands that write it (``apdp replay`` of a record, ``apdp match --exercise ... --replay``).

The page in a real browser is in tests/browser/test_exercise_replay_browser.py.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from apdp.check.exercise_verify import replay_exercise
from apdp.game.plan import Deliver, Move, Pickup
from apdp.pages.exercise_replay import (
    DELIVER,
    EVENT_COLUMNS,
    MOVE,
    PICKUP,
    ExerciseReplayError,
    exercise_replay_data,
    exercise_replay_html,
    write_exercise_replay,
)
from apdp.referee.exercise_record import ExerciseRecord, exercise_record_from_json
from tests.command import apdp
from tests.exercise_pages import played
from tests.integration.test_replay import page_json


@pytest.fixture(scope="module")
def deliberative() -> ExerciseRecord:
    return played("deliberative", agents=2)


@pytest.fixture(scope="module")
def reactive() -> ExerciseRecord:
    return played("reactive", agents=2, acts=300)


def events_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    columns = data["events"]
    return [dict(zip(EVENT_COLUMNS, values, strict=True)) for values in zip(*columns.values(), strict=True)]


def test_a_deliberative_pages_data_lists_every_event_in_order_on_the_right_cities(deliberative: ExerciseRecord) -> None:
    replayed = replay_exercise(deliberative)
    data = exercise_replay_data(deliberative, replayed)
    cities = [c[0] for c in data["topology"]["cities"]]
    vehicles = [v for c in data["companies"] for v in c["vehicles"]]
    where = [cities[v["home"]] for v in vehicles]
    events = events_of(data)
    assert len(events) == len(replayed.round.events) == deliberative.events > 0
    assert data["batch"] == len(replayed.round.batch) == len(data["tasks"])
    for row, event in zip(events, replayed.round.events, strict=True):
        v = row["vehicle"]
        assert vehicles[v]["name"] == event.vehicle
        assert row["time"] == pytest.approx(event.time / 1e9, abs=1e-4)
        action = event.action
        if isinstance(action, Move):
            assert (row["kind"], cities[row["target"]]) == (MOVE, action.city)
            where[v] = action.city
            continue
        task = data["tasks"][row["target"]]
        assert task[0] == action.task and task[5] is None  # a batch task, by its id
        if isinstance(action, Pickup):
            assert row["kind"] == PICKUP and cities[task[1]] == where[v]  # picked up where it waits
        else:
            assert isinstance(action, Deliver)
            assert row["kind"] == DELIVER and cities[task[2]] == where[v]
    assert [e["time"] for e in events] == sorted(e["time"] for e in events)
    # each agent's running figures end at the platform's: the record's statistics
    last: dict[int, dict[str, Any]] = {}
    agent_of = [a for a, c in enumerate(data["companies"]) for _ in c["vehicles"]]
    for row in events:
        last[agent_of[row["vehicle"]]] = row
    ends = sorted((last[a]["units"], last[a]["cost"], last[a]["reward"]) for a in last)
    stats = sorted((s.total_distance_units, s.total_cost, s.total_reward) for s in deliberative.statistics)
    assert ends == stats
    assert [(t["units"], t["cost"], t["reward"]) for t in data["totals"]] == [
        (a.totals().distance_units, a.totals().cost, a.totals().reward) for a in replayed.round.agents]
    assert data["statistics"] == [
        {"rank": s.rank, "agent": s.agent, "total_tasks": s.total_tasks, "distance": s.total_distance,
         "cost": s.total_cost, "reward": s.total_reward, "profit": s.total_profit} for s in deliberative.statistics]
    assert data["kinds"] == ["deliberative", "deliberative"] and data["agents"] == ["deliberative#0", "deliberative#1"]
    assert data["fault"] is None and data["stopped"] is None


def test_a_reactive_agents_pickups_are_numbered_apart(reactive: ExerciseRecord) -> None:
    replayed = replay_exercise(reactive)
    data = exercise_replay_data(reactive, replayed)
    assert data["batch"] == 0  # the batch is drawn, but no reactive agent has it
    cities = [c[0] for c in data["topology"]["cities"]]
    vehicles = [v for c in data["companies"] for v in c["vehicles"]]
    agent_of = [a for a, c in enumerate(data["companies"]) for _ in c["vehicles"]]
    carried: dict[int, int] = {}
    where = [cities[v["home"]] for v in vehicles]
    picked: dict[int, list[int]] = {0: [], 1: []}
    rewards = [0, 0]
    stream = replayed.round.stream
    for row in events_of(data):
        v = row["vehicle"]
        if row["kind"] == MOVE:
            where[v] = cities[row["target"]]
        elif row["kind"] == PICKUP:
            task = data["tasks"][row["target"]]
            assert task[0] == 0 and task[6] == agent_of[v] and cities[task[1]] == where[v]
            assert v not in carried and row["target"] not in [t for ts in picked.values() for t in ts]
            carried[v] = row["target"]
            picked[agent_of[v]].append(row["target"])
        else:
            assert carried.pop(v) == row["target"]  # the offer it picked up last, delivered here
            task = data["tasks"][row["target"]]
            assert cities[task[2]] == where[v]
            assert task[3:5] == [stream.weight(cities[task[1]], where[v]), stream.reward(cities[task[1]], where[v])]
            rewards[agent_of[v]] += task[4]
        assert row["reward"] == rewards[agent_of[v]]
    for tasks in picked.values():  # each agent's offers: 1, 2, 3, ... in the order picked up
        assert len(tasks) > 1 and [data["tasks"][t][5] for t in tasks] == list(range(1, len(tasks) + 1))
    assert len(data["tasks"]) == sum(len(t) for t in picked.values())
    assert sorted(rewards) == sorted(s.total_reward for s in reactive.statistics)


def test_the_page_embeds_names_as_text_and_loads_nothing(deliberative: ExerciseRecord) -> None:
    hostile = dataclasses.replace(deliberative, agents=("</script><img src=x onerror=alert(1)>", "a&b"))
    html = exercise_replay_html(hostile)
    assert "</script><img" not in html and "<img" not in html
    assert "Content-Security-Policy" in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html and "innerHTML" not in html
    data = page_json(html)
    assert data["agents"][0] == "</script><img src=x onerror=alert(1)>"


def test_a_record_whose_configuration_is_gone_or_broken_is_one_line(deliberative: ExerciseRecord,
                                                                      tmp_path: Path) -> None:
    gone = dataclasses.replace(deliberative, scenario=str(tmp_path / "gone.toml"))
    with pytest.raises(ExerciseReplayError) as raised:
        write_exercise_replay(gone, tmp_path / "x.html", source="rec.json")
    assert str(raised.value).startswith("rec.json: cannot replay it:") and "gone.toml" in str(raised.value)
    assert "\n" not in str(raised.value) and not (tmp_path / "x.html").exists()
    (tmp_path / "broken.toml").write_text("exercise = [\n")
    with pytest.raises(ExerciseReplayError, match=r"broken\.toml") as raised:
        exercise_replay_html(dataclasses.replace(deliberative, scenario=str(tmp_path / "broken.toml")))
    assert "\n" not in str(raised.value)


def test_apdp_match_replay_and_apdp_replay_write_the_page(tmp_path: Path) -> None:
    done = apdp("match", "--exercise", "deliberative", "-a", "deliberative,deliberative", "--seed", "3",
                "--record", "rec.json", "--replay", "page.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "replay written to page.html" in done.stdout and "deliberative_switzerland.toml" in done.stdout
    record = exercise_record_from_json(json.loads((tmp_path / "rec.json").read_text()))
    page = page_json((tmp_path / "page.html").read_text())
    assert len(page["events"]["time"]) == record.events > 0 and page["exercise"] == "deliberative"

    again = apdp("replay", "rec.json", "--out", "again.html", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Vehicle 1 (deliberative#0):" in again.stdout and "replay written to again.html" in again.stdout
    assert page_json((tmp_path / "again.html").read_text()) == page
    assert "<pre>" not in (tmp_path / "again.html").read_text()

    data = json.loads((tmp_path / "rec.json").read_text())
    data["scenario"] = str(tmp_path / "moved.toml")
    (tmp_path / "moved.json").write_text(json.dumps(data))
    moved = apdp("replay", "moved.json", "--out", "moved.html", cwd=tmp_path)
    assert moved.returncode != 0 and "Traceback" not in moved.stderr
    assert len(moved.stderr.strip().splitlines()) == 1 and "moved.json: cannot replay it" in moved.stderr
    assert not (tmp_path / "moved.html").exists()


def test_apdp_match_checks_the_replays_path_before_the_round(tmp_path: Path) -> None:
    done = apdp("match", "--exercise", "reactive", "-a", "reactive", "--acts", "5",
                "--replay", str(tmp_path / "no" / "page.html"), cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr and "page.html" in done.stderr
    assert "1. reactive" not in done.stdout


def test_vehicles_named_alike_are_told_apart_by_their_number(tmp_path: Path) -> None:
    from apdp.bundled import BUNDLED_AGENTS, BUNDLED_SCENARIOS
    from apdp.referee.exercise_round import play_exercise

    text = (BUNDLED_SCENARIOS / "exercises" / "deliberative_switzerland.toml").read_text(encoding="utf-8")
    scenario = tmp_path / "alike.toml"
    names = [line for line in text.splitlines() if line.startswith('name = "Vehicle')]
    for name in names:
        text = text.replace(name, 'name = "Truck"')
    text = text.replace("tasks = 10", "tasks = 4")
    scenario.write_text(text, encoding="utf-8")
    agent = str(BUNDLED_AGENTS / "exercises" / "deliberative.py")
    record = play_exercise(scenario, [agent, agent], exercise="deliberative", seed=3)
    assert record.fault is None and len(names) > 1
    replayed = replay_exercise(record)
    data = exercise_replay_data(record, replayed)
    assert [row["vehicle"] for row in events_of(data)] == [e.number for e in replayed.round.events]
    assert {e.number for e in replayed.round.events} == {0, 1}  # each company's first vehicle drove
