"""The settlement of a match: a faulted agent is paid nothing (it delivers nothing); records written
before that rule (no ``settlement`` field) still verify by the rule they were settled by."""

from __future__ import annotations

import copy
from typing import Any

from apdp import Stop, Task, Vehicle, load_topology, plan_from_stops
from apdp.check.verify import verify_record
from apdp.game.company import Company
from apdp.game.fault import Fault, FaultKind
from apdp.game.plan import plans_to_json
from apdp.referee.record import RECORD_FORMAT, SETTLEMENT, settle

FR = load_topology("france")
T0 = Task(0, "Paris", "Lyon", 1)
T1 = Task(1, "Lyon", "Marseille", 1)
COMPANIES = [Company("A", (Vehicle("a", "Paris", 10, 5),)), Company("B", (Vehicle("b", "Lyon", 10, 3),))]
#: Agent 0 wins task 0 for 1000 and faults in its plan; agent 1 wins task 1 for 2000 and delivers it.
FAULTS = [Fault(0, FaultKind.TIMEOUT, "plan", None, "no plans within 2 s")]


def _record(rule: str | None) -> dict[str, Any]:
    plan = plan_from_stops(FR, COMPANIES[1].vehicles[0], [Stop.pickup(T1), Stop.deliver(T1)])
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "topology": "france", "seed": 7, "agents": ["a", "b"],
        "companies": [c.to_json() for c in COMPANIES], "tasks": [T0.to_json(), T1.to_json()],
        "auctions": [{"task": 0, "bids": [1000, 3000], "winner": 0},
                     {"task": 1, "bids": [2500, 2000], "winner": 1}],
        "plans": [None, plans_to_json([plan])],
    }
    if rule is not None:
        record["settlement"] = rule
    record["result"] = settle(record, FR, COMPANIES, FAULTS)
    return record


def test_a_faulted_agent_earns_nothing_it_did_not_deliver() -> None:
    record = _record(SETTLEMENT)
    result = record["result"]
    cost = FR.distance("Lyon", "Marseille") * 3
    assert result["revenue"] == [0.0, 2000.0]
    assert result["cost"] == [0.0, cost]
    assert result["profit"] == [0.0, 2000.0 - cost]
    assert result["winner"] == 1
    assert verify_record(record) == []


def test_verify_checks_the_rule_a_record_names() -> None:
    old = _record(None)  # a record of the previous version: a faulted agent kept its winning bids
    assert old["result"]["revenue"] == [1000.0, 2000.0]
    assert verify_record(old) == []
    inflated = copy.deepcopy(old)
    inflated["settlement"] = SETTLEMENT  # the new rule does not accept the old figures
    assert any("result.revenue of agent 0 is 1000" in p for p in verify_record(inflated))
    unnamed = _record(SETTLEMENT)
    del unnamed["settlement"]  # nor does the old rule accept the new ones
    assert any("result.revenue of agent 0 is 0" in p for p in verify_record(unnamed))
