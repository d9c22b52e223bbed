"""HonestLns: bids its true marginal cost.

A stronger opponent than the study's ``honest`` (which prices by greedy insertion and hands in
its insertion schedules): it prices and plans with the shared LNS planner. Plays as ``honest-lns``.

Rule: the bid is the cost increase of adding the task to its current plan of the tasks won so far:
cheapest insertion over all its vehicles, then a short warm-started LNS of the plan with the task
(see apdp.baselines.planning.fleet). It abstains on a task heavier than all its vehicles, and plans the
tasks it won with the shared planner, starting from the plan it kept while bidding.

Parameters: those of PlanningAgent (``bid_iterations``, ``plan_iterations``, ``backend``).
"""

from __future__ import annotations

from apdp.baselines.planning.planning_agent import PlanningAgent
from apdp.game.task import Task


class HonestLns(PlanningAgent):
    """Bids the marginal cost of the task for its own fleet."""

    def bid(self, task: Task) -> float | None:
        """The marginal cost, or None when no vehicle can carry the task."""
        return self.own_marginal_cost(task)
