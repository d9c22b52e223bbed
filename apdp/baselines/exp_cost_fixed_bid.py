"""ExpCostFixedBid (the study's description; not one of the course's test agents): one fixed bid.

Rule: at setup it draws ``synthetic_tasks`` (10) tasks from the task distribution with
``self.rng``; its bid on every task it can carry is their average marginal cost, computed like
RiskSeeking's prior on empty schedules (the smallest of each vehicle alone taking them all and
consecutive equal shares, one per vehicle; divided by their number), truncated to a whole number.
It abstains on a task heavier than all its vehicles. Won tasks go into its schedules by greedy
insertion, and its plan is those schedules (see apdp.baselines.greedy).

Parameter: ``synthetic_tasks`` (10). A stronger version plays as ``exp-cost-fixed-bid-lns``.
"""

from __future__ import annotations

import math

from apdp.baselines.greedy.agent import GreedyAgent
from apdp.baselines.greedy.prior import prior_cost
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class ExpCostFixedBid(GreedyAgent):
    """The same whole-number bid, the average marginal cost of synthetic tasks, on every task."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Draw the synthetic tasks and fix the bid."""
        super().setup(topology, distribution, company)
        count = self.param("synthetic_tasks", 10)
        tasks = [distribution.sample(self.rng, -1 - k) for k in range(count)]
        self.fixed_bid = math.trunc(prior_cost(self.fleet, tasks))

    def bid(self, task: Task) -> float | None:
        """The fixed bid, or None when no vehicle can carry the task."""
        return float(self.fixed_bid) if self.fleet.can_carry(task) else None
