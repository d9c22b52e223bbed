"""Bids its task's distance and crashes when asked for its plan: its record shows a faulted winner."""

from __future__ import annotations

from apdp import Agent


class PlanCrash(Agent):
    def setup(self, topology, distribution, company):
        self.topology = topology

    def bid(self, task):
        return 1000.0

    def auction_result(self, task, winner, bids):
        pass

    def plan(self, vehicles, tasks):
        raise RuntimeError("no plan today")
