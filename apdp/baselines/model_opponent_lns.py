"""ModelOpponentLns: bids the larger of its own marginal cost and its opponent's.

A stronger opponent than the study's ``model-opponent`` (which prices by greedy insertion and hands in
its insertion schedules): it prices and plans with the shared LNS planner. Plays as ``model-opponent-lns``.

Rule: it keeps a shadow fleet for each opponent: the tasks that opponent won, planned with a copy
of its own fleet's vehicles (the opponent's fleet is unknown; its own is the proxy). The
opponent's marginal cost of a task is its marginal cost for the shadow fleet. The bid is
max(own marginal cost, opponent's marginal cost); with several opponents, the cheapest one counts
(the lowest bid wins). It abstains on a task heavier than all its vehicles.

Parameters: those of PlanningAgent.
"""

from __future__ import annotations

from apdp.baselines.planning.planning_agent import PlanningAgent
from apdp.game.task import Task


class ModelOpponentLns(PlanningAgent):
    """Bids max(own marginal cost, the opponent's marginal cost on its shadow fleet)."""

    models_opponents = True

    def bid(self, task: Task) -> float | None:
        """The larger of the two marginal costs, or None when we cannot carry the task."""
        own = self.own_marginal_cost(task, share=0.5)
        if own is None:
            return None
        theirs = self.opponents_marginal_cost(task)
        return own if theirs is None else max(own, theirs)
