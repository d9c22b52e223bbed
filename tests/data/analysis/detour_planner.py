"""Plans badly on purpose: its first vehicle carries the tasks one at a time and drives back home
after each delivery. It bids 80% of its cheapest-insertion marginal cost (as ``at_cost`` works it
out), so that it wins tasks to plan."""

from apdp import Agent, Move, Stop, plan_from_stops
from apdp.baselines.planning import Problem, Solution, apply_insertion, cheapest_insertion


class DetourPlanner(Agent):
    def setup(self, topology, distribution, company):
        self.fleet = Solution.empty(Problem(topology, company.vehicles))

    def bid(self, task):
        if task.weight > self.company.vehicles[0].capacity:
            return None
        return 0.8 * cheapest_insertion(self.fleet, self.fleet.problem.slot(task)).cost

    def auction_result(self, task, winner, bids):
        if winner == self.agent_id:
            slot = self.fleet.problem.slot(task)
            apply_insertion(self.fleet, slot, cheapest_insertion(self.fleet, slot))

    def plan(self, vehicles, tasks):
        first = vehicles[0]
        actions = []
        for task in tasks:  # from home, and back home
            actions += plan_from_stops(self.topology, first, [Stop.pickup(task), Stop.deliver(task)])
            actions += [Move(city) for city in self.topology.path(task.delivery, first.home)[1:]]
        return [actions] + [[] for _ in vehicles[1:]]
