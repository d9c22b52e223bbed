"""A vehicle during a round (``VehicleImpl``): where it is, what it carries, what it earned and drove.

Its actions are accepted as the platform's vehicle accepts them: a move only to a neighbour (billed
the shortest distance in units); a pickup of a task in its available set within its capacity; a
delivery of a task it carries. Neither a pickup's nor a delivery's city is checked (the platform
checks neither). A refused action is a "stuck" action for the agent's seat.
"""

from __future__ import annotations

from apdp.exercises.clock import wait_units
from apdp.exercises.configuration import VehicleSpec
from apdp.exercises.topology import LogistTopology
from apdp.game.exercise import ExerciseVehicle
from apdp.game.plan import Action, Deliver, Move
from apdp.game.task import Task


class VehicleState:
    """One vehicle of a company in a round; ``id`` is its index inside the company."""

    def __init__(self, spec: VehicleSpec, company_id: int, agent: int) -> None:
        self.spec = spec
        self.id = company_id
        self.agent = agent
        self.city = spec.home
        #: The tasks it may pick up (shared with other vehicles or agents as the exercise says).
        self.available: dict[int, Task] = {}
        self.carried: dict[int, Task] = {}
        self.delivered: dict[int, Task] = {}
        self.reward = 0
        self.units = 0

    @property
    def name(self) -> str:
        """The vehicle's name in the configuration and the history."""
        return self.spec.name

    def set_tasks(self, available: dict[int, Task]) -> None:
        """``setTasks``: a new available set; what it carried and delivered is forgotten."""
        self.available = available
        self.carried = {}
        self.delivered = {}

    def load(self) -> int:
        """The weight it carries."""
        return sum(int(t.weight) for t in self.carried.values())

    def accept(self, action: Action, topology: LogistTopology) -> int | None:
        """Begin ``action``: its target in units for the clock, or None when the action is refused."""
        if isinstance(action, Move):
            if action.city not in topology.index or not topology.has_neighbor(self.city, action.city):
                return None
            units = topology.distance_units(self.city, action.city)
            self.units += units
            self.city = action.city
            return units
        if isinstance(action, Deliver):
            task = self.carried.pop(action.task, None)
            if task is None:
                return None
            self.reward += int(task.reward or 0)
            self.delivered[task.id] = task
            return wait_units(self.spec.speed)
        task = self.available.get(action.task)
        if task is None or self.spec.capacity < self.load() + int(task.weight):
            return None
        del self.available[task.id]
        self.carried[task.id] = task
        return wait_units(self.spec.speed)

    def view(self) -> ExerciseVehicle:
        """The vehicle as its agent is told of it, now."""
        return ExerciseVehicle(self.id, self.name, self.spec.home, self.city, self.spec.capacity,
                               self.spec.cost_per_km, self.spec.speed / 1000.0,
                               tuple(sorted(self.carried.values(), key=lambda t: t.id)), len(self.delivered),
                               self.reward, self.units)
