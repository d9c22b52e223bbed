"""The course templates' naive plan, the reference of the centralized exercise (and the deliberative
template's ``naive`` plan): ALL tasks on the first vehicle, one after the other in task-id order,
each fetched and delivered along the platform's shortest paths; every other vehicle idle.
"""

from __future__ import annotations

from collections.abc import Sequence

from apdp.exercises.topology import LogistTopology
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task


def naive_plan(topology: LogistTopology, start: str, tasks: Sequence[Task]) -> list[Action]:
    """One vehicle's plan from ``start``: for each task by id, the path to its pickup, the pickup,
    the path to its delivery, the delivery."""
    plan: list[Action] = []
    here = start
    for task in sorted(tasks, key=lambda t: t.id):
        plan += [Move(c) for c in topology.path(here, task.pickup)]
        plan.append(Pickup(task.id))
        plan += [Move(c) for c in topology.path(task.pickup, task.delivery)]
        plan.append(Deliver(task.id))
        here = task.delivery
    return plan


def naive_plans(topology: LogistTopology, homes: Sequence[str], tasks: Sequence[Task]) -> list[list[Action]]:
    """The centralized template's plans: the naive plan on the first vehicle, empty ones for the rest."""
    return [naive_plan(topology, homes[0], tasks), *([] for _ in homes[1:])]


def plan_units(topology: LogistTopology, start: str, plan: Sequence[Action]) -> int:
    """The distance units a plan drives from ``start`` (each move billed its shortest distance)."""
    units = 0
    here = start
    for action in plan:
        if isinstance(action, Move):
            units += topology.distance_units(here, action.city)
            here = action.city
    return units
