"""The planner's promises: valid plans, before the deadline, reproducible, warm starts that help."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apdp.baselines.planning import Problem, Solution, TaskTooHeavy, construct
from apdp.baselines.planning.lns import LnsSettings, improve
from apdp.baselines.planning.planner import plan_tasks
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.plan import check_plans, plan_cost
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

TOPOLOGY: Topology = load_topology("switzerland")
CITIES = TOPOLOGY.cities


@st.composite
def instances(draw: st.DrawFn) -> tuple[list[Vehicle], list[Task]]:
    """Random fleets and tasks; tight ones have capacities barely above the heaviest task."""
    tight = draw(st.booleans())
    count = draw(st.integers(1, 3))
    heaviest = draw(st.integers(1, 10))
    vehicles = [
        Vehicle(
            f"V{k}",
            draw(st.sampled_from(CITIES)),
            heaviest + draw(st.integers(0, 2 if tight else 30)),
            draw(st.sampled_from([1, 2.5, 5])),
        )
        for k in range(count)
    ]
    n = draw(st.integers(0, 25))
    tasks = []
    for k in range(n):
        a = draw(st.sampled_from(CITIES))
        b = draw(st.sampled_from(CITIES).filter(lambda c, a=a: c != a))
        tasks.append(Task(k, a, b, draw(st.integers(1, heaviest))))
    return vehicles, tasks


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.sampled_from([0.02, 0.1]), st.integers(0, 2**31))
def test_every_plan_is_valid_and_on_time(
    instance: tuple[list[Vehicle], list[Task]], limit: float, seed: int
) -> None:
    vehicles, tasks = instance
    began = time.process_time()
    result = plan_tasks(TOPOLOGY, vehicles, tasks, deadline=Deadline.after(limit), seed=seed)
    worked = time.process_time() - began
    assert check_plans(TOPOLOGY, vehicles, result.plans, tasks) == []
    total = sum(plan_cost(TOPOLOGY, v, p) for v, p in zip(vehicles, result.plans, strict=True))
    assert total == pytest.approx(result.cost)
    # The planner stops at its deadline: it works (CPU seconds) no longer than the limit and a wide
    # margin. Wall time would also count the waits for a core of a busy machine.
    assert worked < limit + 0.5


@settings(max_examples=15, deadline=None)
@given(instances(), st.integers(0, 2**31))
def test_iteration_budget_gives_the_same_plan_for_the_same_seed(
    instance: tuple[list[Vehicle], list[Task]], seed: int
) -> None:
    vehicles, tasks = instance
    a = plan_tasks(TOPOLOGY, vehicles, tasks, max_iterations=150, seed=seed)
    b = plan_tasks(TOPOLOGY, vehicles, tasks, max_iterations=150, seed=seed)
    assert a.plans == b.plans


def test_ortools_backend_gives_valid_plans() -> None:
    rng = random.Random(2)
    vehicles = [Vehicle("a", "Zürich", 12, 5), Vehicle("b", "Genève", 20, 3)]
    tasks = [Task(k, *rng.sample(CITIES, 2), rng.randint(1, 10)) for k in range(12)]
    result = plan_tasks(TOPOLOGY, vehicles, tasks, deadline=Deadline.after(1.0), backend="ortools")
    assert check_plans(TOPOLOGY, vehicles, result.plans, tasks) == []
    first = construct(Solution.empty(Problem(TOPOLOGY, vehicles, tasks)), list(range(12)))
    assert result.cost <= first.cost + 1e-6


def test_improve_never_worsens_and_keeps_its_input() -> None:
    rng = random.Random(4)
    vehicles = [Vehicle("a", "Bern", 25, 5), Vehicle("b", "Thun", 25, 5)]
    tasks = [Task(k, *rng.sample(CITIES, 2), rng.randint(1, 10)) for k in range(20)]
    start = construct(Solution.empty(Problem(TOPOLOGY, vehicles, tasks)), list(range(20)))
    routes = [r[:] for r in start.routes]
    better = improve(start, random.Random(0), max_iterations=500)
    assert better.cost <= start.cost + 1e-9
    assert start.routes == routes
    assert better.violations(tasks) == []


def test_an_expired_deadline_still_gives_a_valid_plan() -> None:
    rng = random.Random(5)
    vehicles = [Vehicle("a", "Bern", 15, 5)]
    tasks = [Task(k, *rng.sample(CITIES, 2), rng.randint(1, 10)) for k in range(30)]
    result = plan_tasks(TOPOLOGY, vehicles, tasks, deadline=Deadline(time.monotonic() - 1))
    assert check_plans(TOPOLOGY, vehicles, result.plans, tasks) == []


def test_a_task_too_heavy_for_every_vehicle_is_refused() -> None:
    with pytest.raises(TaskTooHeavy, match="task 3 weighs 40"):
        plan_tasks(TOPOLOGY, [Vehicle("a", "Bern", 30, 5)], [Task(3, "Bern", "Sion", 40)],
                   max_iterations=10)


def test_restarts_from_the_best_keep_runs_reproducible_and_valid() -> None:
    rng = random.Random(6)
    vehicles = [Vehicle("a", "Bern", 25, 5), Vehicle("b", "Thun", 25, 5)]
    tasks = []
    for k in range(20):
        pickup, delivery = rng.sample(CITIES, 2)
        tasks.append(Task(k, pickup, delivery, rng.randint(1, 10)))
    start = construct(Solution.empty(Problem(TOPOLOGY, vehicles, tasks)), list(range(20)))
    often = LnsSettings(restart_after=20)
    a = improve(start, random.Random(1), max_iterations=400, settings=often)
    b = improve(start, random.Random(1), max_iterations=400, settings=often)
    assert a.routes == b.routes
    assert a.cost <= start.cost + 1e-9
    assert a.violations(tasks) == []
