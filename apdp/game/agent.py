"""The agent API: subclass ``Agent`` and fill in ``bid`` and ``plan``.

A match calls, in this order and each within its time limit:

1. ``setup(topology, distribution, company)`` once;
2. for each task: ``bid(task)`` then ``auction_result(task, winner, bids)``;
3. ``plan(vehicles, tasks)`` once, with the tasks the company won.

Before each call the referee sets ``self.deadline`` (a :class:`apdp.game.deadline.Deadline` a little
before the hard limit); an agent still running at the hard limit is killed and loses the match.
The agent runs in its own process: it cannot see the referee or its opponents, only what it is told.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from apdp.game.company import Company, Vehicle
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.params import read_param
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology

T = TypeVar("T")


class Agent:
    """Base class of every agent: one company's bidder and planner.

    Attributes set by the referee before ``setup``:
        topology, distribution, company: the world and the agent's own fleet.
        agent_id: the agent's company index (0-based); ``bids`` in ``auction_result`` use it.
        agents: the number of companies in the match.
        params: per-agent parameters from the scenario or ``agents/params.toml``.
        rng: a numpy Generator seeded from the match seed: use it for all randomness, so that the
            same seed gives the same match.
        timeouts: the match's time limits in seconds (``setup``, ``bid``, ``plan``).
        deadline: when the current call must return (set before every call).
    """

    topology: Topology
    distribution: TaskDistribution
    company: Company
    agent_id: int
    agents: int
    params: Mapping[str, Any]
    rng: np.random.Generator
    timeouts: Mapping[str, float]
    deadline: Deadline

    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        """Prepare for the match (precompute, read ``params``). Optional."""

    def bid(self, task: Task) -> float | None:
        """Your price for carrying ``task``; the lowest bid wins and is paid. None abstains."""
        raise NotImplementedError("an agent must implement bid(task)")

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        """Learn who won ``task`` (a company index, or None) and every company's bid. Optional."""

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """One list of actions per vehicle that picks up and delivers every task in ``tasks``."""
        raise NotImplementedError("an agent must implement plan(vehicles, tasks)")

    def param(self, name: str, default: T) -> T:
        """The parameter ``name`` converted to the type of ``default``, or ``default`` if unset."""
        return read_param(self.params, name, default)
