"""Whole matches: template against itself on every network, records, determinism."""

from __future__ import annotations

import copy
import json
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.referee.record import without_timing
from apdp.scenario import load_scenario
from tests.paths import ZOO


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    out = {}
    for topology in ("ch", "fr", "gb", "nl"):
        scenario = load_scenario(None, {"topology": topology})
        out[topology] = play_match(scenario, ["template", "template"], seed=7).to_json()
    return out


@pytest.mark.parametrize("topology", ["ch", "fr", "gb", "nl"])
def test_template_plays_fifty_tasks_cleanly(records: dict[str, dict[str, Any]], topology: str) -> None:
    record = records[topology]
    assert record["format"] == "apdp-record/1"
    assert len(record["tasks"]) == 50 and len(record["auctions"]) == 50
    assert record["result"]["faults"] == []
    assert verify_record(record) == []
    json.dumps(record)  # serialisable as it is


def _models(annotation: object) -> list[tuple[bool, type[BaseModel]]]:
    """The record types an annotation holds, each with whether it stands in a list."""
    if typing.get_origin(annotation) is list:
        return [(True, m) for _, m in _models(typing.get_args(annotation)[0])]
    out: list[tuple[bool, type[BaseModel]]] = []
    for arg in typing.get_args(annotation) or (annotation,):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            out.append((False, arg))
        elif typing.get_origin(arg) is list:
            out += [(True, m) for _, m in _models(typing.get_args(arg)[0])]
    return out


def _undeclared(model: type[BaseModel], data: object, where: str) -> list[str]:
    """The keys of ``data`` that the record's types do not declare, with where they stand."""
    if not isinstance(data, dict):
        return []
    names = set(model.model_fields) | {f.alias for f in model.model_fields.values() if f.alias}
    out = [f"{where}.{k}" for k in data if k not in names]
    for name, field in model.model_fields.items():
        for listed, inner in _models(field.annotation):
            value = data.get(name)
            items = enumerate(value) if listed and isinstance(value, list) else [(None, value)]
            for k, element in items:
                out += _undeclared(inner, element, f"{where}.{name}" + ("" if k is None else f"[{k}]"))
    return out


def test_the_record_the_referee_writes_is_the_one_the_types_declare(records: dict[str, dict[str, Any]]) -> None:
    from apdp.game.fault import FaultKind
    from apdp.referee.record_format import MatchRecord

    played = []
    for mode in ("plan_wrong_city", "raise_bid"):  # a fault with violations; one with a traceback
        scenario = load_scenario(None, {"tasks": 3, "agents": {"misbehave": {"mode": mode}}})
        played.append(play_match(scenario, ["template", str(ZOO / "misbehave.py")], seed=1).to_json())
        [fault] = played[-1]["result"]["faults"]
        assert fault["kind"] in {k.value for k in FaultKind} and ("violations" in fault or "traceback" in fault)
    for record in (*records.values(), *played):
        typed = MatchRecord.read(record)
        assert _undeclared(MatchRecord, record, "record") == []
        # it reads back as written: the same keys in the same order, ints kept ints
        assert json.dumps(typed.to_json()) == json.dumps(record)


def test_same_seed_same_record(records: dict[str, dict[str, Any]]) -> None:
    again = play_match(load_scenario(None, {"topology": "fr"}), ["template", "template"], seed=7).to_json()
    assert without_timing(again) == without_timing(records["fr"])
    other = play_match(load_scenario(None, {"topology": "fr"}), ["template", "template"], seed=8).to_json()
    assert other["tasks"] != records["fr"]["tasks"]


def test_swapping_companies_keeps_the_task_sequence() -> None:
    scenario = load_scenario(None, {"tasks": 10})
    a = play_match(scenario, ["template", str(ZOO / "misbehave.py")], seed=3).to_json()
    b = play_match(scenario, [str(ZOO / "misbehave.py"), "template"], seed=3).to_json()
    assert a["tasks"] == b["tasks"]
    assert a["agents"] == list(reversed(b["agents"]))


def _corrupt(record: dict[str, Any], change: Any) -> list[str]:
    bad = copy.deepcopy(record)
    change(bad)
    return verify_record(bad)


def _plan_of(record: dict[str, Any], agent: int) -> list[list[Any]]:
    plans: list[list[Any]] = record["plans"][agent]
    return plans


def _first_pickup(record: dict[str, Any], agent: int) -> tuple[int, int]:
    for a, action in enumerate(_plan_of(record, agent)[0]):
        if action[0] == "pickup":
            return a, action[1]
    raise AssertionError("no pickup")


def test_verify_rejects_every_kind_of_corruption(records: dict[str, dict[str, Any]]) -> None:
    rec = records["fr"]
    owner = rec["auctions"][0]["winner"]
    other = 1 - owner
    a, tid = _first_pickup(rec, owner)

    def drop_delivery(r: dict[str, Any]) -> None:
        plan = _plan_of(r, owner)[0]
        plan.remove(["deliver", tid])

    def other_vehicle_delivers(r: dict[str, Any]) -> None:
        _plan_of(r, owner)[0].remove(["deliver", tid])
        _plan_of(r, owner)[1].append(["deliver", tid])

    def deliver_first(r: dict[str, Any]) -> None:
        plan = _plan_of(r, owner)[0]
        d = plan.index(["deliver", tid])
        plan[a], plan[d] = plan[d], plan[a]

    def pickup_elsewhere(r: dict[str, Any]) -> None:
        plan = _plan_of(r, owner)[0]
        plan.insert(a, plan[a + 1] if plan[a + 1][0] == "move" else ["move", "Paris"])

    def move_no_road(r: dict[str, Any]) -> None:
        _plan_of(r, owner)[0].insert(0, ["move", "Monaco"])

    def over_capacity(r: dict[str, Any]) -> None:
        r["companies"][owner]["vehicles"][0]["capacity"] = 0.5

    def foreign_task(r: dict[str, Any]) -> None:
        theirs = next(x["task"] for x in r["auctions"] if x["winner"] == other)
        _plan_of(r, owner)[0].append(["pickup", theirs])

    def picked_twice(r: dict[str, Any]) -> None:
        _plan_of(r, owner)[0].insert(a, ["pickup", tid])

    def unknown_city(r: dict[str, Any]) -> None:
        _plan_of(r, owner)[0].insert(0, ["move", "Atlantis"])

    def unknown_task(r: dict[str, Any]) -> None:
        _plan_of(r, owner)[0].append(["pickup", 999])

    def revenue_off(r: dict[str, Any]) -> None:
        r["result"]["revenue"][0] += 1

    def cost_off(r: dict[str, Any]) -> None:
        r["result"]["cost"][1] -= 5

    def profit_off(r: dict[str, Any]) -> None:
        r["result"]["profit"][0] += 100

    def winner_off(r: dict[str, Any]) -> None:
        w = r["result"]["winner"]
        r["result"]["winner"] = 1 - w if w is not None else 0

    def not_lowest(r: dict[str, Any]) -> None:
        r["auctions"][0]["winner"] = other

    cases = {
        drop_delivery: f"task {tid} picked up but never delivered",
        other_vehicle_delivers: f"task {tid} delivered by vehicle 1 but picked up by vehicle 0",
        deliver_first: f"task {tid} delivered before it was picked up",
        pickup_elsewhere: f"task {tid} picked up in",
        move_no_road: "follows no road",
        over_capacity: "exceeds capacity 0.5",
        foreign_task: "is a task of another company",
        picked_twice: f"task {tid} picked up twice",
        unknown_city: "move to unknown city 'Atlantis'",
        unknown_task: "task 999 is an unknown task",
        revenue_off: "result.revenue of agent 0",
        cost_off: "result.cost of agent 1",
        profit_off: "result.profit of agent 0",
        winner_off: "result.winner is",
        not_lowest: "auction 0 (task 0): won by agent",
    }
    for change, words in cases.items():
        problems = _corrupt(rec, change)
        assert any(words in p for p in problems), (change.__name__, problems)


def test_verify_reports_shape_errors_without_crashing(records: dict[str, dict[str, Any]]) -> None:
    assert _corrupt(records["ch"], lambda r: r.pop("auctions"))[0].startswith("auctions:")
    assert _corrupt(records["ch"], lambda r: r.__setitem__("topology", "mars"))[0].startswith("topology:")
    assert any("unknown city 'Oz'" in p for p in _corrupt(records["ch"], lambda r: r["tasks"][0].__setitem__(
        "pickup", "Oz")))


def test_agent_parameters_from_registry_file_and_scenario(tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "echo_param.py").write_text(
        "from apdp import Agent\n"
        "class EchoParam(Agent):\n"
        "    def bid(self, task):\n"
        "        return self.param('price', 1.0)\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    (tmp_path / "params.toml").write_text("[echo-param]\nprice = 7\n")
    monkeypatch.setenv("APDP_AGENTS", str(tmp_path))
    scenario = load_scenario(None, {"tasks": 1})
    record = play_match(scenario, ["echo-param", "template"], seed=1).to_json()
    assert record["auctions"][0]["bids"][0] == 7.0
    scenario = load_scenario(None, {"tasks": 1, "agents": {"EchoParam": {"price": 9.5}}})
    record = play_match(scenario, ["echo_param", "template"], seed=1).to_json()
    assert record["auctions"][0]["bids"][0] == 9.5
