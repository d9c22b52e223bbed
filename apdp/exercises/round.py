"""One round of an exercise (the platform's ``Manager`` and ``Simulation``): agent i runs company i,
the batch is drawn, then every vehicle is driven by its agent's seat on the event clock.

A seat is the platform side of one agent (:class:`Seat`): the reactive, deliberative and
centralized seats differ in when they call their agent and what they check; kinds may be mixed.
Each agent's task set is the exercise's: empty for a reactive agent, ONE set shared by all
deliberative agents (a pickup by anyone removes the task for all), its own copy of the batch for a
centralized agent. Scores follow S: ``total-cost = Math.round(Σ units x cost-per-km / 1000.0)``,
one rounding of the company's sum; ``total-tasks = |agent's task set| + Σ (carried + delivered)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypeVar

from apdp.exercises.clock import NANOS_PER_HOUR, Clock
from apdp.exercises.configuration import ExerciseConfiguration
from apdp.exercises.distribution import TaskStream
from apdp.exercises.history import AgentStatistics, Event, History
from apdp.exercises.vehicle import VehicleState
from apdp.exercises.verifier import ExerciseFault
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.logist.money import java_round

Kind = Literal["reactive", "deliberative", "centralized"]
#: The agent side a seat calls.
Controller = TypeVar("Controller")


@dataclass(frozen=True, slots=True)
class AgentTotals:
    """``Agent.getTotal*()`` at one moment."""

    distance_units: int
    cost: int
    reward: int
    profit: int


@dataclass(frozen=True, slots=True)
class Stuck:
    """``LP: Stuck action``: a deliberative vehicle's action refused at ``time`` (the task was taken)."""

    time: int
    vehicle: str
    action: Action
    carried: tuple[int, ...]


@dataclass(frozen=True)
class ReactiveEnd:
    """apdp's end of a reactive round (the platform's headless reactive run never ends, R7).

    No act call is made at or after simulated ``hours``, nor after ``acts`` act calls over all
    agents; a vehicle that would make one stops there, after finishing what it had begun (a task
    it picked up is delivered). Act calls happen in time order over all agents, so everything
    before the end is exactly what the platform does, draw for draw.
    """

    hours: float | None = 1000.0
    acts: int | None = None

    def allows(self, time: int, acts_so_far: int) -> bool:
        """Whether an act call at ``time`` (ns), after ``acts_so_far`` of them, is still made."""
        if self.hours is not None and time >= self.hours * NANOS_PER_HOUR:
            return False
        return self.acts is None or acts_so_far < self.acts


class TooManyEvents(Exception):
    """The round went past its event limit (a replay of answers that make more events than their
    record says: a crafted record, stopped before it takes all memory)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the round has more than {limit} events")
        self.limit = limit


class Seat(Protocol):
    """The platform's side of one agent (``VehicleController``)."""

    kind: Kind

    def begin(self, round_: Round, agent: AgentState) -> None:
        """The round begins; ``agent`` is this seat's agent."""

    def next_action(self, vehicle: VehicleState, time: int) -> Action | None:
        """``nextAction``: the vehicle's next action at ``time`` (ns), or None: it stops for the round."""

    def stuck(self, vehicle: VehicleState, action: Action, time: int) -> None:
        """``stuckAction``: the vehicle refused ``action``; next_action is asked again at once."""


class Seated(Generic[Controller]):
    """What every seat of apdp's holds: the controller that answers for its agent, the number of calls
    made on it, and the round and agent once the round begins."""

    kind: Kind

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        #: The calls made on the controller so far (act or plan calls).
        self.calls = 0

    def begin(self, round_: Round, agent: AgentState) -> None:
        """Remember the round and the agent (its task set is the exercise's: see the module)."""
        self.round = round_
        self.agent = agent


@dataclass
class AgentState:
    """An agent in the round: its name, index (= company), vehicles and task set."""

    name: str
    index: int
    vehicles: list[VehicleState]
    tasks: dict[int, Task] = field(default_factory=dict)

    def totals(self) -> AgentTotals:
        """Distance, cost, reward and profit now (S)."""
        units = sum(v.units for v in self.vehicles)
        cost = java_round(sum(v.units * v.spec.cost_per_km for v in self.vehicles) / 1000.0)
        reward = sum(v.reward for v in self.vehicles)
        return AgentTotals(units, cost, reward, reward - cost)

    def total_tasks(self) -> int:
        """``total-tasks``."""
        return len(self.tasks) + sum(len(v.carried) + len(v.delivered) for v in self.vehicles)


class Round:
    """A round of ``configuration`` with one seat per agent, named ``names`` (agent i runs company i)."""

    def __init__(self, configuration: ExerciseConfiguration, seats: Sequence[Seat], names: Sequence[str],
                 *, end: ReactiveEnd | None = None, event_limit: int | None = None) -> None:
        if len(seats) != len(names):
            raise ValueError("one name per seat")
        if len(seats) > len(configuration.companies):
            raise ExerciseFault(names[len(configuration.companies)], "There are more agents than companies !")
        self.configuration = configuration
        self.topology = configuration.topology
        self.seats = list(seats)
        #: The reactive end rule (ignored when no agent is reactive).
        self.end = end if end is not None else ReactiveEnd()
        #: The stream built as the configuration is read; agents' setup comes before the batch.
        self.stream = TaskStream(configuration)
        self.agents: list[AgentState] = []
        self.vehicles: list[VehicleState] = []
        for a, name in enumerate(names):
            company = configuration.companies[a]
            vehicles = [VehicleState(spec, k, a) for k, spec in enumerate(company.vehicles)]
            self.agents.append(AgentState(name, a, vehicles))
            self.vehicles.extend(vehicles)
        self.events: list[Event] = []
        #: The most events the round may have (a replay's: its record's number); past it, TooManyEvents.
        self.event_limit = event_limit
        self.stuck_actions: list[Stuck] = []
        #: Act calls made so far over all reactive agents.
        self.acts = 0
        self.batch: list[Task] = []

    def may_act(self, time: int) -> bool:
        """Whether a reactive act call at ``time`` is still made (:class:`ReactiveEnd`)."""
        return self.end.allows(time, self.acts)

    def run(self) -> History:
        """Draw the batch, play the round to its end and return its history (with statistics)."""
        self.batch = self.stream.batch(self.configuration.tasks)
        shared = {t.id: t for t in self.batch}
        for agent, seat in zip(self.agents, self.seats, strict=True):
            if seat.kind == "deliberative":
                agent.tasks = shared
            elif seat.kind == "centralized":
                agent.tasks = {t.id: t for t in self.batch}
            else:
                agent.tasks = {}
            for vehicle in agent.vehicles:
                vehicle.set_tasks(agent.tasks)
        for agent, seat in zip(self.agents, self.seats, strict=True):
            seat.begin(self, agent)
        Clock([v.spec.speed for v in self.vehicles]).run(self._serve)
        return self.history()

    def _serve(self, v: int, time: int) -> int | None:
        vehicle = self.vehicles[v]
        seat = self.seats[vehicle.agent]
        while True:
            action = seat.next_action(vehicle, time)
            if action is None:
                return None
            target = vehicle.accept(action, self.topology)
            if target is not None:
                self.events.append(Event(len(self.events), time, vehicle.name, action, v))
                if self.event_limit is not None and len(self.events) > self.event_limit:
                    raise TooManyEvents(self.event_limit)
                return target
            seat.stuck(vehicle, action, time)

    def note_stuck(self, vehicle: VehicleState, action: Action, time: int) -> None:
        """Keep a stuck action (the platform prints it)."""
        self.stuck_actions.append(Stuck(time, vehicle.name, action, tuple(sorted(vehicle.carried))))

    def statistics(self) -> tuple[AgentStatistics, ...]:
        """Each agent's statistics, ranked by profit (descending; ties keep agent order)."""
        ranked = sorted(self.agents, key=lambda a: -a.totals().profit)
        out = []
        for rank, agent in enumerate(ranked, 1):
            t = agent.totals()
            out.append(AgentStatistics(rank, agent.name, agent.total_tasks(), t.distance_units, t.cost, t.reward,
                                       t.profit))
        return tuple(out)

    def history(self) -> History:
        """The round as the platform's history holds it."""
        agents = tuple((a.name, tuple(v.name for v in a.vehicles)) for a in self.agents)
        return History(self.configuration.source, agents, tuple(self.batch), tuple(self.events), self.statistics())
