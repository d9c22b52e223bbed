"""The deliberative exercise's seat (D1-D4): the agent plans vehicle 0's whole route for the tasks
not yet picked up by anybody, lazily, and plans again when one of its pickups finds a task taken.

``plan(vehicle, tasks)`` is asked at the vehicle's first action request (time 0), unless no task is
left and none is carried (then the vehicle stops). The plan is checked before any of it runs:
legal moves, pickups within capacity, deliveries of carried tasks, everything carried delivered
and every available task picked up. Deliberative agents share ONE task set: when a pickup finds
its task taken, the action is refused (no time passes), ``planCancelled(carried)`` is called, and
at once, at the same time and city, a new ``plan`` for the remaining tasks (the carried ones are
in the vehicle). When the plan is done the vehicle stops.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from apdp.exercises.round import Kind, Seated
from apdp.exercises.vehicle import VehicleState
from apdp.exercises.verifier import PlanVerifier
from apdp.game.exercise import ExerciseVehicle
from apdp.game.plan import Action
from apdp.game.task import Task


@dataclass(frozen=True, slots=True)
class PlanCall:
    """A ``plan(vehicle, tasks)`` call, the agent's ``number``-th, at ``time`` (ns)."""

    agent: int
    number: int
    time: int
    vehicle: ExerciseVehicle
    tasks: tuple[Task, ...]


@dataclass(frozen=True, slots=True)
class CancelCall:
    """A ``planCancelled(carried)`` call at ``time`` (ns)."""

    agent: int
    time: int
    vehicle: ExerciseVehicle
    carried: tuple[Task, ...]


class DeliberativeController(Protocol):
    """The agent side of a deliberative seat."""

    def plan(self, call: PlanCall) -> Sequence[Action]:
        """Vehicle 0's plan from where it is: deliver what it carries, pick up and deliver every task."""

    def plan_cancelled(self, call: CancelCall) -> None:
        """The current plan was cancelled (a task it meant to pick up was taken)."""


class DeliberativeSeat(Seated[DeliberativeController]):
    """The platform's ``DeliberativeAgent`` for one agent driven by ``controller`` (``calls``: plan
    calls); its agent's task set is the one all deliberative agents share."""

    kind: Kind = "deliberative"

    def __init__(self, controller: DeliberativeController) -> None:
        super().__init__(controller)
        self.plan: Iterator[Action] | None = None

    def next_action(self, vehicle: VehicleState, time: int) -> Action | None:
        """The plan's next action, planning first if there is no plan."""
        if vehicle.id != 0:
            return None
        if self.plan is None:
            if not self.agent.tasks and not vehicle.carried:
                self.plan = iter(())
            else:
                self.calls += 1
                tasks = tuple(sorted(self.agent.tasks.values(), key=lambda t: t.id))
                plan = list(self.controller.plan(PlanCall(self.agent.index, self.calls, time, vehicle.view(), tasks)))
                verifier = PlanVerifier(self.round.topology, self.agent.tasks, self.agent.name)
                verifier.verify_plan(vehicle, plan)
                verifier.verify_delivery()
                verifier.verify_pickup()
                self.plan = iter(plan)
        return next(self.plan, None)

    def stuck(self, vehicle: VehicleState, action: Action, time: int) -> None:
        """A pickup found its task taken: planCancelled, and the next request plans again."""
        self.round.note_stuck(vehicle, action, time)
        carried = tuple(sorted(vehicle.carried.values(), key=lambda t: t.id))
        self.controller.plan_cancelled(CancelCall(self.agent.index, time, vehicle.view(), carried))
        self.plan = None
