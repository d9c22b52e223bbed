"""The deliberative exercise's score: each plan the agent made against the optimum, by exact search.

For every ``plan(vehicle, tasks)`` call the agent answered (:class:`AnsweredPlan`: the call, the
actions, and the time and nodes where the agent reports them), the optimum is the least distance of
a plan from the vehicle's city that delivers what it carries and picks up and delivers every task
(:func:`~apdp.exercises.optimal_plan.search_plan` with an admissible heuristic: exact). A plan is
optimal when it drives no more than that. The score compares the cost of the agent's first plan (the
whole problem) with the optimum's and tells whether every plan was optimal; it keeps what the round
billed (with other agents taking tasks, the plans that ran may differ from the first).

:class:`RecordingDeliberative` wraps an in-process controller to keep what it answered and how long
each plan took.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from apdp.exercises.deliberative import CancelCall, DeliberativeController, PlanCall
from apdp.exercises.naive_plan import plan_units
from apdp.exercises.optimal_plan import farthest_task, search_plan
from apdp.exercises.scores.outcome import AgentOutcome, ScoreModel
from apdp.exercises.topology import LogistTopology
from apdp.game.plan import Action


@dataclass(frozen=True)
class AnsweredPlan:
    """A plan call and the agent's answer; ``seconds`` and ``nodes`` as the agent (or its seat)
    reports them, None when not reported."""

    call: PlanCall
    plan: tuple[Action, ...]
    seconds: float | None = None
    nodes: int | None = None


class RecordingDeliberative:
    """A deliberative controller that passes every call to ``controller`` and keeps its answers,
    timed; the nodes are read from the controller's ``nodes`` attribute after each plan when it has one."""

    def __init__(self, controller: DeliberativeController) -> None:
        self.controller = controller
        self.answered: list[AnsweredPlan] = []

    def plan(self, call: PlanCall) -> Sequence[Action]:
        """The controller's plan, kept with its time."""
        start = time.perf_counter()
        plan = tuple(self.controller.plan(call))
        seconds = time.perf_counter() - start
        nodes = getattr(self.controller, "nodes", None)
        self.answered.append(AnsweredPlan(call, plan, seconds, nodes if isinstance(nodes, int) else None))
        return plan

    def plan_cancelled(self, call: CancelCall) -> None:
        """Passed on."""
        self.controller.plan_cancelled(call)


class PlanScore(ScoreModel):
    """One plan against the optimum of its call (distances in units, km x 1000)."""

    number: int
    city: str
    tasks: int
    carried: int
    units: int
    optimal_units: int
    cost_per_km: int
    seconds: float | None = None
    nodes: int | None = None

    @property
    def optimal(self) -> bool:
        """Whether the plan drives no more than the optimum."""
        return self.units <= self.optimal_units

    @property
    def excess(self) -> float:
        """How much longer than the optimum, as a fraction of it (0.0 when optimal)."""
        return (self.units - self.optimal_units) / self.optimal_units if self.optimal_units else 0.0


def optimal_units(topology: LogistTopology, call: PlanCall) -> int:
    """The least distance (units) a plan for ``call`` can drive (exact search)."""
    vehicle = call.vehicle
    return search_plan(topology, vehicle.city, vehicle.capacity, call.tasks, vehicle.carried,
                       heuristic=farthest_task).units


def score_plan(topology: LogistTopology, answered: AnsweredPlan) -> PlanScore:
    """One answered call against its optimum."""
    call = answered.call
    return PlanScore(number=call.number, city=call.vehicle.city, tasks=len(call.tasks),
                     carried=len(call.vehicle.carried), units=plan_units(topology, call.vehicle.city, answered.plan),
                     optimal_units=optimal_units(topology, call), cost_per_km=call.vehicle.cost_per_km,
                     seconds=answered.seconds, nodes=answered.nodes)


class DeliberativeScore(ScoreModel):
    """A deliberative agent's plans against the optimum, and what the round billed it."""

    agent: int
    name: str
    plans: tuple[PlanScore, ...]
    #: What the round billed (total-distance in units, total-cost) and paid.
    distance_units: int
    cost: int
    reward: int

    @property
    def all_optimal(self) -> bool:
        """Whether every plan the agent made was optimal."""
        return all(p.optimal for p in self.plans)

    @property
    def plan_cost(self) -> float:
        """The first plan's cost (its km x the vehicle's cost per km)."""
        return self.plans[0].units * self.plans[0].cost_per_km / 1000.0 if self.plans else 0.0

    @property
    def optimal_cost(self) -> float:
        """The optimum's cost for the first call."""
        return self.plans[0].optimal_units * self.plans[0].cost_per_km / 1000.0 if self.plans else 0.0

    @property
    def seconds(self) -> float | None:
        """The agent's planning time over all its plans (None when no plan reports it)."""
        times = [p.seconds for p in self.plans if p.seconds is not None]
        return sum(times) if times else None

    @property
    def nodes(self) -> int | None:
        """The nodes its searches report over all its plans (None when none reports them)."""
        counts = [p.nodes for p in self.plans if p.nodes is not None]
        return sum(counts) if counts else None


def score_deliberative(topology: LogistTopology, answered: Sequence[AnsweredPlan],
                       outcome: AgentOutcome) -> DeliberativeScore:
    """Score the plans one agent answered in a round (``outcome``: that agent's totals)."""
    return DeliberativeScore(agent=outcome.index, name=outcome.name,
                             plans=tuple(score_plan(topology, a) for a in answered),
                             distance_units=outcome.distance_units, cost=outcome.cost, reward=outcome.reward)
