"""Schema versions of match records (the ``schema`` field; the versions and the rules for earlier
records: apdp.tournament.migrations): a record of each earlier shape verifies and replays; a record
of a newer schema is one line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from apdp import Stop, Task, Vehicle, plan_from_stops
from apdp.check.verify import UnreadableRecord, read_record, verify_record
from apdp.game.company import Company
from apdp.game.plan import plans_to_json
from apdp.game.topology import parse_topology
from apdp.pages.replay import replay_html
from apdp.referee.record import (
    RECORD_FORMAT,
    RECORD_SCHEMA,
    SETTLEMENT,
    record_schema,
    record_topology,
    referee_error_record,
    settle,
)
from apdp.referee.record_format import MatchRecord

#: A network no apdp ships, in the form of a topology file (apdp 0.1's records embed it so).
ROUTES = {"name": "hamlets", "cities": [{"name": "A", "x": 0, "y": 0}, {"name": "B", "x": 3, "y": 4},
                                        {"name": "C", "x": 6, "y": 0}],
          "routes": [{"from": "A", "to": "B", "distance": 5.0}, {"from": "B", "to": "C", "distance": 5.0}]}


def a_record(shape: str) -> dict[str, Any]:
    """A whole record of ``shape``: "0.1" (no ``settlement``, a network of ``routes``), "unversioned"
    (with ``settlement``, a network of this apdp's form, no ``schema``) or "current"."""
    topology = parse_topology(ROUTES, "test network")
    companies = [Company("X", (Vehicle("x", "A", 10, 5),)), Company("Y", (Vehicle("y", "C", 10, 3),))]
    t0, t1 = Task(0, "A", "B", 1), Task(1, "C", "B", 1)
    plans = [plan_from_stops(topology, companies[0].vehicles[0], [Stop.pickup(t0), Stop.deliver(t0)]),
             plan_from_stops(topology, companies[1].vehicles[0], [Stop.pickup(t1), Stop.deliver(t1)])]
    record: dict[str, Any] = {"format": RECORD_FORMAT}
    if shape == "current":
        record["schema"] = RECORD_SCHEMA
    record |= {
        "topology": "hamlets", "seed": 7, "agents": ["x", "y"],
        "companies": [c.to_json() for c in companies], "tasks": [t0.to_json(), t1.to_json()],
        "auctions": [{"task": 0, "bids": [1000, 3000], "winner": 0},
                     {"task": 1, "bids": [2500, 2000], "winner": 1}],
    }
    if shape != "0.1":
        record["settlement"] = SETTLEMENT
    record["network"] = copy.deepcopy(ROUTES) if shape == "0.1" else topology.to_json()
    record["plans"] = [plans_to_json([plans[0]]), plans_to_json([plans[1]])]
    record["result"] = settle(record, topology, companies, [])
    return record


@pytest.mark.parametrize("shape", ["0.1", "unversioned", "current"])
def test_a_record_of_each_shape_verifies_and_replays(shape: str, tmp_path: Path) -> None:
    record = a_record(shape)
    assert record_schema(record) == (RECORD_SCHEMA if shape == "current" else 1)
    assert verify_record(record) == []
    assert record_topology(record).distance("A", "C") == 10.0
    assert "<html" in replay_html(record).lower()
    (tmp_path / "r.json").write_text(json.dumps(record))
    assert read_record(tmp_path / "r.json") == record
    assert MatchRecord.read(record).to_json() == record  # read and written again as it was


def test_the_referee_writes_the_current_schema_beside_the_format() -> None:
    record = referee_error_record("france", 1, ["a", "b"], "worker died")
    assert list(record)[:2] == ["format", "schema"] and record["schema"] == RECORD_SCHEMA


@pytest.mark.parametrize("schema", [RECORD_SCHEMA + 1, 0, "2", True])
def test_a_record_of_a_schema_this_apdp_does_not_know_is_one_line(schema: object, tmp_path: Path) -> None:
    record = a_record("current") | {"schema": schema}
    problems = verify_record(record)
    assert len(problems) == 1 and "\n" not in problems[0]
    (tmp_path / "r.json").write_text(json.dumps(record))
    with pytest.raises(UnreadableRecord) as err:
        read_record(tmp_path / "r.json")
    assert "\n" not in str(err.value)
    if schema == RECORD_SCHEMA + 1:
        assert f"newer apdp (record schema {schema}" in str(err.value) and "upgrade apdp" in problems[0]
