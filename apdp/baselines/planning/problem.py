"""The planning problem: one company's fleet on a network, and the tasks it may carry.

Hot loops work on integers: cities are indices into ``dist`` (a list of lists of kilometres) and
each task gets a *slot*; a stop is a code ``2 * slot`` (pickup) or ``2 * slot + 1`` (delivery), and
``stop_city[code]`` / ``stop_load[code]`` give the stop's city and the load change it causes.
Slots are only ever added, so solutions of one problem can hold different sets of tasks (the plan
of the tasks won so far, the same plan with the task on auction).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apdp.game.company import Vehicle
from apdp.game.task import Task
from apdp.game.topology import Topology

#: Tolerance on capacity checks, the referee's own.
CAPACITY_SLACK = 1e-9


class TaskTooHeavy(ValueError):
    """A task weighs more than the capacity of every vehicle of the fleet: no plan can carry it."""


class Problem:
    """A fleet on a network and an append-only table of tasks (see the module docstring)."""

    def __init__(
        self, topology: Topology, vehicles: Sequence[Vehicle], tasks: Iterable[Task] = ()
    ) -> None:
        if not vehicles:
            raise ValueError("a fleet needs at least one vehicle")
        self.topology = topology
        self.vehicles: tuple[Vehicle, ...] = tuple(vehicles)
        #: Shortest distances between city indices (roads are undirected: it is symmetric).
        self.dist: list[list[float]] = [list(row) for row in topology.distances]
        self.homes: list[int] = [topology.index[v.home] for v in self.vehicles]
        self.capacities: list[float] = [float(v.capacity) for v in self.vehicles]
        self.costs_per_km: list[float] = [float(v.cost_per_km) for v in self.vehicles]
        self.max_capacity = max(self.capacities)
        self.tasks: list[Task] = []
        self.stop_city: list[int] = []
        self.stop_load: list[float] = []
        self._slot_of: dict[int, int] = {}
        for task in tasks:
            self.slot(task)

    @property
    def vehicle_count(self) -> int:
        """Number of vehicles of the fleet."""
        return len(self.vehicles)

    def can_carry(self, task: Task) -> bool:
        """True when some vehicle of the fleet is big enough for ``task``."""
        return task.weight <= self.max_capacity + CAPACITY_SLACK

    def slot_of(self, task_id: int) -> int | None:
        """The slot of the task with this id, or None if the problem has not seen it."""
        return self._slot_of.get(task_id)

    def slot(self, task: Task) -> int:
        """The slot of ``task`` (by id), added on first sight; TaskTooHeavy if no vehicle fits it."""
        found = self._slot_of.get(task.id)
        if found is not None:
            return found
        if not self.can_carry(task):
            raise TaskTooHeavy(
                f"task {task.id} weighs {task.weight:g}, more than the largest capacity "
                f"({self.max_capacity:g}) of the fleet"
            )
        index = self.topology.index
        if task.pickup not in index or task.delivery not in index:
            raise ValueError(f"task {task.id}: unknown city in {task.pickup} -> {task.delivery}")
        s = len(self.tasks)
        self.tasks.append(task)
        self.stop_city += [index[task.pickup], index[task.delivery]]
        self.stop_load += [float(task.weight), -float(task.weight)]
        self._slot_of[task.id] = s
        return s

    def route_cost(self, vehicle: int, route: Sequence[int]) -> float:
        """Cost of one vehicle's open route (stop codes) from its home: km x cost per km."""
        dist = self.dist
        city = self.stop_city
        here = self.homes[vehicle]
        km = 0.0
        for code in route:
            c = city[code]
            km += dist[here][c]
            here = c
        return km * self.costs_per_km[vehicle]

    def route_peak_load(self, route: Sequence[int]) -> float:
        """The largest load a route carries."""
        load_of = self.stop_load
        load = peak = 0.0
        for code in route:
            load += load_of[code]
            if load > peak:
                peak = load
        return peak

    def route_fits(self, vehicle: int, route: Sequence[int]) -> bool:
        """True when every task of ``route`` is picked up before its delivery and the load never
        exceeds ``vehicle``'s capacity."""
        load_of = self.stop_load
        capacity = self.capacities[vehicle] + CAPACITY_SLACK
        load = 0.0
        on_board: set[int] = set()
        for code in route:
            if code & 1:
                if code - 1 not in on_board:
                    return False
            else:
                on_board.add(code)
            load += load_of[code]
            if load > capacity:
                return False
        return True
