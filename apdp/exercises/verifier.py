"""A plan checked before it runs, as the platform's ``PlanVerifier`` checks it, and the faults that
end a round (the platform's ``IllegalPlanException`` and ``LogistException``).

``verify_plan`` walks one vehicle's actions from its current city with its carried tasks: a move
must go to a neighbour, a pickup must take an available task within the capacity (running load),
a delivery must deliver a carried task; and, apdp's rule where the platform has none, a pickup is
made in the task's pickup city and a delivery in its delivery city (the platform's verifier checks
neither, so a plan of pickups and deliveries without a move would earn every reward for no km).
``verify_delivery``: that plan delivered all it carried. ``verify_pickup``: the plans together
picked up every available task. Which of these an exercise asks is the exercise's rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from apdp.exercises.topology import LogistTopology
from apdp.exercises.vehicle import VehicleState
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task


class IllegalPlan(Exception):
    """``IllegalPlanException``: the platform stops the run (exit 1), nothing of the plan runs."""

    def __init__(self, agent: str, message: str) -> None:
        super().__init__(f"{agent}: {message}")
        self.agent = agent
        self.message = message


class ExerciseFault(Exception):
    """``LogistException``: an agent's fault that ends the run (wrong number of plans, no action, ...)."""

    def __init__(self, agent: str, message: str) -> None:
        super().__init__(f"{agent}: {message}")
        self.agent = agent
        self.message = message


class PlanVerifier:
    """One verifier over an available task set (copied), used for one or several vehicles' plans."""

    def __init__(self, topology: LogistTopology, available: Mapping[int, Task], agent: str) -> None:
        self.topology = topology
        self.available = dict(available)
        self.agent = agent
        self.carried: dict[int, Task] = {}

    def _illegal(self, message: str) -> IllegalPlan:
        return IllegalPlan(self.agent, message)

    def verify_plan(self, vehicle: VehicleState, plan: Iterable[Action]) -> None:
        """Check ``vehicle``'s plan action by action; IllegalPlan at the first wrong one."""
        city = vehicle.city
        self.carried = dict(vehicle.carried)
        capacity = vehicle.spec.capacity
        for action in plan:
            if isinstance(action, Move):
                if action.city not in self.topology.index:
                    raise self._illegal(f"Illegal move: City does not exist ({action.city})")
                if not self.topology.has_neighbor(city, action.city):
                    raise self._illegal(f"Illegal move: Target city is not a neighbor ({city} -> {action.city})")
                city = action.city
            elif isinstance(action, Pickup):
                task = self.available.get(action.task)
                if task is None:
                    raise self._illegal(f"Illegal pickup: Task does not exist (task {action.task})")
                if city != task.pickup:
                    raise self._illegal(f"Illegal pickup: the vehicle is in {city}, task {task.id} waits in "
                                        f"{task.pickup} (move there first)")
                load = sum(int(t.weight) for t in self.carried.values())
                if capacity < load + int(task.weight):
                    raise self._illegal(f"Illegal pickup: Task weight exceeds remaining vehicle capacity "
                                        f"(load {load} + {task.weight} > {capacity} kg, task {task.id})")
                del self.available[task.id]
                self.carried[task.id] = task
            elif isinstance(action, Deliver):
                carried = self.carried.pop(action.task, None)
                if carried is None:
                    raise self._illegal(f"Illegal delivery: Task does not exist (task {action.task})")
                if city != carried.delivery:
                    raise self._illegal(f"Illegal delivery: the vehicle is in {city}, task {carried.id} goes to "
                                        f"{carried.delivery} (move there first)")
            else:
                raise ExerciseFault(self.agent, f"crashed: {action!r} is not an action")

    def verify_delivery(self) -> None:
        """The last plan checked delivered every task it picked up or carried."""
        if self.carried:
            raise self._illegal("Illegal plan: Not all tasks that have been picked up were also delivered "
                                f"(missing tasks {sorted(self.carried)})")

    def verify_pickup(self) -> None:
        """The plans checked picked up every available task."""
        if self.available:
            raise self._illegal(f"Illegal plan: Not all available tasks were picked up (missing tasks "
                                f"{sorted(self.available)})")
