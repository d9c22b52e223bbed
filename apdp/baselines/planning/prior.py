"""The prior cost of a task: the average marginal cost of synthetic tasks from the distribution."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from apdp.baselines.planning.insertion import construct
from apdp.baselines.planning.lns import SearchLog, improve
from apdp.baselines.planning.problem import Problem
from apdp.baselines.planning.solution import Solution
from apdp.game.company import Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.topology import Topology


def average_marginal_cost(
    topology: Topology,
    distribution: TaskDistribution,
    vehicles: Sequence[Vehicle],
    rng: np.random.Generator,
    count: int = 10,
    *,
    max_iterations: int = 2000,
    deadline: Deadline | None = None,
    log: SearchLog | None = None,
) -> float:
    """Cost of planning ``count`` tasks drawn from ``distribution`` with the fleet, per task.

    Tasks no vehicle can carry are drawn again (at most ``10 * count`` draws in all). ``log`` adds
    up what the search did.
    """
    problem = Problem(topology, vehicles)
    slots: list[int] = []
    for draw in range(10 * max(1, count)):
        if len(slots) >= count:
            break
        task = distribution.sample(rng, -1 - draw)
        if problem.can_carry(task):
            slots.append(problem.slot(task))
    if not slots:
        return 0.0
    start = construct(Solution.empty(problem), slots)
    seed = int(rng.integers(0, 2**63))
    best = improve(start, random.Random(seed), deadline=deadline, max_iterations=max_iterations, log=log)
    return best.cost / len(slots)
