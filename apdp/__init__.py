"""apdp: the Auction, Pickup and Delivery Problem simulator and tournament runner."""

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
