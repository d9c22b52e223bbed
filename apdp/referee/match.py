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
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from apdp.agents.discovery import AgentSource, check_names_apart, find_agent, registry_params
from apdp.agents.identity import agent_identity
from apdp.agents.java.archive import ensure_archive
from apdp.agents.program import START_TIMEOUT, ProgramError, is_program, read_program
from apdp.game.auction import LONG_MAX, as_long, auction_winner, check_bid
from apdp.game.company import Company
from apdp.game.fault import PHASES, Fault, FaultKind, Phase
from apdp.game.plan import VehiclePlan, check_plans, plans_to_json
from apdp.game.task import Task
from apdp.messages.calls import AuctionResultCall, BidCall, Call, PlanCall, SandboxCall, SetupCall, TwoCalls
from apdp.messages.replies import BidReply, Expected, NotAValue, PlansReply, SetupDone
from apdp.messages.sizes import KEPT_MESSAGE, KEPT_TRACEBACK
from apdp.referee.record import (
    LOGIST_SETTLEMENT,
    MAX_VIOLATIONS,
    RECORD_FORMAT,
    SETTLEMENT,
    embedded_network,
    fit_record,
    record_size,
    referee_error_result,
    settle,
)
from apdp.referee.seeding import agent_seed, task_seed, tie_seed
from apdp.sandbox.build import ensure_built
from apdp.sandbox.process import AgentProcess, CallFault, CallResult, Sent, encode_request, first_answered
from apdp.scenario import Scenario, ScenarioError, validate_agent_count
from apdp.secret import SECRET_BYTES, user_secret
from apdp.text import clean_text

#: Room a record keeps for what is not the game (identities, faults, timing, outputs cut short).
_RECORD_RESERVE = 24 * 1024
#: The least a company's plans may take in a record: below it, ``limits.record_kb`` is too small.
_LEAST_PLAN_SHARE = 8 * 1024

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


def _after(told: AuctionResultCall | None, call: Call) -> bytes:
    """The request of ``call``, after the result of the latest auction when it is not yet told (it
    goes with the next request to each agent)."""
    return encode_request(call if told is None else TwoCalls(told, call))


@dataclass
class _Seat:
    """One agent in the match: its process, tasks won, fault and timings."""

    index: int
    source: AgentSource
    process: AgentProcess
    won: list[Task] = field(default_factory=list)
    fault: Fault | None = None
    plans: list[VehiclePlan] | None = None
    last_call: float = 0.0  # seconds the latest call took
    cpu: dict[str, float] | None = None  # CPU seconds per phase, where they can be read
    timing: dict[str, float] = field(
        default_factory=lambda: {"setup": 0.0, "bid_total": 0.0, "bid_max": 0.0, "plan": 0.0}
    )

    @property
    def sound(self) -> bool:
        return self.fault is None

    def add_cpu(self, phase: Phase, seconds: float | None) -> None:
        """Count ``seconds`` of CPU (None: not readable here) to ``phase``."""
        if seconds is not None:
            self.cpu = self.cpu or dict.fromkeys(PHASES, 0.0)
            self.cpu[phase] += seconds


def _start_call(seat: _Seat) -> SandboxCall:
    """The call that starts ``seat``'s agent program (see :meth:`_Referee._start`)."""
    return SandboxCall("start", str(seat.source.path))


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
        limits = scenario.limits
        #: The most a record may take, in bytes (``limits.record_kb``).
        self.record_limit = limits.record_kb * 1024
        output_kb = min(limits.output_kb, limits.record_kb)  # never read more than a record can keep
        self.seats = [
            _Seat(i, s, AgentProcess(limits.model_copy(update={"output_kb": output_kb})))
            for i, s in enumerate(sources)
        ]
        for seat in self.seats:  # what a paused agent's processes use extends its opponents' calls
            seat.process.bystanders = [s.process for s in self.seats if s is not seat]
        #: Each agent's identity as it plays (apdp.agents.identity): file hash, origin, apdp version.
        self.identities = (
            [agent_identity(s.name, s.path) for s in sources] if identities is None else list(identities)
        )
        self.registry = registry
        #: The sandbox protections the agents' processes reported off on this machine.
        self.unprotected: set[str] = set()
        #: Extra fields of each agent's fault (traceback, import_error, violations).
        self.details: dict[int, dict[str, object]] = {}
        self.auctions: list[dict[str, Any]] = []
        self.auctioned: list[Task] = []
        #: Whether the Logist platform's rules of play apply (see the module's text).
        self.logist = scenario.rules == "logist"
        self._check_record_limit()

    def _check_record_limit(self) -> None:
        """ScenarioError when ``limits.record_kb`` leaves a company's plans too little room."""
        longest = max((len(c.encode()) for c in self.topology.cities), default=8)
        task_bytes = 64 + 2 * longest + 24 * len(self.seats)  # a task and its auction, at most
        share = self._plan_share(self.scenario.tasks * task_bytes + len(json.dumps(self.identities)))
        if share < _LEAST_PLAN_SHARE:
            least = (self.record_limit + (_LEAST_PLAN_SHARE - share) * len(self.seats)) // 1024 + 1
            raise ScenarioError(
                f"limits.record_kb = {self.record_limit // 1024} leaves too little room for the plans of "
                f"{self.scenario.tasks} tasks; set limits.record_kb to at least {least}"
            )

    def _plan_share(self, game_bytes: int) -> int:
        """The bytes each company's plans may take in the record, beside ``game_bytes`` of game."""
        return (self.record_limit - _RECORD_RESERVE - game_bytes) // len(self.seats)

    def fault(self, seat: _Seat, kind: FaultKind, phase: Phase, task: Task | None, message: str,
              **details: object) -> None:
        """Record ``seat``'s fault and kill its process; ``details`` are extra fields of the fault
        (what came from the agent is cleaned and cut here: nothing it sends is kept as it is)."""
        seat.fault = Fault(seat.index, kind, phase, task.id if task else None, clean_text(message, KEPT_MESSAGE))
        seat.timing["faulted_call"] = seat.last_call
        kept: dict[str, object] = {k: v for k, v in details.items() if v}
        if isinstance(kept.get("traceback"), str):
            kept["traceback"] = clean_text(kept["traceback"], KEPT_TRACEBACK)
        self.details[seat.index] = kept
        seat.process.kill()

    def ask(self, seat: _Seat, told: AuctionResultCall | None, payload: bytes, timeout: float,
            phase: Literal["bid", "plan"], task: Task | None = None) -> CallResult | None:
        """One request to ``seat`` for a call of ``phase``: ``payload`` alone, or after the previous
        auction's result (``told``, sent in the same message: one round trip for both). None on a
        fault. A bid's request under a millisecond is not read for CPU: the auctions' end is."""
        defer = phase == "bid"
        if told is None:
            (result,) = seat.process.request(payload, ((phase, timeout),), defer_short=defer)
            return result
        if self.logist:  # the result is told within this call's limit: one limit for both
            results = seat.process.request(payload, (("ack", timeout), (phase, timeout)), defer_short=defer,
                                           shared=True)
            for result in results:
                if result.fault is not None and result.fault.kind == FaultKind.TIMEOUT and not result.fault.ran_on:
                    result.fault = CallFault(FaultKind.TIMEOUT, f"auction_result of task {told.task.id} and this "
                                             f"{phase} took more than {timeout:g} s together (killed): the platform "
                                             "tells an auction's result within the time limit of the next call")
            if self.account(seat, phase, task, results[0]) is None:
                return None
            return results[1]
        results = seat.process.request(payload, (("ack", self.timeouts.bid), (phase, timeout)), defer_short=defer)
        if self.account(seat, "auction_result", told.task, results[0]) is None:
            return None
        return results[1]

    def account(self, seat: _Seat, phase: Phase, task: Task | None, result: CallResult) -> CallResult | None:
        """Count a call's CPU time to its phase; a fault kills the agent. None on a fault."""
        seat.add_cpu(phase, result.cpu)
        seat.last_call = result.seconds
        if result.fault is not None:
            f = result.fault
            self.fault(seat, f.kind, phase, task, f.message, traceback=f.traceback,
                       import_error=f.import_error)
            return None
        return result

    def play(self, listener: AuctionListener | None) -> dict[str, Any]:
        """Play the match; its record, also when the referee itself fails (``result.referee_error``)."""
        started = time.monotonic()
        error: str | None = None
        try:
            self._play(listener)
        except Exception as exc:  # apdp's own failure: recorded and reported, never lost
            error = _referee_error(exc)
        finally:
            outputs = [seat.process.close() for seat in self.seats]
        try:
            record = self._record(outputs, started, error)
        except Exception as exc:
            record = self._record(outputs, started, error or _referee_error(exc), figures=False)
        return fit_record(record, self.record_limit)

    def _play(self, listener: AuctionListener | None) -> None:
        task_rng, tie_rng, agent_seeds = match_streams(self.secret, self.seed, len(self.seats))
        for seat in self.seats:
            self._build(seat)
            if seat.sound:
                seat.process.start(str(seat.source.path))
        started = self._start_programs()
        # Every agent program says it runs (and is paused) before the first setup: one still starting
        # would run on through its opponent's setup, on that setup's time. Each start is read as it
        # comes, and its program paused at once: one ready first does not run on through the other's
        # start. Every start is read, even past a fault: each was sent.
        waiting = dict(started)
        while waiting:
            indices = list(waiting)
            first = first_answered([(self.seats[i].process, waiting[i], self._start_calls()) for i in indices])
            self._start(self.seats[indices[first]], waiting.pop(indices[first]))
        for seat in self.seats:
            if seat.sound and not self._ended():
                self._setup(seat, agent_seeds[seat.index], self.registry, seat.index in started)
        tasks = self.scenario.draw_tasks(self.topology, self.distribution, task_rng)
        told: AuctionResultCall | None = None  # the latest auction, told to each agent with its next request
        for task in tasks:
            if not any(s.sound for s in self.seats) or self._ended():
                break
            payload = _after(told, BidCall(task, self.timeouts.bid))
            bids = [None if self._ended() else self._bid(seat, task, told, payload) for seat in self.seats]
            if self._ended():  # the auction the fault broke off is not played
                break
            winner = auction_winner(bids, None if self.scenario.ties == "first" else tie_rng, self.scenario.bids)
            if winner is not None:
                self.seats[winner].won.append(task)
            self.auctions.append({"task": task.id, "bids": bids, "winner": winner})
            self.auctioned.append(task)
            told = AuctionResultCall(task, winner, tuple(bids), self.timeouts.bid)
            if listener is not None:
                listener(task, bids, winner)
        for seat in self.seats:  # the CPU of the bids that were not read (paused since: exact)
            if seat.sound:
                seat.add_cpu("bid", seat.process.cpu_seconds())
        share = self._plan_share(record_size(self._game()))
        for seat in self.seats:
            if seat.sound and not self._ended():
                self._plan(seat, told, share)
        for seat in self.seats:  # after its plan, paused, an agent used only its opponents' time
            if seat.sound and seat.plans is not None:
                ran_on = seat.process.ran_on()
                seat.add_cpu("plan", seat.process.cpu_seconds())  # counted against it, whatever it was
                if ran_on is not None:
                    self.fault(seat, ran_on.kind, "plan", None, ran_on.message)

    def _ended(self) -> bool:
        """Whether the game is over before its end: under the Logist platform's rules, at the first fault."""
        return self.logist and any(not s.sound for s in self.seats)

    def _game(self) -> dict[str, Any]:
        """What the record holds of the game before the plans: the match as the seed decides it."""
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "topology": self.topology.name,
            "seed": self.seed,
            "agents": [s.source.name for s in self.seats],
            "identities": self.identities,
            "companies": [c.to_json() for c in self.companies],
            "tasks": [t.to_json() for t in self.auctioned],
            "auctions": self.auctions,
            "settlement": LOGIST_SETTLEMENT if self.logist else SETTLEMENT,
        }
        if self.logist:
            record["rules"] = "logist"
        network = embedded_network(self.topology)
        if network is not None:
            record["network"] = network
        if self.scenario.ties == "first":
            record["ties"] = "first"
        if self.scenario.bids != "apdp":
            record["bids"] = self.scenario.bids
        if self.scenario.logist_tasks is not None:  # a Logist configuration's tasks: which draw they are
            record["task_draw"] = self.scenario.task_draw
        return record

    def _record(self, outputs: list[str], started: float, error: str | None, figures: bool = True) -> dict[str, Any]:
        record: dict[str, Any] = self._game() if figures else {
            "format": RECORD_FORMAT, "topology": self.topology.name, "seed": self.seed,
            "agents": [s.source.name for s in self.seats], "identities": self.identities,
            "companies": [c.to_json() for c in self.companies], "tasks": [], "auctions": [],
        }
        faults = [s.fault for s in self.seats if s.fault is not None]
        if error is None:
            record["plans"] = [None if s.plans is None else plans_to_json(s.plans) for s in self.seats]
            record["result"] = settle(record, self.topology, self.companies, faults, [s.plans for s in self.seats])
        else:
            record["plans"] = [None] * len(self.seats)
            record["result"] = referee_error_result(len(self.seats), faults, error)
        fault_items: list[dict[str, Any]] = record["result"]["faults"]
        for item in fault_items:
            item.update(self.details.get(item["agent"], {}))
        record["timing"] = {
            "match": time.monotonic() - started,
            "agents": [s.timing if s.cpu is None else {**s.timing, "cpu": s.cpu} for s in self.seats],
        }
        record["output"] = [clean_text(o) for o in outputs]
        record["sandbox"] = {"unprotected": sorted(self.unprotected)}
        counted_by = sorted({c for s in self.seats if (c := s.process.cpu_counted_by) is not None})
        if counted_by:  # what counted the agents' CPU, and so their CPU while paused
            record["sandbox"]["cpu"] = "; ".join(counted_by)
        return record

    def _build(self, seat: _Seat) -> None:
        """Build an agent program whose sources changed; a failed build is its fault in setup."""
        if not is_program(seat.source.path):
            return
        limits = self.scenario.limits
        try:
            program = read_program(seat.source.path)
            problem = ensure_built(program, limits)
        except ProgramError as exc:
            problem = str(exc)
        except (OSError, ValueError, RecursionError, MemoryError) as exc:  # what its files, as they are, caused
            problem = f"its program cannot be read or built from its files ({type(exc).__name__}: {exc})"
        if problem is not None:
            self.fault(seat, FaultKind.EXCEPTION, "setup", None, problem)
            return
        ensure_archive(program)  # a Java agent's class data: its JVM starts faster, or without it

    def _ask(self, seat: _Seat, call: SetupCall | SandboxCall) -> Sent:
        """Send ``call`` (the agent's setup, or an agent program's start) in one request with the
        question of which protections are off here, which the worker answers first, before any code
        of the agent's runs in its process: what the worker says later, the agent (which owns that
        process) could have made it say. :meth:`_opening` reads the answers."""
        return seat.process.send(encode_request(TwoCalls(SandboxCall("unprotected"), call)), self.timeouts.setup)

    def _opening(self, seat: _Seat, sent: Sent, call: SetupCall | SandboxCall, timeout: float) -> CallResult | None:
        """The answers to :meth:`_ask`: the call's result; None on a fault."""
        results = seat.process.receive(sent, self._opening_calls(call.expects, timeout))
        asked = self.account(seat, "setup", None, results[0])
        if asked is None:
            return None
        if isinstance(asked.reply, SetupDone):
            self.unprotected.update(asked.reply.unprotected)
        return results[1]

    def _opening_calls(self, expects: Expected, timeout: float) -> tuple[tuple[Expected, float], ...]:
        """The calls of :meth:`_ask`'s request: the question of the protections, then one that
        expects ``expects`` within ``timeout``."""
        return (("setup", self.timeouts.setup), (expects, timeout))

    def _start_calls(self) -> tuple[tuple[Expected, float], ...]:
        """The calls of an agent program's start request (see :meth:`_start`)."""
        return self._opening_calls("ack", START_TIMEOUT)

    def _start_programs(self) -> dict[int, Sent]:
        """Start every agent program at once (a JVM's start, say, takes tens of milliseconds of
        its own, and two start side by side where there are cores for them): each is told nothing
        of the match, runs no call of the game, and is paused once it says it runs."""
        return {
            seat.index: self._ask(seat, _start_call(seat))
            for seat in self.seats
            if seat.sound and is_program(seat.source.path)
        }

    def _start(self, seat: _Seat, sent: Sent) -> bool:
        """An agent program's start, before its setup: one whose agent.toml says ``ready = true`` has
        up to START_TIMEOUT seconds to say it runs (a JVM's start), which its setup time does not
        count. The program is told nothing of the match before its setup. False on a fault."""
        result = self._opening(seat, sent, _start_call(seat), START_TIMEOUT)
        if result is None:
            return False
        if result.fault is not None and result.fault.kind == FaultKind.TIMEOUT and not result.fault.ran_on:
            result.fault = CallFault(FaultKind.TIMEOUT, f"the program did not start within {START_TIMEOUT:g} s "
                                                        "(no ready line; killed)")
        if self.account(seat, "setup", None, result) is None:
            return False
        seat.timing["start"] = result.seconds
        return True

    def _setup(self, seat: _Seat, agent_seed: int, registry: dict[str, dict[str, Any]], started: bool) -> None:
        """Set ``seat``'s agent up; ``started``: an agent program whose start was read (see
        :meth:`_start_programs`), with the question of the protections that are off."""
        call = SetupCall(
            path=str(seat.source.path),
            agent_id=seat.index,
            agents=len(self.seats),
            params=self.scenario.params_for(seat.source.name, registry),
            seed=agent_seed,
            timeouts=self.timeouts.model_dump(),
            topology=self.topology,
            distribution=self.distribution,
            company=self.companies[seat.index],
            rules=self.scenario.rules,
        )
        if started:  # the protections were asked with its start
            called: CallResult | None = seat.process.call(call, self.timeouts.setup)
        else:
            called = self._opening(seat, self._ask(seat, call), call, self.timeouts.setup)
        result = None if called is None else self.account(seat, "setup", None, called)
        if result is not None:  # what its setup reply says is off is not read: see _ask
            seat.timing["setup"] = result.seconds

    def _bid(self, seat: _Seat, task: Task, told: AuctionResultCall | None, payload: bytes) -> float | None:
        if not seat.sound:
            return None
        asked = self.ask(seat, told, payload, self.timeouts.bid, "bid", task)
        result = None if asked is None else self.account(seat, "bid", task, asked)
        if result is None:
            return None
        seat.timing["bid_total"] += result.seconds
        seat.timing["bid_max"] = max(seat.timing["bid_max"], result.seconds)
        reply = result.reply
        if not isinstance(reply, BidReply):
            self.fault(seat, FaultKind.BAD_BID, "bid", task,
                       reply.message if isinstance(reply, NotAValue) else "no bid")
            return None
        problem = check_bid(reply.value, self.scenario.bids)
        if problem is not None:
            self.fault(seat, FaultKind.BAD_BID, "bid", task, problem)
            return None
        return _as_played(reply.value, self.scenario.bids == "logist")

    def _plan(self, seat: _Seat, told: AuctionResultCall | None, share: int) -> None:
        company = self.companies[seat.index]
        timeout = self.timeouts.plan
        payload = _after(told, PlanCall(company.vehicles, tuple(seat.won), timeout))
        asked = self.ask(seat, told, payload, timeout, "plan")
        result = None if asked is None else self.account(seat, "plan", None, asked)
        if result is None:
            return
        seat.timing["plan"] = result.seconds
        if not isinstance(result.reply, PlansReply):
            self.fault(seat, FaultKind.INVALID_PLAN, "plan", None,
                       result.reply.message if isinstance(result.reply, NotAValue) else "no plans")
            return
        plans = [list(p) for p in result.reply.plans]
        size = len(json.dumps(plans_to_json(plans), separators=(",", ":"), ensure_ascii=False).encode())
        if size > share:
            actions = sum(len(p) for p in plans)
            self.fault(seat, FaultKind.INVALID_PLAN, "plan", None,
                       f"plans of {actions} actions take {size} bytes, more than a company's share of the "
                       f"record ({share} bytes, limits.record_kb): a plan never needs that many moves")
            return
        seat.plans = plans
        known = {t.id: t for s in self.seats for t in s.won}
        violations = check_plans(self.topology, company.vehicles, plans, seat.won, known, cities=not self.logist)
        if violations:
            shown = "; ".join(str(v) for v in violations[:MAX_VIOLATIONS])
            more = f" (and {len(violations) - MAX_VIOLATIONS} more)" if len(violations) > MAX_VIOLATIONS else ""
            self.fault(seat, FaultKind.INVALID_PLAN, "plan", None,
                       f"{len(violations)} violation(s): {shown}{more}",
                       violations=[_clean_violation(v.to_json()) for v in violations[:MAX_VIOLATIONS]])


def _as_played(bid: float | None, logist: bool) -> float | None:
    """A valid bid as the match keeps it: a Java long under the platform's bid rule; else a float,
    but for the integer ``Long.MAX_VALUE``, kept as it is (it loses: :func:`apdp.game.auction.check_bid`)."""
    if logist:
        return as_long(bid)
    if bid is None or (isinstance(bid, int) and bid == LONG_MAX):
        return bid
    return float(bid)


def _clean_violation(violation: dict[str, object]) -> dict[str, object]:
    """A violation as a record keeps it: its message may quote what the agent sent (a city name)."""
    return {**violation, "message": clean_text(violation["message"], 500)}


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
) -> dict[str, Any]:
    """Play one match and return its record (format ``apdp-record/1``).

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
