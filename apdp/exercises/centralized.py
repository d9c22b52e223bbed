"""The centralized exercise's seat (C1-C5): the agent plans all its company's vehicles at once, for
its own copy of the whole batch, at the first action request of its first vehicle (time 0).

There must be one plan per vehicle (else the platform's ``LogistException``); the plans are checked
with ONE verifier, so a task is picked up once: each from its vehicle's city, everything a vehicle
picks up delivered by it, and then every task picked up. The vehicles then run in parallel on the
common clock, each stopping when its plan is done. Agents do not interact.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from apdp.exercises.round import Kind, Seated
from apdp.exercises.vehicle import VehicleState
from apdp.exercises.verifier import ExerciseFault, PlanVerifier
from apdp.game.exercise import ExerciseVehicle
from apdp.game.plan import Action
from apdp.game.task import Task


@dataclass(frozen=True, slots=True)
class CentralizedPlanCall:
    """The ``plan(vehicles, tasks)`` call at ``time`` (ns)."""

    agent: int
    time: int
    vehicles: tuple[ExerciseVehicle, ...]
    tasks: tuple[Task, ...]


class CentralizedController(Protocol):
    """The agent side of a centralized seat."""

    def plan(self, call: CentralizedPlanCall) -> Sequence[Sequence[Action]]:
        """One plan per vehicle of the company, in vehicle order (an empty one for an idle vehicle)."""


class CentralizedSeat(Seated[CentralizedController]):
    """The platform's ``CentralizedAgent`` for one agent driven by ``controller``; its agent's task
    set is its own copy of the batch."""

    kind: Kind = "centralized"

    def __init__(self, controller: CentralizedController) -> None:
        super().__init__(controller)
        self.plans: list[Iterator[Action]] | None = None

    def next_action(self, vehicle: VehicleState, time: int) -> Action | None:
        """The vehicle's next action, planning for all vehicles first if there are no plans."""
        if self.plans is None:
            vehicles = self.agent.vehicles
            tasks = tuple(sorted(self.agent.tasks.values(), key=lambda t: t.id))
            plans = [list(p) for p in self.controller.plan(
                CentralizedPlanCall(self.agent.index, time, tuple(v.view() for v in vehicles), tasks))]
            if len(plans) != len(vehicles):
                raise ExerciseFault(self.agent.name, "The number of plans must be equal to the number of vehicles.")
            verifier = PlanVerifier(self.round.topology, self.agent.tasks, self.agent.name)
            for v, plan in zip(vehicles, plans, strict=True):
                verifier.verify_plan(v, plan)
                verifier.verify_delivery()
            verifier.verify_pickup()
            self.plans = [iter(p) for p in plans]
        return next(self.plans[vehicle.id], None)

    def stuck(self, vehicle: VehicleState, action: Action, time: int) -> None:
        """Cannot happen with checked plans (the platform throws an AssertionError)."""
        raise ExerciseFault(self.agent.name, "A valid plan got stuck !")
