"""The referee's handle on one agent process: start it, call it under a hard deadline, pause it
between calls, kill it, close it.

Each agent runs in a fresh process forked by the zygote (so it inherits nothing of the referee's
state: not the task sequence, not the seed). A call that does not answer within its time limit
gets the process killed, whatever it is doing. Replies are bounded JSON, validated here.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import select
import signal
import struct
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from apdp.game.fault import FaultKind
from apdp.messages.calls import Call, SandboxCall, TwoCalls
from apdp.messages.exercise_calls import ExerciseCall
from apdp.messages.replies import AgentFailed, Expected, Reply, SetupDone, decode_reply
from apdp.messages.sizes import OUTPUT_NOTES_BYTES
from apdp.messages.strict import BadMessage
from apdp.sandbox.cgroup import oom_kills
from apdp.sandbox.confine import Confinement
from apdp.sandbox.cpu import CpuMeter
from apdp.sandbox.inbox import Inbox
from apdp.sandbox.memory import over_limit
from apdp.sandbox.paused import (
    LEAST_EXTENSION,
    LONGEST_EXTENSION,
    RAN_ON,
    RAN_ON_LIMIT,
    SUSPECT_CPU,
    PausedCpu,
    ThreadsAtRest,
    ran_on_message,
)
from apdp.sandbox.worker import FILE_SIZE_CAP, ProcessLimits
from apdp.sandbox.zygote_link import Zygote
from apdp.scenario import Limits

#: How often (seconds) the referee reads the memory of an agent's processes while it waits for its
#: reply, where no memory group counts it (see :mod:`apdp.sandbox.memory`).
MEMORY_WATCH_EVERY = 0.02
#: The longest a single wait for a reply blocks (poll's own bound is far above; a deadline is
#: checked again after each wait, so an absurd timeout never reaches the system call).
_LONGEST_WAIT = 60.0


#: Every call may run its time limit plus this share of it before it is killed, for every agent
#: alike: the Logist platform's margin (its agents read a limit of 1000 ms as 1010, and its timer
#: allows that), which apdp's Java host reports as the platform does.
TIME_MARGIN = 0.01

#: Why an agent's CPU is its process's own figures where it is confined.
NO_CPU_GROUP = "no writable cgroup counts it here: what its other children do after it is paused is not seen"

#: A call shorter than this (seconds) shares the CPU reading of the call after it in its request;
#: so may a whole request this short (see :meth:`AgentProcess.request`).
SHORT_CALL = 0.001


def _framed(data: bytes) -> bytes:
    """``data`` framed as ``multiprocessing.connection`` frames a message (the agent process reads
    it with ``Connection.recv``): a 4-byte big-endian length, or -1 and an 8-byte length."""
    if len(data) < 0x7FFFFFFF:
        return struct.pack("!i", len(data)) + data
    return struct.pack("!iQ", -1, len(data)) + data


def first_answered(pending: Sequence[tuple[AgentProcess, Sent, Sequence[tuple[Expected, float]]]]) -> int:
    """The index in ``pending`` (processes, each with a request sent and the calls it holds) of a
    process whose :meth:`AgentProcess.receive` would not wait: its replies are all in, or none can
    come in time. Waits for the first such one, reading every process's replies as they come; the
    others run on meanwhile. So each can be paused as soon as it has answered, whatever the others
    are doing (agent programs started side by side: each is paused once it says it runs)."""
    while True:
        now = time.monotonic()
        wait = _LONGEST_WAIT
        poller = select.poll()
        by_fd: dict[int, AgentProcess] = {}
        for index, (process, sent, calls) in enumerate(pending):
            due = process._due(sent, calls)
            if due is None or due <= now:
                return index
            wait = min(wait, due - now, MEMORY_WATCH_EVERY if process._watch_memory else wait)
            poller.register(process._fd, select.POLLIN)
            by_fd[process._fd] = process
        ready = poller.poll(max(1, math.ceil(wait * 1000)))
        for fd, _ in ready:
            by_fd[fd]._read_some()
        if not ready:
            for process in by_fd.values():
                if process._watch_memory:
                    process._check_memory()


def encode_request(request: Call | SandboxCall | ExerciseCall | TwoCalls) -> bytes:
    """A request, pickled and framed once: the same bytes can go to every agent. Two calls
    (:class:`TwoCalls`) are answered one after the other, the second unless the first faulted."""
    return _framed(pickle.dumps(request, pickle.HIGHEST_PROTOCOL))


class _OutOfMemory(Exception):
    """The agent's processes use more memory than its limit (read while waiting for a reply)."""


@dataclass(frozen=True, slots=True)
class CallFault:
    """Why a call failed: the fault kind, a one-line message and, for exceptions, the traceback;
    ``ran_on``: a ``timeout`` that is no call's lateness but the CPU the agent used while paused
    (see :mod:`apdp.sandbox.paused`)."""

    kind: FaultKind
    message: str
    traceback: str | None = None
    import_error: bool = False
    ran_on: bool = False


@dataclass(slots=True)
class CallResult:
    """A call's reply (decoded against the schema) or its fault, how long it took and the CPU seconds
    the agent's process used for it (None where they cannot be read)."""

    reply: Reply | None
    fault: CallFault | None
    seconds: float
    cpu: float | None = None


@dataclass(frozen=True, slots=True)
class Sent:
    """A request sent to an agent's process and not yet answered (:meth:`AgentProcess.send`): when
    it was sent, or the fault that ended it there."""

    start: float
    fault: CallResult | None = None


@dataclass
class AgentProcess:
    """One agent's sandboxed process for one match, held to ``limits`` (``limits.sandbox``: confined)."""

    limits: Limits
    #: An agent program's build folder, for its build (see :class:`Confinement`).
    build_dir: str | None = None
    _private_dir: str = field(default="", init=False)
    _pid: int | None = field(default=None, init=False)
    _conn: Connection | None = field(default=None, init=False)
    _output_path: str = field(default="", init=False)
    _killed: bool = field(default=False, init=False)
    _cpu: CpuMeter | None = field(default=None, init=False)
    _poller: select.poll | None = field(default=None, init=False)
    _inbox: Inbox = field(default_factory=Inbox, init=False)  # bytes read, not yet taken as replies
    _closed: bool = field(default=False, init=False)  # its end of the conversation is closed
    _over: bool = field(default=False, init=False)  # its memory was found over its limit
    _paused: bool = field(default=False, init=False)
    #: It once used more than SUSPECT_CPU while paused: settled before each other agent's call.
    _suspect: bool = field(default=False, init=False)
    _settled: bool = field(default=True, init=False)  # settled since its latest pause
    _fd: int = field(default=-1, init=False)  # the conversation's descriptor
    _memory_group: str | None = field(default=None, init=False)  # counts all its memory, if any
    _oom_kills: int | None = field(default=None, init=False)  # the group's OOM kills at its start
    _watch_memory: bool = field(default=False, init=False)  # no group: the referee reads its memory
    _cpu_group: str | None = field(default=None, init=False)  # counts the CPU of all its processes, if any
    _paused_cpu: PausedCpu | None = field(default=None, init=False)  # its CPU while paused (confined)
    _extension: float = field(default=0.0, init=False)  # seconds added to the current call's limit
    #: The other agents of its match: the CPU they use while paused extends its calls (see
    #: :mod:`apdp.sandbox.paused`).
    bystanders: list[AgentProcess] = field(default_factory=list, init=False)

    def start(self, agent_path: str) -> None:
        """Start the process for the agent in ``agent_path`` (it runs no agent code until ``setup``)."""
        fd, self._output_path = tempfile.mkstemp(prefix="apdp-agent-", suffix=".log")
        os.close(fd)
        confinement = None
        own = self.limits
        if self.confined:
            self._private_dir = tempfile.mkdtemp(prefix="apdp-agent-")
            confinement = Confinement(
                agent_path, self._private_dir, own.disk_mb * 2**20, own.processes, own.open_files, FILE_SIZE_CAP,
                own.disk_files, self.build_dir,
            )
        workdir = None if self.confined else tempfile.mkdtemp(prefix="apdp-agent-")
        limits = ProcessLimits(own.memory_mb * 2**20, own.output_kb * 1024, self._output_path, confinement, workdir)
        self._pid, self._conn, self._memory_group, self._cpu_group = Zygote.get().spawn(limits)
        if self.confined and self._memory_group is not None:
            self._oom_kills = oom_kills(self._memory_group)
        self._watch_memory = self.confined and self._memory_group is None
        self._fd = self._conn.fileno()
        self._poller = select.poll()  # kept: a call waits on it without building a selector
        self._poller.register(self._fd, select.POLLIN)
        # a request is written without blocking: an agent that no longer reads its socket (or only
        # peeks at it) fills the buffer, and a blocking write would wait for it for ever
        os.set_blocking(self._fd, False)
        self._cpu = CpuMeter.open(self._pid, self._cpu_group)  # the first reading
        if self.confined and self._cpu is not None:
            self._paused_cpu = PausedCpu(self._cpu)

    @property
    def confined(self) -> bool:
        """Whether the process is confined (``limits.sandbox``)."""
        return self.limits.sandbox

    @property
    def cpu_counted_by(self) -> str | None:
        """What counts the agent's CPU (once started): its control group, or its process's own figures
        (and why); None where nothing does."""
        if self._cpu is None:
            return None
        if not self.confined:
            return f"{self._cpu.counted_by}; the sandbox is off"
        if self._cpu_group is None:
            return f"{self._cpu.counted_by}; {NO_CPU_GROUP}"
        return self._cpu.counted_by

    @property
    def cpu_group(self) -> str | None:
        """The control group that counts the CPU of all the agent's processes, if there is one."""
        return self._cpu_group

    @property
    def paused_cpu(self) -> float:
        """The CPU seconds its processes used while it was paused, in its latest pause (read when it
        was resumed)."""
        return 0.0 if self._paused_cpu is None else self._paused_cpu.last

    @property
    def settled(self) -> float:
        """The seconds the referee waited for its processes to settle before other agents' calls."""
        return 0.0 if self._paused_cpu is None else self._paused_cpu.settled

    def settle(self, always: bool = False) -> None:
        """If it once left work running after a pause (see :mod:`apdp.sandbox.paused`), or
        ``always``, and it was paused since it was last settled, or it was killed since (its
        processes' teardown over what they mapped is work in the kernel too): wait until its
        processes use the core no more, so that another agent's call starts on a quiet core."""
        if self._paused_cpu is None or self._settled:
            return
        if self._killed or ((self._suspect or always) and self._paused):  # a killed one's teardown too
            self._settled = True
            at_rest = None if self._pid is None else ThreadsAtRest(self._cpu_group, self._pid)
            self._paused_cpu.settle(lambda: at_rest is None or at_rest())

    def ran_on(self) -> CallFault | None:
        """Read the CPU the agent used while paused, since its latest pause: its fault if that is more
        than :data:`RAN_ON_LIMIT` (work it left in the kernel ran on, on its opponent's time); more
        than :data:`SUSPECT_CPU` (and two steps of its meter's readings), and it is settled before
        every later call of another agent's."""
        used = None if self._paused_cpu is None or not self._paused else self._paused_cpu.resumed()
        if used is not None and self._cpu is not None and used > SUSPECT_CPU + 2 * self._cpu.resolution:
            self._suspect = True
        if used is None or used <= RAN_ON_LIMIT:
            return None
        return CallFault(RAN_ON, ran_on_message(used), ran_on=True)

    @property
    def memory_counted_by(self) -> str:
        """What holds the agent's processes to their memory limit, together (once started)."""
        if not self.confined:
            return "an rlimit per process (the sandbox is off)"
        if self._memory_group is not None:
            return "a memory cgroup"
        return f"the referee, reading their memory every {MEMORY_WATCH_EVERY * 1000:.0f} ms (no memory cgroup)"

    def call(self, call: Call | SandboxCall | ExerciseCall, timeout: float) -> CallResult:
        """Send one call and wait at most ``timeout`` seconds for its reply."""
        return self.request(encode_request(call), ((call.expects, timeout),))[0]

    def request(self, payload: bytes, calls: Sequence[tuple[Expected, float]], *,
                defer_short: bool = False, shared: bool = False, settle_all: bool = False) -> list[CallResult]:
        """Send a request (:func:`encode_call`, :func:`encode_then`) and read one reply per call, of
        the kind it expects, each within its timeout of the previous reply (the first: of the
        sending); end at the first fault. Each result carries the CPU seconds used since the previous reading; a call
        shorter than :data:`SHORT_CALL`, or whose reply came with the next one, carries 0.0 and
        its CPU counts to the next call of the request. With ``defer_short``, a whole request
        shorter than :data:`SHORT_CALL` is not read either: its CPU counts to the next reading
        (a later request's, or :meth:`cpu_seconds`). A reading costs the referee several
        microseconds, and the kernel counts CPU time in 10 ms ticks. With ``shared``, the calls
        share one limit instead: each reply is awaited until its timeout after the sending (the
        Logist platform's rule: an auction's result is told within the next call's limit).

        A confined agent runs only during its requests: its process group is resumed (SIGCONT)
        once the request is in its socket (or as much of it as the socket takes) and paused
        (SIGSTOP) once the replies are read, so that nothing it left running takes its opponent's
        time (its match's core) or another match's. The group holds every process the agent
        started: a confined process cannot leave it. (Resumed before the request is there, the
        agent would wake twice: to leave its pause, then for the request.) A pause waits for the system
        calls its threads are in: the CPU it uses while paused is read when it is resumed, and
        extends the calls of the other agents of its match (see :mod:`apdp.sandbox.paused`)."""
        return self.receive(self.send(payload, calls[0][1], settle_all), calls, defer_short=defer_short, shared=shared)

    def send(self, payload: bytes, timeout: float, settle_all: bool = False) -> Sent:
        """The first half of :meth:`request`: send the request, taken within ``timeout``, and
        resume the process. The process runs until :meth:`receive` has read the replies. Before it,
        the other agents of its match paused since are settled (:meth:`settle`): those that once
        left work running, or all of them with ``settle_all`` (before a plan: after its opponent's
        last call, an agent is never resumed, so it would never be found out)."""
        if self._conn is None or self._killed:
            return Sent(0.0, CallResult(None, CallFault(FaultKind.PROCESS_DIED, "the process is gone"), 0.0))
        for bystander in self.bystanders:  # the call starts once what they left running has ended
            bystander.settle(always=settle_all)
        ran_on = self.ran_on()
        if ran_on is not None:  # what it used while paused counts in its own figures
            cpu = self.cpu_seconds()
            self.kill()
            return Sent(0.0, CallResult(None, ran_on, 0.0, cpu))
        start = time.monotonic()
        try:
            if not self._send(payload, start + timeout):
                self.kill()
                return Sent(start, CallResult(None, CallFault(FaultKind.TIMEOUT, f"did not take its request within "
                                                              f"{timeout:g} s: it stopped reading (killed)"),
                                              time.monotonic() - start))
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self._resume()  # how it ends (its exit code) is its own doing
            return Sent(start, CallResult(None, self._death(), time.monotonic() - start))
        except OSError as exc:
            self.kill()
            return Sent(start, CallResult(None, CallFault(FaultKind.EXCEPTION, str(exc)), time.monotonic() - start))
        return Sent(start)

    def receive(self, sent: Sent, calls: Sequence[tuple[Expected, float]], *,
                defer_short: bool = False, shared: bool = False) -> list[CallResult]:
        """The second half of :meth:`request`: the replies to the request ``sent``, each within its
        timeout of the previous reply (the first: of the sending; with ``shared``, each of the
        sending); then the process is paused."""
        if sent.fault is not None:
            return [sent.fault]
        start = sent.start
        results: list[CallResult] = []
        last = len(calls) - 1
        self._extension = 0.0
        for n, (expected, timeout) in enumerate(calls):
            if not shared:  # each call's own limit, from the previous reply: extended for itself alone
                self._extension = 0.0
            result = self._reply(expected, timeout, start, sent.start if shared else start)
            # A short call, or one whose reply is already followed by the next one, shares the
            # next call's reading: a reading costs the referee more than a short call can use.
            if result.fault is not None:
                shares = False
            elif n < last:
                shares = result.seconds < SHORT_CALL or len(self._inbox) > 0
            else:
                shares = defer_short and start + result.seconds - sent.start < SHORT_CALL
            result.cpu = 0.0 if shares and self._cpu is not None else self.cpu_seconds()
            results.append(result)
            if result.fault is not None:
                break
            start += result.seconds
        if self.confined and not self._killed:
            self._group_signal(signal.SIGSTOP)
            self._paused = True
            self._settled = False
            if self._paused_cpu is not None:
                self._paused_cpu.paused()
        return results

    def _send(self, payload: bytes, deadline: float) -> bool:
        """Write ``payload`` to the agent's socket by ``deadline`` (monotonic); False if it would not
        take it all by then."""
        data = memoryview(payload)
        writable: select.poll | None = None
        while data:
            try:
                data = data[os.write(self._fd, data) :]
                continue
            except BlockingIOError:
                pass
            self._resume()  # a paused process reads nothing: the rest waits for it to run
            if writable is None:
                writable = select.poll()
                writable.register(self._fd, select.POLLOUT)
            left = deadline - time.monotonic()
            if left <= 0 or not writable.poll(max(1, math.ceil(left * 1000))):
                return False
        self._resume()
        return True

    def _resume(self) -> None:
        """Let the process run again (see :meth:`request`), if it was paused."""
        if self._paused:
            self._group_signal(signal.SIGCONT)
            self._paused = False

    def _group_signal(self, sig: signal.Signals) -> None:
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pid, sig)

    def _receive(self, deadline: float) -> tuple[bytes, float] | None:
        """The next whole message and when it was whole, or None if it has not arrived by
        ``deadline`` (monotonic), extended by what paused agents took from the call (:meth:`_extend`).

        Bytes are read as they come, several messages at a time when they are there, and never
        past the deadline: a process that sends half a message and goes quiet is killed like one that
        sends nothing (see :class:`Inbox`). EOFError at the end of the pipe; BadMessage for a
        message longer than ``READ_REPLY_BYTES``."""
        assert self._conn is not None and self._poller is not None
        while True:
            taken = self._inbox.take()
            if taken is not None:
                return taken
            if self._over:
                raise _OutOfMemory
            left = min(deadline + self._extension - time.monotonic(),
                       MEMORY_WATCH_EVERY if self._watch_memory else _LONGEST_WAIT)
            if not self._poller.poll(max(0, math.ceil(left * 1000))):
                if self._watch_memory:
                    self._check_memory()
                if self._over:
                    raise _OutOfMemory
                if time.monotonic() < deadline + self._extension or self._extend():
                    continue
                return None
            self._read_some()
            if self._closed:
                raise EOFError

    def _extend(self) -> bool:
        """At the current call's time limit: extend it by the CPU its paused bystanders used while
        paused and gave to no call yet; False when they used none (see :mod:`apdp.sandbox.paused`)."""
        taken = sum(b._paused_cpu.taken() for b in self.bystanders if b._paused_cpu is not None and b._paused)
        if taken < LEAST_EXTENSION or self._extension >= LONGEST_EXTENSION:
            return False
        self._extension = min(LONGEST_EXTENSION, self._extension + taken)
        return True

    def _read_some(self) -> None:
        """Read what the process sent, up to 64 KiB, into the inbox (the end of it: ``_closed``)."""
        try:
            chunk = os.read(self._fd, 1 << 16)
        except BlockingIOError:  # woken with nothing to read after all
            return
        if not chunk:
            self._closed = True
        self._inbox.add(chunk, time.monotonic())

    def _check_memory(self) -> None:
        """Note (``_over``) whether the agent's processes use more memory than its limit."""
        if self._pid is not None and over_limit(self._pid, self.limits.memory_mb * 2**20):
            self._over = True

    def _due(self, sent: Sent, calls: Sequence[tuple[Expected, float]]) -> float | None:
        """When the next reply to the request ``sent`` is due (monotonic, with its margin), or None if
        :meth:`receive` would not wait for anything: every reply is in, or none can come in time."""
        if sent.fault is not None or self._closed or self._over or self._inbox.bad:
            return None
        count = len(self._inbox)
        if count >= len(calls):
            return None
        since = sent.start if count == 0 else self._inbox.arrival(count - 1)
        return since + calls[count][1] * (1 + TIME_MARGIN)

    def _reply(self, expected: Expected, timeout: float, start: float, since: float | None = None) -> CallResult:
        """The next reply, awaited until ``since + timeout`` (``since``: ``start`` when None) plus
        :data:`TIME_MARGIN` of it (the process is killed past it) and decoded as ``expected``: a
        reply outside the schema is a ``bad_reply`` fault. Its seconds count from ``start``."""
        assert self._conn is not None
        try:
            received = self._receive((start if since is None else since) + timeout * (1 + TIME_MARGIN))
            if received is None:
                self.kill()
                took = time.monotonic() - start
                given = (f" and the {self._extension:.2f} s that paused agents' processes took from it"
                         if self._extension else "")
                return CallResult(
                    None,
                    CallFault(FaultKind.TIMEOUT, f"no answer within {timeout:g} s{given} (killed)"),
                    took,
                )
            raw, arrived = received
            reply = decode_reply(raw, expected)
        except (EOFError, BrokenPipeError, ConnectionResetError):
            return CallResult(None, self._death(), time.monotonic() - start)
        except BadMessage as exc:
            self.kill()
            message = f"the agent's process sent a reply outside the protocol: {exc}"
            return self._fault(FaultKind.BAD_REPLY, message, start)
        except _OutOfMemory:
            self.kill()
            return CallResult(None, self._out_of_memory(), time.monotonic() - start)
        except OSError as exc:  # the pipe broke
            self.kill()
            return self._fault(FaultKind.EXCEPTION, str(exc), start)
        took = max(0.0, arrived - start)
        if isinstance(reply, SetupDone) and reply.program_pid is not None and self._cpu is not None:
            self._cpu.watch(reply.program_pid)  # an agent program's own process
        if isinstance(reply, AgentFailed):
            kind = FaultKind.MEMORY if reply.kind == "memory" else FaultKind.EXCEPTION
            return CallResult(None, CallFault(kind, reply.message, reply.traceback, reply.load), took)
        return CallResult(reply, None, took)

    def _fault(self, kind: FaultKind, message: str, start: float) -> CallResult:
        """A call's fault; one that followed an OOM kill in the agent's memory group is ``memory``."""
        fault = self._out_of_memory() if self._oom_killed() else CallFault(kind, message)
        return CallResult(None, fault, time.monotonic() - start)

    def _oom_killed(self) -> bool:
        """Whether the kernel killed a process of the agent's memory group since its start."""
        if self._memory_group is None or self._oom_kills is None:
            return False
        now = oom_kills(self._memory_group)
        return now is not None and now > self._oom_kills

    def _out_of_memory(self) -> CallFault:
        return CallFault(FaultKind.MEMORY, f"out of memory: the agent's processes together used more than "
                                           f"{self.limits.memory_mb} MiB (limits.memory_mb)")

    def cpu_seconds(self) -> float | None:
        """CPU seconds the process used since the previous reading (None where it cannot be read)."""
        return None if self._cpu is None else self._cpu.take()

    def _death(self) -> CallFault:
        assert self._pid is not None
        code = Zygote.get().exit_code(self._pid, 1.0)
        self._killed = True
        if self._oom_killed():
            self.kill()
            return self._out_of_memory()
        if code is None:
            self.kill()
            return CallFault(FaultKind.PROCESS_DIED, "the process closed its pipe")
        if code < 0:
            name = signal.Signals(-code).name if -code in {s.value for s in signal.Signals} else str(-code)
            hint = " (out of memory?)" if -code == signal.SIGKILL else ""
            return CallFault(FaultKind.PROCESS_DIED, f"the process was killed by {name}{hint}")
        return CallFault(FaultKind.PROCESS_DIED, f"the process exited with code {code}")

    def kill(self) -> None:
        """Kill the process and everything it started, at once (SIGKILL); its output stays to be read by
        :meth:`close`."""
        self._killed = True
        self._settled = False  # its teardown is waited for before another agent's call
        if self._pid is None:
            return
        if self._cpu is not None:
            self._cpu.sample()  # its last reading: once killed and reaped it cannot be read
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(self._pid, signal.SIGKILL)

    def close(self) -> str:
        """End the process (kill it, if it still runs), release what held it, and return what it printed
        (bounded)."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        # The worker writes its output unbuffered, so killing it now loses none of it.
        self.kill()  # the zygote removes the private folder once the process is gone
        if self._cpu is not None:
            self._cpu.close()
        return self._read_output()

    def _read_output(self) -> str:
        if not self._output_path:
            return ""
        try:
            with open(self._output_path, "rb") as f:
                data = f.read(self.limits.output_kb * 1024 + OUTPUT_NOTES_BYTES)
            os.unlink(self._output_path)
        except OSError:
            return ""
        self._output_path = ""
        return data.decode("utf-8", "replace")
