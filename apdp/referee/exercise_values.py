"""An exercise's task distribution as its agents are told of it (:class:`apdp.game.exercise.ExerciseDistribution`),
from the platform's stream (:class:`apdp.exercises.distribution.TaskStream`)."""

from __future__ import annotations

from apdp.exercises.distribution import TaskStream
from apdp.game.exercise import ExerciseDistribution, PairLaw


def exercise_distribution(stream: TaskStream) -> ExerciseDistribution:
    """What ``TaskDistribution`` answers on the platform: each pair's probability (with the no-task
    share taken out), the raw matrix value, the truncated reward and weight; each city's no-task."""
    cities = stream.cities
    pairs = []
    for i, a in enumerate(cities):
        for j, b in enumerate(cities):
            if i != j:
                pairs.append(PairLaw(a, b, stream.probabilities[i][j], stream.matrices.probability[i][j],
                                     int(stream.matrices.reward[i][j]), int(stream.matrices.weight[i][j])))
    return ExerciseDistribution(cities, pairs, dict(zip(cities, stream.no_task, strict=True)))
