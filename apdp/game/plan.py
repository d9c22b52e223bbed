"""Plans: what each vehicle does, their cost, and the validity rules the referee applies.

A vehicle's plan is a list of actions starting at its home city: ``Move(city)`` to a neighbouring
city, ``Pickup(task_id)`` in the task's pickup city, ``Deliver(task_id)`` in its delivery city.
An agent returns one such list per vehicle. ``plan_from_stops`` writes one from a list of stops,
filling in the moves along shortest paths; ``check_plans`` is the exact check the referee runs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from apdp.game.company import Vehicle
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.text import valid_unicode


@dataclass(frozen=True, slots=True)
class Move:
    """Drive to a neighbouring city."""

    city: str

    def to_json(self) -> list[object]:
        return ["move", self.city]


@dataclass(frozen=True, slots=True)
class Pickup:
    """Pick up a task (by id) in its pickup city."""

    task: int

    def to_json(self) -> list[object]:
        return ["pickup", self.task]


@dataclass(frozen=True, slots=True)
class Deliver:
    """Deliver a task (by id) in its delivery city."""

    task: int

    def to_json(self) -> list[object]:
        return ["deliver", self.task]


Action = Move | Pickup | Deliver
#: The longest city name an action read from JSON may give.
MAX_CITY_NAME = 200
#: One vehicle's plan.
VehiclePlan = list[Action]


@dataclass(frozen=True, slots=True)
class Stop:
    """A pickup or a delivery of a task, without the moves around it."""

    kind: Literal["pickup", "deliver"]
    task: Task

    @classmethod
    def pickup(cls, task: Task) -> Stop:
        return cls("pickup", task)

    @classmethod
    def deliver(cls, task: Task) -> Stop:
        return cls("deliver", task)

    @property
    def city(self) -> str:
        """Where the stop happens."""
        return self.task.pickup if self.kind == "pickup" else self.task.delivery


def plan_from_stops(topology: Topology, vehicle: Vehicle, stops: Iterable[Stop]) -> VehiclePlan:
    """The vehicle's plan that visits ``stops`` in order, moving along shortest paths."""
    plan: VehiclePlan = []
    here = vehicle.home
    for stop in stops:
        for city in topology.path(here, stop.city)[1:]:
            plan.append(Move(city))
        here = stop.city
        plan.append(Pickup(stop.task.id) if stop.kind == "pickup" else Deliver(stop.task.id))
    return plan


def stops_cost(topology: Topology, vehicle: Vehicle, stops: Iterable[Stop]) -> float:
    """Cost of visiting ``stops`` in order along shortest paths from the vehicle's home."""
    km = 0.0
    here = vehicle.home
    for stop in stops:
        km += topology.distance(here, stop.city)
        here = stop.city
    return km * vehicle.cost_per_km


def plan_distance(topology: Topology, vehicle: Vehicle, plan: Sequence[Action]) -> float:
    """Kilometres driven by a plan; a move along no road counts its shortest distance."""
    km = 0.0
    here = vehicle.home
    for action in plan:
        if isinstance(action, Move) and action.city in topology:
            if here in topology:
                km += topology.distance(here, action.city)
            here = action.city
    return km


def plan_cost(topology: Topology, vehicle: Vehicle, plan: Sequence[Action]) -> float:
    """Cost of one vehicle's plan: kilometres driven x cost per km."""
    return plan_distance(topology, vehicle, plan) * vehicle.cost_per_km


def company_cost(
    topology: Topology, vehicles: Sequence[Vehicle], plans: Sequence[Sequence[Action]]
) -> float:
    """Total cost of a company's plans, summed in vehicle order."""
    return sum(
        (plan_cost(topology, v, p) for v, p in zip(vehicles, plans, strict=False)), start=0.0
    )


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule in a plan: which vehicle, which action, which task, and what is wrong."""

    vehicle: int | None
    action: int | None
    task: int | None
    message: str

    def to_json(self) -> dict[str, object]:
        """The violation as kept in a fault of the record."""
        return {"vehicle": self.vehicle, "action": self.action, "task": self.task, "message": self.message}

    def __str__(self) -> str:
        where = []
        if self.vehicle is not None:
            where.append(f"vehicle {self.vehicle}")
        if self.action is not None:
            where.append(f"action {self.action}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


def check_plans(
    topology: Topology,
    vehicles: Sequence[Vehicle],
    plans: Sequence[Sequence[Action]],
    won: Collection[Task],
    known: Mapping[int, Task] | None = None,
    *,
    cities: bool = True,
) -> list[Violation]:
    """Every violation of the plan rules; an empty list means the plans are valid.

    ``won`` are the company's tasks, ``known`` every task of the match (to tell a task of another
    company from an unknown one). Rules: one plan per vehicle; each move follows a road; each won
    task is picked up in its pickup city and delivered in its delivery city exactly once, by the
    same vehicle, pickup first; the load never exceeds the capacity; no other task appears. Without
    ``cities``, the Logist platform's check: where a task is picked up and delivered is not checked
    (its plan verifier never looks; the moves are charged all the same).
    """
    won_by_id = {t.id: t for t in won}
    check = _PlanCheck(topology, won_by_id, known if known is not None else won_by_id, cities)
    if len(plans) != len(vehicles):
        check.out.append(
            Violation(None, None, None, f"expected {len(vehicles)} vehicle plans, got {len(plans)}")
        )
    for v, (vehicle, plan) in enumerate(zip(vehicles, plans, strict=False)):
        check.vehicle(v, vehicle, plan)
    for tid in sorted(won_by_id):
        if tid not in check.picked_by and tid not in check.delivered_by:
            check.out.append(Violation(None, None, tid, f"won task {tid} is never picked up nor delivered"))
    return check.out


@dataclass(slots=True)
class _PlanCheck:
    """One company's plans checked vehicle by vehicle: the violations found, and which vehicle
    picked up and delivered each task."""

    topology: Topology
    won: dict[int, Task]
    known: Mapping[int, Task]
    cities: bool
    out: list[Violation] = field(default_factory=list)
    picked_by: dict[int, int] = field(default_factory=dict)
    delivered_by: dict[int, int] = field(default_factory=dict)

    def vehicle(self, v: int, vehicle: Vehicle, plan: Sequence[Action]) -> None:
        """Check vehicle ``v``'s plan, action by action, from its home and empty."""
        here = vehicle.home
        load = 0.0
        carrying: set[int] = set()
        for a, action in enumerate(plan):
            if isinstance(action, Move):
                here = self.move(v, a, here, action.city)
                continue
            if not isinstance(action, Pickup | Deliver):
                self.out.append(Violation(v, a, None, f"unknown action {action!r}"))
                continue
            tid = action.task
            task = self.won.get(tid)
            if task is None:
                whose = "a task of another company" if tid in self.known else "an unknown task"
                self.out.append(Violation(v, a, tid, f"task {tid} is {whose}"))
            elif isinstance(action, Pickup):
                load = self.pickup(v, a, vehicle, task, here, load, carrying)
            else:
                load = self.deliver(v, a, task, here, load, carrying)
        for tid in sorted(carrying):
            if self.delivered_by.get(tid) is None:
                self.out.append(Violation(v, None, tid, f"task {tid} picked up but never delivered"))

    def move(self, v: int, a: int, here: str, city: str) -> str:
        """Where vehicle ``v`` is after action ``a``, a move from ``here`` to ``city``."""
        if city not in self.topology:
            self.out.append(Violation(v, a, None, f"move to unknown city {city!r}"))
            return here
        if self.topology.road_length(here, city) is None:
            self.out.append(Violation(v, a, None, f"move from {here} to {city} follows no road"))
        return city

    def pickup(self, v: int, a: int, vehicle: Vehicle, task: Task, here: str, load: float, carrying: set[int]) -> float:
        """The vehicle's load after action ``a``, picking up ``task`` in ``here``."""
        tid = task.id
        if tid in self.picked_by:
            self.out.append(Violation(v, a, tid, f"task {tid} picked up twice"))
            return load
        self.picked_by[tid] = v
        if self.cities and here != task.pickup:
            self.out.append(Violation(v, a, tid, f"task {tid} picked up in {here}, not in {task.pickup}"))
        carrying.add(tid)
        load += task.weight
        if load > vehicle.capacity + 1e-9:
            self.out.append(Violation(
                v, a, tid, f"load {load:g} exceeds capacity {vehicle.capacity:g} after picking up task {tid}"
            ))
        return load

    def deliver(self, v: int, a: int, task: Task, here: str, load: float, carrying: set[int]) -> float:
        """The vehicle's load after action ``a``, delivering ``task`` in ``here``."""
        tid = task.id
        if tid in self.delivered_by:
            self.out.append(Violation(v, a, tid, f"task {tid} delivered twice"))
            return load
        self.delivered_by[tid] = v
        if tid not in carrying:
            if tid in self.picked_by and self.picked_by[tid] != v:
                msg = f"task {tid} delivered by vehicle {v} but picked up by vehicle {self.picked_by[tid]}"
            else:
                msg = f"task {tid} delivered before it was picked up"
            self.out.append(Violation(v, a, tid, msg))
            return load
        if self.cities and here != task.delivery:
            self.out.append(Violation(v, a, tid, f"task {tid} delivered in {here}, not in {task.delivery}"))
        carrying.discard(tid)
        return load - task.weight


def action_from_json(item: object) -> Action:
    """Parse ``["move", city]``, ``["pickup", id]`` or ``["deliver", id]``; ValueError otherwise."""
    if not isinstance(item, list | tuple) or len(item) != 2:
        raise ValueError(f"an action must be [kind, argument], got {item!r:.80}")
    kind, arg = item
    if kind == "move":
        if not isinstance(arg, str):
            raise ValueError(f"a move needs a city name, got {arg!r:.80}")
        if len(arg) > MAX_CITY_NAME:
            raise ValueError(f"a city name of {len(arg)} characters (at most {MAX_CITY_NAME})")
        return Move(valid_unicode(arg))
    if kind in ("pickup", "deliver"):
        if not isinstance(arg, int) or isinstance(arg, bool):
            raise ValueError(f"a {kind} needs a task id, got {arg!r:.80}")
        return Pickup(arg) if kind == "pickup" else Deliver(arg)
    raise ValueError(f"unknown action kind {kind!r:.40} (use move, pickup or deliver)")


def plans_from_json(data: object) -> list[VehiclePlan]:
    """Parse a company's plans from their JSON form; ValueError naming the bad item otherwise."""
    if not isinstance(data, list):
        raise ValueError(f"plans must be a list of vehicle plans, got {type(data).__name__}")
    out: list[VehiclePlan] = []
    for v, plan in enumerate(data):
        if not isinstance(plan, list):
            raise ValueError(f"vehicle {v}: a plan must be a list of actions")
        actions: VehiclePlan = []
        for a, item in enumerate(plan):
            try:
                actions.append(action_from_json(item))
            except ValueError as exc:
                raise ValueError(f"vehicle {v}, action {a}: {exc}") from None
        out.append(actions)
    return out


def plans_to_json(plans: Sequence[Sequence[Action]]) -> list[list[list[object]]]:
    """A company's plans in the record format."""
    return [[a.to_json() for a in plan] for plan in plans]


def checked_action(action: object, where: str) -> Action | str:
    """An agent's action as the game's (a task id of numpy's made an int), or what is wrong with it,
    ``where`` naming the place (a vehicle's plan, an act's answer)."""
    if isinstance(action, Move) and isinstance(action.city, str):
        return action
    if isinstance(action, Pickup | Deliver):
        tid = action.task
        name = type(action).__name__
        if isinstance(tid, Task):
            return f"{where}: {name} takes a task id; write {name}(task.id)"
        if not isinstance(tid, int | np.integer) or isinstance(tid, bool):
            return f"{where}: task id must be an int, got {tid!r:.40}"
        return type(action)(int(tid))
    return f"{where}: expected Move(city), Pickup(task.id) or Deliver(task.id), got {action!r:.60}"
