"""ModelOpponent (the study's; the course named it "best response"): outbids its opponent's cost.

Rule: bid = max(trunc(own marginal cost) + ``margin``, trunc(shadow fleet's marginal cost),
``min_bid``). Marginal costs are those of greedy insertion into schedules, as Honest's. The shadow
fleet is a copy of its own vehicles (same homes, capacities and costs: the opponent's fleet is
unknown) holding every task it did not win, inserted the same way. It abstains on a task heavier
than all its vehicles. No randomness: the same tasks give the same bids.

Parameters: ``margin`` (10), ``min_bid`` (10). A stronger version plays as ``model-opponent-lns``.
"""

from __future__ import annotations

import math

from apdp.baselines.greedy.agent import GreedyAgent
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class ModelOpponent(GreedyAgent):
    """Bids max(trunc(own cost) + 10, trunc(shadow fleet's cost), 10)."""

    models_opponent = True

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Start empty schedules and shadow fleet; read the parameters."""
        super().setup(topology, distribution, company)
        self.margin = self.param("margin", 10)
        self.min_bid = self.param("min_bid", 10)

    def bid(self, task: Task) -> float | None:
        """The larger of its own cost plus the margin, the opponent's cost and the floor."""
        if not self.fleet.can_carry(task):
            return None
        own, theirs = self.costs(task)
        return float(max(own + self.margin, theirs, self.min_bid))

    def costs(self, task: Task) -> tuple[int, int]:
        """Its own and its opponent's (the shadow fleet's) cost of ``task``, truncated: their marginal costs."""
        return math.trunc(self.fleet.marginal_cost(task)), math.trunc(self.shadow.marginal_cost(task))
