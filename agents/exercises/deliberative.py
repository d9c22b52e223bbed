"""The deliberative template agent: copy it with `apdp new NAME --exercise deliberative` and make it better.

The course's naive plan: the tasks one after the other, by id (drive to the pickup city along a
shortest path, pick up, drive to the delivery city, deliver), after delivering what the vehicle
carries. Find the optimal plan by BFS and A* (with an admissible heuristic) instead.
Play it with:  apdp match --exercise deliberative --agents <your-name>
"""

from __future__ import annotations

from collections.abc import Sequence

from apdp import Deliver, DeliberativeAgent, ExerciseVehicle, Move, Pickup, Task
from apdp.game.plan import Action


class DeliberativeTemplate(DeliberativeAgent):
    """The course's naive plan: one task at a time, in id order."""

    def plan(self, vehicle: ExerciseVehicle, tasks: Sequence[Task]) -> list[Action]:
        # From vehicle.city: deliver every task in vehicle.carried, pick up and deliver every task.
        plan: list[Action] = []
        city = vehicle.city
        for task in vehicle.carried:  # carried after a cancelled plan: deliver them first
            plan += [Move(c) for c in self.topology.path(city, task.delivery)[1:]] + [Deliver(task.id)]
            city = task.delivery
        for task in sorted(tasks, key=lambda t: t.id):
            plan += [Move(c) for c in self.topology.path(city, task.pickup)[1:]] + [Pickup(task.id)]
            plan += [Move(c) for c in self.topology.path(task.pickup, task.delivery)[1:]] + [Deliver(task.id)]
            city = task.delivery
        return plan

    def plan_cancelled(self, vehicle: ExerciseVehicle, carried: Sequence[Task]) -> None:
        # Another agent picked up one of our tasks first; plan() is called again at once.
        pass
