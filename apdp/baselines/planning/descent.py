"""Local search to a local optimum: the LNS polishes each new best solution with it.

Two moves, each taken only when it makes the plan cheaper, until neither does:

* *relocate*: take one task out of its route and put it back at its cheapest place (exact
  insertion, any vehicle);
* *merge visits*: when a route visits a city twice, move every stop of one of the two visits into
  the other (deliveries first, then pickups), when precedence and capacity allow it. The vehicle
  then goes to the city once fewer; putting tasks back one at a time rarely finds this, as each
  task alone would have to leave the visit for the route to skip it.

Both are deterministic: the result depends on the solution only.
"""

from __future__ import annotations

from apdp.baselines.planning.insertion import apply_insertion, cheapest_insertion
from apdp.baselines.planning.problem import Problem
from apdp.baselines.planning.solution import Solution

#: Smallest saving taken as an improvement (float noise is not one).
EPSILON = 1e-6


def descend(solution: Solution, max_rounds: int = 20) -> Solution:
    """``solution`` improved in place by relocating tasks and merging visits until neither helps
    (or ``max_rounds`` rounds of both); returned."""
    for _ in range(max_rounds):
        merged = merge_visits(solution)
        relocated = relocate_tasks(solution)
        if not (merged or relocated):
            break
    return solution


def relocate_tasks(solution: Solution) -> bool:
    """Move each task, in route order, to its cheapest place when that saves; True if one moved."""
    problem = solution.problem
    moved = False
    for slot in solution.slots():
        v = next(v for v, route in enumerate(solution.routes) if 2 * slot in route)
        route = solution.routes[v]
        before = solution.costs[v]
        trial = [c for c in route if c >> 1 != slot]
        trial_cost = problem.route_cost(v, trial)
        solution.routes[v] = trial
        solution.costs[v] = trial_cost
        where = cheapest_insertion(solution, slot)
        if where.cost + trial_cost < before - EPSILON:
            apply_insertion(solution, slot, where)
            moved = True
        else:
            solution.routes[v] = route
            solution.costs[v] = before
    return moved


def merge_visits(solution: Solution) -> bool:
    """Merge two visits of one city in a route wherever it saves (see the module docstring);
    True if some visits were merged."""
    problem = solution.problem
    merged = False
    for v in range(len(solution.routes)):
        while True:
            found = best_merge(problem, v, solution.routes[v], solution.costs[v])
            if found is None:
                break
            route, cost = found
            solution.routes[v] = route
            solution.costs[v] = cost
            merged = True
    return merged


def best_merge(
    problem: Problem, vehicle: int, route: list[int], cost: float
) -> tuple[list[int], float] | None:
    """The cheapest route made by merging two visits of one city of ``route`` (and its cost), or
    None when no merge is allowed and cheaper than ``cost``."""
    city = problem.stop_city
    visits: list[tuple[int, int]] = []  # (first stop, end) of each visit
    k = 0
    while k < len(route):
        end = k + 1
        while end < len(route) and city[route[end]] == city[route[k]]:
            end += 1
        visits.append((k, end))
        k = end
    best: tuple[list[int], float] | None = None
    best_cost = cost - EPSILON
    for a, (a_first, a_end) in enumerate(visits):
        here = city[route[a_first]]
        for b_first, b_end in visits[a + 1 :]:
            if city[route[b_first]] != here:
                continue
            stops = route[a_first:a_end] + route[b_first:b_end]
            together = [c for c in stops if c & 1] + [c for c in stops if not c & 1]
            middle = route[a_end:b_first]
            for trial in (
                route[:a_first] + together + middle + route[b_end:],  # b joins a
                route[:a_first] + middle + together + route[b_end:],  # a joins b
            ):
                if not problem.route_fits(vehicle, trial):
                    continue
                trial_cost = problem.route_cost(vehicle, trial)
                if trial_cost < best_cost:
                    best, best_cost = (trial, trial_cost), trial_cost
    return best
