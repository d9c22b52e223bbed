"""RiskSeekingLns: blends a prior into its marginal costs early in the auction, and models its opponent.

A stronger opponent than the study's ``risk-seeking`` (which prices by greedy insertion and hands in
its insertion schedules): it prices and plans with the shared LNS planner. Plays as ``risk-seeking-lns``.

Rule: in setup it computes a prior, the average marginal cost of ``synthetic_tasks`` (10) tasks
drawn from the distribution (as ExpCostFixedBidLns). For the k-th auction (k = 0, 1, ...) the weight
of the prior is ``w = exp(-k / horizon)``; its blended cost is ``w x prior + (1 - w) x marginal``
for its own fleet and likewise for the opponent's shadow fleet (see ModelOpponentLns). It bids the
larger blended cost, and abstains on a task heavier than all its vehicles.

Early on, when its plan is empty and every marginal cost is high, the prior pulls its bids down
(it takes risks to win tasks); as the auction goes on its bids follow the marginal costs.

Parameters: ``synthetic_tasks`` (10), ``horizon`` (10.0 auctions), ``prior_iterations`` (2000),
plus those of PlanningAgent.
"""

from __future__ import annotations

import math

from apdp.baselines.planning.planning_agent import PlanningAgent
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class RiskSeekingLns(PlanningAgent):
    """Bids max over itself and its opponent of prior and marginal cost, blended on a schedule."""

    models_opponents = True

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Read the horizon and compute the prior (the shadow fleets start in PlanningAgent)."""
        super().setup(topology, distribution, company)
        self.horizon = self.param("horizon", 10.0)
        if self.horizon <= 0:
            raise ValueError(f"parameter horizon must be > 0, got {self.horizon}")
        self.prior = self.synthetic_prior()

    def prior_weight(self) -> float:
        """Weight of the prior in the current auction: exp(-auctions so far / horizon)."""
        return math.exp(-self.auctions / self.horizon)

    def blend(self, marginal: float) -> float:
        """The prior and a marginal cost mixed by the schedule."""
        w = self.prior_weight()
        return w * self.prior + (1.0 - w) * marginal

    def bid(self, task: Task) -> float | None:
        """The larger of its own and the opponent's blended costs (None if it cannot carry it)."""
        own = self.own_marginal_cost(task, share=0.5)
        if own is None:
            return None
        theirs = self.opponents_marginal_cost(task)
        mine = self.blend(own)
        return mine if theirs is None else max(mine, self.blend(theirs))
