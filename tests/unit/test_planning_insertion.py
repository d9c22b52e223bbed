"""The cheapest insertion is exact: it matches brute force over every pair of positions."""

from __future__ import annotations

import itertools
import random

import pytest

from apdp.baselines.planning import Problem, Solution, cheapest_insertion, construct, insert_task
from apdp.baselines.planning.insertion import best_route_insertion
from apdp.game.company import Vehicle
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology


@pytest.fixture(scope="module")
def france() -> Topology:
    return load_topology("france")


def random_route(problem: Problem, rng: random.Random, vehicle: int, slots: list[int]) -> list[int]:
    """A random precedence- and capacity-feasible route of the given tasks (greedy, may skip)."""
    route: list[int] = []
    pending = list(slots)
    rng.shuffle(pending)
    on_board: list[int] = []
    load = 0.0
    cap = problem.capacities[vehicle]
    while pending or on_board:
        can_pick = [s for s in pending if load + problem.stop_load[2 * s] <= cap]
        if can_pick and (not on_board or rng.random() < 0.5):
            s = can_pick[0]
            pending.remove(s)
            on_board.append(s)
            route.append(2 * s)
            load += problem.stop_load[2 * s]
        elif on_board:
            s = on_board.pop(rng.randrange(len(on_board)))
            route.append(2 * s + 1)
            load -= problem.stop_load[2 * s]
        else:
            pending.pop()  # too heavy with nothing on board cannot happen; skip defensively
    return route


def brute_force(problem: Problem, vehicle: int, route: list[int], slot: int) -> float:
    best = float("inf")
    n = len(route)
    for i in range(n + 1):
        for j in range(i, n + 1):
            trial = route[:]
            trial.insert(j, 2 * slot + 1)
            trial.insert(i, 2 * slot)
            if problem.route_peak_load(trial) > problem.capacities[vehicle] + 1e-9:
                continue
            extra = problem.route_cost(vehicle, trial) - problem.route_cost(vehicle, route)
            best = min(best, extra)
    return best


@pytest.mark.parametrize("seed", range(60))
def test_insertion_matches_brute_force(france: Topology, seed: int) -> None:
    rng = random.Random(seed)
    cities = france.cities
    capacity = rng.choice([6, 10, 15, 40])
    vehicles = [Vehicle("v", rng.choice(cities), capacity, rng.choice([1, 3, 5]))]
    tasks = [
        Task(k, *rng.sample(cities, 2), rng.randint(1, min(capacity, 10)))
        for k in range(rng.randint(0, 9))
    ]
    problem = Problem(france, vehicles, tasks)
    route = random_route(problem, rng, 0, list(range(len(tasks))))
    new = problem.slot(Task(99, *rng.sample(cities, 2), rng.randint(1, capacity)))
    km, i, j = best_route_insertion(problem, 0, route, new)
    expected = brute_force(problem, 0, route, new) / vehicles[0].cost_per_km
    assert km == pytest.approx(expected, abs=1e-6)
    if i >= 0:
        trial = route[:]
        trial.insert(j, 2 * new + 1)
        trial.insert(i, 2 * new)
        assert problem.route_peak_load(trial) <= capacity + 1e-9
        extra = (problem.route_cost(0, trial) - problem.route_cost(0, route)) / vehicles[0].cost_per_km
        assert extra == pytest.approx(km, abs=1e-6)


def test_cheapest_insertion_picks_the_cheaper_vehicle(france: Topology) -> None:
    vehicles = [Vehicle("far", "Brest", 30, 5), Vehicle("near", "Lyon", 30, 5)]
    problem = Problem(france, vehicles)
    solution = Solution.empty(problem)
    slot = problem.slot(Task(0, "Lyon", "Marseille", 3))
    where = cheapest_insertion(solution, slot)
    assert where.vehicle == 1
    assert where.cost == pytest.approx(5 * france.distance("Lyon", "Marseille"))


def test_too_heavy_for_one_vehicle_goes_to_the_other(france: Topology) -> None:
    vehicles = [Vehicle("small", "Lyon", 5, 1), Vehicle("big", "Brest", 30, 5)]
    problem = Problem(france, vehicles)
    solution = Solution.empty(problem)
    slot = problem.slot(Task(0, "Lyon", "Marseille", 8))
    assert insert_task(solution, slot) > 0
    assert solution.routes == [[], [0, 1]]


def test_construct_gives_valid_plans(france: Topology) -> None:
    rng = random.Random(3)
    vehicles = [Vehicle("a", "Paris", 12, 5), Vehicle("b", "Lyon", 20, 3)]
    tasks = [Task(k, *rng.sample(france.cities, 2), rng.randint(1, 10)) for k in range(30)]
    problem = Problem(france, vehicles, tasks)
    solution = construct(Solution.empty(problem), list(range(30)))
    assert solution.violations(tasks) == []
    solution.checked_plans(tasks)
    recomputed = sum(problem.route_cost(v, r) for v, r in enumerate(solution.routes))
    assert solution.cost == pytest.approx(recomputed)


def test_pairs_of_positions_cover_every_case() -> None:
    # guard of the brute force itself: n + 1 choose 2 plus n + 1 pairs
    assert len([(i, j) for i, j in itertools.product(range(4), repeat=2) if i <= j]) == 10
