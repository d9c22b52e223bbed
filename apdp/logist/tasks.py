"""The Logist platform's task draw, number for number.

A Logist configuration's ``<tasks number= rngSeed=>`` fixes every task by its seed: one
:class:`~apdp.logist.javarandom.JavaRandom` serves the whole draw. First three matrices over the
ordered pairs of distinct cities (row by row in city order, the diagonal skipped): probability, then
reward, then weight, each value ``lo + (hi - lo) * f`` with ``f`` set by the law's distribution and
distance policy (:func:`pair_factor`). Then, per task, one ``nextDouble`` picks a row (the pickup)
and a column (the delivery) of the probability matrix; the task's weight and reward are that pair's
values, truncated to whole numbers. Distances are the platform's: integer units of km x 1000, shortest
paths on units, back to km.

With such a draw the tasks follow from the configuration alone, as on the platform: anyone with the
file foresees them (an agent can even recover the generator's state from the probabilities it is told).
apdp plays it on request (``task_draw = "platform"``); by default a match's tasks are drawn from its
secret stream under the same matrices (:meth:`LogistDistribution.sample`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from apdp.errors import UserError
from apdp.game.distribution import TaskDistribution
from apdp.game.laws import Law, Policy, WeightLaw
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.logist.distances import platform_distances
from apdp.logist.javarandom import JavaRandom

Matrix = tuple[tuple[float, ...], ...]


class Uniform(Protocol):
    """What the platform's walks draw with: ``java.util.Random`` (:class:`JavaRandom`), or another
    source of uniform doubles in [0, 1)."""

    def next_double(self) -> float:
        """The next uniform double in [0, 1)."""


class LogistLaw(Law):
    """How a configuration's ``<probability>``, ``<reward>`` or ``<weight>`` values each pair.

    ``constant`` with ``min == max`` is the platform's ``value=``; ``policy`` is its
    ``short-distances``, ``medium-distances`` or ``long-distances`` (``none`` when absent).
    """

    min: float = Field(allow_inf_nan=False)
    max: float = Field(allow_inf_nan=False)
    policy: Policy = "none"


#: The largest reward or weight a law may give (100,000 tasks of it stay within a Java long).
MOST_VALUE = 1e12


class LogistTasks(BaseModel):
    """The ``<tasks>`` of a Logist configuration, less their number (the scenario's ``tasks``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rng_seed: int = Field(ge=-(2**63), lt=2**63)
    probability: LogistLaw
    reward: LogistLaw
    weight: LogistLaw
    #: ``<no-task>``: the probability that a city offers no task (the reactive exercise); None when
    #: absent (0 everywhere). A uniform law draws one value per city after the matrices, in every mode.
    no_task: LogistLaw | None = None

    @model_serializer(mode="wrap")
    def _without_absent_no_task(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # an auction's <tasks> (no <no-task>) dumps as it always did: stored configurations compare equal
        out: dict[str, Any] = handler(self)
        if self.no_task is None:
            out.pop("no_task", None)
        return out

    @model_validator(mode="after")
    def _sensible(self) -> LogistTasks:
        if self.probability.min < 0:
            raise ValueError("probability: values must be >= 0")
        if self.probability.max <= 0:
            raise ValueError("probability: max must be > 0, or no task could be drawn")
        if self.reward.min < 0:
            raise ValueError("reward: values must be >= 0")
        if self.weight.min < 1:
            raise ValueError("weight: values must be >= 1 (weights are truncated to whole numbers > 0)")
        for what, law in (("reward", self.reward), ("weight", self.weight)):
            if law.max > MOST_VALUE:
                raise ValueError(f"{what}: values must be at most {MOST_VALUE:g} (a round's totals are Java longs)")
        return self


#: What each ``task_draw`` of a Logist configuration is, in the words the CLI and reports print.
TASK_DRAWS = {
    "secret": "drawn from each match's secret under the configuration's laws (no agent foresees them)",
    "platform": "the Logist platform's own draw from the file's rngSeed (--platform-tasks): the same in every "
                "match, foreseeable by anyone with the file",
}


class DrawError(UserError):
    """A Logist task draw is impossible on this network."""


def pair_factor(law: LogistLaw, d: float, dmin: float, dmax: float, rng: JavaRandom) -> float:
    """The fraction ``f`` of ``[min, max]`` a pair at distance ``d`` gets (uniform: one nextDouble)."""
    half = (dmax - dmin) / 2
    mid = (dmax + dmin) / 2
    if law.distribution == "constant":
        if law.policy == "short":
            return (dmax - d) / (2 * half)
        if law.policy == "long":
            return (d - dmin) / (2 * half)
        if law.policy == "medium":
            return (half - abs(d - mid)) / half
        return 0.5
    u = rng.next_double()
    if law.policy == "short":
        return (dmax - d) / (4 * half) + u / 2
    if law.policy == "long":
        return (d - dmin) / (4 * half) + u / 2
    if law.policy == "medium":
        return (half - abs(d - mid)) / (2 * half) + u / 2
    return u


@dataclass(frozen=True)
class LogistMatrices:
    """The platform's per-pair values, indexed ``[pickup][delivery]`` by city index (diagonal 0)."""

    cities: tuple[str, ...]
    probability: Matrix
    reward: Matrix
    weight: Matrix


def draw_matrices(topology: Topology, spec: LogistTasks, rng: JavaRandom) -> LogistMatrices:
    """Fill the probability, reward and weight matrices in the platform's order with ``rng``."""
    n = len(topology.cities)
    if n < 2:
        raise DrawError(f"{topology.source}: tasks need at least two cities")
    dist = platform_distances(topology)
    off_diagonal = [dist[i][j] for i in range(n) for j in range(n) if i != j]
    dmin, dmax = min(off_diagonal), max(off_diagonal)
    matrices = []
    for what, law in (("probability", spec.probability), ("reward", spec.reward),
                      ("weight", spec.weight)):
        if law.policy != "none" and dmax == dmin:
            raise DrawError(f"{what}: the {law.policy}-distances policy needs cities at different "
                            f"distances, but every pair of {topology.name} is {dmax:g} km apart")
        rows = []
        for i in range(n):
            row = [0.0] * n
            for j in range(n):
                if i != j:
                    row[j] = law.min + (law.max - law.min) * pair_factor(law, dist[i][j], dmin, dmax, rng)
            rows.append(tuple(row))
        matrices.append(tuple(rows))
    return LogistMatrices(topology.cities, matrices[0], matrices[1], matrices[2])


def draw_no_task(spec: LogistTasks, cities: int, rng: JavaRandom) -> tuple[float, ...]:
    """Each city's no-task probability, drawn after the matrices: a constant law gives every city
    ``(min + max) / 2`` without a draw, a uniform one ``min + (max - min) * nextDouble()`` per city."""
    law = spec.no_task
    if law is None:
        return (0.0,) * cities
    if law.distribution == "constant":
        return ((law.min + law.max) / 2.0,) * cities
    diff = law.max - law.min
    return tuple(law.min + diff * rng.next_double() for _ in range(cities))


def _pick(probability: Matrix, row_sums: Sequence[float], total: float, rng: Uniform) -> tuple[int, int]:
    """The platform's walk: a row by subtracting row sums, then a column by adding its values."""
    x = rng.next_double() * total
    for i, s in enumerate(row_sums):
        x -= s
        if x < 0:
            for j, p in enumerate(probability[i]):
                x += p
                if x >= 0:
                    return i, j
            break
    # Only rounding gets here: the last pair with any probability.
    i = max(k for k, s in enumerate(row_sums) if s > 0) if x >= 0 else i
    return i, max(j for j, p in enumerate(probability[i]) if p > 0)


def draw_logist_tasks(topology: Topology, spec: LogistTasks, count: int) -> list[Task]:
    """The first ``count`` tasks the platform draws for ``spec`` on ``topology``, ids 0, 1, ..."""
    rng = JavaRandom(spec.rng_seed)
    m = draw_matrices(topology, spec, rng)
    draw_no_task(spec, len(m.cities), rng)
    return draw_batch(m, count, rng)


def draw_batch(m: LogistMatrices, count: int, rng: Uniform) -> list[Task]:
    """The round's batch of ``count`` tasks (ids 0, 1, ...) drawn with ``rng`` from the matrices ``m``."""
    row_sums = [sum_in_order(row) for row in m.probability]
    total = sum_in_order(row_sums)
    if not total > 0:
        raise DrawError("probability: every pair has probability 0, no task can be drawn")
    tasks = []
    for task_id in range(count):
        i, j = _pick(m.probability, row_sums, total, rng)
        tasks.append(Task(task_id, m.cities[i], m.cities[j], int(m.weight[i][j]), int(m.reward[i][j])))
    return tasks


def sum_in_order(values: Sequence[float]) -> float:
    """Left-to-right floating-point sum, as a Java loop adds (not Python's compensated ``sum``)."""
    total = 0.0
    for v in values:
        total += v
    return total


class LogistDistribution(TaskDistribution):
    """The distribution agents are told of in a match on a Logist configuration.

    ``probability(a, b)`` is the pair's share of all probability (apdp's meaning: they sum to 1);
    :meth:`platform_probability`, :meth:`reward` and :meth:`weight` are the platform's own per-pair
    values (``TaskDistribution.probability/reward/weight`` of the Java API). It holds neither the
    draw's seed nor its tasks.
    """

    def __init__(self, topology: Topology, spec: LogistTasks, tasks: int = 0, *, platform_draw: bool = True) -> None:
        m = draw_matrices(topology, spec, JavaRandom(spec.rng_seed))
        n = len(topology.cities)
        uniform = sum(law.distribution == "uniform" for law in (spec.probability, spec.reward, spec.weight))
        no_task_draws = n if spec.no_task is not None and spec.no_task.distribution == "uniform" else 0
        #: Under the platform's draw, its generator as its agents find it (DefaultTaskDistribution.getRandom()):
        #: seeded with rngSeed, past the draws of the matrices before setup and of the ``tasks`` tasks after
        #: it. None under a secret draw: an agent's generator is then seeded from its own seed.
        self.generator: dict[str, int] | None = (
            {"seed": spec.rng_seed, "before_setup": uniform * n * (n - 1) + no_task_draws, "after_setup": tasks}
            if platform_draw else None
        )
        cities = topology.cities
        n = len(cities)
        self.topology = topology
        self.pairs = tuple((cities[i], cities[j]) for i in range(n) for j in range(n) if i != j)
        self._pair_index = {pair: k for k, pair in enumerate(self.pairs)}
        index = topology.index
        raw = np.array([m.probability[index[a]][index[b]] for a, b in self.pairs])
        if not raw.sum() > 0:
            raise DrawError("probability: every pair has probability 0, no task can be drawn")
        self._probabilities = raw / raw.sum()
        self._raw = raw
        self._weights = tuple(int(m.weight[index[a]][index[b]]) for a, b in self.pairs)
        self._rewards = tuple(int(m.reward[index[a]][index[b]]) for a, b in self.pairs)
        w = spec.weight
        weight = WeightLaw(distribution="constant" if w.min == w.max else "uniform",
                           value=w.min, min=w.min, max=max(w.max, w.min), integer=True)
        self._keep_laws({"weight": weight.model_dump()})

    def platform_probability(self, pickup: str, delivery: str) -> float:
        """The platform's probability value of the pair (not normalised; 0 for equal cities)."""
        k = self._pair_index.get((pickup, delivery))
        return 0.0 if k is None else float(self._raw[k])

    def reward(self, pickup: str, delivery: str) -> int:
        """The reward of every task of the pair (0 for equal cities)."""
        k = self._pair_index.get((pickup, delivery))
        return 0 if k is None else self._rewards[k]

    def expected_reward(self, pickup: str, delivery: str) -> int:
        """The reward of a task of the pair: the platform's is fixed per pair."""
        return self.reward(pickup, delivery)

    def weight(self, pickup: str, delivery: str) -> int:
        """The weight of every task of the pair (0 for equal cities)."""
        k = self._pair_index.get((pickup, delivery))
        return 0 if k is None else self._weights[k]

    def expected_weight(self) -> float:
        """Mean weight of a task: the pairs' weights averaged by their probabilities."""
        if len(set(self._weights)) == 1:
            return float(self._weights[0])
        return float(np.dot(self._probabilities, self._weights))

    def sample(self, rng: np.random.Generator, task_id: int = 0) -> Task:
        """Draw one task with ``rng``: a match's secret draw, or an agent's look-ahead (not the platform's)."""
        k = int(rng.choice(len(self.pairs), p=self._probabilities))
        pickup, delivery = self.pairs[k]
        return Task(task_id, pickup, delivery, self._weights[k], self._rewards[k])
