"""Insertion where a vehicle may be overloaded at a price, and the LNS that uses it: the price of a
place is what it truly adds, the place is the cheapest one up to the visit rule, and every plan the
search returns keeps to the capacities."""

from __future__ import annotations

import itertools
import random

import pytest

from apdp.baselines.planning import Problem, Solution, construct
from apdp.baselines.planning.insertion import best_route_insertion
from apdp.baselines.planning.lns import LnsSettings, improve
from apdp.baselines.planning.overload import (
    insertion_km,
    route_excess,
    solution_excess,
)
from apdp.game.company import Vehicle
from apdp.game.plan import check_plans
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.scenario.networks import load_topology

TOPOLOGY: Topology = load_topology("france")
FLEET = [Vehicle("a", "Paris", 12, 5), Vehicle("b", "Lyon", 20, 3)]


def random_tasks(count: int, seed: int) -> list[Task]:
    rng = random.Random(seed)
    return [Task(k, *rng.sample(TOPOLOGY.cities, 2), rng.randint(1, 10)) for k in range(count)]


def random_route(rng: random.Random, slots: list[int]) -> list[int]:
    """A route carrying ``slots`` in random order, pickups before deliveries, loads unchecked."""
    route: list[int] = []
    for s in slots:
        i = rng.randint(0, len(route))
        j = rng.randint(i, len(route))
        route.insert(j, 2 * s + 1)
        route.insert(i, 2 * s)
    return route


def priced(problem: Problem, vehicle: int, route: list[int], slot: int, i: int, j: int, price: float) -> float:
    """Extra km plus price x extra excess of one place, from whole routes."""
    trial = route[:]
    trial.insert(j, 2 * slot + 1)
    trial.insert(i, 2 * slot)
    per_km = problem.costs_per_km[vehicle]
    km = (problem.route_cost(vehicle, trial) - problem.route_cost(vehicle, route)) / per_km
    return km + price * (route_excess(problem, vehicle, trial) - route_excess(problem, vehicle, route))


def test_route_excess_sums_the_overload_after_each_pickup() -> None:
    tasks = [Task(0, "Paris", "Lyon", 8), Task(1, "Paris", "Lyon", 7), Task(2, "Lyon", "Paris", 12)]
    problem = Problem(TOPOLOGY, FLEET, tasks)
    # loads 8, 15 (3 over 12), 8, 0, 12, 0
    assert route_excess(problem, 0, [0, 2, 1, 3, 4, 5]) == pytest.approx(3.0)
    # loads 8, 15 (3 over), 27 (15 over), ...: deliveries add nothing
    assert route_excess(problem, 0, [0, 2, 4, 1, 3, 5]) == pytest.approx(18.0)
    assert route_excess(problem, 1, [0, 2, 4, 1, 3, 5]) == pytest.approx(7.0)
    assert route_excess(problem, 0, [0, 1, 2, 3, 4, 5]) == 0.0


@pytest.mark.parametrize("seed", range(40))
def test_the_price_of_the_place_found_is_what_it_adds_and_no_place_is_cheaper_by_much(seed: int) -> None:
    rng = random.Random(seed)
    tasks = random_tasks(14, seed)
    problem = Problem(TOPOLOGY, FLEET, tasks)
    for _ in range(25):
        slots = rng.sample(range(13), rng.randint(0, 10))
        route = random_route(rng, slots)
        vehicle = rng.randrange(2)
        price = rng.choice([0.0, 0.5, 3.0, 80.0])
        found, i, j = best_route_insertion(problem, vehicle, route, 13, price)
        assert 0 <= i <= j <= len(route)
        assert found == pytest.approx(priced(problem, vehicle, route, 13, i, j, price), abs=1e-6)
        trial = route[:]
        trial.insert(j, 27)
        trial.insert(i, 26)
        per_km = problem.costs_per_km[vehicle]
        assert insertion_km(problem, vehicle, route, 13, i, j) == pytest.approx(
            (problem.route_cost(vehicle, trial) - problem.route_cost(vehicle, route)) / per_km
        )
        everywhere = [
            priced(problem, vehicle, route, 13, a, b, price)
            for a in range(len(route) + 1)
            for b in range(a, len(route) + 1)
        ]
        city = problem.stop_city
        cities = [problem.homes[vehicle], *(city[code] for code in route)]
        no_visit_rule = all(a != b for a, b in itertools.pairwise(cities)) and city[26] not in cities[1:]
        if price == 0.0 or no_visit_rule:
            # the distance alone, or a route where the rule about city visits skips nothing: exact
            assert found == pytest.approx(min(everywhere), abs=1e-6)
        else:
            assert found >= min(everywhere) - 1e-6


@pytest.mark.parametrize("seed", range(6))
def test_a_search_that_overloads_returns_valid_plans_and_is_reproducible(seed: int) -> None:
    tasks = random_tasks(24, seed)
    problem = Problem(TOPOLOGY, FLEET, tasks)
    start = construct(Solution.empty(problem), list(range(len(tasks))))
    settings = LnsSettings(overload_chance=1.0, overload_price=0.5, price_every=20)
    first = improve(start, random.Random(seed), max_iterations=600, settings=settings)
    again = improve(start, random.Random(seed), max_iterations=600, settings=settings)
    assert first.routes == again.routes
    assert first.cost <= start.cost + 1e-9
    assert solution_excess(first) == 0.0
    assert not first.violations(tasks)
    assert not check_plans(TOPOLOGY, FLEET, first.to_plans(), tasks)
