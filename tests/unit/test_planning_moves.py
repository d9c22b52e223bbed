"""The LNS's city-visit operators (removal of whole visits, moving one visit): valid plans, reproducible."""

from __future__ import annotations

import random

import pytest

from apdp.baselines.planning import Problem, Solution, construct
from apdp.baselines.planning.lns import LnsSettings, improve, visit_move
from apdp.baselines.planning.removal import city_visits
from apdp.game.company import Vehicle
from apdp.game.plan import check_plans
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

TOPOLOGY: Topology = load_topology("france")


def random_tasks(count: int, seed: int) -> list[Task]:
    rng = random.Random(seed)
    return [Task(k, *rng.sample(TOPOLOGY.cities, 2), rng.randint(1, 10)) for k in range(count)]


def started(vehicles: list[Vehicle], tasks: list[Task]) -> Solution:
    problem = Problem(TOPOLOGY, vehicles, tasks)
    return construct(Solution.empty(problem), list(range(len(tasks))))


def visits(solution: Solution, route: list[int]) -> list[list[int]]:
    """The route's runs of consecutive stops in one city, as the tasks of their stops."""
    city = solution.problem.stop_city
    runs: list[list[int]] = []
    for k, code in enumerate(route):
        if k == 0 or city[code] != city[route[k - 1]]:
            runs.append([])
        runs[-1].append(code >> 1)
    return runs


@pytest.mark.parametrize("seed", range(20))
def test_city_visits_take_whole_visits_in_a_row_until_enough(seed: int) -> None:
    solution = started([Vehicle("a", "Paris", 30, 5)], random_tasks(25, seed))
    rng = random.Random(seed)
    count = rng.randint(1, 10)
    removed = city_visits(solution, count, rng)
    assert len(set(removed)) == len(removed) > 0
    runs = visits(solution, solution.routes[0])
    expected = []
    for first in range(len(runs)):
        taken: list[int] = []
        for run in runs[first:]:
            taken += [s for s in run if s not in taken]
            if len(taken) >= count:
                break
        expected.append(taken)
    assert removed in expected


def test_city_visits_of_an_empty_fleet_is_empty() -> None:
    problem = Problem(TOPOLOGY, [Vehicle("a", "Paris", 30, 5)])
    assert city_visits(Solution.empty(problem), 3, random.Random(0)) == []


#: The searches by city visits: whole-visit removal alone, and moves of one visit (with the tasks'
#: seeds of each).
VISIT_SEARCHES = {
    "removal": (LnsSettings(related_chance=0.0, stretch_chance=0.0, visit_chance=1.0), 100),
    "moves": (LnsSettings(visit_move_chance=0.5), 300),
}


@pytest.mark.parametrize("search", VISIT_SEARCHES)
@pytest.mark.parametrize("seed", range(4))
def test_searches_by_city_visits_are_valid_and_reproducible(seed: int, search: str) -> None:
    settings, tasks_seed = VISIT_SEARCHES[search]
    vehicles = [Vehicle("a", "Paris", 12, 5), Vehicle("b", "Lyon", 20, 3)]
    tasks = random_tasks(30, tasks_seed + seed)
    start = started(vehicles, tasks)
    a = improve(start, random.Random(seed), max_iterations=300, settings=settings)
    b = improve(start, random.Random(seed), max_iterations=300, settings=settings)
    assert a.routes == b.routes
    assert a.violations(tasks) == []
    assert check_plans(TOPOLOGY, vehicles, a.to_plans(), tasks) == []
    assert a.cost <= start.cost + 1e-9


@pytest.mark.parametrize("seed", range(30))
def test_a_visit_move_keeps_the_tasks_and_the_rules_and_moves_one_visit(seed: int) -> None:
    vehicles = [Vehicle("a", "Paris", 14, 5), Vehicle("b", "Lyon", 30, 2)]
    tasks = random_tasks(20, 200 + seed)
    solution = started(vehicles, tasks)
    before = [r[:] for r in solution.routes]
    moved = visit_move(solution, random.Random(seed))
    assert solution.routes == before  # the input is left alone
    if moved is None:
        return
    assert moved.violations(tasks) == []
    assert check_plans(TOPOLOGY, vehicles, moved.to_plans(), tasks) == []
    assert moved.cost == pytest.approx(Solution(moved.problem, moved.routes).cost)
    changed = [v for v in range(2) if moved.routes[v] != before[v]]
    assert len(changed) == 1
    old, new = before[changed[0]], moved.routes[changed[0]]
    assert sorted(old) == sorted(new)
    # new = old with one run of stops in one city taken out and put back elsewhere
    city = solution.problem.stop_city
    def moves_to_new(a: int, b: int) -> bool:
        rest = old[:a] + old[b:]
        return any(rest[:p] + old[a:b] + rest[p:] == new for p in range(len(rest) + 1))

    assert any(
        len({city[c] for c in old[a:b]}) == 1 and moves_to_new(a, b)
        for a in range(len(old))
        for b in range(a + 1, len(old) + 1)
    )
