"""A company's schedules, one per vehicle: pricing a task and placing a won task.

The fleet's marginal cost of a task is the smallest of its vehicles' marginal costs, the vehicles
taken in order, a later one replacing the best only if strictly cheaper; a won task is inserted
into that vehicle. Only vehicles big enough for the task are candidates (the referee rejects a
plan that overloads a vehicle); when none is, every vehicle is, so that a shadow fleet still holds
a task it could not carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apdp.baselines.greedy.schedule import Schedule
from apdp.game.company import Vehicle
from apdp.game.plan import VehiclePlan
from apdp.game.task import Task
from apdp.game.topology import Topology


class GreedyFleet:
    """The schedules of a company's vehicles (or, as a shadow fleet, of a copy of them)."""

    def __init__(self, topology: Topology, vehicles: Sequence[Vehicle]) -> None:
        self.schedules = [Schedule(topology, vehicle) for vehicle in vehicles]

    def copy(self) -> GreedyFleet:
        """An independent fleet with the same schedules."""
        other = GreedyFleet.__new__(GreedyFleet)
        other.schedules = [schedule.copy() for schedule in self.schedules]
        return other

    @property
    def cost(self) -> float:
        """Cost of all the schedules, summed in vehicle order."""
        return sum((schedule.cost for schedule in self.schedules), start=0.0)

    def can_carry(self, task: Task) -> bool:
        """True when some vehicle is big enough for ``task``."""
        return any(schedule.can_carry(task) for schedule in self.schedules)

    def tasks(self) -> list[Task]:
        """Every task in the schedules."""
        return [task for schedule in self.schedules for task in schedule.tasks()]

    def cheapest(self, task: Task) -> tuple[int, float]:
        """The vehicle (its index) with the smallest marginal cost of ``task``, and that cost."""
        candidates = [k for k, s in enumerate(self.schedules) if s.can_carry(task)]
        best_vehicle, best_cost = -1, 0.0
        for k in candidates or range(len(self.schedules)):
            cost = self.schedules[k].marginal_cost(task)
            if best_vehicle < 0 or cost < best_cost:
                best_vehicle, best_cost = k, cost
        return best_vehicle, best_cost

    def marginal_cost(self, task: Task) -> float:
        """The fleet's marginal cost of ``task``: the smallest over its vehicles."""
        return self.cheapest(task)[1]

    def add(self, task: Task) -> None:
        """Insert a won task into the vehicle with the smallest marginal cost."""
        vehicle, _ = self.cheapest(task)
        self.schedules[vehicle].insert(task)

    def add_all(self, tasks: Iterable[Task]) -> None:
        """Add tasks one after the other."""
        for task in tasks:
            self.add(task)

    def plans(self) -> list[VehiclePlan]:
        """Each vehicle's schedule as it stands, expanded into moves."""
        return [schedule.plan() for schedule in self.schedules]
