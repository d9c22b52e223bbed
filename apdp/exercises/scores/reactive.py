"""The reactive exercise's score: an agent's reward per km against the optimal policy's, on the same
draws.

The reference is the optimal policy of the exact MDP (:func:`~apdp.exercises.reactive_mdp.value_iteration`,
with the exercise's discount) of each company's vehicle 0, played as an in-process controller
(:class:`PolicyController`) through a :class:`~apdp.exercises.round.Round` of the same configuration
(hence the same ``rngSeed`` and stream), with as many agents and the same end: every agent of the
reference round plays its company's optimal policy, so the offers come from the same generator in
the same way (draws are shared by all agents, R3). Reward per km is the round's total reward over the
km driven; profit per km takes the cost off (the platform's graph: reward per km less cost per km).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from apdp.exercises.configuration import ExerciseConfiguration, SameTasks
from apdp.exercises.distribution import TaskStream
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.reactive_mdp import COURSE_DISCOUNT, ReactivePolicy, reward_per_km, value_iteration
from apdp.exercises.round import ReactiveEnd, Round
from apdp.exercises.scores.outcome import AgentOutcome, ScoreModel
from apdp.game.plan import Action, Move, Pickup


class PolicyController:
    """A reactive agent that plays ``policy``: takes the offer when the policy says so, else moves."""

    def __init__(self, policy: ReactivePolicy) -> None:
        self.policy = policy

    def act(self, call: ActCall) -> Action:
        """The policy's action in the vehicle's city with this offer."""
        kind, city = self.policy.act(call.vehicle.city, None if call.task is None else call.task.delivery)
        return Pickup(0) if kind == "take" else Move(city)


def optimal_policies(configuration: ExerciseConfiguration, agents: int,
                     discount: float = COURSE_DISCOUNT) -> list[ReactivePolicy]:
    """The optimal policy of vehicle 0 of each of the first ``agents`` companies (solved once for
    each cost per km and capacity, and kept for configurations of the same draws)."""
    return list(_optimal_policies(SameTasks(configuration), agents, discount))


@functools.lru_cache(maxsize=8)
def _optimal_policies(same: SameTasks, agents: int, discount: float) -> tuple[ReactivePolicy, ...]:
    configuration = same.configuration
    stream = TaskStream(configuration)
    solved: dict[tuple[int, int], ReactivePolicy] = {}
    out = []
    for company in configuration.companies[:agents]:
        vehicle = company.vehicles[0]
        key = (vehicle.cost_per_km, vehicle.capacity)
        if key not in solved:
            solved[key] = value_iteration(configuration.topology, stream, cost_per_km=vehicle.cost_per_km,
                                          capacity=vehicle.capacity, discount=discount)
        out.append(solved[key])
    return tuple(out)


def optimal_round(configuration: ExerciseConfiguration, agents: int, end: ReactiveEnd,
                  discount: float = COURSE_DISCOUNT) -> Round:
    """A round of ``agents`` agents each playing its company's optimal policy, run to ``end`` (played
    once for configurations of the same draws: do not change it)."""
    return _optimal_round(SameTasks(configuration), agents, end, discount)


@functools.lru_cache(maxsize=8)
def _optimal_round(same: SameTasks, agents: int, end: ReactiveEnd, discount: float) -> Round:
    configuration = same.configuration
    seats = [ReactiveSeat(PolicyController(p)) for p in optimal_policies(configuration, agents, discount)]
    round_ = Round(configuration, seats, [f"optimal-{a}" for a in range(agents)], end=end)
    round_.run()
    return round_


def _per_km(amount: int, units: int) -> float:
    return amount / (units / 1000.0) if units else 0.0


class ReactiveScore(ScoreModel):
    """One reactive agent against the optimal policy of its vehicle on the same draws."""

    agent: int
    name: str
    discount: float
    reward: int
    distance_km: float
    reward_per_km: float
    profit_per_km: float
    optimal_reward: int
    optimal_distance_km: float
    optimal_reward_per_km: float
    optimal_profit_per_km: float
    #: The optimal policy's long-run reward per km from the vehicle's home (the chain's average).
    expected_reward_per_km: float

    @property
    def ratio(self) -> float | None:
        """The agent's reward per km over the optimal policy's (None when that is 0)."""
        return self.reward_per_km / self.optimal_reward_per_km if self.optimal_reward_per_km else None


def score_reactive(configuration: ExerciseConfiguration, outcomes: Sequence[AgentOutcome], *,
                   end: ReactiveEnd | None = None, discount: float = COURSE_DISCOUNT) -> tuple[ReactiveScore, ...]:
    """Score every agent of a reactive round played on ``configuration`` to ``end`` (the round's
    :class:`~apdp.exercises.round.ReactiveEnd`); ``outcomes`` are all the round's agents, in order."""
    end = end if end is not None else ReactiveEnd()
    reference = optimal_round(configuration, len(outcomes), end, discount)
    policies = optimal_policies(configuration, len(outcomes), discount)
    stream = TaskStream(configuration)
    scores = []
    for a, outcome in enumerate(outcomes):
        best = AgentOutcome.of_round(reference, a)
        home = configuration.companies[a].vehicles[0].home
        expected = reward_per_km(configuration.topology, stream, policies[a], home)
        scores.append(ReactiveScore(
            agent=a, name=outcome.name, discount=discount, reward=outcome.reward, distance_km=outcome.distance_km,
            reward_per_km=_per_km(outcome.reward, outcome.distance_units),
            profit_per_km=_per_km(outcome.profit, outcome.distance_units),
            optimal_reward=best.reward, optimal_distance_km=best.distance_km,
            optimal_reward_per_km=_per_km(best.reward, best.distance_units),
            optimal_profit_per_km=_per_km(best.profit, best.distance_units),
            expected_reward_per_km=expected.reward_per_km if expected.km_per_step else 0.0))
    return tuple(scores)
