"""The values an agent of the course's other exercises (reactive, deliberative, centralized) is handed.

* :class:`ExerciseVehicle`: a vehicle at one moment of a round, as the Logist platform's ``Vehicle``
  shows it: its fixed traits (home, capacity, cost per km, speed) and its state (the city it is in,
  the tasks it carries, how many it delivered, the reward it earned and the distance it drove).
* :class:`ExerciseDistribution`: the platform's ``TaskDistribution`` of an exercise: the probability
  that a city offers a task to each other city (and that it offers none), each pair's reward and
  weight, as whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apdp.game.task import Task


@dataclass(frozen=True, slots=True)
class ExerciseVehicle:
    """A vehicle of the agent's company at the moment of a call.

    ``id`` is its index in the company (0: the vehicle a reactive or deliberative agent drives);
    ``city`` where it is now; ``carried`` the tasks it carries; ``delivered`` how many tasks it
    delivered since its task set was last set; ``reward`` the rewards it earned; ``distance_units``
    the distance it drove, in the platform's units (km x 1000). ``speed`` is in km/h.
    """

    id: int
    name: str
    home: str
    city: str
    capacity: int
    cost_per_km: int
    speed: float
    carried: tuple[Task, ...] = ()
    delivered: int = 0
    reward: int = 0
    distance_units: int = 0

    @property
    def load(self) -> int:
        """The weight it carries."""
        return sum(int(t.weight) for t in self.carried)

    @property
    def distance(self) -> float:
        """The distance it drove, in km."""
        return self.distance_units / 1000.0

    def to_json(self) -> dict[str, Any]:
        """The vehicle as an exercise's call carries it (``apdp-agent/1``)."""
        return {"id": self.id, "name": self.name, "home": self.home, "city": self.city, "capacity": self.capacity,
                "cost_per_km": self.cost_per_km, "speed": self.speed, "carried": [t.to_json() for t in self.carried],
                "delivered": self.delivered, "reward": self.reward, "distance_units": self.distance_units}


@dataclass(frozen=True, slots=True)
class PairLaw:
    """What the distribution says of tasks from ``pickup`` to ``delivery``: the probability that
    ``pickup`` offers one (``probability``; the pairs of a city and its no-task probability add up
    to 1), the platform's own unnormalised value of it, and the task's reward and weight."""

    pickup: str
    delivery: str
    probability: float
    platform_probability: float
    reward: int
    weight: int


class ExerciseDistribution:
    """An exercise's task distribution, as the platform's ``TaskDistribution`` answers.

    ``probability(a, b)`` is the chance that city ``a`` offers a task to ``b``; ``probability(a,
    None)`` (or ``no_task(a)``) the chance that it offers none. ``reward`` and ``weight`` are the
    pair's, 0 for equal cities (the platform truncates them to whole numbers).
    """

    def __init__(self, cities: Sequence[str], pairs: Sequence[PairLaw], no_task: Mapping[str, float]) -> None:
        self.cities: tuple[str, ...] = tuple(cities)
        self.pairs: tuple[PairLaw, ...] = tuple(pairs)
        self._no_task = {c: float(no_task.get(c, 0.0)) for c in self.cities}
        self._pairs = {(p.pickup, p.delivery): p for p in self.pairs}

    def __reduce__(self) -> tuple[type[ExerciseDistribution], tuple[Any, ...]]:
        return ExerciseDistribution, (self.cities, self.pairs, self._no_task)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExerciseDistribution) and (self.cities, self.pairs, self._no_task) == (
            other.cities, other.pairs, other._no_task)

    def __hash__(self) -> int:
        return hash((self.cities, self.pairs))

    def probability(self, pickup: str, delivery: str | None) -> float:
        """The probability that ``pickup`` offers a task to ``delivery`` (None: no task at all)."""
        if delivery is None:
            return self.no_task(pickup)
        pair = self._pairs.get((pickup, delivery))
        return 0.0 if pair is None else pair.probability

    def no_task(self, city: str) -> float:
        """The probability that ``city`` offers no task."""
        return self._no_task.get(city, 0.0)

    def reward(self, pickup: str, delivery: str) -> int:
        """The reward of a task from ``pickup`` to ``delivery`` (0 for equal cities)."""
        pair = self._pairs.get((pickup, delivery))
        return 0 if pair is None else pair.reward

    def weight(self, pickup: str, delivery: str) -> int:
        """The weight of a task from ``pickup`` to ``delivery`` (0 for equal cities)."""
        pair = self._pairs.get((pickup, delivery))
        return 0 if pair is None else pair.weight

    def to_json(self) -> dict[str, Any]:
        """The distribution as an exercise's setup call carries it (``apdp-agent/1``)."""
        return {
            "pairs": [{"pickup": p.pickup, "delivery": p.delivery, "probability": p.probability,
                       "platform_probability": p.platform_probability, "reward": p.reward, "weight": p.weight}
                      for p in self.pairs],
            "no_task": dict(self._no_task),
        }
