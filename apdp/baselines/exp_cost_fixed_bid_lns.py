"""ExpCostFixedBidLns: bids one fixed amount, the expected marginal cost of a task, on every task.

A stronger opponent than the study's ``exp-cost-fixed-bid`` (which prices by greedy insertion and hands in
its insertion schedules): it prices and plans with the shared LNS planner. Plays as ``exp-cost-fixed-bid-lns``.

Rule: in setup it draws ``synthetic_tasks`` (10) tasks from the task distribution, plans them with
its fleet, and takes the plan's cost per task as the expected marginal cost. It bids that same
amount on every task it can carry (None on a task heavier than all its vehicles) and plans the
tasks it won with the shared planner.

Parameters: ``synthetic_tasks`` (10), ``prior_iterations`` (2000), plus those of PlanningAgent.
"""

from __future__ import annotations

from apdp.baselines.planning.planning_agent import PlanningAgent
from apdp.game.company import Company
from apdp.game.distribution import TaskDistribution
from apdp.game.task import Task
from apdp.game.topology import Topology


class ExpCostFixedBidLns(PlanningAgent):
    """The same bid, the average marginal cost of synthetic tasks, on every task."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Estimate the fixed bid."""
        super().setup(topology, distribution, company)
        self.fixed_bid = self.synthetic_prior()

    def bid(self, task: Task) -> float | None:
        """The fixed bid, or None when no vehicle can carry the task."""
        return self.fixed_bid if self.fleet.can_carry(task) else None
