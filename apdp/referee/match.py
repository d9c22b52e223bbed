"""The referee: plays one match between sandboxed agents and returns its record.

Order of play: every agent's ``setup`` in turn; then, for each task, every agent's ``bid`` in turn,
the auction, and every agent's ``auction_result``; then every agent's ``plan``. An auction's result
travels in one message with the agent's next request (its next bid, or its plan): the agent process
answers ``auction_result``, then that request, each within its own time limit, so a match costs one
round trip per agent and task. Agents are called one at a time, so a match never uses more than one
core. A faulty agent is killed, abstains from then on and loses; the match goes on while at least
one agent is sound.

Under the Logist platform's rules (``scenario.rules == "logist"``, a Logist configuration's) three
things differ, as on the platform: the first fault ends the game (no call is made after it); an
auction's result shares the time limit of the request it travels with (the platform calls
``auctionResult`` inside the next ``askPrice``, the last inside ``plan``), so a slow result is a
timeout of that bid or plan; bids are Java longs (:func:`apdp.game.auction.as_long`), and so is
the money (:mod:`apdp.logist.money`).

Each agent sits at a :class:`apdp.referee.seat.Seat`, which makes its calls and keeps its fault;
:mod:`apdp.agents.preparation` makes it ready to play whatever its language; the record keeps
within its byte budget (:mod:`apdp.referee.budget`).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from apdp.agents.discovery import AgentSource, check_names_apart, find_agent, registry_params
from apdp.agents.identity import agent_identity
from apdp.game.auction import auction_winner
from apdp.game.company import Company
from apdp.game.plan import check_plans, plans_to_json
from apdp.game.task import Task
from apdp.messages.calls import AuctionResultCall, BidCall, PlanCall, SetupCall
from apdp.referee.budget import RecordBudget
from apdp.referee.record import game_json, record_size, referee_error_result, settle
from apdp.referee.record_format import MatchRecord
from apdp.referee.seat import PlanCheck, Seat, Terms, seats_of
from apdp.referee.seeding import agent_seed, task_seed, tie_seed
from apdp.sandbox.process import first_answered
from apdp.scenario import Scenario, validate_agent_count
from apdp.secret import SECRET_BYTES, user_secret
from apdp.text import clean_text

#: Called after each auction with (task, bids, winner).
AuctionListener = Callable[[Task, list[float | None], int | None], None]


def match_streams(
    secret: bytes, seed: int, agents: int
) -> tuple[np.random.Generator, np.random.Generator, list[int]]:
    """The match's independent random streams: tasks, tie-breaks, and one seed per agent.

    Each is a keyed derivation of the ``secret`` and the match ``seed`` (:mod:`apdp.referee.seeding`),
    so an agent cannot work back from its own seed, or from the tasks it sees, to the others.
    Tasks depend on the secret and seed alone, so both legs of a pair see the same task sequence.
    """
    tasks = np.random.default_rng(np.random.SeedSequence(task_seed(secret, seed)))
    ties = np.random.default_rng(np.random.SeedSequence(tie_seed(secret, seed)))
    return tasks, ties, [agent_seed(secret, seed, i) for i in range(agents)]


class _Referee:
    def __init__(
        self, scenario: Scenario, sources: Sequence[AgentSource], seed: int, secret: bytes,
        identities: Sequence[dict[str, Any]] | None, registry: dict[str, dict[str, Any]],
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        self.secret = secret
        self.topology = scenario.load_topology()
        self.companies: list[Company] = scenario.build_companies(self.topology, len(sources))
        self.distribution = scenario.distribution_for(self.topology)
        self.timeouts = scenario.timeouts
        #: Whether the Logist platform's rules of play apply (see the module's text).
        self.logist = scenario.rules == "logist"
        self.budget = RecordBudget.of(scenario.limits, len(sources))
        terms = Terms(self.timeouts, scenario.bids, self.logist)
        self.seats = seats_of(sources, scenario.limits, self.budget.output_kb(scenario.limits), terms)
        #: Each agent's identity as it plays (apdp.agents.identity): file hash, origin, apdp version.
        self.identities = (
            [agent_identity(s.name, s.path) for s in sources] if identities is None else list(identities)
        )
        self.registry = registry
        self.auctions: list[dict[str, Any]] = []
        self.auctioned: list[Task] = []
        self.budget.check(scenario.tasks, self.topology.cities, self.identities)

    def play(self, listener: AuctionListener | None) -> MatchRecord:
        """Play the match; its record, also when the referee itself fails (``result.referee_error``)."""
        started = time.monotonic()
        error: str | None = None
        try:
            self._play(listener)
        except Exception as exc:  # apdp's own failure: recorded and reported, never lost
            error = _referee_error(exc)
        finally:
            outputs = [seat.close() for seat in self.seats]
        try:
            record = self._record(outputs, started, error)
        except Exception as exc:
            record = self._record(outputs, started, error or _referee_error(exc), figures=False)
        return record

    def _play(self, listener: AuctionListener | None) -> None:
        """The game, as the module's text tells it."""
        task_rng, tie_rng, agent_seeds = match_streams(self.secret, self.seed, len(self.seats))
        started = self._start()
        for seat in self.seats:
            if seat.sound and not self._ended():
                seat.setup(self._setup_call(seat, agent_seeds[seat.index]), seat.index in started)
        told: AuctionResultCall | None = None  # the latest auction, told to each agent with its next request
        for task in self.scenario.draw_tasks(self.topology, self.distribution, task_rng):
            if not any(s.sound for s in self.seats) or self._ended():
                break
            call = BidCall(task, self.timeouts.bid)
            bids = [None if self._ended() else seat.bid(call, told) for seat in self.seats]
            if self._ended():  # the auction the fault broke off is not played
                break
            winner = auction_winner(bids, None if self.scenario.ties == "first" else tie_rng, self.scenario.bids)
            self._auctioned(task, bids, winner)
            told = AuctionResultCall(task, winner, tuple(bids), self.timeouts.bid)
            if listener is not None:
                listener(task, bids, winner)
        for seat in self.seats:
            seat.end_bids()
        share = self.budget.plan_share(record_size(self._game()))
        for seat in self.seats:
            if seat.sound and not self._ended():
                seat.plan(self._plan_call(seat), told, share, self._plan_check(seat))
        for seat in self.seats:
            seat.end_plan()

    def _ended(self) -> bool:
        """Whether the game is over before its end: under the Logist platform's rules, at the first fault."""
        return self.logist and any(not s.sound for s in self.seats)

    def _start(self) -> set[int]:
        """Prepare and start every agent; the seats whose agent program's start was read.

        Every agent program is started at once (a JVM's start, say, takes tens of milliseconds of
        its own, and two start side by side where there are cores for them), and says it runs (and
        is paused) before the first setup: one still starting would run on through its opponent's
        setup, on that setup's time. Each start is read as it comes, and its program paused at once:
        one ready first does not run on through the other's start. Every start is read, even past
        a fault: each was sent."""
        for seat in self.seats:
            seat.prepare(self.scenario.limits)
        waiting = {seat.index: seat.send_start() for seat in self.seats if seat.sound and seat.is_program}
        started = set(waiting)
        while waiting:
            indices = list(waiting)
            first = first_answered([(self.seats[i].process, waiting[i], self.seats[i].start_calls()) for i in indices])
            self.seats[indices[first]].start(waiting.pop(indices[first]))
        return started

    def _setup_call(self, seat: Seat, agent_seed: int) -> SetupCall:
        return SetupCall(
            path=str(seat.source.path),
            agent_id=seat.index,
            agents=len(self.seats),
            params=self.scenario.params_for(seat.source.name, self.registry),
            seed=agent_seed,
            timeouts=self.timeouts.model_dump(),
            topology=self.topology,
            distribution=self.distribution,
            company=self.companies[seat.index],
            rules=self.scenario.rules,
        )

    def _auctioned(self, task: Task, bids: list[float | None], winner: int | None) -> None:
        """Keep an auction's outcome: the task goes to its winner."""
        if winner is not None:
            self.seats[winner].won.append(task)
        self.auctions.append({"task": task.id, "bids": bids, "winner": winner})
        self.auctioned.append(task)

    def _plan_call(self, seat: Seat) -> PlanCall:
        return PlanCall(self.companies[seat.index].vehicles, tuple(seat.won), self.timeouts.plan)

    def _plan_check(self, seat: Seat) -> PlanCheck:
        """The rules ``seat``'s plans are held to: its company's vehicles, the tasks it won."""
        vehicles = self.companies[seat.index].vehicles
        known = {t.id: t for s in self.seats for t in s.won}
        return lambda plans: check_plans(self.topology, vehicles, plans, seat.won, known, cities=not self.logist)

    def _game(self, played: bool = True) -> dict[str, Any]:
        """What the record holds of the game before the plans: the match as the seed decides it
        (``played``: its tasks, auctions and rules; else the match as it was set)."""
        return game_json(
            self.topology, self.seed, [s.source.name for s in self.seats], self.identities, self.companies,
            self.auctioned if played else [], self.auctions if played else [],
            self.scenario if played else None,
        )

    def _record(self, outputs: list[str], started: float, error: str | None, figures: bool = True) -> MatchRecord:
        game = self._game(figures)
        faults = [s.fault for s in self.seats if s.fault is not None]
        if error is None:
            plans = [None if s.plans is None else plans_to_json(s.plans) for s in self.seats]
            result = settle(game, self.topology, self.companies, faults, [s.plans for s in self.seats])
        else:
            plans = [None] * len(self.seats)
            result = referee_error_result(len(self.seats), faults, error)
        for item in result["faults"]:
            item.update(self.seats[item["agent"]].details)
        sandbox: dict[str, Any] = {"unprotected": sorted(set().union(*(s.unprotected for s in self.seats)))}
        counted_by = sorted({c for s in self.seats if (c := s.process.cpu_counted_by) is not None})
        if counted_by:  # what counted the agents' CPU, and so their CPU while paused
            sandbox["cpu"] = "; ".join(counted_by)
        timing = {"match": time.monotonic() - started, "agents": [s.timing_json() for s in self.seats]}
        output = [clean_text(o) for o in outputs]
        return MatchRecord.read(self.budget.fit(
            {**game, "plans": plans, "result": result, "timing": timing, "output": output, "sandbox": sandbox}
        ))


def _referee_error(exc: BaseException) -> str:
    """One line on a failure of the referee's own: what was raised, and where in apdp."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}, in {frames[-1].name})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def play_match(
    scenario: Scenario,
    agents: Sequence[str | AgentSource],
    *,
    seed: int | None = None,
    secret: bytes | None = None,
    on_auction: AuctionListener | None = None,
    identities: Sequence[dict[str, Any]] | None = None,
    registry: dict[str, dict[str, Any]] | None = None,
) -> MatchRecord:
    """Play one match and return its record (format ``apdp-record/1``, typed: it becomes JSON where it
    is stored or written, :meth:`MatchRecord.to_json`).

    ``agents`` are names or files (index = company index); ``seed`` overrides the scenario's.
    ``secret`` is what the match's streams are derived from (:mod:`apdp.referee.seeding`); None takes
    the per-user secret file. The record keeps the seed, never the secret.
    ``identities`` (one per agent, :mod:`apdp.agents.identity`) and ``registry`` (the agents' parameter
    files, :func:`apdp.agents.discovery.registry_params`) are what the caller already knows: a tournament
    gives those it read where it started, so that a match played elsewhere records the same.

    An agent's misbehaviour is a fault in the record, never an exception here; a failure of the
    referee's own once play has begun is a record too, with ``result.referee_error``. The record
    never takes more than ``limits.record_kb``: what agents wrote (output, tracebacks) is cut to fit,
    and a company's plans may take their share of it and no more. A bad scenario or an unknown agent
    name raises :class:`apdp.errors.UserError` before any agent starts.
    """
    validate_agent_count([str(a) for a in agents])
    sources = [a if isinstance(a, AgentSource) else find_agent(a) for a in agents]
    check_names_apart(sources)
    secret = user_secret() if secret is None else secret
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a match's secret is {SECRET_BYTES} bytes, got {len(secret)}")
    registry = registry_params() if registry is None else registry  # a bad params.toml: UserError, now
    referee = _Referee(scenario, sources, scenario.seed if seed is None else seed, secret, identities, registry)
    return referee.play(on_auction)
