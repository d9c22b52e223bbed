"""The template agent: copy this file to agents/<your-name>.py and make it better.

It bids the cost of driving to the task and carrying it, with noise that grows with the task's
index, rounded to a whole number, and delivers every task it wins one after the other with its first
vehicle (it abstains on a task too heavy for that vehicle). This is the course's template rule, the
one the study's ``naive`` baseline plays.
Play it with:  apdp match --topology france --agents <your-name> template
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from apdp import (
    Action,
    Agent,
    Company,
    Stop,
    Task,
    TaskDistribution,
    Topology,
    Vehicle,
    plan_from_stops,
)


class Template(Agent):
    """Distance-based bids with growing noise; all tasks on one vehicle, one after the other."""

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        # Called once before the first auction. self.params holds this agent's parameters
        # (from a scenario file or agents/params.toml); self.param reads one with a default.
        self.noise = self.param("noise", 0.05)  # noise per task index: task 10 gets up to +50%
        self.won: list[Task] = []
        # Where our vehicle will be once it has delivered everything won so far.
        self.position = company.vehicles[0].home

    def bid(self, task: Task) -> float | None:
        # The lowest bid wins the task and is paid that bid; return None to abstain.
        # Finish before self.deadline (self.deadline.remaining() seconds): the referee stops an
        # agent that runs past its time limit, and that agent loses the match.
        vehicle = self._vehicle_for(task)
        if vehicle is None:
            return None  # too heavy for every vehicle: we could not deliver it
        km = self.topology.distance(self.position, task.pickup)
        km += self.topology.distance(task.pickup, task.delivery)
        cost = km * vehicle.cost_per_km
        # self.rng is seeded by the referee: the same seed gives the same match.
        # The noise grows with the task's index (ids count from 0): later bids are higher.
        ratio = 1.0 + self.rng.random() * self.noise * task.id
        return float(math.floor(cost * ratio + 0.5))  # a whole number, rounded half up

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        # Everybody learns the task, the winner (a company index) and all bids.
        # self.agent_id is our own index in `bids`.
        if winner == self.agent_id:
            self.won.append(task)
            self.position = task.delivery

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        # One list of actions per vehicle. plan_from_stops fills in the moves along shortest
        # paths; every won task must be picked up and delivered by the same vehicle.
        # It carries one task at a time, so capacity only has to fit each task (see bid).
        stops: list[Stop] = []
        for task in sorted(tasks, key=lambda t: t.id):  # in the order they were auctioned
            stops += [Stop.pickup(task), Stop.deliver(task)]
        first = plan_from_stops(self.topology, vehicles[0], stops)
        return [first] + [[] for _ in vehicles[1:]]

    def _vehicle_for(self, task: Task) -> Vehicle | None:
        # The vehicle that carries everything: the first one, if it can take this task.
        first = self.company.vehicles[0]
        return first if task.weight <= first.capacity else None
