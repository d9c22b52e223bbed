"""The agent API of the course's other exercises: subclass one of the three classes below.

* :class:`ReactiveAgent` (the reactive exercise): a vehicle wanders the network; each time it has
  nothing to do, ``act(vehicle, task)`` is called with the task offered in its city (or None) and
  returns ``Pickup(task.id)`` (the platform picks it up, drives it along a shortest path and
  delivers it) or ``Move(neighbour)``.
* :class:`DeliberativeAgent` (the deliberative exercise): ``plan(vehicle, tasks)`` returns vehicle
  0's whole route from where it is: every task of ``tasks`` picked up and delivered, and the tasks it
  carries delivered. When another agent took a task first, ``plan_cancelled(vehicle, carried)`` is
  called and then ``plan`` again for the tasks left.
* :class:`CentralizedAgent` (the centralized exercise): ``plan(vehicles, tasks)`` returns one list of
  actions per vehicle that together pick up and deliver every task.

Each is first set up once with ``setup(topology, distribution, company)``. Before each call the
referee sets ``self.deadline``; an agent still running at its hard limit is killed and faults. Moves
go to neighbouring cities only (``self.topology.neighbours(city)``, ``self.topology.path(a, b)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeVar

import numpy as np

from apdp.game.company import Company
from apdp.game.deadline import Deadline
from apdp.game.exercise import ExerciseDistribution, ExerciseVehicle
from apdp.game.params import read_param
from apdp.game.plan import Action
from apdp.game.task import Task
from apdp.game.topology import Topology

T = TypeVar("T")

#: The course's three exercises besides the auction.
ExerciseKind = Literal["reactive", "deliberative", "centralized"]


class ExerciseAgent:
    """What every exercise agent has (set by the referee before ``setup``).

    Attributes:
        topology, distribution, company: the world and the agent's own fleet.
        agent_id: the agent's company index (0-based); agents: the number of agents in the round.
        params: per-agent parameters; rng: a numpy Generator seeded by the referee.
        timeouts: the round's time limits in seconds (``setup``, ``plan``: the platform's
            ``timeout-plan`` covers every act and plan call).
        deadline: when the current call must return (set before every call).
    """

    #: Which exercise the class plays.
    exercise: ClassVar[ExerciseKind]

    topology: Topology
    distribution: ExerciseDistribution
    company: Company
    agent_id: int
    agents: int
    params: Mapping[str, Any]
    rng: np.random.Generator
    timeouts: Mapping[str, float]
    deadline: Deadline

    def setup(self, topology: Topology, distribution: ExerciseDistribution, company: Company) -> None:
        """Prepare for the round (precompute a policy, read ``params``). Optional."""

    def param(self, name: str, default: T) -> T:
        """The parameter ``name`` converted to the type of ``default``, or ``default`` if unset."""
        return read_param(self.params, name, default)


class ReactiveAgent(ExerciseAgent):
    """A reactive agent: decides, city by city, whether to take the task offered or move on."""

    exercise: ClassVar[ExerciseKind] = "reactive"

    def act(self, vehicle: ExerciseVehicle, task: Task | None) -> Action:
        """``Pickup(task.id)`` to carry the offered task (delivered at once, along a shortest path),
        or ``Move(city)`` to a neighbour of ``vehicle.city``."""
        raise NotImplementedError("a reactive agent must implement act(vehicle, task)")


class DeliberativeAgent(ExerciseAgent):
    """A deliberative agent: plans its vehicle's whole route for tasks known in advance."""

    exercise: ClassVar[ExerciseKind] = "deliberative"

    def plan(self, vehicle: ExerciseVehicle, tasks: Sequence[Task]) -> list[Action]:
        """Vehicle 0's actions from ``vehicle.city``: deliver every task in ``vehicle.carried`` and
        pick up and deliver every task in ``tasks``."""
        raise NotImplementedError("a deliberative agent must implement plan(vehicle, tasks)")

    def plan_cancelled(self, vehicle: ExerciseVehicle, carried: Sequence[Task]) -> None:
        """The current plan was cancelled (another agent picked up one of its tasks first); ``plan``
        is called next for the tasks left. Optional."""


class CentralizedAgent(ExerciseAgent):
    """A centralized agent: plans every vehicle of its company for a known set of tasks."""

    exercise: ClassVar[ExerciseKind] = "centralized"

    def plan(self, vehicles: Sequence[ExerciseVehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        """One list of actions per vehicle (an empty one for an idle vehicle) that together pick up
        and deliver every task, each task by one vehicle."""
        raise NotImplementedError("a centralized agent must implement plan(vehicles, tasks)")


#: The agent class of each exercise.
EXERCISE_AGENTS: dict[ExerciseKind, type[ExerciseAgent]] = {
    "reactive": ReactiveAgent, "deliberative": DeliberativeAgent, "centralized": CentralizedAgent,
}
