"""A seat at the match: one agent's process, its calls, their time and CPU, and its fault.

A seat makes an agent's calls in the order of play (:meth:`Seat.start`, :meth:`Seat.setup`,
:meth:`Seat.bid`, :meth:`Seat.plan`), each within its time limit, and turns whatever goes wrong
into the agent's :class:`apdp.game.fault.Fault`: its process is killed and every later call is an
abstention. An auction's result is told to an agent with its next request (its next bid, or its
plan), in one message: it has its own time limit, or, under the Logist platform's rules, shares
the limit of the request it travels with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from apdp.agents.discovery import AgentSource
from apdp.agents.preparation import prepare_agent
from apdp.agents.program import START_TIMEOUT, is_program
from apdp.game.auction import LONG_MAX, BidRule, as_long, check_bid
from apdp.game.fault import PHASES, Fault, FaultKind, Phase
from apdp.game.plan import VehiclePlan, Violation
from apdp.game.task import Task
from apdp.messages.calls import AuctionResultCall, BidCall, PlanCall, SandboxCall, SetupCall, TwoCalls
from apdp.messages.exercise_calls import ExerciseSetupCall
from apdp.messages.replies import BidReply, Expected, NotAValue, PlansReply, SetupDone
from apdp.messages.sizes import KEPT_MESSAGE, KEPT_TRACEBACK
from apdp.referee.budget import RecordBudget
from apdp.referee.record import MAX_VIOLATIONS
from apdp.sandbox.build import ensure_built
from apdp.sandbox.process import AgentProcess, CallFault, CallResult, Sent, encode_request
from apdp.scenario import Limits, Timeouts
from apdp.text import clean_text

#: The rule violations of a company's plans (:func:`apdp.game.plan.check_plans`).
PlanCheck = Callable[[list[VehiclePlan]], list[Violation]]


@dataclass(frozen=True)
class Terms:
    """What every seat of a match plays by: the time limits, the bid rule, and whether the Logist
    platform's rules of play apply (an auction's result shares the next call's limit)."""

    timeouts: Timeouts
    bids: BidRule
    logist: bool


@dataclass
class SharedRequest:
    """The request of the latest auction as the seats of a match send it: its call (a bid) after the
    previous auction's result, the same two calls for every seat, pickled once, by the first seat
    that sends them, and the same bytes sent to the others. Known by the calls' identity: a seat with
    calls of its own (its plan) pickles them anew; the calls are held while they are kept, so no
    other call can take their identity."""

    told: AuctionResultCall | None = None
    call: BidCall | PlanCall | None = None
    payload: bytes = b""

    def encoded(self, told: AuctionResultCall | None, call: BidCall | PlanCall) -> bytes:
        """The request of ``told`` (None: nothing to tell), then ``call``, pickled and framed."""
        if self.payload and told is self.told and call is self.call:
            return self.payload
        payload = encode_request(call if told is None else TwoCalls(told, call))
        self.told, self.call, self.payload = told, call, payload
        return payload


@dataclass
class Seat:
    """One agent in the match: its process, tasks won, plans, fault and timings."""

    index: int
    source: AgentSource
    process: AgentProcess
    terms: Terms
    won: list[Task] = field(default_factory=list)
    fault: Fault | None = None
    #: Extra fields of its fault (traceback, import_error, violations).
    details: dict[str, object] = field(default_factory=dict)
    plans: list[VehiclePlan] | None = None
    #: Shared by the seats of a match (:func:`seats_of`): an auction's request pickled once for all.
    requests: SharedRequest = field(default_factory=SharedRequest)
    #: The sandbox protections its process reported off on this machine.
    unprotected: set[str] = field(default_factory=set)
    last_call: float = 0.0  # seconds the latest call took
    cpu: dict[str, float] | None = None  # CPU seconds per phase, where they can be read
    timing: dict[str, float] = field(
        default_factory=lambda: {"setup": 0.0, "bid_total": 0.0, "bid_max": 0.0, "plan": 0.0}
    )

    @property
    def sound(self) -> bool:
        return self.fault is None

    @property
    def is_program(self) -> bool:
        """Whether its agent is a program (agent.toml), started before its setup."""
        return is_program(self.source.path)

    def charge(self, kind: FaultKind, phase: Phase, task: Task | None, message: str, **details: object) -> None:
        """Record the agent's fault and kill its process; ``details`` are extra fields of the fault
        (what came from the agent is cleaned and cut here: nothing it sends is kept as it is)."""
        self.fault = Fault(self.index, kind, phase, task.id if task else None, clean_text(message, KEPT_MESSAGE))
        self.timing["faulted_call"] = self.last_call
        kept: dict[str, object] = {k: v for k, v in details.items() if v}
        if isinstance(kept.get("traceback"), str):
            kept["traceback"] = clean_text(kept["traceback"], KEPT_TRACEBACK)
        self.details = kept
        self.process.kill()

    def timing_json(self) -> dict[str, object]:
        """Its ``timing`` in the record: wall seconds of its calls, CPU seconds where read, and the
        seconds the referee waited for what it left running to end, if it ever did
        (:mod:`apdp.sandbox.paused`)."""
        timing: dict[str, object] = dict(self.timing) if self.cpu is None else {**self.timing, "cpu": self.cpu}
        if self.process.settled:
            timing["settled"] = self.process.settled
        return timing

    # -- before the game --------------------------------------------------------------------------

    def prepare(self, limits: Limits) -> None:
        """Build its agent program if its sources changed (a failed build is its fault in setup),
        then start its process."""
        problem = prepare_agent(self.source.path, lambda program: ensure_built(program, limits))
        if problem is not None:
            self.charge(FaultKind.EXCEPTION, "setup", None, problem)
        else:
            self.process.start(str(self.source.path))

    def send_start(self) -> Sent:
        """Start its agent program (a JVM, say): it is told nothing of the match, runs no call of
        the game, and is paused once it says it runs. :meth:`start` reads the answers."""
        return self._open(self._start_call())

    def start_calls(self) -> tuple[tuple[Expected, float], ...]:
        """The calls of its start request, as :func:`apdp.sandbox.process.first_answered` waits for them."""
        return self._opening_calls("ack", START_TIMEOUT)

    def start(self, sent: Sent) -> bool:
        """Its agent program's start, before its setup: one whose agent.toml says ``ready = true``
        has up to START_TIMEOUT seconds to say it runs, which its setup time does not count.
        False on a fault."""
        result = self._opened(sent, self._start_call(), START_TIMEOUT)
        if result is None:
            return False
        if result.fault is not None and result.fault.kind == FaultKind.TIMEOUT and not result.fault.ran_on:
            result.fault = CallFault(FaultKind.TIMEOUT, f"the program did not start within {START_TIMEOUT:g} s "
                                                        "(no ready line; killed)")
        if self._account("setup", None, result) is None:
            return False
        self.timing["start"] = result.seconds
        return True

    def setup(self, call: SetupCall | ExerciseSetupCall, started: bool) -> None:
        """Set its agent up; ``started``: an agent program whose start was read (the question of
        the protections that are off went with it)."""
        timeout = self.terms.timeouts.setup
        if started:
            called: CallResult | None = self.process.call(call, timeout)
        else:
            called = self._opened(self._open(call), call, timeout)
        result = None if called is None else self._account("setup", None, called)
        if result is not None:  # what its setup reply says is off is not read: see _open
            self.timing["setup"] = result.seconds

    # -- the game ---------------------------------------------------------------------------------

    def bid(self, call: BidCall, told: AuctionResultCall | None) -> float | None:
        """Its bid for ``call``'s task, told the latest auction's result first (``told``, when not
        yet told); None when it abstains or faults."""
        if not self.sound:
            return None
        result = self._request(told, call, "bid", call.task)
        if result is None:
            return None
        self.timing["bid_total"] += result.seconds
        self.timing["bid_max"] = max(self.timing["bid_max"], result.seconds)
        reply = result.reply
        if not isinstance(reply, BidReply):
            message = reply.message if isinstance(reply, NotAValue) else "no bid"
            self.charge(FaultKind.BAD_BID, "bid", call.task, message)
            return None
        problem = check_bid(reply.value, self.terms.bids)
        if problem is not None:
            self.charge(FaultKind.BAD_BID, "bid", call.task, problem)
            return None
        return _as_played(reply.value, self.terms.bids == "logist")

    def end_bids(self) -> None:
        """Count to its bids the CPU of those not read (paused since: exact)."""
        if self.sound:
            self._add_cpu("bid", self.process.cpu_seconds())

    def plan(self, call: PlanCall, told: AuctionResultCall | None, share: int, check: PlanCheck) -> None:
        """Its plans for the tasks it won (``told`` the last auction's result first, when not yet
        told): at most ``share`` bytes of the record, and by the rules (``check``), else its fault."""
        result = self._request(told, call, "plan", None)
        if result is None:
            return
        self.timing["plan"] = result.seconds
        if not isinstance(result.reply, PlansReply):
            self.charge(FaultKind.INVALID_PLAN, "plan", None,
                        result.reply.message if isinstance(result.reply, NotAValue) else "no plans")
            return
        plans = [list(p) for p in result.reply.plans]
        too_large = RecordBudget.over_share(plans, share)
        if too_large is not None:
            self.charge(FaultKind.INVALID_PLAN, "plan", None, too_large)
            return
        self.plans = plans
        violations = check(plans)
        if violations:
            shown = "; ".join(str(v) for v in violations[:MAX_VIOLATIONS])
            more = f" (and {len(violations) - MAX_VIOLATIONS} more)" if len(violations) > MAX_VIOLATIONS else ""
            self.charge(FaultKind.INVALID_PLAN, "plan", None, f"{len(violations)} violation(s): {shown}{more}",
                        violations=[_clean_violation(v.to_json()) for v in violations[:MAX_VIOLATIONS]])

    def end_plan(self) -> None:
        """After its plan, paused, its agent used only its opponents' time: its CPU since counts
        against it, whatever it was, and running on is its fault."""
        if self.sound and self.plans is not None:
            ran_on = self.process.ran_on()
            self._add_cpu("plan", self.process.cpu_seconds())
            if ran_on is not None:
                self.charge(ran_on.kind, "plan", None, ran_on.message)

    def close(self) -> str:
        """End its process; what it wrote."""
        return self.process.close()

    # -- the wire ---------------------------------------------------------------------------------

    def _start_call(self) -> SandboxCall:
        return SandboxCall("start", str(self.source.path))

    def _open(self, call: SetupCall | ExerciseSetupCall | SandboxCall) -> Sent:
        """Send ``call`` (the agent's setup, or an agent program's start) in one request with the
        question of which protections are off here, which the worker answers first, before any code
        of the agent's runs in its process: what the worker says later, the agent (which owns that
        process) could have made it say. :meth:`_opened` reads the answers."""
        return self.process.send(encode_request(TwoCalls(SandboxCall("unprotected"), call)), self.terms.timeouts.setup)

    def _opened(self, sent: Sent, call: SetupCall | ExerciseSetupCall | SandboxCall,
                timeout: float) -> CallResult | None:
        """The answers to :meth:`_open`: the call's result; None on a fault."""
        results = self.process.receive(sent, self._opening_calls(call.expects, timeout))
        asked = self._account("setup", None, results[0])
        if asked is None:
            return None
        if isinstance(asked.reply, SetupDone):
            self.unprotected.update(asked.reply.unprotected)
        return results[1]

    def _opening_calls(self, expects: Expected, timeout: float) -> tuple[tuple[Expected, float], ...]:
        """The calls of :meth:`_open`'s request: the question of the protections, then one that
        expects ``expects`` within ``timeout``."""
        return (("setup", self.terms.timeouts.setup), (expects, timeout))

    def _request(self, told: AuctionResultCall | None, call: BidCall | PlanCall, phase: Phase,
                 task: Task | None) -> CallResult | None:
        """The result of ``call`` (of ``phase``), after the previous auction's result when it is not
        yet told (``told``, sent in the same message: one round trip for both); None on a fault. A
        bid's request under a millisecond is not read for CPU: the auctions' end is."""
        defer = phase == "bid"
        settle_all = phase == "plan"  # see AgentProcess.send
        timeout = call.timeout
        payload = self.requests.encoded(told, call)
        if told is None:
            (result,) = self.process.request(payload, ((call.expects, timeout),), defer_short=defer,
                                             settle_all=settle_all)
            return self._account(phase, task, result)
        if self.terms.logist:  # the result is told within this call's limit: one limit for both
            results = self.process.request(payload, (("ack", timeout), (call.expects, timeout)),
                                           defer_short=defer, shared=True, settle_all=settle_all)
            for result in results:
                if result.fault is not None and result.fault.kind == FaultKind.TIMEOUT and not result.fault.ran_on:
                    result.fault = CallFault(FaultKind.TIMEOUT, f"auction_result of task {told.task.id} and this "
                                             f"{phase} took more than {timeout:g} s together (killed): the platform "
                                             "tells an auction's result within the time limit of the next call")
            told_phase, told_task = phase, task
        else:
            results = self.process.request(payload, (("ack", self.terms.timeouts.bid), (call.expects, timeout)),
                                           defer_short=defer, settle_all=settle_all)
            told_phase, told_task = "auction_result", told.task
        if self._account(told_phase, told_task, results[0]) is None:
            return None
        return self._account(phase, task, results[1])

    def account(self, phase: Phase, task: Task | None, result: CallResult) -> CallResult | None:
        """A call made outside the seat's own (an exercise's, :mod:`apdp.referee.exercise_seat`),
        accounted as the seat's: its CPU counted; a fault is the agent's. None on a fault."""
        return self._account(phase, task, result)

    def _account(self, phase: Phase, task: Task | None, result: CallResult) -> CallResult | None:
        """Count a call's CPU time to its phase; a fault is the agent's. None on a fault."""
        self._add_cpu(phase, result.cpu)
        self.last_call = result.seconds
        if result.fault is not None:
            f = result.fault
            self.charge(f.kind, phase, task, f.message, traceback=f.traceback, import_error=f.import_error)
            return None
        return result

    def _add_cpu(self, phase: Phase, seconds: float | None) -> None:
        """Count ``seconds`` of CPU (None: not readable here) to ``phase``."""
        if seconds is not None:
            self.cpu = self.cpu or dict.fromkeys(PHASES, 0.0)
            self.cpu[phase] += seconds


def seats_of(sources: Sequence[AgentSource], limits: Limits, output_kb: int, terms: Terms) -> list[Seat]:
    """A seat for each agent (index = company index); what a paused agent's processes use extends
    its opponents' calls."""
    requests = SharedRequest()
    seats = [
        Seat(i, s, AgentProcess(limits.model_copy(update={"output_kb": output_kb})), terms, requests=requests)
        for i, s in enumerate(sources)
    ]
    for seat in seats:
        seat.process.bystanders = [s.process for s in seats if s is not seat]
    return seats


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
