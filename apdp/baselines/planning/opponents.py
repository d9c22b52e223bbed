"""Shadow fleets: each opponent's won tasks planned with a copy of one's own vehicles."""

from __future__ import annotations

import random

from apdp.baselines.planning.fleet import Fleet
from apdp.baselines.planning.lns import SearchLog
from apdp.game.agent import Agent
from apdp.game.company import Company
from apdp.game.deadline import Deadline
from apdp.game.task import Task
from apdp.game.topology import Topology


class ShadowFleets:
    """One shadow Fleet per opponent of ``agent`` (companies other than its own)."""

    def __init__(self, agent: Agent, topology: Topology, company: Company) -> None:
        self.me = agent.agent_id
        self.fleets: dict[int, Fleet] = {
            k: Fleet(topology, company.vehicles, random.Random(int(agent.rng.integers(0, 2**63))))
            for k in range(agent.agents)
            if k != agent.agent_id
        }

    def marginal_cost(
        self, task: Task, deadline: Deadline, max_iterations: int | None, log: SearchLog | None = None
    ) -> float | None:
        """The cheapest opponent's marginal cost of ``task`` (None without opponents); ``log`` adds
        up what the searches did."""
        if not self.fleets:
            return None
        costs = []
        for n, fleet in enumerate(self.fleets.values()):
            part = Deadline.after(deadline.remaining() / (len(self.fleets) - n))
            cost = fleet.marginal_cost(task, part, max_iterations, log)
            if cost is not None:
                costs.append(cost)
        return min(costs) if costs else None

    def record(self, task: Task, winner: int | None) -> None:
        """Add ``task`` to the winning opponent's shadow plan."""
        fleet = self.fleets.get(winner) if winner is not None else None
        if fleet is not None:
            fleet.add(task)
