"""The agent's side of the sandbox: runs in the agent's own process and answers the referee.

The referee sends pickled requests (it is trusted); the worker answers with JSON only, so that
nothing an agent does can make the referee run code. Resource limits are set here, at start,
before any agent code runs; time limits are enforced by the referee, from outside.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import sys
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Literal

import numpy as np

from apdp.agents.discovery import AgentLoadError, load_agent_class
from apdp.agents.program import ProgramError, is_program, read_program
from apdp.game.agent import Agent
from apdp.game.deadline import Deadline
from apdp.messages.calls import AuctionResultCall, BidCall, Call, PlanCall, SandboxCall, SetupCall, TwoCalls
from apdp.messages.exercise_calls import (
    ActionCall,
    ExerciseCall,
    ExerciseSetupCall,
    FleetPlanCall,
    PlanCancelledCall,
    VehiclePlanCall,
)
from apdp.messages.replies import (
    Ack,
    AgentFailed,
    NotAValue,
    PlansReply,
    Reply,
    Report,
    SetupDone,
    bid_reply,
    plans_reply,
)
from apdp.messages.setup import set_up
from apdp.messages.sizes import READ_REPLY_BYTES, SENT_MESSAGE, SENT_TRACEBACK
from apdp.sandbox.confine import Confinement, confine
from apdp.sandbox.exercise_worker import ExerciseHeld, answer_exercise, setup_exercise
from apdp.sandbox.program_agent import ProgramAgent, ProgramFailed, run_build

#: The calls of the course's other exercises.
EXERCISE_CALLS = (ExerciseSetupCall, ActionCall, VehiclePlanCall, PlanCancelledCall, FleetPlanCall)

#: Hard cap on a file an agent writes (stdout flood through raw file descriptors included).
FILE_SIZE_CAP = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ProcessLimits:
    """What the worker enforces on its agent's process at start, in bytes: the process's share of the
    scenario's :class:`apdp.scenario.Limits` (the referee enforces the others, time among them)."""

    memory_bytes: int
    output_bytes: int
    output_path: str
    #: The confinement applied at setup, before the agent's file is loaded; None: unconfined.
    confinement: Confinement | None = None
    #: An unconfined process's working folder (a confined one's is its confinement's private folder):
    #: an agent that writes files beside it (a Logist agent's settings) writes them there, not where
    #: the referee runs. Removed, as a private folder is, once the process is gone.
    workdir: str | None = None

    @property
    def private_dir(self) -> str | None:
        """The folder the process works in, removed once it is gone (None: the referee's own)."""
        return self.confinement.private_dir if self.confinement is not None else self.workdir


class BoundedOutput(io.TextIOBase):
    """A text stream that writes while a budget shared with the other stream lasts, then drops.

    ``reserve`` bytes of the budget are not this stream's to use: stdout leaves them to stderr, so
    that a flood of prints never costs the traceback or warning that explains it. Once a write is
    cut, one line says so, naming the stream (once per stream).
    """

    def __init__(self, fd: int, budget: list[int], name: str = "output", reserve: int = 0) -> None:
        self._fd = fd
        self._budget = budget  # shared by stdout and stderr: [bytes left]
        self._name = name
        self._reserve = reserve
        self._noted = False

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        data = s.encode("utf-8", "replace")
        left = max(0, self._budget[0] - self._reserve)
        if left > 0:
            chunk = data[:left]
            self._budget[0] -= len(chunk)
            os.write(self._fd, chunk)
        if len(data) > left and not self._noted:
            self._noted = True
            os.write(self._fd, f"\n[apdp: {self._name} limit reached, the rest of {self._name} is dropped]\n".encode())
        return len(s)


def deadline_for(timeout: float) -> Deadline:
    """The deadline shown to the agent: a little before the referee's hard limit."""
    return Deadline.after(timeout - min(0.25, 0.1 * timeout))


def _prepare(limits: ProcessLimits) -> None:
    os.setsid()  # own process group: the referee kills the agent and anything it started
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_CAP, FILE_SIZE_CAP))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the referee's to handle
    sys.dont_write_bytecode = True  # an agent leaves its folder as it found it, confined or not
    if limits.confinement is None and limits.workdir is not None:
        os.chdir(limits.workdir)  # confined, it moves into its private folder at setup
    fd = os.open(limits.output_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    budget = [limits.output_bytes]
    sys.stdout = BoundedOutput(1, budget, "stdout", reserve=limits.output_bytes // 4)
    sys.stderr = BoundedOutput(2, budget, "stderr")
    # numpy's global generator was seeded once, in the zygote: every agent forked from it would draw
    # the same "random" numbers (and could predict its opponent's). Reseed it, as Python's random
    # module reseeds itself after a fork; agents that want reproducible draws use self.rng. 256 bits
    # from the system, given as an array (seed() without one mixes its entropy in Python: 0.2 ms).
    np.random.seed(np.frombuffer(os.urandom(32), dtype=np.uint32))


def _fault_reply(exc: BaseException, agent_file: str, memory_bytes: int) -> AgentFailed:
    if isinstance(exc, ProgramFailed):  # an agent program's own words: no Python traceback of ours
        return AgentFailed(exc.kind, exc.message[:SENT_MESSAGE])
    kind: Literal["exception", "memory"] = "memory" if isinstance(exc, MemoryError) else "exception"
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for frame in reversed(frames):
        if frame.filename == agent_file:
            where = f" (line {frame.lineno}, in {frame.name})"
            break
    if kind == "memory":
        message = f"out of memory: the limit is {memory_bytes // 2**20} MiB per agent process{where}"
    else:
        message = f"{type(exc).__name__}: {exc}{where}"
    return AgentFailed(kind, message[:SENT_MESSAGE], agent_traceback(exc)[-SENT_TRACEBACK:])


def agent_traceback(exc: BaseException) -> str:
    """``exc``'s traceback from the agent's own first frame: the worker's frames that called into the
    agent (this module's) are left out, so the traceback starts where the agent's code does and ends
    with the exception's line as ever. Frames of apdp's code the agent called stay where they are; an
    exception with no frame outside the worker keeps them all."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_globals.get("__name__") == __name__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__ if tb is None else tb))


def _send(conn: Connection, reply: Reply) -> None:
    try:
        data = json.dumps(reply.to_json()).encode("utf-8")
    except (TypeError, ValueError) as exc:
        data = json.dumps(AgentFailed("exception", f"unserialisable reply: {exc}"[:SENT_MESSAGE]).to_json()).encode()
    if len(data) > READ_REPLY_BYTES:  # the referee would refuse it as a broken reply
        if isinstance(reply, PlansReply):
            actions = sum(len(p) for p in reply.plans)
            message = (f"plans of {actions} actions take {len(data)} bytes, more than a reply may hold "
                       f"({READ_REPLY_BYTES}): a plan never needs that many moves")
            data = json.dumps(NotAValue(message).to_json()).encode()
        else:
            data = json.dumps(AgentFailed("exception", f"a reply of {len(data)} bytes").to_json()).encode()
    conn.send_bytes(data)


def _program_agent(path: Path, seed: int) -> ProgramAgent:
    try:
        program = read_program(path)
    except ProgramError as exc:
        raise AgentLoadError(str(exc)) from None
    return ProgramAgent(program, seed)


def _new_agent(req: SetupCall, started: ProgramAgent | None) -> Agent:
    path = Path(req.path)
    if not is_program(path):
        return load_agent_class(path)()
    program = started if started is not None else _program_agent(path, req.seed)  # started: by the "start" call
    program.seed = req.seed
    program.rules = req.rules
    return program


def _setup(req: SetupCall, started: ProgramAgent | None = None) -> Agent:
    agent = _new_agent(req, started)
    set_up(agent, req, deadline_for(req.timeouts["setup"]))
    return agent


class Session:
    """The agent process's state between requests: its agent, once set up."""

    def __init__(self, limits: ProcessLimits, off: list[str], broken: str) -> None:
        self.limits = limits
        self.off = off
        self.broken = broken
        self.agent: Agent | None = None
        self.agent_file = ""
        #: An agent program started before its setup (the "start" request), not yet set up.
        self.started: ProgramAgent | None = None
        #: An agent of the course's other exercises, once set up (:mod:`apdp.sandbox.exercise_worker`).
        self.exercise: ExerciseHeld | None = None

    def answer(self, call: Call | SandboxCall | ExerciseCall) -> Reply:
        """The reply to one call; an agent's own error is a fault reply, never raised."""
        try:
            return self._answer(call)
        except Exception as exc:  # the agent's own error: report it, keep serving
            return _fault_reply(exc, self.agent_file, self.limits.memory_bytes)

    def _answer(self, call: Call | SandboxCall | ExerciseCall) -> Reply:
        agent = self.agent
        if self.broken:
            return AgentFailed("exception", self.broken)
        if isinstance(call, SandboxCall):
            return self._sandbox(call)
        if isinstance(call, EXERCISE_CALLS):
            return self._exercise(call)
        if isinstance(call, SetupCall):
            self.agent_file = str(Path(call.path).resolve())
            try:
                agent = self.agent = _setup(call, self.started)
            except AgentLoadError as exc:
                return AgentFailed("exception", str(exc), load=True)
            pid = agent.pid if isinstance(agent, ProgramAgent) else None
            return SetupDone(tuple(self.off), pid)
        if agent is None:
            return AgentFailed("exception", f"{call.name} before setup")
        agent.deadline = deadline_for(call.timeout)
        if isinstance(call, BidCall):
            return bid_reply(agent.bid(call.task))
        if isinstance(call, AuctionResultCall):
            agent.auction_result(call.task, call.winner, list(call.bids))
            return Ack()
        if isinstance(call, PlanCall):
            return plans_reply(agent.plan(list(call.vehicles), list(call.tasks)))
        return AgentFailed("exception", f"unknown request {type(call).__name__}")

    def _exercise(self, call: ExerciseCall) -> Reply:
        """An exercise agent's setup or call."""
        if isinstance(call, ExerciseSetupCall):
            self.agent_file = str(Path(call.path).resolve())
            try:
                held = self.exercise = setup_exercise(call, self.started, deadline_for)
            except AgentLoadError as exc:
                return AgentFailed("exception", str(exc), load=True)
            return SetupDone(tuple(self.off), held.pid if isinstance(held, ProgramAgent) else None)
        if self.exercise is None:
            return AgentFailed("exception", f"{call.name} before setup")
        return answer_exercise(self.exercise, call, deadline_for)

    def _sandbox(self, call: SandboxCall) -> Reply:
        if call.name == "start":  # an agent program's start, before its setup (timed apart from it)
            try:
                self.started = _program_agent(Path(str(call.args)), 0)
            except AgentLoadError as exc:
                return AgentFailed("exception", str(exc), load=True)
            self.started.start()
            return Ack()
        if call.name == "unprotected":  # apdp sandbox
            return SetupDone(tuple(self.off))
        if call.name == "build":  # an agent program's build, confined like the agent
            return run_build(read_program(Path(str(call.args))))
        from apdp.sandbox import probe

        if call.name == "probe":
            return Report(probe.run(call.args))
        if call.name == "probe_memory":
            return Report(probe.memory_run(call.args))
        if call.name == "probe_ran_on":
            return Report(probe.ran_on_run(call.args))
        return Report(probe.idle_run())


def worker_main(conn: Connection, limits: ProcessLimits) -> None:
    """Serve the referee's requests until it closes the pipe. Never returns an agent's exception."""
    _prepare(limits)
    # Confined at once, while the referee starts the other agents: no agent code has run yet.
    off: list[str] = []
    broken = ""
    if limits.confinement is not None:
        try:
            off = confine(conn.fileno(), limits.confinement)
        except OSError as exc:
            broken = f"the sandbox could not confine the agent's process: {exc}"
    serve(conn, Session(limits, off, broken))


def serve(conn: Connection, session: Session) -> None:
    """Answer the requests on ``conn`` until it is closed."""
    while True:
        try:
            request: Call | SandboxCall | ExerciseCall | TwoCalls = conn.recv()
        except (EOFError, OSError):
            return
        if isinstance(request, TwoCalls):  # the second only when the first went well
            reply = session.answer(request.first)
            _send(conn, reply)
            if isinstance(reply, AgentFailed):
                continue
            request = request.second
        _send(conn, session.answer(request))
