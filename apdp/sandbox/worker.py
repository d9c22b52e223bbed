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
from decimal import Decimal
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

from apdp.agents.discovery import AgentLoadError, load_agent_class
from apdp.agents.program import ProgramError, is_program, read_program
from apdp.game.agent import Agent
from apdp.game.auction import MAX_BID_TEXT, check_bid
from apdp.game.company import Company
from apdp.game.deadline import Deadline
from apdp.game.distribution import TaskDistribution
from apdp.game.plan import Deliver, Move, Pickup
from apdp.game.task import Task
from apdp.game.topology import Topology
from apdp.sandbox.confine import Confinement, confine
from apdp.sandbox.program_agent import ProgramAgent, run_build
from apdp.sandbox.replies import MAX_REPLY_BYTES

#: Hard cap on a file an agent writes (stdout flood through raw file descriptors included).
FILE_SIZE_CAP = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """What the worker enforces on itself at start (the referee enforces time)."""

    memory_bytes: int
    output_bytes: int
    output_path: str
    #: The confinement applied at setup, before the agent's file is loaded; None: unconfined.
    confinement: Confinement | None = None


@dataclass(frozen=True, slots=True)
class SetupRequest:
    """Everything an agent is told before the first auction."""

    path: str
    agent_id: int
    agents: int
    params: dict[str, Any]
    seed: int
    timeouts: dict[str, float]
    topology: Topology
    distribution: TaskDistribution
    company: Company


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


def _prepare(limits: Limits) -> None:
    os.setsid()  # own process group: the referee kills the agent and anything it started
    resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_CAP, FILE_SIZE_CAP))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the referee's to handle
    sys.dont_write_bytecode = True  # an agent leaves its folder as it found it, confined or not
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
    # module reseeds itself after a fork; agents that want reproducible draws use self.rng.
    np.random.seed()


def _bid_to_json(value: object) -> Any:
    if value is None:
        return {"bid": None}
    if isinstance(value, bool):
        return {"bad": f"a bid must be a number or None (abstain), got bool {value!r}"}
    if isinstance(value, int | float | np.integer | np.floating | Decimal | Fraction):
        try:
            number = float(value)  # the nearest float
        except (OverflowError, ValueError):  # a huge int or Fraction; Decimal("sNaN")
            return {"bad": f"a bid must be a finite number up to {MAX_BID_TEXT}, got {type(value).__name__} "
                           f"{str(value)[:40]}{'...' if len(str(value)) > 40 else ''}"}
        problem = check_bid(number, "logist")  # the widest rule: the referee applies the match's
        return {"bad": problem} if problem else {"bid": number}
    return {"bad": f"a bid must be a number or None (abstain), got {type(value).__name__} {value!r:.60}"}


def _plans_to_json(value: object) -> Any:
    if not isinstance(value, list | tuple):
        return {"bad": f"plan() must return a list of vehicle plans, got {type(value).__name__}"}
    plans = []
    for v, plan in enumerate(value):
        if not isinstance(plan, list | tuple):
            return {"bad": f"vehicle {v}: a plan must be a list of actions, got {type(plan).__name__}"}
        actions: list[list[object]] = []
        for a, action in enumerate(plan):
            if isinstance(action, Move) and isinstance(action.city, str):
                actions.append(["move", action.city])
            elif isinstance(action, Pickup | Deliver):
                kind = "pickup" if isinstance(action, Pickup) else "deliver"
                tid = action.task
                if isinstance(tid, Task):
                    return {
                        "bad": f"vehicle {v}, action {a}: {type(action).__name__} takes a task id; "
                        f"write {type(action).__name__}(task.id)"
                    }
                if not isinstance(tid, int | np.integer) or isinstance(tid, bool):
                    return {"bad": f"vehicle {v}, action {a}: task id must be an int, got {tid!r:.40}"}
                actions.append([kind, int(tid)])
            else:
                return {
                    "bad": f"vehicle {v}, action {a}: expected Move, Pickup or Deliver, "
                    f"got {action!r:.60}"
                }
        plans.append(actions)
    return {"plans": plans}


def _fault_reply(exc: BaseException, agent_file: str, memory_bytes: int) -> dict[str, Any]:
    kind = "memory" if isinstance(exc, MemoryError) else "exception"
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
    tb = "".join(traceback.format_exception(exc))
    return {"fault": kind, "message": message[:2000], "traceback": tb[-8000:]}


def _send(conn: Connection, reply: dict[str, Any]) -> None:
    try:
        data = json.dumps(reply).encode("utf-8")
    except (TypeError, ValueError) as exc:
        data = json.dumps({"fault": "exception", "message": f"unserialisable reply: {exc}"[:2000]}).encode()
    if len(data) > MAX_REPLY_BYTES:  # the referee would refuse it as a broken reply
        if "plans" in reply:
            actions = sum(len(p) for p in reply["plans"])
            message = (f"plans of {actions} actions take {len(data)} bytes, more than a reply may hold "
                       f"({MAX_REPLY_BYTES}): a plan never needs that many moves")
            data = json.dumps({"bad": message}).encode()
        else:
            data = json.dumps({"fault": "exception", "message": f"a reply of {len(data)} bytes"}).encode()
    conn.send_bytes(data)


def _program_agent(path: Path, seed: int) -> ProgramAgent:
    try:
        program = read_program(path)
    except ProgramError as exc:
        raise AgentLoadError(str(exc)) from None
    return ProgramAgent(program, seed)


def _new_agent(req: SetupRequest, started: ProgramAgent | None) -> Agent:
    path = Path(req.path)
    if not is_program(path):
        return load_agent_class(path)()
    if started is not None:  # started by the "start" request
        started.seed = req.seed
        return started
    return _program_agent(path, req.seed)


def _setup(req: SetupRequest, started: ProgramAgent | None = None) -> Agent:
    agent = _new_agent(req, started)
    agent.topology = req.topology
    agent.distribution = req.distribution
    agent.company = req.company
    agent.agent_id = req.agent_id
    agent.agents = req.agents
    agent.params = dict(req.params)
    agent.rng = np.random.default_rng(req.seed)
    agent.timeouts = dict(req.timeouts)
    agent.deadline = deadline_for(req.timeouts["setup"])
    agent.setup(req.topology, req.distribution, req.company)
    return agent


#: A request that carries two calls: the worker answers the first, then (unless that answer is a
#: fault) the second, each with its own reply. The referee sends an auction's result together with
#: the next bid request this way, so a 50-task match costs about half the round trips.
TWO_CALLS = "two_calls"


class _Session:
    """The agent process's state between requests: its agent, once set up."""

    def __init__(self, limits: Limits, off: list[str], broken: str) -> None:
        self.limits = limits
        self.off = off
        self.broken = broken
        self.agent: Agent | None = None
        self.agent_file = ""
        #: An agent program started before its setup (the "start" request), not yet set up.
        self.started: ProgramAgent | None = None

    def answer(self, method: str, args: Any) -> dict[str, Any]:
        """The reply to one call; an agent's own error is a fault reply, never raised."""
        try:
            return self._answer(method, args)
        except Exception as exc:  # the agent's own error: report it, keep serving
            return _fault_reply(exc, self.agent_file, self.limits.memory_bytes)

    def _answer(self, method: str, args: Any) -> dict[str, Any]:
        reply: dict[str, Any]
        agent = self.agent
        if self.broken:
            reply = {"fault": "exception", "message": self.broken}
        elif method == "setup":
            req: SetupRequest = args
            self.agent_file = str(Path(req.path).resolve())
            try:
                agent = self.agent = _setup(req, self.started)
            except AgentLoadError as exc:
                return {"fault": "exception", "message": str(exc), "load": True}
            reply = {"ok": None, "unprotected": self.off}
            if isinstance(agent, ProgramAgent) and agent.pid is not None:
                reply["program_pid"] = agent.pid
        elif method == "start":  # an agent program's start, before its setup (timed apart from it)
            try:
                self.started = _program_agent(Path(str(args)), 0)
            except AgentLoadError as exc:
                return {"fault": "exception", "message": str(exc), "load": True}
            self.started.start()
            reply = {"ok": None}
        elif method == "unprotected":  # apdp sandbox
            reply = {"ok": None, "unprotected": self.off}
        elif method == "build":  # an agent program's build, confined like the agent
            reply = run_build(read_program(Path(str(args))))
        elif method == "probe":
            from apdp.sandbox.probe import run

            reply = run(args)
        elif method == "probe_memory":
            from apdp.sandbox.probe import memory_run

            reply = memory_run(args)
        elif method == "probe_idle":
            from apdp.sandbox.probe import idle_run

            reply = idle_run()
        elif agent is None:
            reply = {"fault": "exception", "message": f"{method} before setup"}
        elif method == "bid":
            task, timeout = args
            agent.deadline = deadline_for(timeout)
            reply = _bid_to_json(agent.bid(task))
        elif method == "auction_result":
            task, winner, bids, timeout = args
            agent.deadline = deadline_for(timeout)
            agent.auction_result(task, winner, list(bids))
            reply = {"ok": None}
        elif method == "plan":
            vehicles, tasks, timeout = args
            agent.deadline = deadline_for(timeout)
            reply = _plans_to_json(agent.plan(list(vehicles), list(tasks)))
        else:
            reply = {"fault": "exception", "message": f"unknown request {method!r}"}
        return reply


def worker_main(conn: Connection, limits: Limits) -> None:
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
    session = _Session(limits, off, broken)
    while True:
        try:
            method, args = conn.recv()
        except (EOFError, OSError):
            return
        if method == TWO_CALLS:  # two calls; the second only when the first went well
            (first, first_args), (method, args) = args
            reply = session.answer(first, first_args)
            _send(conn, reply)
            if "fault" in reply:
                continue
        _send(conn, session.answer(method, args))
