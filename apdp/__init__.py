"""apdp: the Auction, Pickup and Delivery Problem simulator and tournament runner.

The names below are imported on first use (``apdp.Agent`` loads :mod:`apdp.agent`), so that
``import apdp.cli`` and a subcommand's start stay quick: numpy, pydantic and networkx load only
where they are needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apdp.agent import Agent
    from apdp.company import Company, Vehicle
    from apdp.deadline import Deadline
    from apdp.distribution import TaskDistribution
    from apdp.fault import Fault, FaultKind
    from apdp.plan import (
        Action,
        Deliver,
        Move,
        Pickup,
        Stop,
        Violation,
        check_plans,
        plan_cost,
        plan_from_stops,
        stops_cost,
    )
    from apdp.task import Task
    from apdp.topology import Topology, load_topology

#: Where each public name lives.
_HOMES = {
    "Agent": "apdp.agent",
    "Company": "apdp.company",
    "Vehicle": "apdp.company",
    "Deadline": "apdp.deadline",
    "TaskDistribution": "apdp.distribution",
    "Fault": "apdp.fault",
    "FaultKind": "apdp.fault",
    "Action": "apdp.plan",
    "Deliver": "apdp.plan",
    "Move": "apdp.plan",
    "Pickup": "apdp.plan",
    "Stop": "apdp.plan",
    "Violation": "apdp.plan",
    "check_plans": "apdp.plan",
    "plan_cost": "apdp.plan",
    "plan_from_stops": "apdp.plan",
    "stops_cost": "apdp.plan",
    "Task": "apdp.task",
    "Topology": "apdp.topology",
    "load_topology": "apdp.topology",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'apdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "Action",
    "Agent",
    "Company",
    "Deadline",
    "Deliver",
    "Fault",
    "FaultKind",
    "Move",
    "Pickup",
    "Stop",
    "Task",
    "TaskDistribution",
    "Topology",
    "Vehicle",
    "Violation",
    "check_plans",
    "load_topology",
    "plan_cost",
    "plan_from_stops",
    "stops_cost",
]
