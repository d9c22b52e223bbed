"""The planning library of the baselines: cheapest insertion, LNS, an OR-Tools backend.

Plan a fleet for a set of tasks (the final plan of an agent)::

    from apdp.baselines.planning import plan_tasks

    def plan(self, vehicles, tasks):
        result = plan_tasks(self.topology, vehicles, tasks,
                            deadline=self.deadline.minus(0.3),      # safety cap
                            max_iterations=3_000,                   # the real budget
                            seed=int(self.rng.integers(2**63)))
        return result.plans                                         # always valid

Price a task during the auction (warm-started marginal cost)::

    from apdp.baselines.planning import Fleet

    self.fleet = Fleet(topology, company.vehicles, random.Random(int(self.rng.integers(2**63))))
    cost = self.fleet.marginal_cost(task, self.deadline, max_iterations=100)  # None: too heavy
    ...
    self.fleet.add(task)          # in auction_result, when the task was won

Lower level: ``Problem`` (fleet + task slots), ``Solution`` (routes of stop codes),
``cheapest_insertion`` (exact, O(n) per route), ``construct``, ``improve`` (LNS + annealing),
``SearchLog`` (what searches did: iterations, and runs the clock ended before their budget).

An iteration costs about 0.05 ms of CPU for 25 tasks and 0.1 ms for 50 (France, two vehicles):
budgets of this size end far inside the time limits, so the results depend on the seed only.
"""

from apdp.baselines.planning.fleet import Fleet
from apdp.baselines.planning.insertion import (
    Insertion,
    apply_insertion,
    best_route_insertion,
    cheapest_insertion,
    construct,
    insert_task,
)
from apdp.baselines.planning.lns import LnsSettings, SearchLog, improve
from apdp.baselines.planning.planner import BACKENDS, PlanResult, plan_tasks
from apdp.baselines.planning.prior import average_marginal_cost
from apdp.baselines.planning.problem import Problem, TaskTooHeavy
from apdp.baselines.planning.solution import Solution

__all__ = [
    "BACKENDS",
    "Fleet",
    "Insertion",
    "LnsSettings",
    "PlanResult",
    "Problem",
    "SearchLog",
    "Solution",
    "TaskTooHeavy",
    "apply_insertion",
    "average_marginal_cost",
    "best_route_insertion",
    "cheapest_insertion",
    "construct",
    "improve",
    "insert_task",
    "plan_tasks",
]
