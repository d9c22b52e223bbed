"""Rounds of the course's exercises played for their replay pages' tests: the bundled agents on the
shipped scenarios, with a fixed seed."""

from __future__ import annotations

from apdp.bundled import BUNDLED_AGENTS, BUNDLED_SCENARIOS
from apdp.exercises.round import ReactiveEnd
from apdp.referee.exercise_record import ExerciseRecord
from apdp.referee.exercise_round import play_exercise

#: The network each exercise is played on here.
NETWORK = {"reactive": "france", "deliberative": "switzerland", "centralized": "england"}


def played(exercise: str, agents: int = 1, acts: int = 200) -> ExerciseRecord:
    """A round of ``exercise`` between ``agents`` copies of its bundled agent (a reactive one ends
    after ``acts`` act calls)."""
    scenario = BUNDLED_SCENARIOS / "exercises" / f"{exercise}_{NETWORK[exercise]}.toml"
    agent = str(BUNDLED_AGENTS / "exercises" / f"{exercise}.py")
    end = ReactiveEnd(hours=None, acts=acts) if exercise == "reactive" else None
    record = play_exercise(scenario, [agent] * agents, exercise=exercise, end=end, seed=7)  # type: ignore[arg-type]
    assert record.fault is None and record.referee_error is None, (record.fault, record.referee_error)
    return record
