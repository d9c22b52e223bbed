"""apdp: the Auction, Pickup and Delivery Problem simulator and tournament runner.

The names below are imported on first use (``apdp.Agent`` loads :mod:`apdp.game.agent`), so that
``import apdp.cli`` and a subcommand's start stay quick: numpy, pydantic and networkx load only
where they are needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apdp.game.agent import Agent
    from apdp.game.company import Company, Vehicle
    from apdp.game.deadline import Deadline
    from apdp.game.distribution import TaskDistribution
    from apdp.game.exercise import ExerciseDistribution, ExerciseVehicle
    from apdp.game.exercise_agent import CentralizedAgent, DeliberativeAgent, ReactiveAgent
    from apdp.game.fault import Fault, FaultKind
    from apdp.game.plan import (
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
    from apdp.game.task import Task
    from apdp.game.topology import Topology
    from apdp.scenario.networks import load_topology

#: Where each public name lives.
_HOMES = {
    "Agent": "apdp.game.agent",
    "Company": "apdp.game.company",
    "Vehicle": "apdp.game.company",
    "Deadline": "apdp.game.deadline",
    "TaskDistribution": "apdp.game.distribution",
    "ExerciseDistribution": "apdp.game.exercise",
    "ExerciseVehicle": "apdp.game.exercise",
    "ReactiveAgent": "apdp.game.exercise_agent",
    "DeliberativeAgent": "apdp.game.exercise_agent",
    "CentralizedAgent": "apdp.game.exercise_agent",
    "Fault": "apdp.game.fault",
    "FaultKind": "apdp.game.fault",
    "Action": "apdp.game.plan",
    "Deliver": "apdp.game.plan",
    "Move": "apdp.game.plan",
    "Pickup": "apdp.game.plan",
    "Stop": "apdp.game.plan",
    "Violation": "apdp.game.plan",
    "check_plans": "apdp.game.plan",
    "plan_cost": "apdp.game.plan",
    "plan_from_stops": "apdp.game.plan",
    "stops_cost": "apdp.game.plan",
    "Task": "apdp.game.task",
    "Topology": "apdp.game.topology",
    "load_topology": "apdp.scenario.networks",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":  # the installed package's (its metadata), as ``apdp --version`` says
        from apdp.agents.identity import apdp_version

        return apdp_version()
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
    "CentralizedAgent",
    "Company",
    "Deadline",
    "DeliberativeAgent",
    "Deliver",
    "ExerciseDistribution",
    "ExerciseVehicle",
    "Fault",
    "FaultKind",
    "Move",
    "Pickup",
    "ReactiveAgent",
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
