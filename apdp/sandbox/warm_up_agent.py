"""The agent the zygote's warm-up plays (:mod:`apdp.sandbox.warm_up`), loaded from this file as an
agent's file is loaded: it bids from its generator and carries its tasks one after the other."""

from __future__ import annotations

from collections.abc import Sequence

from apdp.game.agent import Agent
from apdp.game.company import Vehicle
from apdp.game.plan import Action, Stop, plan_from_stops
from apdp.game.task import Task


class WarmUpAgent(Agent):
    """Bids from its generator; plans its tasks one after the other on its first vehicle."""

    def bid(self, task: Task) -> float | None:
        return 100.0 + float(self.rng.integers(100)) + task.weight

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        stops = [stop for task in tasks for stop in (Stop.pickup(task), Stop.deliver(task))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
