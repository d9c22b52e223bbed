"""The referee of the course's other exercises: plays one round of a configuration between sandboxed
agents (:func:`play_exercise`) and returns its :class:`~apdp.referee.exercise_record.ExerciseRecord`.

The round is :class:`apdp.exercises.round.Round`, the platform's, with every agent's controller
calling it in its own process (:mod:`apdp.referee.exercise_seat`). Agent i runs company i. Each
agent is started and set up in turn within ``timeout-setup``; every act, plan and plan_cancelled
call has ``timeout-plan`` (both + 1%, as the platform allows). The first fault stops the round, as
the platform stops its run: a crash, a timeout, a reply outside the protocol, or an illegal action or
plan (the platform's ``IllegalPlanException``: a move to a city that is not a neighbour, a task
not there, over capacity, not delivered, not picked up; the wrong number of plans).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from apdp.agents.discovery import AgentSource, find_exercise_agent, registry_params
from apdp.agents.exercise_kind import agent_kind
from apdp.agents.identity import agent_identity
from apdp.errors import UserError
from apdp.exercises.centralized import CentralizedSeat
from apdp.exercises.configuration import EXERCISES, Exercise, ExerciseConfiguration, read_exercise
from apdp.exercises.deliberative import DeliberativeSeat
from apdp.exercises.distribution import TaskStream
from apdp.exercises.reactive import ReactiveSeat
from apdp.exercises.round import AgentState, Kind, ReactiveEnd, Round
from apdp.exercises.round import Seat as WorldSeat
from apdp.exercises.vehicle import VehicleState
from apdp.exercises.verifier import ExerciseFault, IllegalPlan
from apdp.game.company import Company, Vehicle
from apdp.game.exercise import ExerciseDistribution
from apdp.game.fault import FaultKind, Phase
from apdp.game.plan import Action
from apdp.lookup import normalise_name
from apdp.messages.exercise_calls import ExerciseSetupCall
from apdp.referee.exercise_budget import ExerciseBudget
from apdp.referee.exercise_record import ExerciseRecord
from apdp.referee.exercise_seat import CONTROLLERS, AgentFaulted, Answers
from apdp.referee.exercise_values import exercise_distribution
from apdp.referee.seat import Seat, Terms, seats_of
from apdp.referee.seeding import agent_seed, task_seed
from apdp.sandbox.process import first_answered
from apdp.scenario import Limits, Timeouts
from apdp.secret import SECRET_BYTES, user_secret
from apdp.text import clean_text

#: The world's seat of each exercise.
WORLD_SEATS: dict[str, Any] = {"reactive": ReactiveSeat, "deliberative": DeliberativeSeat,
                               "centralized": CentralizedSeat}


class Guarded:
    """A world's seat whose illegal actions and plans become its agent's fault (the round stops)."""

    def __init__(self, inner: WorldSeat, seat: Seat) -> None:
        self.inner = inner
        self.seat = seat
        self.kind: Kind = inner.kind
        #: The call whose answer an illegal action comes from (a reactive agent's act, another's plan).
        self.phase: Phase = "act" if inner.kind == "reactive" else "plan"

    def begin(self, round_: Round, agent: AgentState) -> None:
        self.inner.begin(round_, agent)

    def next_action(self, vehicle: VehicleState, time_: int) -> Action | None:
        try:
            return self.inner.next_action(vehicle, time_)
        except (IllegalPlan, ExerciseFault) as exc:
            self.seat.charge(FaultKind.INVALID_PLAN, self.phase, None, exc.message)
            raise AgentFaulted(self.seat) from None

    def stuck(self, vehicle: VehicleState, action: Action, time_: int) -> None:
        try:
            self.inner.stuck(vehicle, action, time_)
        except (IllegalPlan, ExerciseFault) as exc:
            self.seat.charge(FaultKind.INVALID_PLAN, self.phase, None, exc.message)
            raise AgentFaulted(self.seat) from None


def company_of(configuration: ExerciseConfiguration, index: int) -> Company:
    """Company ``index`` of the configuration as the game's value (speed in km/h)."""
    spec = configuration.companies[index]
    return Company(spec.name, tuple(Vehicle(v.name, v.home, v.capacity, v.cost_per_km, v.speed / 1000.0)
                                    for v in spec.vehicles))


def _start(seats: Sequence[Seat], limits: Limits) -> set[int]:
    """Prepare and start every agent, as the auction's referee does; the seats whose program started."""
    for seat in seats:
        seat.prepare(limits)
    waiting = {seat.index: seat.send_start() for seat in seats if seat.sound and seat.is_program}
    started = set(waiting)
    while waiting:
        indices = list(waiting)
        first = first_answered([(seats[i].process, waiting[i], seats[i].start_calls()) for i in indices])
        seats[indices[first]].start(waiting.pop(indices[first]))
    return started


def _seconds(configuration: ExerciseConfiguration) -> Timeouts:
    """The configuration's limits (as configured: the process allows 1% more)."""
    setup, plan = (configuration.timeouts_ms[k] / 1000.0 for k in ("setup", "plan"))
    return Timeouts(setup=min(setup, 3600.0), bid=min(plan, 3600.0), plan=min(plan, 3600.0))


class ExerciseReferee:
    """One round of ``exercise`` on ``configuration`` between the agents of ``sources``, agent i
    playing ``kinds[i]`` (its own kind, as on the platform: kinds may be mixed). The round's batch
    and offers, and each agent's generator, come from ``secret`` and ``seed``
    (:mod:`apdp.referee.seeding`); ``platform_draw``: the batch and offers are the platform's own."""

    def __init__(self, configuration: ExerciseConfiguration, exercise: Exercise, sources: Sequence[AgentSource],
                 limits: Limits, params: Sequence[Mapping[str, Any]], end: ReactiveEnd, seed: int,
                 kinds: Sequence[Exercise] | None = None, *, secret: bytes, platform_draw: bool = False) -> None:
        draws = None if platform_draw else task_seed(secret, seed)
        self.configuration = dataclasses.replace(configuration, draws=draws)
        self.settings = round_settings(configuration)
        self.exercise = exercise
        self.kinds: tuple[Exercise, ...] = tuple(kinds) if kinds is not None else (exercise,) * len(sources)
        self.limits = limits
        self.params = params
        self.end = end
        self.seed = seed
        self.agent_seeds = [agent_seed(secret, seed, i) for i in range(len(sources))]
        self.timeouts = _seconds(configuration)
        #: Each agent's identity as it plays (apdp.agents.identity): file hash, origin, apdp version.
        self.identities = [agent_identity(s.name, s.path) for s in sources]
        self.budget = ExerciseBudget.of(limits.record_kb, configuration, self.identities)
        self.budget.check_end(configuration, end, self.kinds)  # before any agent starts
        output_kb = min(limits.output_kb, limits.record_kb)
        self.seats = seats_of(sources, limits, output_kb, Terms(self.timeouts, "logist", True))
        self.controllers: list[Answers] = []
        self.round: Round | None = None

    def _setup_call(self, seat: Seat, distribution: ExerciseDistribution) -> ExerciseSetupCall:
        return ExerciseSetupCall(
            self.kinds[seat.index], seat.index, len(self.seats), self.agent_seeds[seat.index], self.params[seat.index],
            {"setup": self.timeouts.setup, "plan": self.timeouts.plan}, self.configuration.network,
            distribution, company_of(self.configuration, seat.index), path=str(seat.source.path))

    def _play(self) -> None:
        started = _start(self.seats, self.limits)
        distribution = exercise_distribution(TaskStream(self.configuration))  # every agent is told the same
        for seat in self.seats:
            if not all(s.sound for s in self.seats):
                return
            seat.setup(self._setup_call(seat, distribution), seat.index in started)
        if not all(s.sound for s in self.seats):
            return
        world = []
        for seat in self.seats:
            kind = self.kinds[seat.index]
            controller = CONTROLLERS[kind](seat, self.timeouts.plan)
            controller.room = lambda answer, agent=seat.index: self.budget.room(agent, answer)  # type: ignore[misc]
            self.controllers.append(controller)
            world.append(Guarded(WORLD_SEATS[kind](controller), seat))
        self.round = Round(self.configuration, world, [s.source.name for s in self.seats], end=self.end)
        for controller in self.controllers:
            controller.round = self.round
        # a fault: the seat keeps it; the round stops there, as the platform's run does
        with contextlib.suppress(AgentFaulted):
            self.round.run()

    def play(self) -> ExerciseRecord:
        """Play the round; its record, also when the referee itself fails (``referee_error``)."""
        started = time.monotonic()
        error: str | None = None
        try:
            self._play()
        except Exception as exc:  # apdp's own failure: recorded, never lost
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"[:4000]
        finally:
            outputs = tuple(seat.close() for seat in self.seats)
        return self._record(outputs, time.monotonic() - started, error)

    def _record(self, outputs: tuple[str, ...], seconds: float, error: str | None) -> ExerciseRecord:
        faulty = next((s for s in self.seats if s.fault is not None), None)
        round_ = self.round
        tb = faulty.details.get("traceback") if faulty is not None else None
        return self.budget.fit(ExerciseRecord(
            self.exercise, str(Path(self.configuration.source).resolve()), tuple(s.source.name for s in self.seats),
            self.end.hours, self.end.acts,
            tuple(tuple(c.answers) for c in self.controllers) if self.controllers else tuple(() for _ in self.seats),
            0 if round_ is None else len(round_.events), () if round_ is None else round_.statistics(),
            None if faulty is None else faulty.fault, tuple(clean_text(o, 1 << 20) for o in outputs), seconds,
            error, tb if isinstance(tb, str) else None, kinds=self.kinds, seed=self.seed,
            draws=self.configuration.draws, identities=tuple(self.identities),
            timing=tuple(s.timing_json() for s in self.seats), cities=tuple(self.configuration.network.cities),
            settings=self.settings,
        ))


def round_settings(configuration: ExerciseConfiguration) -> dict[str, Any]:
    """The settings of ``configuration`` a round may change of its file's (tasks, rngSeed, time
    limits: ``apdp match --tasks``, a field's seeds): what its record keeps so that its replay plays
    the same round (:func:`apdp.check.exercise_verify.as_recorded`)."""
    return {"tasks": configuration.tasks, "rng_seed": configuration.laws.rng_seed,
            "timeouts_ms": dict(configuration.timeouts_ms)}


def agents_kinds(sources: Sequence[AgentSource], exercise: Exercise | None) -> tuple[Exercise | None, ...]:
    """The exercise each agent plays: its own kind (:func:`apdp.agents.exercise_kind.agent_kind`), as
    the platform gives each agent the behaviour its class implements; ``exercise`` for an agent whose
    kind cannot be told or is the auction's (its setup then says what it plays)."""
    kinds: list[Exercise | None] = []
    for source in sources:
        own = agent_kind(Path(source.path))
        kinds.append(next((e for e in EXERCISES if e == own), exercise))
    return tuple(kinds)


def agents_params(configuration: ExerciseConfiguration, sources: Sequence[AgentSource],
                  registry: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Each agent's parameters, as an auction's agents get theirs: its table of ``params.toml`` in the
    agents' folders (``registry``; read here when None), overridden by the configuration's own
    (``[agents.NAME]`` of a TOML scenario)."""
    registry = registry_params() if registry is None else registry
    out = []
    for source in sources:
        params: dict[str, Any] = {}
        for tables in (registry, configuration.agent_params):
            for name, table in tables.items():
                if normalise_name(name) == normalise_name(source.name):
                    params.update(table)
        out.append(params)
    return out


def play_exercise(scenario: str | Path | ExerciseConfiguration, agents: Sequence[str | AgentSource], *,
                  exercise: Exercise | None = None, end: ReactiveEnd | None = None, limits: Limits | None = None,
                  params: Sequence[Mapping[str, Any]] | None = None, seed: int | None = None,
                  kinds: Sequence[Exercise] | None = None, secret: bytes | None = None,
                  platform_draw: bool = False) -> ExerciseRecord:
    """Play one round of an exercise configuration (a Logist XML file or its TOML form) and return
    its record. ``exercise`` overrides the one the file names; each agent plays its own kind
    (:func:`agents_kinds`; ``kinds`` says it instead), so kinds may be mixed, as on the platform;
    ``end`` is the reactive round's end (:class:`ReactiveEnd`'s default: 1000 simulated hours);
    ``params`` one mapping per agent (default: :func:`agents_params`).

    The batch and the reactive offers are drawn by the platform's rules from a stream derived from
    ``secret`` (None: the per-user secret file) and ``seed`` (None: the file's ``rngSeed``), which
    no agent can foresee; ``platform_draw`` draws them as the platform does, from ``rngSeed`` (for
    comparing with its runs: anyone with the file foresees them). The record keeps the seed and
    the draw's own seed, never the secret.

    A bad file, exercise or agent raises :class:`apdp.errors.UserError` (or the file's own one-line
    error) before any agent starts; an agent's misbehaviour is a fault in the record, never an
    exception here."""
    configuration = scenario if isinstance(scenario, ExerciseConfiguration) else read_exercise(scenario)
    secret = user_secret() if secret is None else secret
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a round's secret is {SECRET_BYTES} bytes, got {len(secret)}")
    if not agents:
        raise UserError("no agent to play: name at least one")
    if len(agents) > len(configuration.companies):
        raise UserError(f"{len(agents)} agents but {configuration.source} has {len(configuration.companies)} "
                        "companies: There are more agents than companies ! (play fewer agents)")
    sources = [a if isinstance(a, AgentSource) else find_exercise_agent(a) for a in agents]
    named = exercise or configuration.exercise
    own = tuple(kinds) if kinds is not None else agents_kinds(sources, named)
    kind = named or next((k for k in own if k is not None), None)
    if kind is None:
        raise UserError(f"{configuration.source}: names no exercise (mode= reactive, deliberative or centralized); "
                        "give one with --exercise")
    played: tuple[Exercise, ...] = tuple(k or kind for k in own)
    if len(played) != len(sources):
        raise UserError(f"{len(played)} kinds for {len(sources)} agents")
    given = list(params) if params is not None else agents_params(configuration, sources)
    referee = ExerciseReferee(configuration, kind, sources, limits or Limits(), given, end or ReactiveEnd(),
                              configuration.laws.rng_seed if seed is None else seed, played, secret=secret,
                              platform_draw=platform_draw)
    return referee.play()
