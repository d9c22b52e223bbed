"""The centralized exercise's score: an agent's profit against the course's template and apdp's
planner on the same tasks, and how many vehicles each used.

Both references are played through a :class:`~apdp.exercises.round.Round` of the configuration, as
in-process controllers of the agent's company, so they are billed as the platform bills (S): the
template (:class:`TemplateController`, the course's naive plan: every task on the first vehicle, one
after the other in id order, the others idle) and the planner (:class:`PlannerController`:
:func:`apdp.baselines.planning.plan_tasks`, insertion then LNS, a fixed number of iterations and
seed, its stops driven along the platform's shortest paths). Centralized agents do not interact and
each gets the whole batch (C3), so a round of the agent's company alone draws the same tasks.
"""

from __future__ import annotations

import dataclasses
import functools

from apdp.baselines.planning import plan_tasks
from apdp.exercises.centralized import CentralizedController, CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, SameTasks
from apdp.exercises.naive_plan import naive_plans
from apdp.exercises.round import Round
from apdp.exercises.scores.outcome import AgentOutcome, ScoreModel
from apdp.exercises.topology import LogistTopology
from apdp.game.company import Vehicle
from apdp.game.plan import Action, Deliver, Move, Pickup
from apdp.game.task import Task

#: The planner's LNS iterations for the reference (seconds on the course's 30 tasks; no clock involved).
PLANNER_ITERATIONS = 3_000


class TemplateController:
    """The course's centralized template: the naive plan on the first vehicle, the others idle."""

    def __init__(self, topology: LogistTopology) -> None:
        self.topology = topology

    def plan(self, call: CentralizedPlanCall) -> list[list[Action]]:
        """The template's plans."""
        return naive_plans(self.topology, [v.city for v in call.vehicles], call.tasks)


def drive_stops(topology: LogistTopology, start: str, stops: list[Action], tasks: dict[int, Task]) -> list[Action]:
    """A plan visiting ``stops`` (pickups and deliveries) in order from ``start`` along the
    platform's shortest paths."""
    plan: list[Action] = []
    here = start
    for stop in stops:
        task = tasks[stop.task] if isinstance(stop, Pickup | Deliver) else None
        if task is None:
            continue
        there = task.pickup if isinstance(stop, Pickup) else task.delivery
        plan += [Move(c) for c in topology.path(here, there)]
        plan.append(stop)
        here = there
    return plan


class PlannerController:
    """apdp's planner for the whole fleet: its order of stops per vehicle, driven on the platform's paths."""

    def __init__(self, configuration: ExerciseConfiguration, *, iterations: int = PLANNER_ITERATIONS,
                 seed: int = 0) -> None:
        self.configuration = configuration
        self.iterations = iterations
        self.seed = seed

    def plan(self, call: CentralizedPlanCall) -> list[list[Action]]:
        """The planner's plans."""
        vehicles = [Vehicle(v.name, v.city, v.capacity, v.cost_per_km) for v in call.vehicles]
        result = plan_tasks(self.configuration.network, vehicles, call.tasks, max_iterations=self.iterations,
                            seed=self.seed)
        by_id = {t.id: t for t in call.tasks}
        return [drive_stops(self.configuration.topology, v.city, [a for a in plan if not isinstance(a, Move)], by_id)
                for v, plan in zip(call.vehicles, result.plans, strict=True)]


def play_company(configuration: ExerciseConfiguration, company: int, controller: CentralizedController,
                 name: str) -> AgentOutcome:
    """``controller`` as the agent of ``company`` (alone: the batch is the same), its outcome."""
    alone = dataclasses.replace(configuration, companies=(configuration.companies[company],))
    round_ = Round(alone, [CentralizedSeat(controller)], [name])
    round_.run()
    return AgentOutcome.of_round(round_, 0).model_copy(update={"index": company})


@functools.lru_cache(maxsize=8)
def _references(same: SameTasks, company: int, iterations: int, seed: int) -> tuple[AgentOutcome, AgentOutcome]:
    """The template's and the planner's outcomes as ``company`` (worked out once for configurations
    of the same draws: a field scores every agent on the same rounds)."""
    configuration = same.configuration
    template = play_company(configuration, company, TemplateController(configuration.topology), "template")
    planner = play_company(configuration, company, PlannerController(configuration, iterations=iterations,
                                                                     seed=seed), "planner")
    return template, planner


class CentralizedScore(ScoreModel):
    """A centralized agent's profit and vehicles against the template's and the planner's."""

    agent: int
    name: str
    reward: int
    cost: int
    profit: int
    vehicles: int
    vehicles_used: int
    template_cost: int
    template_profit: int
    template_vehicles_used: int
    planner_cost: int
    planner_profit: int
    planner_vehicles_used: int

    @property
    def cost_vs_template(self) -> float | None:
        """How much more the agent's plans cost than the template's, as a fraction of it (-0.19: 19%
        cheaper, 1.94: 194% dearer; None when the template costs nothing)."""
        return (self.cost - self.template_cost) / self.template_cost if self.template_cost else None

    @property
    def cost_vs_planner(self) -> float | None:
        """The same against apdp's planner."""
        return (self.cost - self.planner_cost) / self.planner_cost if self.planner_cost else None


def score_centralized(configuration: ExerciseConfiguration, outcome: AgentOutcome, *,
                      iterations: int = PLANNER_ITERATIONS, seed: int = 0) -> CentralizedScore:
    """Score one centralized agent of a round played on ``configuration``."""
    company = outcome.index
    template, planner = _references(SameTasks(configuration), company, iterations, seed)
    return CentralizedScore(agent=company, name=outcome.name, reward=outcome.reward, cost=outcome.cost,
                            profit=outcome.profit, vehicles=outcome.vehicles, vehicles_used=outcome.vehicles_used,
                            template_cost=template.cost, template_profit=template.profit,
                            template_vehicles_used=template.vehicles_used, planner_cost=planner.cost,
                            planner_profit=planner.profit, planner_vehicles_used=planner.vehicles_used)
