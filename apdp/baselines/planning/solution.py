"""A solution: one open route (a list of stop codes) per vehicle, with its cost kept up to date."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apdp.baselines.planning.problem import CAPACITY_SLACK, Problem
from apdp.game.plan import Action, Stop, VehiclePlan, check_plans, plan_from_stops
from apdp.game.task import Task


class Solution:
    """Routes of a fleet: ``routes[v]`` is vehicle ``v``'s stops, ``costs[v]`` their cost."""

    __slots__ = ("costs", "problem", "routes")

    def __init__(
        self,
        problem: Problem,
        routes: Sequence[Sequence[int]] | None = None,
        costs: Sequence[float] | None = None,
    ) -> None:
        self.problem = problem
        count = problem.vehicle_count
        self.routes: list[list[int]] = (
            [list(r) for r in routes] if routes is not None else [[] for _ in range(count)]
        )
        if len(self.routes) != count:
            raise ValueError(f"expected {count} routes, got {len(self.routes)}")
        self.costs: list[float] = (
            list(costs)
            if costs is not None
            else [problem.route_cost(v, r) for v, r in enumerate(self.routes)]
        )

    @classmethod
    def empty(cls, problem: Problem) -> Solution:
        """Every vehicle stays home."""
        return cls(problem)

    @classmethod
    def from_stops(cls, problem: Problem, stops: Sequence[Sequence[Stop]]) -> Solution:
        """A solution from per-vehicle stop lists (tasks are added to the problem as needed)."""
        routes = [
            [2 * problem.slot(s.task) + (s.kind == "deliver") for s in vehicle_stops]
            for vehicle_stops in stops
        ]
        return cls(problem, routes)

    @property
    def cost(self) -> float:
        """Total cost of the fleet's routes."""
        return sum(self.costs)

    def copy(self) -> Solution:
        """An independent copy (the problem is shared)."""
        return Solution(self.problem, [r[:] for r in self.routes], self.costs[:])

    def slots(self) -> list[int]:
        """Slots of the tasks in the solution, in route order of their pickups."""
        return [code >> 1 for route in self.routes for code in route if not code & 1]

    def tasks(self) -> list[Task]:
        """The tasks the solution carries."""
        return [self.problem.tasks[s] for s in self.slots()]

    def task_ids(self) -> set[int]:
        """Ids of the tasks the solution carries."""
        return {t.id for t in self.tasks()}

    def refresh(self, vehicle: int | None = None) -> None:
        """Recompute route costs from scratch (all vehicles, or one)."""
        vehicles = range(len(self.routes)) if vehicle is None else (vehicle,)
        for v in vehicles:
            self.costs[v] = self.problem.route_cost(v, self.routes[v])

    def without(self, slots: Iterable[int]) -> Solution:
        """A copy without the given task slots (routes keep their order otherwise)."""
        gone = set(slots)
        routes = [[c for c in r if (c >> 1) not in gone] for r in self.routes]
        return Solution(self.problem, routes)

    def stops(self) -> list[list[Stop]]:
        """Per-vehicle stop lists."""
        tasks = self.problem.tasks
        return [
            [Stop.deliver(tasks[c >> 1]) if c & 1 else Stop.pickup(tasks[c >> 1]) for c in route]
            for route in self.routes
        ]

    def to_plans(self) -> list[VehiclePlan]:
        """The referee's plans: one action list per vehicle, moves along shortest paths."""
        p = self.problem
        return [
            plan_from_stops(p.topology, vehicle, stops)
            for vehicle, stops in zip(p.vehicles, self.stops(), strict=True)
        ]

    def violations(self, tasks: Iterable[Task] | None = None) -> list[str]:
        """Rules the routes break, in words (empty when valid); ``tasks`` must all be carried."""
        out: list[str] = []
        p = self.problem
        seen: dict[int, int] = {}
        for v, route in enumerate(self.routes):
            load = 0.0
            on_board: set[int] = set()
            for code in route:
                s = code >> 1
                if code & 1:
                    if s not in on_board:
                        out.append(f"vehicle {v}: task {p.tasks[s].id} delivered before pickup")
                    on_board.discard(s)
                else:
                    if s in seen:
                        out.append(f"task {p.tasks[s].id} picked up twice")
                    seen[s] = v
                    on_board.add(s)
                load += p.stop_load[code]
                if load > p.capacities[v] + CAPACITY_SLACK:
                    out.append(f"vehicle {v}: load {load:g} over capacity {p.capacities[v]:g}")
            for s in on_board:
                out.append(f"vehicle {v}: task {p.tasks[s].id} never delivered")
        if tasks is not None:
            for task in tasks:
                if p.slot_of(task.id) not in seen:
                    out.append(f"task {task.id} is not carried")
        return out

    def checked_plans(self, tasks: Sequence[Task]) -> list[list[Action]]:
        """``to_plans`` after the referee's own check; ValueError if the plans would be refused."""
        plans = self.to_plans()
        problems = check_plans(self.problem.topology, self.problem.vehicles, plans, tasks)
        if problems:
            raise ValueError(f"invalid plan: {problems[0]}")
        return plans
