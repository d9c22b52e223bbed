"""Naive (the course's template rule): a distance-based bid whose noise grows with the task's index.

Rule: it uses only its first vehicle. Its current city is that vehicle's home, then the delivery
city of the last task it won. Bid = round(((distance(current, pickup) + distance(pickup, delivery))
x cost per km) x (1 + u x ``noise`` x task id)), u uniform in [0, 1) from ``self.rng`` (drawn for
every task it bids on), rounded half up to a whole number. It abstains on a task heavier than that
vehicle's capacity. Plan: that vehicle picks up and delivers each won task in increasing id, one at
a time; the other vehicles stay home. ``agents/template.py`` plays the same rule.

Parameter: ``noise`` (0.05).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from apdp.game.agent import Agent
from apdp.game.company import Company, Vehicle
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Action, Stop, plan_from_stops
from apdp.game.task import Task
from apdp.game.topology import Topology


class Naive(Agent):
    """Distance-based bids with noise growing with the task id; one vehicle, one task at a time."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Take the first vehicle, at home, and read the noise."""
        self.noise = self.param("noise", 0.05)
        self.vehicle = company.vehicles[0]
        self.city = self.vehicle.home

    def cost(self, task: Task) -> float:
        """The task's cost before noise: drive from the current city to it, then carry it."""
        km = self.topology.distance(self.city, task.pickup) + self.topology.distance(task.pickup, task.delivery)
        return km * self.vehicle.cost_per_km

    def bid(self, task: Task) -> float | None:
        """The cost with growing noise, rounded; None when the vehicle cannot carry the task."""
        if task.weight > self.vehicle.capacity:
            return None
        ratio = 1.0 + self.rng.random() * self.noise * task.id
        return float(math.floor(self.cost(task) * ratio + 0.5))

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """A won task moves the current city to its delivery city."""
        if winner == self.agent_id:
            self.city = task.delivery

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """The first vehicle carries the won tasks one at a time, in increasing id."""
        stops = [stop for task in sorted(tasks, key=lambda t: t.id) for stop in (Stop.pickup(task), Stop.deliver(task))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
