"""The record of one round of an exercise (``apdp-exercise-record/1``): typed and frozen, JSON only
where it is stored (:meth:`ExerciseRecord.to_json`, :func:`exercise_record_from_json`).

It keeps what re-plays the round (the configuration's path, the exercise, the agents and every
answer they gave, in order, and the seed its batch and offers were drawn with: a keyed derivation of
the round's secret, never the secret itself) and what the round came to (the number of events, each agent's
statistics as the platform ranks them, the fault that stopped it, what the agents printed).
:mod:`apdp.check.exercise_verify` plays the answers again and compares.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from apdp.exercises.history import AgentStatistics
from apdp.game.fault import EXERCISE_PHASES, Fault, FaultKind
from apdp.game.plan import Action, Move, Pickup, action_from_json
from apdp.referee.exercise_seat import Answer

#: The format's name, in every record.
EXERCISE_FORMAT = "apdp-exercise-record/1"
#: The most events (and answers) a record may hold: a round's record keeps to ``limits.record_kb``,
#: and replaying a record's answers, each of which may become many events, must stay bounded.
MAX_EVENTS = 2_000_000
#: The version of what the record holds: 2 adds the round's seed and draws (schema 1 records were
#: all played on the platform's own draw).
EXERCISE_SCHEMA = 2


class ExerciseRecordError(ValueError):
    """A file that is no exercise record, or a broken one: the text says what, in one line."""


@dataclass(frozen=True)
class ExerciseRecord:
    """One round of the reactive, deliberative or centralized exercise."""

    exercise: str
    scenario: str
    agents: tuple[str, ...]
    #: The reactive round's end (simulated hours, act calls; None: no such bound).
    end_hours: float | None
    end_acts: int | None
    answers: tuple[tuple[Answer, ...], ...]
    events: int
    statistics: tuple[AgentStatistics, ...]
    fault: Fault | None
    outputs: tuple[str, ...]
    seconds: float
    referee_error: str | None = None
    traceback: str | None = None
    schema: int = EXERCISE_SCHEMA
    #: The exercise each agent played (its own kind: kinds may be mixed); empty: all ``exercise``.
    kinds: tuple[str, ...] = ()
    #: The round's seed (with the secret, what its streams derive from; None in schema 1).
    seed: int | None = None
    #: The seed of the stream the batch and offers were drawn from
    #: (:attr:`~apdp.exercises.configuration.ExerciseConfiguration.draws`); None: the platform's own.
    draws: int | None = None
    #: Each agent's identity as it played (:mod:`apdp.agents.identity`: its file's hash, origin).
    identities: tuple[dict[str, Any], ...] = ()
    #: Each agent's seconds per call kind as the referee measured them (wall; CPU under ``cpu``).
    timing: tuple[dict[str, Any], ...] = ()
    #: The network's cities, in order: an act's answer is kept as a move's city index (or -1-id for a
    #: pickup), so that a long reactive round takes a few bytes per act.
    cities: tuple[str, ...] = ()
    #: The settings a round may change of its file's configuration (``tasks``, ``rng_seed``,
    #: ``timeouts_ms``: ``apdp match --tasks``, a field's seeds), as it was played, so that its replay
    #: plays the same round; empty in a record that keeps none (the file's).
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def agent_kinds(self) -> tuple[str, ...]:
        """The exercise each agent played."""
        return self.kinds or (self.exercise,) * len(self.agents)

    @property
    def winner(self) -> str | None:
        """The agent ranked first (None when the round stopped at a fault or nobody played)."""
        if self.fault is not None or self.referee_error or not self.statistics:
            return None
        return self.statistics[0].agent

    def to_json(self) -> dict[str, Any]:
        return {
            "format": EXERCISE_FORMAT, "schema": self.schema, "exercise": self.exercise, "scenario": self.scenario,
            "agents": list(self.agents), "kinds": list(self.agent_kinds),
            "end": {"hours": self.end_hours, "acts": self.end_acts},
            "cities": list(self.cities),
            "answers": [[answer_json(a, self._city_index) for a in agent] for agent in self.answers],
            "events": self.events,
            "statistics": [_statistics_json(s) for s in self.statistics],
            "fault": None if self.fault is None else self.fault.to_json(), "traceback": self.traceback,
            "outputs": list(self.outputs), "seconds": self.seconds, "referee_error": self.referee_error,
            "seed": self.seed,
            "draws": {"from": "platform"} if self.draws is None else {"from": "secret", "seed": f"{self.draws:x}"},
            "identities": list(self.identities), "timing": list(self.timing), "settings": dict(self.settings),
        }

    @property
    def _city_index(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.cities)}


def answer_json(answer: Answer, cities: dict[str, int]) -> Any:
    """An answer as the record keeps it: an act's as a move's city index in ``cities``, ``-1 - id``
    for a pickup, else the action's JSON; another call's as ``{"call", "plans"}``."""
    if answer.call == "act" and len(answer.plans) == 1 and len(answer.plans[0]) == 1:
        action = answer.plans[0][0]
        if isinstance(action, Move) and action.city in cities:
            return cities[action.city]
        if isinstance(action, Pickup) and 0 <= action.task < 1 << 31:
            return -1 - action.task
        return action.to_json()
    return {"call": answer.call, "plans": [[a.to_json() for a in plan] for plan in answer.plans]}


def _statistics_json(s: AgentStatistics) -> dict[str, Any]:
    return {"rank": s.rank, "agent": s.agent, "total_tasks": s.total_tasks,
            "total_distance_units": s.total_distance_units, "total_cost": s.total_cost,
            "total_reward": s.total_reward, "total_profit": s.total_profit}


def _answer(value: Any, cities: tuple[str, ...]) -> Answer:
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= len(cities):
            raise ExerciseRecordError(f"an act's answer {value} names no city of its {len(cities)}")
        action: Action = Move(cities[value]) if value >= 0 else Pickup(-1 - value)
        return Answer("act", ((action,),))
    if isinstance(value, list):
        return Answer("act", ((action_from_json(value),),))
    call = value["call"]
    if call not in _PLANS:
        raise ExerciseRecordError(f"an answer to an unknown call {str(call)[:40]!r}")
    answer = Answer(call, tuple(tuple(action_from_json(a) for a in plan) for plan in value["plans"]))
    shape = _PLANS[call]
    if shape is not None and (len(answer.plans) != shape or (call == "act" and len(answer.plans[0]) != 1)):
        raise ExerciseRecordError(f"an answer to {call} holds {len(answer.plans)} plan(s), not {shape}"
                                  + (" of one action" if call == "act" else ""))
    return answer


#: How many plans an answer to each call holds (None: any number, one per vehicle).
_PLANS: dict[str, int | None] = {"act": 1, "plan": 1, "cancelled": 0, "plans": None}


def _fault(value: Any, agents: int) -> Fault | None:
    if value is None:
        return None
    if value["phase"] not in EXERCISE_PHASES:
        raise ExerciseRecordError(f"a fault in an unknown phase {str(value['phase'])[:40]!r}")
    agent = _whole(value["agent"], "its fault's agent", 0, agents - 1)
    task = None if value["task"] is None else _whole(value["task"], "its fault's task", 0, 2**31 - 1)
    return Fault(agent, FaultKind(value["kind"]), value["phase"], task, _text(value["message"], "its fault's message"))


def _whole(value: Any, what: str, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise ExerciseRecordError(f"{what} {str(value)[:40]} is not a whole number from {least} to {most}")
    return value


def _number(value: Any, what: str, least: float, most: float) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not least <= value <= most:
        raise ExerciseRecordError(f"{what} {str(value)[:40]} is not a number from {least:g} to {most:g}")
    return float(value)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ExerciseRecordError(f"{what} is not text")
    return value


def _optional_text(value: Any, what: str) -> str | None:
    return None if value is None else _text(value, what)


#: The largest figure a statistic holds (a Java long).
_LONG = 2**63 - 1


def _statistics(value: Any, agents: int) -> AgentStatistics:
    if not isinstance(value, dict) or set(value) != {f.name for f in dataclasses.fields(AgentStatistics)}:
        raise ExerciseRecordError(f"a statistic {str(value)[:80]} is not an agent's rank and totals")
    figures = {k: _whole(v, f"its statistic {k}", -_LONG - 1, _LONG) for k, v in value.items() if k != "agent"}
    _whole(figures["rank"], "its statistic rank", 1, max(1, agents))
    return AgentStatistics(agent=_text(value["agent"], "a statistic's agent"), **figures)


def _end(value: Any) -> tuple[float | None, int | None]:
    if not isinstance(value, dict) or set(value) != {"hours", "acts"}:
        raise ExerciseRecordError("its end is not hours and acts")
    hours, acts = value["hours"], value["acts"]
    return (None if hours is None else _number(hours, "its end's hours", 1e-9, 1e12),
            None if acts is None else _whole(acts, "its end's acts", 1, 2**62))


def _dicts(value: Any, what: str) -> tuple[dict[str, Any], ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ExerciseRecordError(f"its {what} are not one table per agent")
    return tuple(value)


def _settings(value: Any) -> dict[str, Any]:
    """The record's ``settings``: whole numbers of tasks and seed, time limits in ms (absent: none)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or set(value) - {"tasks", "rng_seed", "timeouts_ms"}:
        raise ExerciseRecordError(f"its settings {str(value)[:80]} are not tasks, rng_seed and timeouts_ms")
    tasks, seed, timeouts = value.get("tasks"), value.get("rng_seed"), value.get("timeouts_ms")
    whole = (int,)
    if tasks is not None and (not isinstance(tasks, whole) or isinstance(tasks, bool) or not 1 <= tasks <= 100_000):
        raise ExerciseRecordError(f"its number of tasks {str(tasks)[:20]} is not 1 to 100000")
    if seed is not None and (not isinstance(seed, whole) or isinstance(seed, bool) or not -(2**63) <= seed < 2**63):
        raise ExerciseRecordError(f"its rng_seed {str(seed)[:30]} is not a Java long")
    if timeouts is not None and (not isinstance(timeouts, dict) or set(timeouts) != {"setup", "plan"} or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 3_600_000 for v in timeouts.values())):
        raise ExerciseRecordError(f"its timeouts_ms {str(timeouts)[:60]} are not setup and plan in ms")
    return dict(value)


def _seed(value: Any) -> int | None:
    return None if value is None else _whole(value, "its seed", -(2**63), 2**64)


def _kinds(value: Any, agents: int) -> tuple[str, ...]:
    """The record's ``kinds`` (absent in the first records: every agent played the exercise)."""
    if value is None:
        return ()
    kinds = tuple(str(k) for k in value)
    if len(kinds) != agents or any(k not in ("reactive", "deliberative", "centralized") for k in kinds):
        raise ExerciseRecordError(f"its kinds {str(value)[:80]} are not one exercise per agent")
    return kinds


def _draws(value: Any) -> int | None:
    """The record's ``draws`` (absent in schema 1: the platform's own draw)."""
    if value is None or value == {"from": "platform"}:
        return None
    if not isinstance(value, dict) or value.get("from") != "secret" or set(value) != {"from", "seed"}:
        raise ExerciseRecordError(f"its draws {str(value)[:80]} are neither the platform's nor a secret draw's")
    text = value["seed"]
    if not isinstance(text, str) or not 0 < len(text) <= 64 or text.strip("0123456789abcdef"):
        raise ExerciseRecordError("its draws' seed is not a hexadecimal number of at most 64 digits")
    return int(text, 16)


def is_exercise_record(data: object) -> bool:
    """Whether ``data`` (a JSON value) says it is an exercise record."""
    return isinstance(data, dict) and data.get("format") == EXERCISE_FORMAT


def exercise_record_from_json(data: object) -> ExerciseRecord:
    """The record of :meth:`ExerciseRecord.to_json`'s form; ExerciseRecordError says what is wrong."""
    if not is_exercise_record(data):
        raise ExerciseRecordError(f"not an exercise record (its format is not {EXERCISE_FORMAT!r})")
    assert isinstance(data, dict)
    try:
        if int(data["schema"]) > EXERCISE_SCHEMA:
            raise ExerciseRecordError(f"an exercise record of schema {data['schema']}, newer than this apdp's "
                                      f"({EXERCISE_SCHEMA}): upgrade apdp")
        cities = tuple(_text(c, "a city") for c in data.get("cities") or ())
        agents = tuple(_text(a, "an agent's name") for a in data["agents"])
        answers = data["answers"]
        if not isinstance(answers, list) or len(answers) != len(agents) or not all(
                isinstance(a, list) for a in answers):
            raise ExerciseRecordError("its answers are not one list per agent")
        if sum(len(a) for a in answers) > MAX_EVENTS:
            raise ExerciseRecordError(f"it holds more than {MAX_EVENTS:,} answers (no round of apdp's has as many)")
        outputs = tuple(_text(o, "an agent's output") for o in data["outputs"])
        if len(outputs) != len(agents):
            raise ExerciseRecordError("its outputs are not one per agent")
        hours, acts = _end(data["end"])
        return ExerciseRecord(
            _text(data["exercise"], "its exercise"), _text(data["scenario"], "its scenario"), agents, hours, acts,
            tuple(tuple(_answer(a, cities) for a in agent) for agent in answers),
            _whole(data["events"], "its number of events", 0, MAX_EVENTS),
            tuple(_statistics(s, len(agents)) for s in data["statistics"]), _fault(data["fault"], len(agents)),
            outputs, _number(data["seconds"], "its seconds", 0.0, 1e9),
            _optional_text(data.get("referee_error"), "its referee error"),
            _optional_text(data.get("traceback"), "its traceback"), int(data["schema"]),
            _kinds(data.get("kinds"), len(agents)), _seed(data.get("seed")), _draws(data.get("draws")),
            _dicts(data.get("identities"), "identities"), _dicts(data.get("timing"), "timing"), cities,
            _settings(data.get("settings")),
        )
    except ExerciseRecordError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ExerciseRecordError(f"a broken exercise record ({type(exc).__name__}: {str(exc)[:120]})") from None
