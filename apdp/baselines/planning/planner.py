"""One call to plan a fleet: construction, improvement by a backend, and a guaranteed-valid result.

``plan_tasks`` never returns an invalid plan: the result is checked with the referee's own rules,
and should anything be wrong it falls back to the construction, then to carrying the tasks one by
one with the largest vehicle. The improvement stops at the deadline or after ``max_iterations``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from apdp.baselines.planning.insertion import construct
from apdp.baselines.planning.lns import DEFAULT_SETTINGS, LnsSettings, SearchLog, improve
from apdp.baselines.planning.problem import Problem
from apdp.baselines.planning.solution import Solution
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.plan import VehiclePlan, check_plans
from apdp.game.task import Task
from apdp.game.topology import Topology

Backend = Literal["lns", "ortools"]
BACKENDS: tuple[Backend, ...] = ("lns", "ortools")


@dataclass(frozen=True, slots=True)
class PlanResult:
    """The plans of a fleet, their cost, the solution behind them and how they were found."""

    plans: list[VehiclePlan]
    cost: float
    solution: Solution
    method: str
    #: Why ``method`` is not the backend asked for ("" when it is).
    note: str = ""


def one_by_one(problem: Problem, slots: Sequence[int]) -> Solution:
    """Every task picked up and delivered in turn by the largest vehicle: always valid."""
    biggest = max(range(problem.vehicle_count), key=lambda v: problem.capacities[v])
    routes: list[list[int]] = [[] for _ in range(problem.vehicle_count)]
    routes[biggest] = [code for s in slots for code in (2 * s, 2 * s + 1)]
    return Solution(problem, routes)


def initial_solution(problem: Problem, tasks: Sequence[Task], start: Solution | None) -> Solution:
    """``start`` completed with the tasks it lacks (and without those not in ``tasks``)."""
    slots = [problem.slot(t) for t in tasks]
    if start is None:
        return construct(Solution.empty(problem), slots)
    wanted = set(slots)
    have = set(start.slots())
    solution = start.without(have - wanted)
    return construct(solution, [s for s in slots if s not in have])


def plan_tasks(
    topology: Topology,
    vehicles: Sequence[Vehicle],
    tasks: Sequence[Task],
    *,
    deadline: Deadline | None = None,
    max_iterations: int | None = None,
    seed: int = 0,
    backend: Backend = "lns",
    start: Solution | None = None,
    settings: LnsSettings = DEFAULT_SETTINGS,
    log: SearchLog | None = None,
) -> PlanResult:
    """Plan ``vehicles`` to carry ``tasks`` within ``deadline`` (and ``max_iterations`` of LNS).

    ``start`` warm-starts the search from an earlier solution of the same fleet (its problem is
    reused). ``log`` adds up what the LNS did. Raises TaskTooHeavy when a task fits no vehicle.
    """
    if deadline is None and max_iterations is None:
        raise ValueError("plan_tasks needs a deadline or max_iterations")
    deadline = deadline or Deadline.never()
    if start is not None and (
        start.problem.topology is not topology or start.problem.vehicles != tuple(vehicles)
    ):
        start = None  # a solution of another fleet cannot seed this one
    problem = start.problem if start is not None else Problem(topology, vehicles)
    initial = initial_solution(problem, tasks, start)
    method = "insertion"
    best = initial
    note = ""
    if backend == "ortools":
        from apdp.baselines.planning.ortools_backend import solve_with_ortools

        started = time.monotonic()
        found, note = solve_with_ortools(initial, deadline)
        if found is not None and found.cost < best.cost:
            best, method = found, "ortools"
        elif found is not None:
            searched = time.monotonic() - started
            note = f"OR-Tools found nothing cheaper than the insertion plan in {searched:.1f} s"
    elif backend == "lns":
        best = improve(
            initial, random.Random(seed), deadline=deadline, max_iterations=max_iterations,
            settings=settings, log=log,
        )
        method = "lns"
    else:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    slots = [problem.slot(t) for t in tasks]
    fallbacks = ((best, method), (initial, "insertion"), (one_by_one(problem, slots), "one by one"))
    for solution, how in fallbacks:
        plans = solution.to_plans()
        if not solution.violations(tasks) and not check_plans(topology, vehicles, plans, tasks):
            if how != method:
                note = f"the {method} plan broke a rule"
            return PlanResult(plans, solution.cost, solution, how, note if how != backend else "")
    raise AssertionError("unreachable: carrying tasks one by one is always valid")
