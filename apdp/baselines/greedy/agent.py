"""A base for the study's baselines that price tasks by greedy insertion into their schedules.

It keeps one schedule per vehicle of the tasks won so far (a won task goes, by greedy insertion,
into the vehicle with the smallest marginal cost), and, for the agents that model their opponent,
a shadow fleet: a copy of its own vehicles (the opponent's fleet is unknown) holding every task it
did not win, inserted the same way. Its plan is each vehicle's schedule as it stands, expanded
into moves along shortest paths, with no further optimisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from apdp.baselines.greedy.fleet import GreedyFleet
from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology


class GreedyAgent(Agent):
    """Keeps its schedules, and its opponent's shadow fleet when ``models_opponent``."""

    #: Whether the agent keeps a shadow fleet of the tasks it did not win.
    models_opponent: ClassVar[bool] = False

    fleet: GreedyFleet
    shadow: GreedyFleet

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Start empty schedules, its own and the shadow fleet's."""
        self.fleet = GreedyFleet(topology, company.vehicles)
        self.shadow = GreedyFleet(topology, company.vehicles)
        self.auctions = 0
        self.auctioned_weight = 0.0

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """Insert the task into its schedules when it won it, else into the shadow fleet."""
        self.auctions += 1
        self.auctioned_weight += task.weight
        if winner == self.agent_id:
            self.fleet.add(task)
        elif self.models_opponent:
            self.shadow.add(task)

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """Each vehicle's schedule as it stands.

        Should the referee's list of won tasks differ from the schedules' (it never does in a
        match), the schedules are built again by inserting its tasks in order.
        """
        if sorted(t.id for t in self.fleet.tasks()) != sorted(t.id for t in tasks):
            self.fleet = GreedyFleet(self.topology, vehicles)
            self.fleet.add_all(tasks)
        return self.fleet.plans()
