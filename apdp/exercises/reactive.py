"""The reactive exercise's seat (R1-R7): the agent is asked ``act(vehicle, availableTask)`` each time
its vehicle 0 has nothing left to do, with one fresh offer drawn from the shared stream.

An act call comes at time 0 at home, on arrival after every move, and after a pickup's automatic
delivery plus its 0.3 h wait; never while a task is carried. Before each call ONE draw
(:meth:`~apdp.exercises.distribution.TaskStream.offer`) gives the offer (id 0) or none, and the
vehicle's task set becomes just that offer. The answer: ``Move(city)``, one move to a neighbour;
``Pickup(0)`` (or ``Deliver(0)``), expanded into the pickup, the moves along the task's shortest path
and the delivery. The plan is checked (neighbour, capacity, delivery; not that every task is
picked up) before it runs. Other vehicles of the company never move. The round ends by apdp's
rule, :class:`~apdp.exercises.round.ReactiveEnd`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from apdp.exercises.round import AgentTotals, Kind, Seated
from apdp.exercises.vehicle import VehicleState
from apdp.exercises.verifier import ExerciseFault, IllegalPlan, PlanVerifier
from apdp.game.exercise import ExerciseVehicle
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task


@dataclass(frozen=True, slots=True)
class ActCall:
    """One ``act`` call: the agent's ``number``-th (from 1), at ``time`` (ns), with the offer or None."""

    agent: int
    number: int
    time: int
    vehicle: ExerciseVehicle
    task: Task | None
    totals: AgentTotals


class ReactiveController(Protocol):
    """The agent side of a reactive seat."""

    def act(self, call: ActCall) -> Action:
        """The action for this call: ``Move(neighbour)`` or ``Pickup(0)`` of the offer."""


class ReactiveSeat(Seated[ReactiveController]):
    """The platform's ``ReactiveAgent`` for one agent driven by ``controller`` (``calls``: act calls)."""

    kind: Kind = "reactive"

    def __init__(self, controller: ReactiveController) -> None:
        super().__init__(controller)
        self.plan: Iterator[Action] = iter(())
        self.pending: Action | None = None

    def next_action(self, vehicle: VehicleState, time: int) -> Action | None:
        """The next action of the current plan, or a new act call when it is done."""
        if vehicle.id != 0:
            return None
        action = next(self.plan, None)
        if action is not None:
            return action
        if not self.round.may_act(time):
            return None
        offer = self.round.stream.offer(vehicle.city)
        vehicle.set_tasks({} if offer is None else {offer.id: offer})
        self.calls += 1
        self.round.acts += 1
        answer = self.controller.act(ActCall(self.agent.index, self.calls, time, vehicle.view(), offer,
                                             self.agent.totals()))
        plan = self._expand(vehicle, answer)
        verifier = PlanVerifier(self.round.topology, vehicle.available, self.agent.name)
        verifier.verify_plan(vehicle, plan)
        verifier.verify_delivery()
        self.plan = iter(plan)
        return next(self.plan)

    def _expand(self, vehicle: VehicleState, answer: object) -> list[Action]:
        if isinstance(answer, Move):
            return [answer]
        if isinstance(answer, Pickup | Deliver):
            task = vehicle.available.get(answer.task)
            if task is None:
                raise IllegalPlan(self.agent.name, f"Illegal pickup: Task does not exist (task {answer.task})")
            moves: list[Action] = [Move(c) for c in self.round.topology.path(task.pickup, task.delivery)]
            return [Pickup(task.id), *moves, Deliver(task.id)]
        raise ExerciseFault(self.agent.name, f"crashed: act returned {answer!r}, not an action")

    def stuck(self, vehicle: VehicleState, action: Action, time: int) -> None:
        """Cannot happen after the check (the platform only prints it)."""
        self.round.note_stuck(vehicle, action, time)


