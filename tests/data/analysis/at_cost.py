"""Bids exactly its reference marginal cost, as ``apdp analyze`` works it out: the cheapest insertion
of the task into the tasks it has won, each inserted at its cheapest place in auction order. Its
markup is 0 in every auction where that cost is above 0. Plans its insertion schedule."""

from apdp import Agent
from apdp.baselines.planning import Problem, Solution, apply_insertion, cheapest_insertion


class AtCost(Agent):
    def setup(self, topology, distribution, company):
        self.fleet = Solution.empty(Problem(topology, company.vehicles))

    def bid(self, task):
        if not self.fleet.problem.can_carry(task):
            return None
        return cheapest_insertion(self.fleet, self.fleet.problem.slot(task)).cost

    def auction_result(self, task, winner, bids):
        if winner == self.agent_id:
            slot = self.fleet.problem.slot(task)
            apply_insertion(self.fleet, slot, cheapest_insertion(self.fleet, slot))

    def plan(self, vehicles, tasks):
        return self.fleet.to_plans()
