"""Naive: bids the cost of driving to the task and carrying it, plus a little noise.

Rule: it uses a single vehicle, the one with the largest capacity (so that it fits the heaviest
task; the first such vehicle on a tie), and delivers every won task one after the other. Its
"current city" is where that vehicle will be after the tasks already won (the last delivery city,
or home). Bid = (distance(current city, pickup) + distance(pickup, delivery)) x cost per km x
(1 + noise x u), u uniform in [-1, 1]. It abstains on a task heavier than that vehicle's capacity.

Parameter: ``noise`` (0.05: bids within +/-5% of the cost).
"""

from __future__ import annotations

from collections.abc import Sequence

from apdp.agent import Agent
from apdp.company import Company, Vehicle
from apdp.distribution import TaskDistribution
from apdp.plan import Action, Stop, plan_from_stops
from apdp.task import Task
from apdp.topology import Topology


class Naive(Agent):
    """Distance-based bids with bounded noise; every task on one vehicle, one after the other."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Choose the vehicle and read the noise."""
        self.noise = self.param("noise", 0.05)
        self.vehicle_index = max(
            range(len(company.vehicles)), key=lambda v: (company.vehicles[v].capacity, -v)
        )
        self.vehicle = company.vehicles[self.vehicle_index]
        self.position = self.vehicle.home
        self.won: list[Task] = []

    def cost(self, task: Task) -> float:
        """The cost of the task before noise: drive to it from the current city, carry it."""
        km = self.topology.distance(self.position, task.pickup)
        km += self.topology.distance(task.pickup, task.delivery)
        return km * self.vehicle.cost_per_km

    def bid(self, task: Task) -> float | None:
        """The distance-based cost with noise, or None when the vehicle cannot carry the task."""
        if task.weight > self.vehicle.capacity:
            return None
        return float(self.cost(task) * (1.0 + self.noise * self.rng.uniform(-1.0, 1.0)))

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """A won task moves the vehicle's end to its delivery city."""
        if winner == self.agent_id:
            self.won.append(task)
            self.position = task.delivery

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """All tasks, in order, picked up and delivered one at a time by the chosen vehicle."""
        stops = [stop for task in tasks for stop in (Stop.pickup(task), Stop.deliver(task))]
        plans: list[list[Action]] = [[] for _ in vehicles]
        plans[self.vehicle_index] = plan_from_stops(
            self.topology, vehicles[self.vehicle_index], stops
        )
        return plans
