"""The deliberative exercise's reference: one vehicle's cheapest plan for a known task set, by exact
search over states (city, tasks still to pick up, tasks carried).

A step goes along a shortest path to a pickup city and picks one task up (within capacity), or to a
carried task's delivery city and delivers it; every optimal plan is such a sequence of stops, so
uniform-cost search (no heuristic) and A* with an admissible heuristic (:func:`farthest_task`, the
largest distance some single task still needs) return the least distance. A common inadmissible
heuristic, :func:`sum_of_task_distances`, counts shared roads several times and may return a
longer plan: the course's deliberative exercise asks students to tell them apart.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import count

from apdp.exercises.topology import LogistTopology
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task

#: A search state: the vehicle's city, the ids still to pick up, the ids carried.
State = tuple[str, frozenset[int], frozenset[int]]
#: A heuristic: a lower bound (if admissible) of the units still to drive from a state.
Heuristic = Callable[[LogistTopology, dict[int, Task], State], int]


def no_heuristic(topology: LogistTopology, tasks: dict[int, Task], state: State) -> int:
    """0: uniform-cost search (Dijkstra over states; the course's BFS finds the same optimum)."""
    return 0


def farthest_task(topology: LogistTopology, tasks: dict[int, Task], state: State) -> int:
    """Admissible: the largest distance one remaining task still needs (to its pickup and on to its
    delivery, or to its delivery if carried)."""
    city, waiting, carried = state
    d = topology.distance_units
    best = 0
    for k in waiting:
        best = max(best, d(city, tasks[k].pickup) + d(tasks[k].pickup, tasks[k].delivery))
    for k in carried:
        best = max(best, d(city, tasks[k].delivery))
    return best


def sum_of_task_distances(topology: LogistTopology, tasks: dict[int, Task], state: State) -> int:
    """Inadmissible: the sum of the remaining tasks' pickup-to-delivery distances (and of the carried
    tasks' distances to their delivery). Tasks sharing roads are counted as if driven apart."""
    city, waiting, carried = state
    d = topology.distance_units
    return (sum(d(tasks[k].pickup, tasks[k].delivery) for k in waiting)
            + sum(d(city, tasks[k].delivery) for k in carried))


@dataclass(frozen=True)
class OptimalPlan:
    """A plan found by the search: its actions (moves along the platform's paths) and its units."""

    actions: tuple[Action, ...]
    units: int
    #: States taken off the queue.
    expanded: int


def search_plan(topology: LogistTopology, start: str, capacity: int, tasks: Sequence[Task],
                carried: Sequence[Task] = (), heuristic: Heuristic = farthest_task) -> OptimalPlan:
    """A* from ``start`` carrying ``carried``, to deliver every task; optimal when ``heuristic`` is
    admissible (the first goal taken off the queue is returned, states closed once)."""
    by_id = {t.id: t for t in [*tasks, *carried]}
    d = topology.distance_units
    first: State = (start, frozenset(t.id for t in tasks), frozenset(t.id for t in carried))
    tie = count()
    queue: list[tuple[int, int, int, State]] = [(heuristic(topology, by_id, first), next(tie), 0, first)]
    came: dict[State, tuple[State, str, int] | None] = {first: None}
    best = {first: 0}
    closed: set[State] = set()
    while queue:
        _, _, g, state = heapq.heappop(queue)
        if state in closed:
            continue
        closed.add(state)
        city, waiting, held = state
        if not waiting and not held:
            return OptimalPlan(tuple(_actions(topology, start, came, state)), g, len(closed))
        load = sum(int(by_id[k].weight) for k in held)
        steps = [(by_id[k].pickup, "pickup", k, (by_id[k].pickup, waiting - {k}, held | {k}))
                 for k in sorted(waiting) if load + int(by_id[k].weight) <= capacity]
        steps += [(by_id[k].delivery, "deliver", k, (by_id[k].delivery, waiting, held - {k})) for k in sorted(held)]
        for there, kind, k, nxt in steps:
            cost = g + d(city, there)
            if nxt not in closed and cost < best.get(nxt, cost + 1):
                best[nxt] = cost
                came[nxt] = (state, kind, k)
                heapq.heappush(queue, (cost + heuristic(topology, by_id, nxt), next(tie), cost, nxt))
    raise ValueError("no plan delivers every task (a task heavier than the capacity?)")


def _actions(topology: LogistTopology, start: str, came: dict[State, tuple[State, str, int] | None],
             goal: State) -> list[Action]:
    stops: list[tuple[str, str, int]] = []
    state = goal
    while (link := came[state]) is not None:
        previous, kind, k = link
        stops.append((state[0], kind, k))
        state = previous
    out: list[Action] = []
    here = start
    for city, kind, k in reversed(stops):
        out += [Move(c) for c in topology.path(here, city)]
        out.append(Pickup(k) if kind == "pickup" else Deliver(k))
        here = city
    return out
