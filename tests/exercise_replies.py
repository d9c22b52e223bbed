"""What the tests' fake models write for the course's other exercises: deliberative A* agents with an
admissible heuristic (the farthest task still to do) and with an inadmissible one (every task's legs
added up), as models wrote them in the study's section 5.1; and a centralized agent that spreads its tasks
over its fleet."""

from __future__ import annotations

ASTAR = '''\
import heapq
import itertools
import time

from apdp import Deliver, DeliberativeAgent, Move, Pickup


class AStar(DeliberativeAgent):
    """A* over (city, tasks waiting, tasks carried)."""

    def heuristic(self, city, waiting, carried, tasks):
        d = self.topology.distance
        HEURISTIC_BODY

    def plan(self, vehicle, tasks):
        started = time.perf_counter()
        by_id = {t.id: t for t in [*tasks, *vehicle.carried]}
        d = self.topology.distance
        first = (vehicle.city, frozenset(t.id for t in tasks), frozenset(t.id for t in vehicle.carried))
        tie = itertools.count()
        queue = [(self.heuristic(*first, by_id), next(tie), 0.0, first, ())]
        closed = set()
        nodes = 0
        while queue:
            _, _, g, state, steps = heapq.heappop(queue)
            if state in closed:
                continue
            closed.add(state)
            nodes += 1
            city, waiting, carried = state
            if not waiting and not carried:
                print(f"A* expanded {nodes} nodes in {time.perf_counter() - started:.3f} s")
                return self.actions(vehicle.city, steps, by_id)
            load = sum(by_id[k].weight for k in carried)
            moves = [(by_id[k].pickup, (by_id[k].pickup, waiting - {k}, carried | {k}), ("pickup", k))
                     for k in sorted(waiting) if load + by_id[k].weight <= vehicle.capacity]
            moves += [(by_id[k].delivery, (by_id[k].delivery, waiting, carried - {k}), ("deliver", k))
                      for k in sorted(carried)]
            for there, after, step in moves:
                if after not in closed:
                    cost = g + d(city, there)
                    heapq.heappush(queue, (cost + self.heuristic(*after, by_id), next(tie), cost, after,
                                           steps + (step,)))
        raise RuntimeError("no plan")

    def actions(self, start, steps, by_id):
        plan, here = [], start
        for kind, k in steps:
            there = by_id[k].pickup if kind == "pickup" else by_id[k].delivery
            plan += [Move(c) for c in self.topology.path(here, there)[1:]]
            plan.append(Pickup(k) if kind == "pickup" else Deliver(k))
            here = there
        return plan
'''

#: A* with an admissible heuristic: the farthest remaining task.
ADMISSIBLE = ASTAR.replace("HEURISTIC_BODY", """best = 0.0
        for k in waiting:
            best = max(best, d(city, tasks[k].pickup) + d(tasks[k].pickup, tasks[k].delivery))
        for k in carried:
            best = max(best, d(city, tasks[k].delivery))
        return best""")

#: A* with an inadmissible heuristic: every remaining task's way there and length, added up.
INADMISSIBLE = ASTAR.replace("class AStar", "class SumAStar").replace("HEURISTIC_BODY", """legs = 0.0
        for k in waiting:
            legs += d(city, tasks[k].pickup) + d(tasks[k].pickup, tasks[k].delivery)
        return legs + sum(d(city, tasks[k].delivery) for k in carried)""")

#: A centralized agent that spreads its tasks over its fleet: each task on the next vehicle that can
#: carry it, one task at a time (more vehicles, and mostly more km, than the course's template).
SPREAD = '''
from apdp import CentralizedAgent, Deliver, Move, Pickup


class Spread(CentralizedAgent):
    """Each task on the next vehicle that can carry it, one task at a time."""

    def plan(self, vehicles, tasks):
        plans = [[] for _ in vehicles]
        at = [v.home for v in vehicles]
        for n, task in enumerate(tasks):
            i = next(k for k in [*range(n % len(vehicles), len(vehicles)), *range(len(vehicles))]
                     if vehicles[k].capacity >= task.weight)
            plans[i] += [Move(c) for c in self.topology.path(at[i], task.pickup)[1:]] + [Pickup(task.id)]
            plans[i] += [Move(c) for c in self.topology.path(task.pickup, task.delivery)[1:]] + [Deliver(task.id)]
            at[i] = task.delivery
        return plans
'''
