"""Scores of the course's exercises against references apdp computes (the study's section 5.1).

* :mod:`~apdp.exercises.scores.reactive`: an agent's reward per km against the optimal policy's
  (value iteration on the exact MDP) played through the same round, on the same draws;
* :mod:`~apdp.exercises.scores.deliberative`: each plan's distance against the optimum (exact search),
  whether it was optimal, with the agent's time and nodes where it reports them;
  :mod:`~apdp.exercises.scores.instances`: instances on which a plausible inadmissible A* heuristic
  is NOT optimal, so that a study can tell admissible agents from inadmissible ones;
* :mod:`~apdp.exercises.scores.centralized`: profit against the course's template (the naive plan:
  one vehicle carries everything in turn) and apdp's planner, and vehicles used.

Each score is a frozen model with ``to_json()`` and ``from_json()``. The agent's side is read from a
finished round (:class:`~apdp.exercises.scores.outcome.AgentOutcome`, from a
:class:`~apdp.exercises.round.Round` or a :class:`~apdp.exercises.history.History`) and, for the
deliberative exercise, the plan calls it answered.
"""

from apdp.exercises.scores.centralized import CentralizedScore, score_centralized
from apdp.exercises.scores.deliberative import AnsweredPlan, DeliberativeScore, PlanScore, score_deliberative
from apdp.exercises.scores.instances import (
    Admissibility,
    DiscriminatingInstance,
    admissibility,
    discriminating_instances,
)
from apdp.exercises.scores.outcome import AgentOutcome
from apdp.exercises.scores.reactive import ReactiveScore, score_reactive

__all__ = [
    "Admissibility",
    "AgentOutcome",
    "AnsweredPlan",
    "CentralizedScore",
    "DeliberativeScore",
    "DiscriminatingInstance",
    "PlanScore",
    "ReactiveScore",
    "admissibility",
    "discriminating_instances",
    "score_centralized",
    "score_deliberative",
    "score_reactive",
]
