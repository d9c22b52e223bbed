"""The platform's task distribution and its one random stream (B2-B5, R2, R3).

On the platform one ``java.util.Random(rngSeed)`` serves a whole run: the probability, reward and
weight matrices, then the ``<no-task>`` values, then the round's batch (:meth:`TaskStream.batch`),
then, in the reactive world, one draw per ``act`` call over all agents (:meth:`TaskStream.offer`).
Anyone with the file can therefore foresee every task and offer (and an agent can work the
generator back from the values it is told). apdp draws the matrices and no-task values as the
platform does (they are the distribution agents are told of), and the batch and offers, by the
same walks, from a stream of its own seeded with the configuration's ``draws``, a keyed derivation
of the round's secret (:mod:`apdp.referee.seeding`); ``draws=None`` is the platform's stream.
"""

from __future__ import annotations

import numpy as np

from apdp.exercises.configuration import ExerciseConfiguration
from apdp.game.task import Task
from apdp.logist.javarandom import JavaRandom
from apdp.logist.tasks import LogistMatrices, draw_batch, draw_matrices, draw_no_task


class SecretUniform:
    """Uniform doubles in [0, 1) from numpy's generator seeded with ``seed`` (an integer of any size):
    the stream of a round's batch and offers under apdp's secret draw."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(np.random.SeedSequence(seed))

    def next_double(self) -> float:
        """The next uniform double, as ``nextDouble`` is used by the platform's walks."""
        return float(self._rng.random())


class TaskStream:
    """The distribution agents are told of (``TaskDistribution``) and the generator behind it.

    Built as the platform's configuration parser builds it: the matrices and no-task values are
    drawn at once; :meth:`batch` and :meth:`offer` continue the same generator.
    """

    def __init__(self, configuration: ExerciseConfiguration) -> None:
        self.cities = configuration.topology.cities
        platform = JavaRandom(configuration.laws.rng_seed)
        self.matrices: LogistMatrices = draw_matrices(configuration.network, configuration.laws, platform)
        n = len(self.cities)
        self.no_task: tuple[float, ...] = draw_no_task(configuration.laws, n, platform)
        #: What the batch and the offers are drawn with: the platform's generator
        #: (``DefaultTaskDistribution.getRandom()``) past the values above, or apdp's secret stream.
        self.random: JavaRandom | SecretUniform = (
            platform if configuration.draws is None else SecretUniform(configuration.draws))
        frequency = self.matrices.probability
        self.frequency_sums: tuple[float, ...] = tuple(_java_sum(row) for row in frequency)
        rows = []
        for i in range(n):
            factor = (1.0 - self.no_task[i]) / self.frequency_sums[i]
            rows.append(tuple(f * factor for f in frequency[i]))
        #: ``probability(from, to)``: a city's offer goes to ``to`` with this probability.
        self.probabilities: tuple[tuple[float, ...], ...] = tuple(rows)
        self._index = {c: i for i, c in enumerate(self.cities)}

    def probability(self, pickup: str, delivery: str | None) -> float:
        """``probability(from, to)``; ``delivery=None`` is the probability of no task in ``pickup``."""
        i = self._index[pickup]
        return self.no_task[i] if delivery is None else self.probabilities[i][self._index[delivery]]

    def reward(self, pickup: str, delivery: str) -> int:
        """``reward(from, to)``: the reward matrix truncated to an ``int``."""
        return int(self.matrices.reward[self._index[pickup]][self._index[delivery]])

    def weight(self, pickup: str, delivery: str) -> int:
        """``weight(from, to)``: the weight matrix truncated to an ``int``."""
        return int(self.matrices.weight[self._index[pickup]][self._index[delivery]])

    def batch(self, count: int) -> list[Task]:
        """The round's batch (``createTaskSet``): ``count`` tasks, ids 0..count-1, from the stream."""
        return draw_batch(self.matrices, count, self.random)

    def offer(self, city: str) -> Task | None:
        """``createTask(city)``: one draw; the task offered in ``city`` (id 0), or None (no task)."""
        x = self.random.next_double()
        i = self._index[city]
        row = self.probabilities[i]
        for j, p in enumerate(row):
            x -= p
            if x <= 0.0:
                return Task(0, city, self.cities[j], int(self.matrices.weight[i][j]),
                            int(self.matrices.reward[i][j]))
        return None


def _java_sum(values: tuple[float, ...]) -> float:
    total = 0.0
    for v in values:
        total += v
    return total
