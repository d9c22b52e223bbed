"""One vehicle's schedule and the study's greedy insertion of a task into it.

A schedule is an ordered list of stops (the pickup or the delivery of a task), driven from the
vehicle's home along shortest paths. Its cost is added up as the Logist platform's test agents add
it, so that bids match theirs to the unit: leg after leg, the leg's km times the vehicle's cost per
km, summed in order in floating point, with the platform's distances (shortest paths on integer
units of km x 1000, divided by 1000: :func:`apdp.logist.distances.platform_distances`). Summing the km
first, or apdp's own float distances, move a truncated bid by one now and then, and change an
insertion choice where two positions tie.

Greedy insertion of a task: first its pickup alone, at the position 0..n giving the lowest schedule
cost among the positions where the running load (plus the weight at each pickup, minus it at each
delivery, over the whole list) never exceeds the capacity; a later position replaces the best only
if strictly cheaper; when no position fits, the first candidate is taken anyway. Then its delivery,
the same way, at a position after the pickup.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence

from apdp.game.company import Vehicle
from apdp.game.plan import Stop, VehiclePlan, plan_from_stops
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.logist.distances import platform_distances

_PLATFORM_KM: weakref.WeakKeyDictionary[Topology, list[list[float]]] = weakref.WeakKeyDictionary()


def platform_km(topology: Topology) -> list[list[float]]:
    """The network's shortest distances as the platform measures them (computed once a network)."""
    km = _PLATFORM_KM.get(topology)
    if km is None:
        km = _PLATFORM_KM[topology] = platform_distances(topology)
    return km


class Schedule:
    """A vehicle's stops in the order it drives to them."""

    def __init__(self, topology: Topology, vehicle: Vehicle, stops: Iterable[Stop] = ()) -> None:
        self.topology = topology
        self.vehicle = vehicle
        self.stops: list[Stop] = list(stops)

    def copy(self) -> Schedule:
        """An independent schedule with the same stops."""
        return Schedule(self.topology, self.vehicle, self.stops)

    @property
    def cost(self) -> float:
        """Cost of driving the schedule."""
        return self.cost_of(self.stops)

    def cost_of(self, stops: Sequence[Stop]) -> float:
        """Cost of driving ``stops`` in order from the vehicle's home: the sum, leg after leg, of
        the leg's km x cost per km (see the module doc)."""
        km, index = platform_km(self.topology), self.topology.index
        per_km = float(self.vehicle.cost_per_km)
        here = index[self.vehicle.home]
        cost = 0.0
        for stop in stops:
            there = index[stop.city]
            cost += km[here][there] * per_km
            here = there
        return cost

    def fits(self, stops: Sequence[Stop]) -> bool:
        """True when the running load of ``stops`` never exceeds the vehicle's capacity."""
        load = 0.0
        for stop in stops:
            load += stop.task.weight if stop.kind == "pickup" else -stop.task.weight
            if load > self.vehicle.capacity:
                return False
        return True

    def can_carry(self, task: Task) -> bool:
        """True when the task alone fits in the vehicle."""
        return task.weight <= self.vehicle.capacity

    def tasks(self) -> list[Task]:
        """The tasks in the schedule, in the order of their pickups."""
        return [stop.task for stop in self.stops if stop.kind == "pickup"]

    def position_for(self, stops: Sequence[Stop], stop: Stop, first: int) -> int:
        """Where greedy insertion puts ``stop`` into ``stops``: a position from ``first`` on.

        The cheapest position whose list fits the capacity, the earliest on equal cost; ``first``
        when none fits.
        """
        best, best_cost = first, 0.0
        found = False
        for position in range(first, len(stops) + 1):
            trial = [*stops[:position], stop, *stops[position:]]
            if not self.fits(trial):
                continue
            cost = self.cost_of(trial)
            if not found or cost < best_cost:
                best, best_cost, found = position, cost, True
        return best

    def with_task(self, task: Task) -> list[Stop]:
        """The stops after greedy insertion of ``task`` (the schedule itself is unchanged)."""
        stops = list(self.stops)
        pickup, deliver = Stop.pickup(task), Stop.deliver(task)
        at = self.position_for(stops, pickup, 0)
        stops.insert(at, pickup)
        stops.insert(self.position_for(stops, deliver, at + 1), deliver)
        return stops

    def marginal_cost(self, task: Task) -> float:
        """Cost of the schedule with ``task`` inserted minus its cost without."""
        return self.cost_of(self.with_task(task)) - self.cost

    def insert(self, task: Task) -> None:
        """Insert ``task`` by greedy insertion."""
        self.stops = self.with_task(task)

    def plan(self) -> VehiclePlan:
        """The schedule as the vehicle's plan: its stops with the moves along shortest paths."""
        return plan_from_stops(self.topology, self.vehicle, self.stops)
