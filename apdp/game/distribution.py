"""The task distribution: which city pairs tasks join, and how heavy they are.

It follows the kinds of the Java Logist platform:

* pair probabilities are ``constant`` (every ordered pair of distinct cities equally likely) or
  ``uniform`` (each pair gets a raw value drawn uniformly in ``[min, max]`` with the distribution's
  own ``seed``), optionally shaped by a distance ``policy``: ``short`` favours short trips
  (factor ``1.05 - d/D``), ``long`` long ones (``0.05 + d/D``), ``medium`` the middle
  (``1.05 - |2d/D - 1|``), where ``d`` is the pair's distance and ``D`` the network's diameter;
  the values are then normalised to sum to 1;
* weights are ``constant`` (``value``) or ``uniform`` in ``[min, max]``, whole numbers when
  ``integer`` is true.

The default is constant pair probabilities and whole weights uniform in 1..10 (mean 5.5).
Agents know the distribution: they can ask for a pair's probability and the expected weight, and
sample tasks from it with their own generator for look-ahead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from apdp.game.task import Task
from apdp.game.topology import Topology

if TYPE_CHECKING:  # the laws' schema is the referee's: an agent's process never loads it
    from apdp.game.laws import DistributionSpec


def _policy_factor(policy: str, x: float) -> float:
    if policy == "short":
        return 1.05 - x
    if policy == "long":
        return 0.05 + x
    if policy == "medium":
        return 1.05 - abs(2 * x - 1)
    return 1.0


#: The laws of a scenario that states none (:class:`apdp.game.laws.DistributionSpec`'s defaults, as
#: its ``model_dump`` gives them; a test holds the two together): a distribution built without laws
#: needs no schema.
DEFAULT_LAWS: Mapping[str, Mapping[str, Any]] = {
    "pairs": {"distribution": "constant", "min": 0.0, "max": 1.0, "policy": "none", "seed": 0},
    "weight": {"distribution": "uniform", "value": 3.0, "min": 1.0, "max": 10.0, "integer": True},
}


@dataclass(frozen=True, slots=True)
class WeightDraw:
    """How a task's weight is drawn: the weight law's values, plainly."""

    distribution: str
    value: float
    min: float
    max: float
    integer: bool


class TaskDistribution:
    """The known law tasks are drawn from, on one network."""

    def __init__(self, topology: Topology, spec: DistributionSpec | None = None) -> None:
        self.topology = topology
        self._keep_laws(DEFAULT_LAWS if spec is None else spec.model_dump())
        cities = topology.cities
        self.pairs: tuple[tuple[str, str], ...] = tuple(
            (a, b) for a in cities for b in cities if a != b
        )
        law = self._laws["pairs"]
        if law["distribution"] == "uniform":
            raw = np.random.default_rng(law["seed"]).uniform(law["min"], law["max"], len(self.pairs))
        else:
            raw = np.ones(len(self.pairs))
        diameter = topology.diameter
        shaped = np.array(
            [
                r * _policy_factor(law["policy"], topology.distance(a, b) / diameter)
                for r, (a, b) in zip(raw, self.pairs, strict=True)
            ]
        )
        if shaped.sum() <= 0:
            shaped = np.ones(len(self.pairs))
        self._probabilities = shaped / shaped.sum()
        # what Generator.choice(p=...) computes on every call, once: the same draws, 10x faster
        cdf = self._probabilities.cumsum()
        self._cdf = cdf / cdf[-1]
        self._pair_index = {pair: k for k, pair in enumerate(self.pairs)}

    def _keep_laws(self, laws: Mapping[str, Mapping[str, Any]]) -> None:
        """Keep ``laws`` (a :class:`DistributionSpec`'s dump, or its weight law alone: :attr:`spec`
        gives the rest its defaults) as plain values, and how a task's weight is drawn from them."""
        self._laws: dict[str, dict[str, Any]] = {name: dict(law) for name, law in laws.items()}
        self._weight = WeightDraw(**self._laws["weight"])

    @property
    def spec(self) -> DistributionSpec:
        """The laws the distribution was built from, as a scenario states them."""
        from apdp.game.laws import DistributionSpec

        return DistributionSpec.model_validate(self._laws)

    @property
    def weight_law(self) -> Mapping[str, Any]:
        """The weight law's values (``distribution``, ``value``, ``min``, ``max``, ``integer``)."""
        return dict(self._laws["weight"])

    def probability(self, pickup: str, delivery: str) -> float:
        """Probability that a task goes from ``pickup`` to ``delivery`` (0 for equal cities)."""
        k = self._pair_index.get((pickup, delivery))
        return 0.0 if k is None else float(self._probabilities[k])

    @property
    def probabilities(self) -> Sequence[float]:
        """Probability of each pair in ``pairs``, in the same order."""
        return tuple(float(p) for p in self._probabilities)

    def expected_weight(self) -> float:
        """Mean weight of a task (the weight law does not depend on the pair)."""
        w = self._weight
        if w.distribution == "constant":
            return w.value
        if w.integer:
            lo, hi = int(w.min), int(w.max)
            return (lo + hi) / 2
        return (w.min + w.max) / 2

    def sample(self, rng: np.random.Generator, task_id: int = 0) -> Task:
        """Draw one task with ``rng``."""
        k = int(self._cdf.searchsorted(rng.random(), side="right"))
        pickup, delivery = self.pairs[k]
        return Task(task_id, pickup, delivery, self._sample_weight(rng))

    def sample_tasks(self, rng: np.random.Generator, count: int, first_id: int = 0) -> list[Task]:
        """Draw ``count`` tasks with consecutive ids starting at ``first_id``."""
        return [self.sample(rng, first_id + i) for i in range(count)]

    def _sample_weight(self, rng: np.random.Generator) -> float:
        w = self._weight
        if w.distribution == "constant":
            return int(w.value) if w.integer and w.value == int(w.value) else w.value
        if w.integer:
            return int(rng.integers(int(w.min), int(w.max) + 1))
        return float(rng.uniform(w.min, w.max))
