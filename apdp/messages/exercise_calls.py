"""The calls the referee makes on an agent of the course's other exercises, one frozen type each.

As the auction's (:mod:`apdp.messages.calls`): the Python worker receives them as they are; an agent
program receives their :meth:`to_json` form, one JSON line (``apdp-agent/1``, ``docs/protocol.md``),
read back by :func:`exercise_call_from_json`. Each names the reply it expects.

========================  =================================================  ===================
call                      when (the Logist platform's rule)                  reply
========================  =================================================  ===================
``setup`` + ``exercise``  once, before the round                             ``{"ok": true}``
``act``                   reactive: vehicle 0 has nothing to do              ``{"action": a}``
``plan`` + ``vehicle``    deliberative: first action request, after a       ``{"plan": [a...]}``
                          cancellation
``plan_cancelled``        deliberative: a pickup found its task taken        ``{"ok": true}``
``plan`` + ``vehicles``   centralized: first action request                  ``{"plans": [[a]]}``
========================  =================================================  ===================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from apdp.game.company import Company
from apdp.game.exercise import ExerciseDistribution, ExerciseVehicle
from apdp.game.exercise_agent import ExerciseKind
from apdp.game.task import Task
from apdp.game.topology import Topology, TopologyError, network_from_json
from apdp.messages.exercise_replies import exercise_distribution_from_json, exercise_vehicle_from_json
from apdp.messages.replies import Expected
from apdp.messages.strict import BadMessage, integer, keys, listing, mapping, number
from apdp.messages.values import company_from_json, task_from_json
from apdp.messages.version import PROTOCOL

KINDS: tuple[ExerciseKind, ...] = ("reactive", "deliberative", "centralized")


@dataclass(frozen=True, slots=True)
class ExerciseSetupCall:
    """Everything an exercise agent is told before the round (the auction's setup, with the
    ``exercise`` it plays and the exercise's distribution). ``path``: the agent's file, for the worker."""

    name: ClassVar[str] = "setup"
    expects: ClassVar[Expected] = "setup"

    exercise: ExerciseKind
    agent_id: int
    agents: int
    seed: int
    params: Mapping[str, Any]
    #: Seconds: ``setup`` (construction and setup) and ``plan`` (each act, plan and plan_cancelled).
    timeouts: Mapping[str, float]
    topology: Topology
    distribution: ExerciseDistribution
    company: Company
    path: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"type": "setup", "protocol": PROTOCOL, "exercise": self.exercise, "rules": "logist",
                "agent_id": self.agent_id, "agents": self.agents, "seed": self.seed, "params": dict(self.params),
                "timeouts": dict(self.timeouts), "topology": self.topology.to_json(),
                "distribution": self.distribution.to_json(), "company": self.company.to_json()}


@dataclass(frozen=True, slots=True)
class ActionCall:
    """Reactive ``act(vehicle, availableTask)``: the task offered in the vehicle's city (id 0), or None."""

    name: ClassVar[str] = "act"
    expects: ClassVar[Expected] = "action"

    vehicle: ExerciseVehicle
    task: Task | None
    timeout: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "act", "vehicle": self.vehicle.to_json(),
                "task": None if self.task is None else self.task.to_json(), "timeout": self.timeout}


@dataclass(frozen=True, slots=True)
class VehiclePlanCall:
    """Deliberative ``plan(vehicle, tasks)``: the tasks nobody has picked up yet (the vehicle's own
    carried tasks are in ``vehicle.carried``)."""

    name: ClassVar[str] = "plan"
    expects: ClassVar[Expected] = "route"

    vehicle: ExerciseVehicle
    tasks: tuple[Task, ...]
    timeout: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "plan", "vehicle": self.vehicle.to_json(), "tasks": [t.to_json() for t in self.tasks],
                "timeout": self.timeout}


@dataclass(frozen=True, slots=True)
class PlanCancelledCall:
    """Deliberative ``planCancelled(carriedTasks)``: ``vehicle.carried``; ``tasks`` are the tasks
    left for everybody (the agent's task set at that moment)."""

    name: ClassVar[str] = "plan_cancelled"
    expects: ClassVar[Expected] = "ack"

    vehicle: ExerciseVehicle
    tasks: tuple[Task, ...]
    timeout: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "plan_cancelled", "vehicle": self.vehicle.to_json(),
                "tasks": [t.to_json() for t in self.tasks], "timeout": self.timeout}


@dataclass(frozen=True, slots=True)
class FleetPlanCall:
    """Centralized ``plan(vehicles, tasks)``: every vehicle of the company, the whole batch."""

    name: ClassVar[str] = "plan"
    expects: ClassVar[Expected] = "plan"

    vehicles: tuple[ExerciseVehicle, ...]
    tasks: tuple[Task, ...]
    timeout: float

    def to_json(self) -> dict[str, Any]:
        return {"type": "plan", "vehicles": [v.to_json() for v in self.vehicles],
                "tasks": [t.to_json() for t in self.tasks], "timeout": self.timeout}


ExerciseCall = ExerciseSetupCall | ActionCall | VehiclePlanCall | PlanCancelledCall | FleetPlanCall


def _setup_from_json(obj: Mapping[str, Any]) -> ExerciseSetupCall:
    keys(obj, {"type", "protocol", "exercise", "rules", "agent_id", "agents", "seed", "params", "timeouts",
               "topology", "distribution", "company"}, set(), "an exercise's setup call")
    if obj["protocol"] != PROTOCOL:
        raise BadMessage(f"protocol {str(obj['protocol'])[:40]!r}, expected {PROTOCOL!r}")
    exercise = next((k for k in KINDS if k == obj["exercise"]), None)
    if exercise is None:
        raise BadMessage(f"exercise must be one of {', '.join(KINDS)}, got {str(obj['exercise'])[:40]!r}")
    try:
        topology = network_from_json(obj["topology"], "the setup call's topology")
    except TopologyError as exc:
        raise BadMessage(str(exc)) from None
    timeouts = {str(k): number(v, f"timeout {k}") for k, v in mapping(obj["timeouts"], "timeouts").items()}
    return ExerciseSetupCall(
        exercise, integer(obj["agent_id"], "agent_id"), integer(obj["agents"], "agents"), integer(obj["seed"], "seed"),
        dict(mapping(obj["params"], "params")), timeouts, topology,
        exercise_distribution_from_json(obj["distribution"], tuple(topology.cities)),
        company_from_json(obj["company"]),
    )


def _tasks(value: object) -> tuple[Task, ...]:
    return tuple(task_from_json(t) for t in listing(value, "tasks"))


def exercise_call_from_json(value: object) -> ExerciseCall:
    """The exercise call of a request's :meth:`to_json` form; BadMessage says how it breaks the protocol."""
    obj = mapping(value, "a call")
    kind = obj.get("type")
    if kind == "setup":
        return _setup_from_json(obj)
    timeout = number(obj.get("timeout"), "timeout")
    if kind == "act":
        keys(obj, {"type", "vehicle", "task", "timeout"}, set(), "an act call")
        task = None if obj["task"] is None else task_from_json(obj["task"])
        return ActionCall(exercise_vehicle_from_json(obj["vehicle"]), task, timeout)
    if kind == "plan_cancelled":
        keys(obj, {"type", "vehicle", "tasks", "timeout"}, set(), "a plan_cancelled call")
        return PlanCancelledCall(exercise_vehicle_from_json(obj["vehicle"]), _tasks(obj["tasks"]), timeout)
    if kind == "plan" and "vehicle" in obj:
        keys(obj, {"type", "vehicle", "tasks", "timeout"}, set(), "a deliberative plan call")
        return VehiclePlanCall(exercise_vehicle_from_json(obj["vehicle"]), _tasks(obj["tasks"]), timeout)
    if kind == "plan":
        keys(obj, {"type", "vehicles", "tasks", "timeout"}, set(), "a centralized plan call")
        vehicles = tuple(exercise_vehicle_from_json(v) for v in listing(obj["vehicles"], "vehicles"))
        return FleetPlanCall(vehicles, _tasks(obj["tasks"]), timeout)
    raise BadMessage(f"unknown exercise call {str(kind)[:40]!r}")
