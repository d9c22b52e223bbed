"""The local search that polishes LNS solutions: valid, never worse, deterministic, and it merges
two visits of one city when that saves."""

from __future__ import annotations

import itertools
import random

import pytest

from apdp.baselines.planning import Problem, Solution, construct
from apdp.baselines.planning.descent import descend, merge_visits, relocate_tasks
from apdp.baselines.planning.lns import improve
from apdp.game.company import Vehicle
from apdp.game.plan import check_plans
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

TOPOLOGY: Topology = load_topology("france")


def random_tasks(count: int, seed: int) -> list[Task]:
    rng = random.Random(seed)
    return [Task(k, *rng.sample(TOPOLOGY.cities, 2), rng.randint(1, 10)) for k in range(count)]


def shuffled_start(vehicles: list[Vehicle], tasks: list[Task], seed: int) -> Solution:
    """A valid but poor solution: tasks inserted cheapest-first in a random order."""
    problem = Problem(TOPOLOGY, vehicles, tasks)
    slots = list(range(len(tasks)))
    random.Random(seed).shuffle(slots)
    return construct(Solution.empty(problem), slots)


@pytest.mark.parametrize("seed", range(12))
def test_descent_keeps_the_rules_never_worsens_and_is_deterministic(seed: int) -> None:
    vehicles = [Vehicle("a", "Paris", 15, 5), Vehicle("b", "Lyon", 25, 3)]
    tasks = random_tasks(25, seed)
    start = shuffled_start(vehicles, tasks, seed)
    a, b = start.copy(), start.copy()
    descend(a)
    descend(b)
    assert a.routes == b.routes
    assert a.violations(tasks) == []
    assert check_plans(TOPOLOGY, vehicles, a.to_plans(), tasks) == []
    assert a.cost <= start.cost + 1e-9
    assert a.cost == pytest.approx(Solution(a.problem, a.routes).cost)
    # a local optimum: another round changes nothing
    assert not merge_visits(a) and not relocate_tasks(a)


def test_two_visits_of_one_city_are_merged_when_that_saves() -> None:
    # Paris -> Lyon (pick up 0) -> Marseille (deliver 0) -> Lyon (pick up 1) -> Marseille: the
    # second Lyon visit can join the first, so the vehicle goes Paris -> Lyon -> Marseille once.
    vehicles = [Vehicle("a", "Paris", 30, 1)]
    tasks = [Task(0, "Lyon", "Marseille", 5), Task(1, "Lyon", "Marseille", 5)]
    problem = Problem(TOPOLOGY, vehicles, tasks)
    solution = Solution(problem, [[0, 1, 2, 3]])
    assert merge_visits(solution)
    assert solution.routes == [[0, 2, 1, 3]] or solution.routes == [[0, 2, 3, 1]]
    assert solution.violations(tasks) == []
    expected = TOPOLOGY.distance("Paris", "Lyon") + TOPOLOGY.distance("Lyon", "Marseille")
    assert solution.cost == pytest.approx(expected)


def test_no_merge_that_breaks_capacity() -> None:
    vehicles = [Vehicle("a", "Paris", 6, 1)]
    tasks = [Task(0, "Lyon", "Marseille", 5), Task(1, "Lyon", "Marseille", 5)]
    problem = Problem(TOPOLOGY, vehicles, tasks)
    solution = Solution(problem, [[0, 1, 2, 3]])
    assert not merge_visits(solution)
    assert solution.routes == [[0, 1, 2, 3]]


def optimum(problem: Problem, slots: list[int]) -> float:
    """The cheapest one-vehicle route of the tasks, by trying every order of the stops."""
    best = float("inf")
    for order in itertools.permutations([code for s in slots for code in (2 * s, 2 * s + 1)]):
        route = list(order)
        if problem.route_fits(0, route):
            best = min(best, problem.route_cost(0, route))
    return best


@pytest.mark.parametrize("seed", range(5))
def test_the_search_reaches_the_optimum_of_small_instances(seed: int) -> None:
    vehicles = [Vehicle("a", random.Random(seed).choice(TOPOLOGY.cities), 12, 1)]
    tasks = random_tasks(4, 50 + seed)
    problem = Problem(TOPOLOGY, vehicles, tasks)
    start = construct(Solution.empty(problem), list(range(len(tasks))))
    found = improve(start, random.Random(seed), max_iterations=500)
    assert found.cost == pytest.approx(optimum(problem, list(range(len(tasks)))))
