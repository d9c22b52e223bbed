"""A prior marginal cost: what a fleet's schedules would pay, per task, for synthetic tasks.

Prior = the smallest cost increase, over (a) each vehicle alone taking all the tasks (inserted one
after the other by greedy insertion into its current schedule) and (b) the tasks split into
consecutive equal shares, one share per vehicle (only when a share holds at least one task; when
the vehicles do not divide the count, the remainder is left out), divided by the number of tasks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from apdp.baselines.greedy.fleet import GreedyFleet
from apdp.game.task import Task
from apdp.game.topology import Topology


def uniform_tasks(topology: Topology, rng: np.random.Generator, count: int, weight: float) -> list[Task]:
    """``count`` tasks of ``weight`` whose pickup and delivery cities are each drawn uniformly
    among all cities (they may coincide); ids -1, -2, ..."""
    cities = topology.cities
    tasks = []
    for k in range(count):
        pickup = cities[int(rng.integers(len(cities)))]
        delivery = cities[int(rng.integers(len(cities)))]
        tasks.append(Task(-1 - k, pickup, delivery, weight))
    return tasks


def prior_cost(fleet: GreedyFleet, tasks: Sequence[Task]) -> float:
    """The fleet's prior marginal cost of ``tasks`` (see the module doc); 0 without tasks."""
    if not tasks:
        return 0.0
    options = [_increase(fleet, k, tasks) for k in range(len(fleet.schedules))]
    share = len(tasks) // len(fleet.schedules)
    if share >= 1:
        options.append(
            sum(
                (_increase(fleet, k, tasks[k * share : (k + 1) * share]) for k in range(len(fleet.schedules))),
                start=0.0,
            )
        )
    return min(options) / len(tasks)


def _increase(fleet: GreedyFleet, vehicle: int, tasks: Sequence[Task]) -> float:
    """Cost increase of the vehicle's schedule when ``tasks`` are inserted one after the other."""
    schedule = fleet.schedules[vehicle]
    trial = schedule.copy()
    for task in tasks:
        trial.insert(task)
    return trial.cost - schedule.cost
