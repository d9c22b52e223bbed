"""A base for agents that bid with a Fleet and plan with ``plan_tasks`` (the baselines use it).

Parameters (``Agent.param``): ``bid_iterations`` (LNS iterations per marginal cost, 300),
``plan_iterations`` (LNS iterations of the final plan, 10000), ``backend`` (``lns`` or ``ortools``).
The iteration budgets make decisions depend on the match seed only; deadlines are a safety cap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from apdp.baselines.planning.fleet import Fleet
from apdp.baselines.planning.planner import BACKENDS, plan_tasks
from apdp.baselines.planning.prior import average_marginal_cost
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology

#: Seconds kept back from the referee's deadline (plans must still be written out and sent).
PLAN_MARGIN = 0.3
BID_MARGIN = 0.1


class PlanningAgent(Agent):
    """Keeps its own fleet's plan across auctions and plans with the shared planner at the end."""

    fleet: Fleet

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Read the planning parameters and start an empty plan."""
        self.bid_iterations = self.param("bid_iterations", 300)
        self.plan_iterations = self.param("plan_iterations", 10000)
        self.backend = self.param("backend", "lns")
        if self.backend not in BACKENDS:
            raise ValueError(f"parameter backend must be one of {BACKENDS}, got {self.backend!r}")
        self.auctions = 0
        self.fleet = Fleet(topology, company.vehicles, self.new_search_rng())

    def new_search_rng(self) -> random.Random:
        """A fast generator for the planner, seeded from the match's ``self.rng``."""
        return random.Random(int(self.rng.integers(0, 2**63)))

    def bid_deadline(self, share: float = 1.0) -> Deadline:
        """The part ``share`` of the time left for this bid, less a safety margin."""
        left = max(0.0, self.deadline.remaining() - BID_MARGIN)
        return Deadline.after(left * share)

    def synthetic_prior(self) -> float:
        """The average marginal cost of ``synthetic_tasks`` (10) tasks drawn from the distribution."""
        return average_marginal_cost(
            self.topology,
            self.distribution,
            self.company.vehicles,
            self.rng,
            self.param("synthetic_tasks", 10),
            max_iterations=self.param("prior_iterations", 2000),
            deadline=self.deadline.minus(1.0),
        )

    def own_marginal_cost(self, task: Task, share: float = 1.0) -> float | None:
        """Marginal cost of ``task`` for our fleet (None if we cannot carry it)."""
        return self.fleet.marginal_cost(task, self.bid_deadline(share), self.bid_iterations)

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """Keep the plan with the task when we won it."""
        self.auctions += 1
        if winner == self.agent_id:
            self.fleet.add(task)

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """Improve the plan of the won tasks within the plan deadline and hand it in."""
        result = plan_tasks(
            self.topology,
            vehicles,
            tasks,
            deadline=self.deadline.minus(PLAN_MARGIN),
            max_iterations=self.plan_iterations,
            seed=int(self.rng.integers(0, 2**63)),
            backend=self.backend,  # type: ignore[arg-type]
            start=self.fleet.solution,
        )
        return result.plans
