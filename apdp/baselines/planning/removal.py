"""Which tasks a large-neighbourhood search takes out of a plan, and taking them out.

Each operator returns task slots to remove from a :class:`Solution`: the tasks nearest to a random
one (``related_tasks``), those with a stop in a stretch of one route (``route_stretch``), or those
of whole city visits in a row (``city_visits``); ``ruin`` takes them out. Every random choice comes
from the ``random.Random`` given, so a search stays reproducible for its seed.
"""

from __future__ import annotations

import random

from apdp.baselines.planning.solution import Solution


def related_tasks(solution: Solution, slots: list[int], count: int, rng: random.Random) -> list[int]:
    """A random task and the ``count - 1`` tasks whose pickups and deliveries are nearest to it."""
    problem = solution.problem
    city = problem.stop_city
    dist = problem.dist
    seed = rng.choice(slots)
    row_p = dist[city[2 * seed]]
    row_d = dist[city[2 * seed + 1]]
    scored = sorted(
        slots,
        key=lambda s: (row_p[city[2 * s]] + row_d[city[2 * s + 1]]) * (1.0 + 0.3 * rng.random()),
    )
    return scored[:count]


def route_stretch(solution: Solution, count: int, rng: random.Random) -> list[int]:
    """Tasks with a stop among about ``count`` consecutive stops of one route."""
    routes = [r for r in solution.routes if r]
    if not routes:
        return []
    route = rng.choice(routes)
    length = min(len(route), count)
    first = rng.randint(0, len(route) - length)
    found: list[int] = []
    for code in route[first : first + length]:
        if code >> 1 not in found:
            found.append(code >> 1)
    return found


def city_visits(solution: Solution, count: int, rng: random.Random) -> list[int]:
    """Tasks with a stop in whole visits to cities: from a random stop's visit (its run of
    consecutive stops in one city) onwards along the route, visit by visit, until ``count`` tasks.

    Taking out every stop of a visit lets the vehicle skip the city, and lets the reinsertion
    gather the tasks into another visit to it; a stretch that cuts a visit in two rarely can.
    """
    routes = [r for r in solution.routes if r]
    if not routes:
        return []
    city = solution.problem.stop_city
    route = rng.choice(routes)
    k = rng.randrange(len(route))
    here = city[route[k]]
    while k > 0 and city[route[k - 1]] == here:
        k -= 1
    found: list[int] = []
    seen: set[int] = set()
    while k < len(route):
        here = city[route[k]]
        while k < len(route) and city[route[k]] == here:
            slot = route[k] >> 1
            if slot not in seen:
                seen.add(slot)
                found.append(slot)
            k += 1
        if len(found) >= count:
            break
    return found


def ruin(solution: Solution, removed: list[int]) -> None:
    """Remove the tasks in ``removed`` from their routes, in place, updating costs."""
    gone = set(removed)
    for v, route in enumerate(solution.routes):
        kept = [c for c in route if (c >> 1) not in gone]
        if len(kept) != len(route):
            solution.routes[v] = kept
            solution.refresh(v)
