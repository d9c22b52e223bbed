"""The centralized template agent: copy it with `apdp new NAME --exercise centralized` and make it better.

The course's naive plan on one vehicle: all tasks on the company's first vehicle, one after the
other by id; the other vehicles stay at home. Plan all vehicles by stochastic local search instead.
Play it with:  apdp match --exercise centralized --agents <your-name>
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from apdp import CentralizedAgent, Deliver, ExerciseVehicle, Move, Pickup, Task
from apdp.game.plan import Action


class CentralizedTemplate(CentralizedAgent):
    """All tasks on the first vehicle, one after the other."""

    def plan(self, vehicles: Sequence[ExerciseVehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        # One list of actions per vehicle; every task picked up and delivered by one vehicle.
        start = time.monotonic()
        first: list[Action] = []
        city = vehicles[0].city
        for task in sorted(tasks, key=lambda t: t.id):
            first += [Move(c) for c in self.topology.path(city, task.pickup)[1:]] + [Pickup(task.id)]
            first += [Move(c) for c in self.topology.path(task.pickup, task.delivery)[1:]] + [Deliver(task.id)]
            city = task.delivery
        print(f"The plan was generated in {round((time.monotonic() - start) * 1000)} milliseconds.")
        return [first] + [[] for _ in vehicles[1:]]
