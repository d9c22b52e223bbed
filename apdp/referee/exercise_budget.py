"""An exercise record's byte budget: a round's record never takes more than ``limits.record_kb``.

The answers are the round (its replay needs every one), so they are never cut: each agent's answers
may take an equal share of the record (:meth:`ExerciseBudget.room`); a plan past it is the agent's
fault, as an auction's is (a plan never needs that many moves). A reactive agent's answers grow with
the round, not with what it answers (a few bytes an act: :func:`~apdp.referee.exercise_record.answer_json`),
so a round whose end could make more act calls than its share keeps is refused before any agent
starts (:meth:`ExerciseBudget.check_end`). What agents printed is cut to fit at the end
(:meth:`ExerciseBudget.fit`).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from apdp.errors import UserError
from apdp.exercises.configuration import ExerciseConfiguration
from apdp.exercises.round import ReactiveEnd
from apdp.referee.budget import RECORD_RESERVE
from apdp.referee.exercise_record import ExerciseRecord, answer_json
from apdp.referee.exercise_seat import Answer
from apdp.referee.record import cut_outputs, record_size


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace"))


@dataclass
class ExerciseBudget:
    """The bytes a round's record may take (``limit``), and each agent's share of it for its answers."""

    limit: int
    share: int
    cities: dict[str, int]
    used: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, record_kb: int, configuration: ExerciseConfiguration,
           identities: Sequence[dict[str, Any]]) -> ExerciseBudget:
        cities = configuration.network.cities
        fixed = RECORD_RESERVE + _size(list(identities)) + _size(list(cities)) + 256 * len(identities)
        share = (record_kb * 1024 - fixed) // max(1, len(identities))
        return cls(record_kb * 1024, share, {c: i for i, c in enumerate(cities)}, [0] * len(identities))

    def room(self, agent: int, answer: Answer) -> str | None:
        """Count ``answer`` in agent ``agent``'s share; why it does not fit, or None when it does."""
        self.used[agent] += _size(answer_json(answer, self.cities)) + 1
        if self.used[agent] <= self.share:
            return None
        actions = sum(len(p) for p in answer.plans)
        return (f"its answers take {self.used[agent]} bytes with this {answer.call} of {actions} actions, more "
                f"than its share of the record ({self.share} bytes, limits.record_kb): a plan never needs that "
                "many moves")

    def check_end(self, configuration: ExerciseConfiguration, end: ReactiveEnd, kinds: Sequence[str]) -> None:
        """UserError when a reactive agent of this round could make more act calls than its share keeps
        (or when nothing ends the round: the platform's reactive run never ends)."""
        reactive = [i for i, k in enumerate(kinds) if k == "reactive"]
        if not reactive:
            return
        if end.hours is None and end.acts is None:
            raise UserError("a reactive round needs an end: give hours or acts (--hours H or --acts N)")
        shortest = min((r.distance for r in configuration.network.roads), default=0.0)
        per_act = max(len(str(len(self.cities))), 2) + 1
        for agent in reactive:
            speed = configuration.companies[agent].vehicles[0].speed / 1000.0  # km per simulated hour
            # an act call follows a move of at least the shortest road (or is the first)
            bound = math.inf if end.hours is None or shortest <= 0 else 2 + end.hours * speed / shortest
            acts = min(bound, math.inf if end.acts is None else end.acts)
            if acts * per_act > self.share:
                most = self.share // per_act
                raise UserError(f"a reactive round of {end.hours:g} simulated hours may make up to {acts:.0f} act "
                                f"calls per agent, more than the record keeps ({self.limit // 1024} KiB, "
                                f"limits.record_kb): end it sooner (--acts {most} or fewer)"
                                if end.hours is not None and acts == bound else
                                f"--acts {end.acts}: more act calls than the record keeps ({self.limit // 1024} KiB, "
                                f"limits.record_kb); give --acts {most} or fewer")

    def fit(self, record: ExerciseRecord) -> ExerciseRecord:
        """``record``, what its agents printed cut until it fits the limit."""
        excess = record_size(record.to_json()) - self.limit
        if excess <= 0:
            return record
        outputs = list(record.outputs)
        while excess > 0:
            before = list(outputs)
            cut_outputs(outputs, excess)
            if outputs == before:  # nothing more to cut: the answers are never cut
                break
            record = dataclasses.replace(record, outputs=tuple(outputs))
            excess = record_size(record.to_json()) - self.limit
        return record
