"""An agent that answers at once (a fixed bid, a trivial plan): what is left is the referee's time."""

from __future__ import annotations

from collections.abc import Sequence

from apdp import Action, Agent, Stop, Task, Vehicle, plan_from_stops


class Instant(Agent):
    def bid(self, task: Task) -> float | None:
        return 1000.0 + task.id * (1 + self.agent_id)

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
