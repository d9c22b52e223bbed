"""The planning library of the baselines: cheapest insertion, LNS, an OR-Tools backend.

Quick start::

    from baselines.planning import Problem, Solution, plan_tasks

    result = plan_tasks(topology, vehicles, tasks, deadline=self.deadline.minus(0.3),
                        max_iterations=3000, seed=int(self.rng.integers(2**31)))
    return result.plans
"""

from baselines.planning.insertion import (
    Insertion,
    apply_insertion,
    best_route_insertion,
    cheapest_insertion,
    construct,
    insert_task,
)
from baselines.planning.problem import Problem, TaskTooHeavy
from baselines.planning.solution import Solution

__all__ = [
    "Insertion",
    "Problem",
    "Solution",
    "TaskTooHeavy",
    "apply_insertion",
    "best_route_insertion",
    "cheapest_insertion",
    "construct",
    "insert_task",
]
