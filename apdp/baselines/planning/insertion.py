"""Exact cheapest insertion of one task into routes, in one linear sweep per route.

Inserting a task (pickup city P, delivery city D, weight w) into a route ``s_0 .. s_{n-1}`` puts
the pickup before original position ``i`` and the delivery before original position ``j >= i``.
With ``c_{-1}`` the vehicle's home and ``c_k`` the city of ``s_k``, the extra distance is

* ``i == j``: ``d(c_{i-1}, P) + d(P, D) + d(D, c_i) - d(c_{i-1}, c_i)`` (the last two terms only
  when ``i < n``: routes are open);
* ``i < j``: ``A_i + B_j`` with ``A_i = d(c_{i-1}, P) + d(P, c_i) - d(c_{i-1}, c_i)`` and
  ``B_j = d(c_{j-1}, D) + d(D, c_j) - d(c_{j-1}, c_j)`` (``B_n = d(c_{n-1}, D)``).

The task is on board between the two, so every load after stops ``i-1 .. j-1`` plus ``w`` must fit
the capacity. Sweeping ``j`` from 0 to ``n`` while keeping the best ``A_i`` of the current window of
feasible loads (reset when a load does not fit) finds the optimum in O(n). The same sweep, given a
finite price per unit of excess load, ranks places that overload the vehicle by their km plus that
price times the excess they add (see :mod:`overload`).

Distances are shortest paths (the triangle inequality holds), so most positions between two stops
in one city (a *city visit*) can be skipped, which matters on networks of few cities: a pickup there
costs ``2 d(c, P)``, no less than at the end of the visit, and carries the task through more stops;
a delivery there is likewise no better than at the visit's start. Only a detour from the city to
``P`` and ``D`` and back can be cheapest there (when the loads on both sides of the visit are too
high), so the sweep only checks loads and that detour between such stops. For the same reason a
pickup goes after a visit to its own city rather than before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from apdp.baselines.planning.problem import CAPACITY_SLACK, Problem
from apdp.baselines.planning.solution import Solution

INFINITY = float("inf")


@dataclass(frozen=True, slots=True)
class Insertion:
    """Where to insert a task: vehicle, pickup and delivery positions (in the original route)."""

    cost: float
    vehicle: int
    pickup_at: int
    deliver_at: int

    @property
    def feasible(self) -> bool:
        """False when no vehicle can take the task."""
        return self.vehicle >= 0


NO_INSERTION = Insertion(INFINITY, -1, -1, -1)


def best_route_insertion(
    problem: Problem, vehicle: int, route: list[int], slot: int, price: float = INFINITY
) -> tuple[float, int, int]:
    """Cheapest (extra km + ``price`` x extra excess load, pickup position, delivery position) of
    ``slot`` in one route, or ``(inf, -1, -1)`` when it never fits (km: multiply by the vehicle's
    cost per km). ``price`` is in km per unit of excess (see :mod:`overload`); at INFINITY, the
    default, no load may exceed the capacity and the cost is the extra km alone."""
    load_of = problem.stop_load
    w = load_of[2 * slot]
    capacity = problem.capacities[vehicle] + CAPACITY_SLACK
    room = capacity - w
    hard = price == INFINITY
    if hard and room < 0:
        return INFINITY, -1, -1
    city = problem.stop_city
    dist = problem.dist
    p_city, row_p, row_d, p_to_d = _pickup_and_delivery(problem, slot)
    best = best_a = INFINITY  # best_a: the window's best pickup part, A_i + price x (h(L[i-1] + w) - G[i])
    best_i = best_j = best_a_i = -1
    # the previous stop's city and distances from it, carried along the sweep
    prev_city = problem.homes[vehicle]
    prev_row, prev_p, prev_d = dist[prev_city], row_p[prev_city], row_d[prev_city]
    detour = prev_p + p_to_d + prev_d  # from the previous stop's city to P, D and back
    load = 0.0  # L[j-1]
    carried = 0.0  # price x the sum of h(L[k] + w) - h(L[k]) over original pickups k < j
    here_pickup = 0.0 if load <= room else price * (load - room)  # the excess of a pickup before stop j
    for j, stop in enumerate(route):
        c = city[stop]
        if c == prev_city:
            # between two stops in one city: only the detour can be cheapest here
            extra = detour + here_pickup
            if extra < best:
                best = extra
                best_i = best_j = j
                if best <= 0.0:
                    break
        else:
            here_p = row_p[c]
            here_d = row_d[c]
            base = prev_row[c]
            # the delivery before c_j, the pickup earlier in the window
            extra = best_a + carried + (prev_d + here_d - base)
            if extra < best:
                best, best_i, best_j = extra, best_a_i, j
            # both before c_j
            extra = prev_p + p_to_d + here_d - base + here_pickup
            if extra < best:
                best = extra
                best_i = best_j = j
            if best <= 0.0:
                break  # nothing is cheaper than free
            # the pickup before c_j, unless c_j is P (after the stops there is as cheap)
            if c != p_city:
                extra = prev_p + here_p - base + here_pickup - carried
                if extra < best_a:
                    best_a, best_a_i = extra, j
            prev_city = c
            prev_row, prev_p, prev_d = dist[c], here_p, here_d
            detour = here_p + p_to_d + here_d
        load += load_of[stop]
        if load <= room:
            here_pickup = 0.0
        elif hard:  # the task cannot be aboard after this stop: the window of pickups starts again
            here_pickup = best_a = INFINITY
        else:
            here_pickup = price * (load - room)
            if not stop & 1:  # the pickup's load goes over capacity with the task aboard: price it
                carried += price * (load - room if load <= capacity else w)
    else:
        extra = best_a + carried + prev_d
        if extra < best:
            best, best_i, best_j = extra, best_a_i, len(route)
        extra = prev_p + p_to_d + here_pickup
        if extra < best:
            best = extra
            best_i = best_j = len(route)
    return best, best_i, best_j


def _pickup_and_delivery(problem: Problem, slot: int) -> tuple[int, list[float], list[float], float]:
    """The pickup city of task ``slot``, the distances from its pickup and from its delivery city,
    and between the two."""
    p_city, d_city = problem.stop_city[2 * slot], problem.stop_city[2 * slot + 1]
    row_p = problem.dist[p_city]
    return p_city, row_p, problem.dist[d_city], row_p[d_city]


def cheapest_insertion(
    solution: Solution, slot: int, vehicles: Sequence[int] | None = None
) -> Insertion:
    """The cheapest place for task ``slot`` (cost in money), or NO_INSERTION.

    ``vehicles`` restricts the search to some vehicles (default: all of them).
    """
    problem = solution.problem
    best = NO_INSERTION
    routes = solution.routes
    for v in range(len(routes)) if vehicles is None else vehicles:
        km, i, j = best_route_insertion(problem, v, routes[v], slot)
        if i < 0:
            continue
        cost = km * problem.costs_per_km[v]
        if cost < best.cost:
            best = Insertion(cost, v, i, j)
            if cost <= 0.0:
                break  # nothing is cheaper than free
    return best


def apply_insertion(solution: Solution, slot: int, where: Insertion) -> None:
    """Insert task ``slot`` at ``where`` in place, updating the route's cost."""
    route = solution.routes[where.vehicle]
    route.insert(where.deliver_at, 2 * slot + 1)
    route.insert(where.pickup_at, 2 * slot)
    solution.costs[where.vehicle] += where.cost


def insert_task(solution: Solution, slot: int, vehicles: Sequence[int] | None = None) -> float:
    """Insert task ``slot`` at its cheapest place in place; returns the cost increase.

    Raises ValueError if no allowed vehicle can take it (with all vehicles allowed this cannot
    happen: a problem only accepts tasks that some vehicle fits).
    """
    where = cheapest_insertion(solution, slot, vehicles)
    if not where.feasible:
        raise ValueError(f"task {solution.problem.tasks[slot].id} fits no vehicle")
    apply_insertion(solution, slot, where)
    return where.cost


def construct(
    solution: Solution, slots: Sequence[int], vehicles: Sequence[int] | None = None
) -> Solution:
    """Insert each task of ``slots``, in that order, at its cheapest place (in place; returned).

    ``vehicles`` restricts the insertions to some vehicles (ValueError if a task fits none).
    """
    for slot in slots:
        insert_task(solution, slot, vehicles)
    return solution
