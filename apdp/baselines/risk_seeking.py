"""RiskSeeking (the study's): blends a synthetic-task prior into its and its opponent's costs.

Rule: with k the number of auctions so far and w = exp(-``decay`` x k),
own = trunc((1 - w) x own marginal cost + w x own prior) and
opp = trunc((1 - w) x shadow marginal cost + w x shadow prior); bid = max(own + ``margin``, opp,
``min_bid``). Marginal costs and the shadow fleet are ModelOpponent's. A prior is computed afresh
for every bid, first for its own fleet, then for the shadow fleet, each from its own
``synthetic_tasks`` (10) tasks: pickup and delivery cities drawn uniformly among all cities with
``self.rng`` (they may coincide), weight = (1 + the weights of all k tasks auctioned so far) //
(k + 1). Prior = the smallest cost increase of (a) each vehicle alone taking all the synthetic
tasks, one after the other by greedy insertion into its current schedule, and (b) the tasks split
into consecutive equal shares, one per vehicle; divided by their number (see apdp.baselines.greedy.prior).
It abstains on a task heavier than all its vehicles.

Parameters: ``decay`` (0.1), ``synthetic_tasks`` (10), ``margin`` (10), ``min_bid`` (10).
A stronger version plays as ``risk-seeking-lns``.
"""

from __future__ import annotations

import math

from apdp.baselines.greedy.fleet import GreedyFleet
from apdp.baselines.greedy.prior import prior_cost, uniform_tasks
from apdp.baselines.model_opponent import ModelOpponent
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class RiskSeeking(ModelOpponent):
    """Bids max(own + 10, opp, 10) of prior-blended costs, the prior fading as exp(-0.1 k).

    ModelOpponent's rule and parameters, on costs that blend a prior in (:meth:`costs`).
    """

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Start empty schedules and shadow fleet; read the parameters."""
        super().setup(topology, distribution, company)
        self.decay = self.param("decay", 0.1)
        self.synthetic_tasks = self.param("synthetic_tasks", 10)

    def prior_weight(self) -> float:
        """Weight w of the prior in the current auction: exp(-decay x auctions so far)."""
        return math.exp(-self.decay * self.auctions)

    def synthetic_weight(self) -> int:
        """Weight of the synthetic tasks: (1 + weights auctioned so far) // (auctions so far + 1)."""
        return int((1 + self.auctioned_weight) // (self.auctions + 1))

    def prior(self, fleet: GreedyFleet) -> float:
        """A fresh prior for ``fleet`` from newly drawn synthetic tasks."""
        tasks = uniform_tasks(self.topology, self.rng, self.synthetic_tasks, self.synthetic_weight())
        return prior_cost(fleet, tasks)

    def costs(self, task: Task) -> tuple[int, int]:
        """Its own and its opponent's costs of ``task``: marginal costs and fresh priors blended, truncated."""
        w = self.prior_weight()
        own_prior = self.prior(self.fleet)
        opp_prior = self.prior(self.shadow)
        own = math.trunc((1 - w) * self.fleet.marginal_cost(task) + w * own_prior)
        opp = math.trunc((1 - w) * self.shadow.marginal_cost(task) + w * opp_prior)
        return own, opp
