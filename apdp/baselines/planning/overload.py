"""Routes that may overload their vehicle, at a price: how the LNS crosses from one feasible plan
to another when capacity binds.

When loads are tight the feasible plans lie far apart: changing the order in which a route visits
cities means moving many tasks at once, and every plan in between breaks the capacity. The search
may therefore insert a task where it overloads the vehicle, paying for the *excess* (see
:func:`route_excess`) at a price per unit that it raises when too few of its plans are valid and
lowers when most are (as in PyVRP's penalty management). Only valid plans are ever returned.

The excess of a route is the sum, over its pickups, of the load above capacity right after the
pickup (loads peak after pickups). Inserting a task of weight ``w`` with its pickup before
original position ``i`` and delivery before ``j`` adds ``h(L[i-1] + w)`` for the new pickup (``L[k]``
the load after stop ``k``, ``L[-1] = 0``, ``h(x) = max(0, x - capacity)``) and, for every original
pickup ``k`` from ``i`` to ``j - 1``, ``h(L[k] + w) - h(L[k])``. With prefix sums of the second
term the cost of a pair (i, j) splits into a part of ``i`` and a part of ``j``, so the linear sweep
of :mod:`insertion` finds the cheapest insertion, given a finite price (``best_route_insertion``;
its infinite price, the default, is the plain insertion that never overloads). Its skipping of
places inside one city visit is kept: it is exact for the distance, and a pickup later (or a
delivery earlier) in a visit carries the task past fewer stops, so the excess found may be a
little above the least possible, never below the truth for the place chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from apdp.baselines.planning.insertion import INFINITY, NO_INSERTION, Insertion, best_route_insertion
from apdp.baselines.planning.problem import CAPACITY_SLACK, Problem
from apdp.baselines.planning.solution import Solution


def route_excess(problem: Problem, vehicle: int, route: Sequence[int]) -> float:
    """The sum over the route's pickups of the load above ``vehicle``'s capacity after each."""
    load_of = problem.stop_load
    capacity = problem.capacities[vehicle] + CAPACITY_SLACK
    load = excess = 0.0
    for code in route:
        load += load_of[code]
        if load > capacity and not code & 1:
            excess += load - capacity
    return excess


def solution_excess(solution: Solution) -> float:
    """The excess of all the routes of ``solution`` (0 when every vehicle keeps to its capacity)."""
    problem = solution.problem
    return sum(route_excess(problem, v, r) for v, r in enumerate(solution.routes) if r)


def insertion_km(problem: Problem, vehicle: int, route: Sequence[int], slot: int, i: int, j: int) -> float:
    """The extra km of putting ``slot``'s pickup before position ``i`` and delivery before ``j``."""
    city = problem.stop_city
    dist = problem.dist
    p, d = city[2 * slot], city[2 * slot + 1]
    n = len(route)
    before_i = city[route[i - 1]] if i > 0 else problem.homes[vehicle]
    if i == j:
        km = dist[before_i][p] + dist[p][d]
        if i < n:
            after = city[route[i]]
            km += dist[d][after] - dist[before_i][after]
        return km
    after_i = city[route[i]]
    km = dist[before_i][p] + dist[p][after_i] - dist[before_i][after_i]
    before_j = city[route[j - 1]]
    km += dist[before_j][d]
    if j < n:
        after_j = city[route[j]]
        km += dist[d][after_j] - dist[before_j][after_j]
    return km


def cheapest_insertion(
    solution: Solution, slot: int, price: float, vehicles: Sequence[int] | None = None
) -> Insertion:
    """The cheapest place for task ``slot``, overloading allowed at ``price`` (money per unit of
    excess). Places are ranked with their excess priced in; the Insertion's cost is the money the
    route's distance adds (what ``insertion.apply_insertion`` adds to the route's cost)."""
    problem = solution.problem
    routes = solution.routes
    best_v = best_i = best_j = -1
    best = INFINITY
    for v in range(len(routes)) if vehicles is None else vehicles:
        per_km = problem.costs_per_km[v]
        priced, i, j = best_route_insertion(problem, v, routes[v], slot, price / per_km)
        if priced * per_km < best:
            best, best_v, best_i, best_j = priced * per_km, v, i, j
    if best_v < 0:
        return NO_INSERTION
    km = insertion_km(problem, best_v, routes[best_v], slot, best_i, best_j)
    return Insertion(km * problem.costs_per_km[best_v], best_v, best_i, best_j)
