"""An exercise agent at its seat: the controllers of :mod:`apdp.exercises` (reactive, deliberative,
centralized) that call the agent in its sandboxed process, through a :class:`apdp.referee.seat.Seat`.

Each call carries the vehicle as the round has it now and is made within the configuration's
``timeout-plan`` (the platform's limit of every act, plan and planCancelled; the process allows
1% more, as the platform does). What the agent answers is kept (:attr:`Answers.answers`) for the
record. A fault (a crash, a timeout, a reply outside the protocol, a value that is no action or
plan) is charged to the seat, which kills the agent's process, and ends the round: the controller
raises :class:`AgentFaulted`, as the platform stops its run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from apdp.exercises.centralized import CentralizedPlanCall
from apdp.exercises.deliberative import CancelCall, PlanCall
from apdp.exercises.reactive import ActCall
from apdp.exercises.round import Round
from apdp.game.exercise import ExerciseVehicle
from apdp.game.fault import FaultKind, Phase
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.messages.exercise_calls import ActionCall, FleetPlanCall, PlanCancelledCall, VehiclePlanCall
from apdp.messages.exercise_replies import ActionReply, RouteReply
from apdp.messages.replies import NotAValue, PlansReply
from apdp.referee.seat import Seat
from apdp.sandbox.process import encode_request


class AgentFaulted(Exception):
    """The agent at ``seat`` faulted (its fault is the seat's): the round stops."""

    def __init__(self, seat: Seat) -> None:
        super().__init__(f"agent {seat.index} faulted")
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Answer:
    """What an agent answered to one call: ``act`` (one plan of one action), ``plan`` (one plan),
    ``cancelled`` (no plan) or ``plans`` (one per vehicle)."""

    call: str
    plans: tuple[tuple[Action, ...], ...] = ()


@dataclass
class Answers:
    """The part every sandboxed controller shares: its seat, the round, the limit, the answers."""

    seat: Seat
    timeout: float
    round: Round | None = None
    answers: list[Answer] = field(default_factory=list)
    #: The call being answered (a fault is in it): act, plan or plan_cancelled.
    phase: Phase = "plan"
    #: Why an answer does not fit the agent's share of the record (None: it does); the referee's.
    room: Callable[[Answer], str | None] = field(default=lambda _answer: None)

    def keep(self, answer: Answer) -> None:
        """Keep ``answer`` for the record, or fault the agent when it does not fit its share."""
        too_large = self.room(answer)
        if too_large is not None:
            self.fault(too_large)
        self.answers.append(answer)

    def vehicle(self, vehicle_id: int) -> ExerciseVehicle:
        assert self.round is not None
        return self.round.agents[self.seat.index].vehicles[vehicle_id].view()

    def tasks(self) -> tuple[Task, ...]:
        """The agent's task set now, by id."""
        assert self.round is not None
        return tuple(sorted(self.round.agents[self.seat.index].tasks.values(), key=lambda t: t.id))

    def ask(self, call: ActionCall | VehiclePlanCall | PlanCancelledCall | FleetPlanCall,
            task: Task | None = None) -> object:
        """The agent's reply to ``call``; on a fault the seat is charged and AgentFaulted raised."""
        seat = self.seat
        if not seat.sound:
            raise AgentFaulted(seat)
        self.phase = "act" if isinstance(call, ActionCall) else (
            "plan_cancelled" if isinstance(call, PlanCancelledCall) else "plan")
        (result,) = seat.process.request(encode_request(call), ((call.expects, call.timeout),))
        if seat.account("plan", task, result) is None:  # its CPU counts as the auction's plan phase
            if seat.fault is not None:
                seat.fault = dataclasses.replace(seat.fault, phase=self.phase)
            raise AgentFaulted(seat)
        seat.timing["plan"] += result.seconds
        reply = result.reply
        if isinstance(reply, NotAValue):
            self.fault(reply.message, task)
        return reply

    def fault(self, message: str, task: Task | None = None, kind: FaultKind = FaultKind.INVALID_PLAN) -> NoReturn:
        """Charge the agent with ``message`` and stop the round."""
        self.seat.charge(kind, self.phase, task, message)
        raise AgentFaulted(self.seat)


class SandboxedReactive(Answers):
    """A :class:`~apdp.exercises.reactive.ReactiveController` calling ``act`` in the agent's process.

    Each act call has ``timeout-plan``, as on the platform, and all of an agent's act calls together
    have it too (apdp's rule: the platform's headless run never ends, and an agent that took its
    limit at every act would hold a round of thousands of acts for weeks within every limit)."""

    def act(self, call: ActCall) -> Action:
        left = self.timeout - self.seat.timing["plan"]  # what its act calls took so far
        if left <= 0:
            self.fault(self._spent(), call.task, FaultKind.TIMEOUT)
        try:
            reply = self.ask(ActionCall(self.vehicle(call.vehicle.id), call.task, min(self.timeout, left)), call.task)
        except AgentFaulted:
            fault = self.seat.fault
            if fault is not None and fault.kind == FaultKind.TIMEOUT and left < self.timeout:
                self.seat.fault = dataclasses.replace(fault, message=self._spent())
            raise
        if not isinstance(reply, ActionReply):
            self.fault("act() returned no action", call.task)
        self.keep(Answer("act", ((reply.action,),)))
        return reply.action

    def _spent(self) -> str:
        return (f"its act calls took more than timeout-plan ({self.timeout:g} s) in all: a reactive agent's "
                "act calls share it (apdp's rule; work out the policy in setup)")


class SandboxedDeliberative(Answers):
    """A :class:`~apdp.exercises.deliberative.DeliberativeController` calling ``plan`` and
    ``plan_cancelled`` in the agent's process."""

    def plan(self, call: PlanCall) -> Sequence[Action]:
        reply = self.ask(VehiclePlanCall(self.vehicle(call.vehicle.id), call.tasks, self.timeout))
        if not isinstance(reply, RouteReply):
            self.fault("plan() returned no plan")
        self.keep(Answer("plan", (reply.actions,)))
        return reply.actions

    def plan_cancelled(self, call: CancelCall) -> None:
        self.ask(PlanCancelledCall(self.vehicle(call.vehicle.id), self.tasks(), self.timeout))
        self.keep(Answer("cancelled"))


class SandboxedCentralized(Answers):
    """A :class:`~apdp.exercises.centralized.CentralizedController` calling ``plan`` in the agent's process."""

    def plan(self, call: CentralizedPlanCall) -> Sequence[Sequence[Action]]:
        vehicles = tuple(self.vehicle(v.id) for v in call.vehicles)
        reply = self.ask(FleetPlanCall(vehicles, call.tasks, self.timeout))
        if not isinstance(reply, PlansReply):
            self.fault("plan() returned no plans")
        self.keep(Answer("plans", reply.plans))
        return reply.plans


#: The sandboxed controller of each exercise.
CONTROLLERS: dict[str, type[Answers]] = {
    "reactive": SandboxedReactive, "deliberative": SandboxedDeliberative, "centralized": SandboxedCentralized,
}
