"""Bids the CPUs it may run on: 1000 per CPU, plus the lowest CPU's number; delivers its tasks one
after the other with its first vehicle."""

import os

from apdp import Agent, Stop, plan_from_stops


class CoreBidder(Agent):
    def bid(self, task):
        cpus = os.sched_getaffinity(0)
        return 1000.0 * len(cpus) + min(cpus)

    def plan(self, vehicles, tasks):
        stops = [stop for task in tasks for stop in (Stop.pickup(task), Stop.deliver(task))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
