"""Recreating a ruined plan: the tasks go back as cheapest insertion puts them, and the LNS gives
up on a candidate once its cost reaches the most it may cost (each task only adds to it)."""

from __future__ import annotations

import random

import pytest

import apdp.baselines.planning.overload as overload
from apdp.baselines.planning import Problem, Solution, construct
from apdp.baselines.planning.insertion import apply_insertion, cheapest_insertion
from apdp.baselines.planning.lns import recreate
from apdp.baselines.planning.removal import ruin
from apdp.game.company import Vehicle
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

TOPOLOGY: Topology = load_topology("france")
VEHICLES = [Vehicle("a", "Paris", 20, 5), Vehicle("b", "Lyon", 30, 3)]


def ruined(seed: int) -> tuple[Solution, list[int]]:
    """A plan of 24 random tasks with a random third of them taken out, and those tasks."""
    rng = random.Random(seed)
    tasks = [Task(k, *rng.sample(TOPOLOGY.cities, 2), rng.randint(1, 10)) for k in range(24)]
    problem = Problem(TOPOLOGY, VEHICLES, tasks)
    solution = construct(Solution.empty(problem), list(range(len(tasks))))
    removed = rng.sample(range(len(tasks)), 8)
    ruin(solution, removed)
    return solution, removed


def put_back(solution: Solution, removed: list[int], price: float) -> list[float]:
    """Insert ``removed`` in order at their cheapest places; the plan's cost after each."""
    costs = []
    for slot in removed:
        if price > 0.0:
            where = overload.cheapest_insertion(solution, slot, price)
        else:
            where = cheapest_insertion(solution, slot)
        apply_insertion(solution, slot, where)
        costs.append(solution.cost)
    return costs


@pytest.mark.parametrize("price", [0.0, 40.0])
@pytest.mark.parametrize("seed", range(12))
def test_without_a_limit_every_task_goes_back_where_cheapest_insertion_puts_it(
    seed: int, price: float
) -> None:
    solution, removed = ruined(seed)
    expected = solution.copy()
    put_back(expected, removed, price)
    assert recreate(solution, removed, price, None, float("inf"))
    assert solution.routes == expected.routes
    assert solution.cost == pytest.approx(expected.cost)
    assert solution.cost == pytest.approx(Solution(solution.problem, solution.routes).cost)


@pytest.mark.parametrize("price", [0.0, 40.0])
@pytest.mark.parametrize("seed", range(12))
def test_it_gives_up_once_the_cost_reaches_the_limit(seed: int, price: float) -> None:
    solution, removed = ruined(seed)
    costs = put_back(solution.copy(), removed, price)
    # each task put back only adds to the cost: what giving up early relies on
    start = solution.cost
    assert all(b >= a - 1e-9 for a, b in zip([start, *costs], costs, strict=False))
    for stop_at in {0, len(costs) // 2, len(costs) - 1}:
        before = costs[stop_at - 1] if stop_at else start
        if costs[stop_at] <= before + 1e-6:
            continue  # a free insertion: no limit falls between the two costs
        limit = (before + costs[stop_at]) / 2
        candidate = solution.copy()
        assert not recreate(candidate, removed, price, None, limit)
        back = sum(len(route) for route in candidate.routes) // 2
        assert back == sum(len(route) for route in solution.routes) // 2 + stop_at + 1
    finished = solution.copy()
    assert recreate(finished, removed, price, None, costs[-1] + 1.0)
    assert finished.cost == pytest.approx(costs[-1])


@pytest.mark.parametrize("seed", range(12))
def test_putting_a_task_back_never_lowers_the_excess(seed: int) -> None:
    solution, removed = ruined(seed)
    for slot in removed:
        before = overload.solution_excess(solution)
        apply_insertion(solution, slot, overload.cheapest_insertion(solution, slot, 10.0))
        assert overload.solution_excess(solution) >= before - 1e-9


def test_a_task_no_allowed_vehicle_can_take_ends_the_recreation() -> None:
    problem = Problem(TOPOLOGY, VEHICLES, [Task(0, "Paris", "Lyon", 25), Task(1, "Lyon", "Marseille", 3)])
    solution = Solution.empty(problem)
    # vehicle 0 carries 20: the task of 25 fits only vehicle 1, which is not allowed
    assert not recreate(solution, [1, 0], 0.0, [0], float("inf"))
    assert solution.routes == [[2, 3], []]
    assert recreate(Solution.empty(problem), [1, 0], 0.0, None, float("inf"))
