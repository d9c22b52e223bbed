"""Re-check an exercise's record (``apdp-exercise-record/1``): play the round again, in this process,
from the answers the record keeps, on the configuration it names, and compare what comes out.

The answers drive scripted controllers; the world (offers, clock, task sets, checks, scores) is
the platform's, so a record whose statistics, events or fault were changed, or whose answers were,
no longer agrees with its own replay. :func:`replay_exercise` gives the replayed round (its history
is what ``apdp replay`` shows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from apdp.errors import UserError
from apdp.exercises.centralized import CentralizedPlanCall, CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import CancelCall, DeliberativeSeat, PlanCall
from apdp.exercises.reactive import ActCall, ReactiveSeat
from apdp.exercises.round import ReactiveEnd, Round, Seat, TooManyEvents
from apdp.exercises.verifier import ExerciseFault, IllegalPlan
from apdp.game.plan import Action
from apdp.referee.exercise_record import ExerciseRecord
from apdp.referee.exercise_seat import Answer


class OutOfAnswers(Exception):
    """The record's answers of agent ``agent`` end here: the round stopped at its fault."""

    def __init__(self, agent: int) -> None:
        super().__init__(f"agent {agent} has no answer left")
        self.agent = agent


@dataclass
class Scripted:
    """Answers every call of one agent from the record, in order."""

    agent: int
    answers: Iterator[Answer]
    used: int = 0
    kinds: list[str] = field(default_factory=list)

    def _next(self, call: str) -> Answer:
        answer = next(self.answers, None)
        if answer is None:
            raise OutOfAnswers(self.agent)
        self.used += 1
        if answer.call != call:
            raise ValueError(f"agent {self.agent}: the record answers {answer.call!r} where the round asks {call!r}")
        return answer

    def act(self, call: ActCall) -> Action:
        return self._next("act").plans[0][0]

    def plan(self, call: PlanCall | CentralizedPlanCall) -> Sequence[Action] | Sequence[Sequence[Action]]:
        if isinstance(call, CentralizedPlanCall):
            return [list(p) for p in self._next("plans").plans]
        return list(self._next("plan").plans[0])

    def plan_cancelled(self, call: CancelCall) -> None:
        self._next("cancelled")


_SEATS = {"reactive": ReactiveSeat, "deliberative": DeliberativeSeat, "centralized": CentralizedSeat}


@dataclass
class Replayed:
    """The round played again: the round, how it stopped (None: at its end), the scripts."""

    round: Round
    stopped: str | None
    stopped_agent: int | None
    scripts: list[Scripted]


def as_recorded(record: ExerciseRecord) -> ExerciseConfiguration:
    """The configuration ``record``'s round was played on: its file's, with what the round changed
    (tasks, rngSeed, time limits) and drawing as it drew."""
    configuration = read_exercise(record.scenario)
    settings = record.settings
    laws = configuration.laws
    if "rng_seed" in settings:
        laws = laws.model_copy(update={"rng_seed": int(settings["rng_seed"])})
    return dataclasses.replace(configuration, draws=record.draws, laws=laws,
                               tasks=int(settings.get("tasks", configuration.tasks)),
                               timeouts_ms=dict(settings.get("timeouts_ms", configuration.timeouts_ms)))


def replay_exercise(record: ExerciseRecord) -> Replayed:
    """Play ``record``'s round again from its answers (the configuration is read from its path; the
    batch and offers are drawn as the record says they were)."""
    configuration = as_recorded(record)
    scripts = [Scripted(i, iter(a)) for i, a in enumerate(record.answers)]
    seats: list[Seat] = [_SEATS[kind](s) for kind, s in zip(record.agent_kinds, scripts, strict=True)]
    if len(record.agents) > len(configuration.companies):
        raise ValueError(f"{len(record.agents)} agents, but its configuration has {len(configuration.companies)} "
                         "companies")
    round_ = Round(configuration, seats, list(record.agents), end=ReactiveEnd(record.end_hours, record.end_acts),
                   event_limit=record.events)
    stopped, agent = None, None
    try:
        round_.run()
    except OutOfAnswers as exc:
        stopped, agent = "answers end", exc.agent
    except (IllegalPlan, ExerciseFault) as exc:
        stopped, agent = exc.message, next((i for i, n in enumerate(record.agents) if n == exc.agent), None)
    except TooManyEvents as exc:
        stopped = f"its answers make more events than the record's {exc.limit}"
    return Replayed(round_, stopped, agent, scripts)


def verify_exercise_record(record: ExerciseRecord) -> list[str]:
    """What is wrong with ``record``: where its replay disagrees with it (empty: it is consistent)."""
    try:
        replayed = replay_exercise(record)
    except (ValueError, KeyError, OSError, UserError, NotImplementedError) as exc:
        return [f"its round cannot be played again: {str(exc)[:300]}"]
    problems = []
    round_ = replayed.round
    if len(round_.events) != record.events:
        problems.append(f"the replay has {len(round_.events)} events, the record says {record.events}")
    if record.fault is None:
        if replayed.stopped is not None:
            problems.append(f"the record has no fault, but its replay stops: {replayed.stopped}")
        elif round_.statistics() != record.statistics:
            problems.append("the statistics differ from the replay's: "
                            + "; ".join(f"{s.agent} profit {s.total_profit}" for s in round_.statistics()))
    elif replayed.stopped is None:
        problems.append(f"the record says agent {record.fault.agent} faulted, but its replay plays to the end")
    elif replayed.stopped_agent != record.fault.agent:
        problems.append(f"the record's fault is agent {record.fault.agent}'s, its replay stops at agent "
                        f"{replayed.stopped_agent}'s")
    for script in replayed.scripts:
        left = len(record.answers[script.agent]) - script.used
        if left > 0:
            problems.append(f"agent {script.agent} has {left} answer(s) the round never asked for")
    return problems
