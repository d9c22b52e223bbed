"""The reactive exercise's reference: the exact MDP of one vehicle, solved by value iteration.

States: (city, offered task's destination or None). Actions: take the offer (if its weight fits
the capacity), earning ``reward(city, to) - cost_per_km x km(city, to)`` and arriving in ``to``;
or move to a neighbour ``n`` for ``-cost_per_km x km(city, n)``. In the next city the offer is drawn
from the distribution: destination ``to`` with ``probability(city, to)``, none with the no-task
probability. Values discount each step by ``discount``: the course's ``discount-factor`` agent
parameter (agents.xml; the course template's ``reactive-random`` entry sets 0.85, and
``readProperty`` defaults to 0.95 when absent). Distances are the platform's (units / 1000 km).

:func:`reward_per_km` gives a policy's long-run reward per km from a home city (rewards over km
driven, the stationary average of the chain the policy makes) and the platform's graph's value,
that less the cost per km.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from apdp.exercises.distribution import TaskStream
from apdp.exercises.topology import LogistTopology

#: The course template's discount-factor (its agents.xml, agent reactive-random).
COURSE_DISCOUNT = 0.85

#: An action: ("take", destination) or ("move", neighbour).
Choice = tuple[str, str]


@dataclass(frozen=True)
class ReactivePolicy:
    """Values and best actions of every state (city, offered destination or None)."""

    discount: float
    values: dict[tuple[str, str | None], float]
    actions: dict[tuple[str, str | None], Choice]
    iterations: int

    def act(self, city: str, offer: str | None) -> Choice:
        """The best action in ``city`` with an offer to ``offer`` (None: no offer)."""
        return self.actions[(city, offer)]


def _offers(stream: TaskStream, city: str) -> list[tuple[str | None, float]]:
    out: list[tuple[str | None, float]] = [(to, stream.probability(city, to)) for to in stream.cities if to != city]
    out.append((None, stream.probability(city, None)))
    return out


def value_iteration(topology: LogistTopology, stream: TaskStream, *, cost_per_km: float, capacity: int = 2**31 - 1,
                    discount: float = COURSE_DISCOUNT, tolerance: float = 1e-9,
                    max_iterations: int = 100_000) -> ReactivePolicy:
    """Solve the MDP: iterate ``V(s) = max_a R(s, a) + discount x E[V(next state)]`` until no value
    moves by more than ``tolerance``."""
    if not 0 <= discount < 1:
        raise ValueError(f"discount must be in [0, 1), got {discount}")
    cities = topology.cities
    states = [(c, to) for c in cities for to, _ in _offers(stream, c)]
    offers = {c: _offers(stream, c) for c in cities}
    values = dict.fromkeys(states, 0.0)

    def expected(city: str) -> float:
        return sum(p * values[(city, to)] for to, p in offers[city])

    def choices(city: str, to: str | None, future: dict[str, float]) -> list[tuple[float, Choice]]:
        out = [(-cost_per_km * topology.distance_km(city, n) + discount * future[n], ("move", n))
               for n in topology.neighbors(city)]
        if to is not None and stream.weight(city, to) <= capacity:
            out.append((stream.reward(city, to) - cost_per_km * topology.distance_km(city, to)
                        + discount * future[to], ("take", to)))
        return out

    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        future = {c: expected(c) for c in cities}
        change = 0.0
        for city, to in states:
            best = max(v for v, _ in choices(city, to, future))
            change = max(change, abs(best - values[(city, to)]))
            values[(city, to)] = best
        if change <= tolerance:
            break
    future = {c: expected(c) for c in cities}
    actions = {}
    for city, to in states:
        options = choices(city, to, future)
        top = max(v for v, _ in options)
        actions[(city, to)] = next(a for v, a in options if v == top)  # ties: neighbours first, in order
    return ReactivePolicy(discount, values, actions, iterations)


@dataclass(frozen=True)
class LongRun:
    """A policy's long-run averages per step and per km from a home city."""

    reward_per_step: float
    km_per_step: float

    @property
    def reward_per_km(self) -> float:
        """Rewards earned per km driven."""
        return self.reward_per_step / self.km_per_step

    def profit_per_km(self, cost_per_km: float) -> float:
        """The platform's graph (``getRewardRatio``): reward per km less the cost per km."""
        return self.reward_per_km - cost_per_km


def reward_per_km(topology: LogistTopology, stream: TaskStream, policy: ReactivePolicy, home: str) -> LongRun:
    """The long-run averages of ``policy`` started in ``home`` (Cesàro limit of the city chain)."""
    cities = list(topology.cities)
    index = {c: i for i, c in enumerate(cities)}
    n = len(cities)
    chain = np.zeros((n, n))
    reward = np.zeros(n)
    km = np.zeros(n)
    for c in cities:
        i = index[c]
        for to, p in _offers(stream, c):
            kind, there = policy.act(c, to)
            chain[i, index[there]] += p
            km[i] += p * topology.distance_km(c, there)
            if kind == "take" and to is not None:
                reward[i] += p * stream.reward(c, to)
    # the limit of the average of chain^t from home: power iteration on the lazy chain (same limit,
    # no periodicity) until it settles
    lazy = 0.5 * (np.eye(n) + chain)
    pi = np.zeros(n)
    pi[index[home]] = 1.0
    for _ in range(1_000_000):
        nxt = pi @ lazy
        if np.abs(nxt - pi).max() < 1e-15:
            pi = nxt
            break
        pi = nxt
    return LongRun(float(pi @ reward), float(pi @ km))
