"""The bridge from an exercise's record (:class:`~apdp.referee.exercise_record.ExerciseRecord`, what
the sandboxed referee returns) to the scores of :mod:`apdp.exercises.scores`, which read a finished
round: the round is played again in this process from the record's answers, on the configuration it
was played on (given: a record names only its file, and a study or tournament plays variants of
it), and each agent's outcome, and a deliberative agent's answered plans, are read from it.

A deliberative agent's time and nodes are what it printed (the course, and apdp's prompt, ask it to
print them): :func:`reported_search` reads them from its output.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

from apdp.check.exercise_verify import Scripted
from apdp.exercises.centralized import CentralizedSeat
from apdp.exercises.configuration import ExerciseConfiguration
from apdp.exercises.deliberative import DeliberativeSeat, PlanCall
from apdp.exercises.naive_plan import plan_units
from apdp.exercises.reactive import ReactiveSeat
from apdp.exercises.round import ReactiveEnd, Round, Seat
from apdp.exercises.scores import AgentOutcome, AnsweredPlan, DeliberativeScore, PlanScore
from apdp.exercises.scores.deliberative import RecordingDeliberative, optimal_units
from apdp.referee.exercise_record import ExerciseRecord

_NODES = re.compile(r"(?<![\d,.])(\d[\d,]{0,20})\s*(?:nodes|states)"
                    r"|nodes?(?:\s+expanded)?\s*[:=]?\s*(\d[\d,]{0,20})(?![\d,])", re.I)
_TIME = re.compile(r"(?<![\d.])(\d{1,12}(?:\.\d{1,9})?)\s*(ms|milliseconds|s|sec|secs|seconds)\b", re.I)
#: The longest line read as a search's report: what an agent prints is its own say, read with care.
REPORT_LINE = 200
#: The most nodes or seconds a report may claim (more is no report).
MOST_NODES, MOST_SECONDS = 10**12, 10.0**7


def reported_search(output: str) -> list[tuple[float | None, int | None]]:
    """The (seconds, nodes) of each line of ``output`` that reports nodes (a search's report): lines
    of at most :data:`REPORT_LINE` characters, whole figures within bounds; anything else is no report."""
    found: list[tuple[float | None, int | None]] = []
    for line in output.splitlines():
        if len(line) > REPORT_LINE:
            continue
        nodes = _NODES.search(line)
        if nodes is None:
            continue
        count = int((nodes.group(1) or nodes.group(2)).replace(",", "")[:18] or "0")
        if count > MOST_NODES:
            continue
        time = _TIME.search(line)
        seconds = None
        if time is not None:
            seconds = float(time.group(1)) / (1000.0 if time.group(2).lower().startswith("m") else 1.0)
            if not math.isfinite(seconds) or seconds > MOST_SECONDS:
                seconds = None
        found.append((seconds, count))
    return found


class RecordUnfinished(ValueError):
    """The record's round did not end (a fault, or the referee's failure): it has no score."""


def played_on(record: ExerciseRecord, configuration: ExerciseConfiguration) -> ExerciseConfiguration:
    """``configuration`` drawing the batch and offers as ``record``'s round drew them: the
    configuration its references are worked out on."""
    return dataclasses.replace(configuration, draws=record.draws)


def replay_round(record: ExerciseRecord, configuration: ExerciseConfiguration
                 ) -> tuple[Round, list[RecordingDeliberative | None]]:
    """``record``'s round played again on ``configuration`` (drawing as the record did, :func:`played_on`)
    from its answers, with each deliberative agent's answered plans kept."""
    configuration = played_on(record, configuration)
    if record.fault is not None or record.referee_error is not None:
        raise RecordUnfinished(f"the round stopped at a fault: {record.fault or record.referee_error}")
    seats: list[Seat] = []
    recorders: list[RecordingDeliberative | None] = []
    kinds = getattr(record, "agent_kinds", (record.exercise,) * len(record.agents))
    for index, (kind, answers) in enumerate(zip(kinds, record.answers, strict=True)):
        script: Any = Scripted(index, iter(answers))  # answers every kind of call
        recorder = RecordingDeliberative(script) if kind == "deliberative" else None
        recorders.append(recorder)
        if recorder is not None:
            seats.append(DeliberativeSeat(recorder))
        else:
            seats.append(ReactiveSeat(script) if kind == "reactive" else CentralizedSeat(script))
    round_ = Round(configuration, seats, list(record.agents), end=ReactiveEnd(record.end_hours, record.end_acts))
    round_.run()
    return round_, recorders


def outcomes_of_record(record: ExerciseRecord, configuration: ExerciseConfiguration) -> list[AgentOutcome]:
    """Every agent's outcome of ``record``'s round (its totals, vehicles used)."""
    round_, _ = replay_round(record, configuration)
    return [AgentOutcome.of_round(round_, i) for i in range(len(record.agents))]


#: The optimum of each plan call met in this process: (network, city, capacity, tasks, carried) -> units.
_OPTIMA: dict[tuple[object, ...], int] = {}


def _optimum(configuration: ExerciseConfiguration, call: PlanCall) -> int:
    vehicle = call.vehicle
    key = (configuration.network.name, vehicle.city, vehicle.capacity, tuple(call.tasks), tuple(vehicle.carried))
    if key not in _OPTIMA:
        _OPTIMA[key] = optimal_units(configuration.topology, call)
    return _OPTIMA[key]


def deliberative_scores(record: ExerciseRecord, configuration: ExerciseConfiguration) -> list[DeliberativeScore]:
    """Each deliberative agent's plans of ``record``'s round against the optimum (the optimum of a
    call is worked out once per process), with the time and nodes it printed."""
    round_, recorders = replay_round(record, configuration)
    configuration = played_on(record, configuration)
    scores = []
    for index, recorder in enumerate(recorders):
        if recorder is None:
            continue
        outcome = AgentOutcome.of_round(round_, index)
        reported = reported_search(record.outputs[index]) if index < len(record.outputs) else []
        plans = [_plan_score(configuration, a, reported[k] if len(reported) == len(recorder.answered) else None)
                 for k, a in enumerate(recorder.answered)]
        if plans and reported and len(reported) != len(plans):
            seconds = [s for s, _ in reported if s is not None]
            nodes = sum(n for _, n in reported if n is not None)
            plans[0] = plans[0].model_copy(update={  # sums of what it printed: no larger than a report's bound
                "seconds": min(sum(seconds), MOST_SECONDS) if seconds else None, "nodes": min(nodes, MOST_NODES)})
        scores.append(DeliberativeScore(agent=index, name=outcome.name, plans=tuple(plans),
                                        distance_units=outcome.distance_units, cost=outcome.cost,
                                        reward=outcome.reward))
    return scores


def _plan_score(configuration: ExerciseConfiguration, answered: AnsweredPlan,
                reported: tuple[float | None, int | None] | None) -> PlanScore:
    call = answered.call
    vehicle = call.vehicle
    optimum = _optimum(configuration, call)
    seconds, nodes = reported if reported is not None else (None, None)
    return PlanScore(number=call.number, city=vehicle.city, tasks=len(call.tasks), carried=len(vehicle.carried),
                     units=plan_units(configuration.topology, vehicle.city, answered.plan), optimal_units=optimum,
                     cost_per_km=vehicle.cost_per_km, seconds=seconds, nodes=nodes)
