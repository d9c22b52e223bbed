"""The check of an agent of the course's other exercises (reactive, deliberative, centralized): one
round of the exercise's configuration (the course's, on the course's network), played sandboxed by
:func:`apdp.referee.exercise_round.play_exercise`, and every fault of the agent as a problem of the
auction's check (:class:`~apdp.check.report.CheckReport`'s classes), so that the LLM harness repairs
an exercise's agent as it repairs an auction agent.

A reactive round never ends on the platform; the check's ends after :data:`CHECK_ACTS` act calls.
The round has the check's number of tasks when it is smaller than the configuration's
(``CheckConfig.tasks``: a deliberative search of the course's 10 tasks can take a minute).
The round's time limits are the check's (``CheckConfig.timeouts``: ``setup`` and ``plan``; by
default :data:`CHECK_TIMEOUTS`), not the course's 300 s, so that a hanging agent is caught soon.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apdp.agents.discovery import find_agent
from apdp.bundled import BUNDLED_SCENARIOS
from apdp.check.borrowed import borrowed_by, describe
from apdp.check.config import CheckConfig
from apdp.check.report import CATEGORIES, CheckReport, Problem
from apdp.errors import UserError
from apdp.exercises.configuration import EXERCISES, ExerciseConfiguration, read_exercise
from apdp.exercises.round import ReactiveEnd
from apdp.referee.exercise_record import ExerciseRecord

#: The course's network of each exercise (its reactive.xml, deliberative.xml, centralized.xml).
COURSE_NETWORK = {"reactive": "france", "deliberative": "switzerland", "centralized": "england"}
#: Act calls of the check's reactive round (the platform's headless reactive run never ends).
CHECK_ACTS = 1000
#: The check's time limits (seconds) unless the check's configuration gives others.
CHECK_TIMEOUTS = {"setup": 60.0, "plan": 60.0}


def checked_exercise(exercise: str, what: str = "exercise") -> str:
    """``exercise`` if it is one of the three; UserError naming them (and ``what`` gave it) otherwise."""
    if exercise not in EXERCISES:
        raise UserError(f"{what} {exercise!r}: choose reactive, deliberative or centralized")
    return exercise


def exercise_scenario(exercise: str, network: str | None = None) -> Path:
    """The shipped configuration of ``exercise`` on ``network`` (default: the course's network)."""
    path = BUNDLED_SCENARIOS / "exercises" / f"{checked_exercise(exercise)}_{network or COURSE_NETWORK[exercise]}.toml"
    if not path.is_file():
        raise UserError(f"no shipped {exercise} configuration on {network!r}: use switzerland, france, england or "
                        "netherlands")
    return path


def check_timeouts(config: CheckConfig) -> dict[str, float]:
    """The check's limits of an exercise's calls (seconds: ``setup``, ``plan``)."""
    for key in config.timeouts:
        if key not in ("setup", "plan", "bid"):
            raise UserError(f"unknown time limit {key!r}; an exercise's check takes setup and plan")
    return {**CHECK_TIMEOUTS, **{k: float(v) for k, v in config.timeouts.items() if k in ("setup", "plan")}}


def with_timeouts(configuration: ExerciseConfiguration, timeouts: Mapping[str, float]) -> ExerciseConfiguration:
    """``configuration`` with other time limits (seconds)."""
    return dataclasses.replace(configuration, timeouts_ms={k: round(v * 1000) for k, v in timeouts.items()})


@dataclass(slots=True)
class ExerciseCheckReport(CheckReport):
    """The check of an exercise's agent: the round it played (``record``) and its problems."""

    exercise: str = "reactive"
    network: str = ""
    record: ExerciseRecord | None = None

    @property
    def ok(self) -> bool:
        """True when the round was played to its end without a fault of the agent."""
        return not self.problems and self.record is not None and self.record.referee_error is None

    def scores_text(self) -> str:
        """The round's totals, one line."""
        record = self.record
        if record is None or not record.statistics:
            return "- no round was played"
        s = record.statistics[0]
        return (f"- {self.exercise} exercise on {self.network}: {s.total_tasks} tasks, {s.total_distance:g} km, "
                f"cost {s.total_cost}, reward {s.total_reward}, profit {s.total_profit}")

    def text(self, max_per_category: int = 6, traceback_lines: int = 25) -> str:
        """The report as plain text, to read or to paste back to a model."""
        limits = check_timeouts(self.config)
        head = "PASSED: no fault" if self.ok else f"FAILED: {len(self.problems)} problem(s)"
        lines = [f"Check of {self.exercise} agent {self.agent!r} ({self.path}): {head}.",
                 f"Round (the course's {self.exercise} configuration on {self.network}; time limits: setup "
                 f"{limits['setup']:g} s, each {'act' if self.exercise == 'reactive' else 'plan'} call "
                 f"{limits['plan']:g} s):", self.scores_text()]
        lines += [f"Note: {note}" for note in self.notes]
        for category, problems in self.by_category().items():
            title, hint = CATEGORIES[category]
            hint = hint.replace("apdp.Agent", f"apdp.{self.exercise.capitalize()}Agent")
            lines += ["", f"{title} ({len(problems)}): {hint}."]
            for n, p in enumerate(problems[:max_per_category], start=1):
                lines.append(f"{n}. {'in ' + p.phase + ': ' if p.phase else ''}{p.message}")
                if p.traceback:
                    tb = p.traceback.rstrip("\n").splitlines()[-traceback_lines:]
                    lines += [f"   {line}" for line in tb]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {"agent": self.agent, "path": str(self.path), "ok": self.ok, "exercise": self.exercise,
                "network": self.network, "round": None if self.record is None else self.record.to_json(),
                "problems": [p.to_json() for p in self.problems], "notes": list(self.notes)}


def problems_of_record(record: ExerciseRecord) -> list[Problem]:
    """The problems of the (only) agent of a check's round."""
    fault = record.fault
    if fault is None:
        return []
    message = fault.message
    if fault.phase == "setup" and ("failed to import" in message or "defines no" in message):
        return [Problem("import", "setup", None, message)]
    category = str(fault.kind) if str(fault.kind) in CATEGORIES else "exception"
    if category == "invalid_plan":
        lowered = message.lower()
        if "not all" in lowered or "not picked up" in lowered or "not delivered" in lowered:
            category = "undelivered"
        elif "capacity" in lowered:
            category = "capacity"
    return [Problem(category, fault.phase, fault.task, message,
                    record.traceback)]


def check_exercise_agent(agent: str | Path, config: CheckConfig | None = None, *, exercise: str,
                         on_match: Callable[[Any], None] | None = None) -> ExerciseCheckReport:
    """Check an agent of ``exercise``: one round of the course's configuration, alone, every fault
    reported (``on_match`` is the auction check's hook, unused: one round, no matches)."""
    from apdp.referee.exercise_round import play_exercise  # the referee, imported where used
    from apdp.sandbox.exposure import check_private
    from apdp.secret import secret_file_path

    config = config or CheckConfig()
    kind = checked_exercise(exercise)
    source = find_agent(str(agent))
    check_private([source.path], [(secret_file_path(), "your secret file")])
    network = COURSE_NETWORK[kind]
    configuration = with_timeouts(read_exercise(exercise_scenario(kind)), check_timeouts(config))
    configuration = dataclasses.replace(configuration, tasks=min(config.tasks, configuration.tasks))
    report = ExerciseCheckReport(source.name, source.path, config, exercise=kind, network=network)
    end = ReactiveEnd(hours=None, acts=CHECK_ACTS)
    record = play_exercise(configuration, [source], exercise=kind, end=end)  # type: ignore[arg-type]
    report.record = record
    report.problems.extend(problems_of_record(record))
    played = getattr(record, "agent_kinds", (kind,))[0]
    if played != kind:  # the platform plays an agent as its own kind
        report.problems.append(Problem("import", "setup", None, f"{source.path}: its agent plays the {played} "
                                       f"exercise, not the {kind} one: subclass apdp.{kind.capitalize()}Agent"))
    borrowed = borrowed_by(source.path)
    if borrowed:
        report.problems.append(Problem("borrowed", None, None, f"{source.path} {describe(borrowed)}: write the "
                                       f"{kind} exercise's solution yourself, in code its source shows"))
    if kind == "reactive":
        report.notes.append(f"the reactive round ended after {CHECK_ACTS} act calls")
    if record.referee_error is not None:
        report.notes.append(f"the referee failed (apdp's fault, not the agent's): {record.referee_error[:300]}")
    return report
