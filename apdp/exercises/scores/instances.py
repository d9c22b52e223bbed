"""Deliberative instances on which a plausible inadmissible A* heuristic is NOT optimal.

Three of four models in the study wrote an inadmissible heuristic; on most task sets such a
heuristic still finds the optimum, so an agent's optimal plan on an arbitrary instance says little.
These instances are the course's configuration with another ``rngSeed`` and few tasks (the
platform's own draw, so any agent plays them unchanged), kept only when exact search shows that
every heuristic of :data:`INADMISSIBLE` returns a longer plan than the optimum. An agent that is
optimal on all of them behaves as an admissible search; one that is not, does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from apdp.exercises.configuration import ExerciseConfiguration
from apdp.exercises.distribution import TaskStream
from apdp.exercises.optimal_plan import Heuristic, State, farthest_task, search_plan, sum_of_task_distances
from apdp.exercises.scores.deliberative import DeliberativeScore
from apdp.exercises.scores.outcome import ScoreModel
from apdp.exercises.topology import LogistTopology
from apdp.game.task import Task


def sum_of_legs(topology: LogistTopology, tasks: dict[int, Task], state: State) -> int:
    """Inadmissible: for every task still to do, the way to it and its length, added up (the
    distance to each pickup and on to its delivery; to each carried task's delivery)."""
    city, waiting, carried = state
    d = topology.distance_units
    return (sum(d(city, tasks[k].pickup) + d(tasks[k].pickup, tasks[k].delivery) for k in waiting)
            + sum(d(city, tasks[k].delivery) for k in carried))


def nearest_plus_tasks(topology: LogistTopology, tasks: dict[int, Task], state: State) -> int:
    """Inadmissible: the distance to the nearest next stop plus every remaining task's length."""
    city, waiting, carried = state
    d = topology.distance_units
    stops = [tasks[k].pickup for k in waiting] + [tasks[k].delivery for k in carried]
    return (min(d(city, s) for s in stops) if stops else 0) + sum_of_task_distances(topology, tasks, state)


#: Plausible inadmissible heuristics (what models wrote): each counts shared roads several times.
INADMISSIBLE: dict[str, Heuristic] = {
    "sum_of_task_distances": sum_of_task_distances,
    "sum_of_legs": sum_of_legs,
    "nearest_plus_tasks": nearest_plus_tasks,
}


class DiscriminatingInstance(ScoreModel):
    """A configuration's variant (``rng_seed``, ``tasks``) and what the searches find on it for the
    vehicle of ``company`` (units)."""

    source: str
    rng_seed: int
    tasks: int
    company: int
    home: str
    capacity: int
    optimal_units: int
    #: The units of the plan each inadmissible heuristic returns (all longer than the optimum).
    inadmissible_units: dict[str, int]

    def configuration(self, base: ExerciseConfiguration) -> ExerciseConfiguration:
        """``base`` (the configuration it was found on) with this instance's seed and number of tasks."""
        return variant(base, self.rng_seed, self.tasks)


def variant(configuration: ExerciseConfiguration, rng_seed: int, tasks: int) -> ExerciseConfiguration:
    """``configuration`` with another ``rngSeed`` and number of tasks."""
    laws = configuration.laws.model_copy(update={"rng_seed": rng_seed})
    return dataclasses.replace(configuration, tasks=tasks, laws=laws)


def examine(configuration: ExerciseConfiguration, company: int = 0) -> DiscriminatingInstance:
    """The optimum and each inadmissible heuristic's plan for the batch of ``configuration``."""
    vehicle = configuration.companies[company].vehicles[0]
    batch = TaskStream(configuration).batch(configuration.tasks)
    topology = configuration.topology

    def units(heuristic: Heuristic) -> int:
        return search_plan(topology, vehicle.home, vehicle.capacity, batch, heuristic=heuristic).units

    return DiscriminatingInstance(source=configuration.source, rng_seed=configuration.laws.rng_seed,
                                  tasks=configuration.tasks, company=company, home=vehicle.home,
                                  capacity=vehicle.capacity, optimal_units=units(farthest_task),
                                  inadmissible_units={name: units(h) for name, h in INADMISSIBLE.items()})


def discriminating_instances(configuration: ExerciseConfiguration, *, tasks: int = 5, count: int = 3,
                             seeds: Iterable[int] | None = None, company: int = 0) -> list[DiscriminatingInstance]:
    """The first ``count`` variants of ``configuration`` with ``tasks`` tasks (seeds from ``seeds``,
    by default the configuration's own and the next 500) on which every heuristic of
    :data:`INADMISSIBLE` finds a longer plan than the optimum."""
    base = configuration.laws.rng_seed
    found = []
    for seed in seeds if seeds is not None else range(base, base + 501):
        instance = examine(variant(configuration, seed, tasks), company)
        if all(u > instance.optimal_units for u in instance.inadmissible_units.values()):
            found.append(instance)
            if len(found) == count:
                break
    return found


class Admissibility(ScoreModel):
    """An agent's plans on discriminating instances: on how many of them every plan was optimal."""

    instances: int
    optimal: int

    @property
    def admissible(self) -> bool:
        """Whether the agent planned as an admissible search does: optimal on every instance (and
        there was at least one)."""
        return 0 < self.instances == self.optimal


def admissibility(scores: Sequence[DeliberativeScore]) -> Admissibility:
    """The verdict on an agent from its scores on :func:`discriminating_instances` (one per instance)."""
    return Admissibility(instances=len(scores), optimal=sum(s.all_optimal for s in scores))
