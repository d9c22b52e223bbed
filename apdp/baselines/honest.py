"""Honest (the study's): bids its marginal cost, truncated to a whole number, plus 10.

Rule: bid = trunc(fleet marginal cost) + ``margin``. The fleet's marginal cost of a task is the
smallest, over its vehicles in order (a later one only if strictly cheaper), of the cost increase
of the vehicle's schedule when the task is inserted by greedy insertion (see apdp.baselines.greedy).
A won task is inserted into that vehicle; the plan is the schedules as they stand. It abstains on
a task heavier than all its vehicles. No randomness: the same tasks give the same bids.

Parameter: ``margin`` (10). A stronger version plays as ``honest-lns``.
"""

from __future__ import annotations

import math

from apdp.baselines.greedy.agent import GreedyAgent
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class Honest(GreedyAgent):
    """Bids trunc(marginal cost) + 10."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Start empty schedules and read the margin."""
        super().setup(topology, distribution, company)
        self.margin = self.param("margin", 10)

    def bid(self, task: Task) -> float | None:
        """The truncated marginal cost plus the margin, or None when no vehicle can carry the task."""
        if not self.fleet.can_carry(task):
            return None
        return float(math.trunc(self.fleet.marginal_cost(task)) + self.margin)
