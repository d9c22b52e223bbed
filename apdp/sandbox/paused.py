"""The CPU an agent uses while it is paused between its calls: work it left in the kernel.

A paused agent cannot run its own code, but a pause (SIGSTOP) waits for the system call each of its
threads is in: one ``fork``, ``mprotect`` or ``madvise`` over millions of page-table entries runs for
a second or more, and many threads' calls over the same memory run one after another. That runs on
its opponent's time (on a match's one core, it takes half of it, or more without the kernel's
autogroup). So the referee reads each agent's CPU (:mod:`apdp.sandbox.cpu`: its control group's,
which counts every process it started) when it pauses it and when it resumes it, and:

- a paused agent that used more than :data:`SUSPECT_CPU` in one pause has left work running once:
  from then on it is settled before every call of another agent's (:meth:`PausedCpu.settle`), and
  every agent is before another's plan (after its opponent's last call an agent is never resumed, so
  it would never be found out), and a killed one before the next call (its teardown): the referee
  waits, on nobody's time, until every thread of its processes is at rest (:class:`ThreadsAtRest`:
  the calls its pause waits for have ended), and only then starts the call, so what it leaves
  running takes nothing from its opponent's call, nor from what its opponent sees of its time
  (``self.deadline``); the match alone takes longer. Before a bid, an agent that never left work
  running is not waited for: a wait costs a call a sleep, a hundred a match;
- the time a paused agent takes all the same (before it is found out: once, in the auctions) is
  given back to the agent that is playing: when a call reaches its time limit, it is extended by
  the CPU the paused agents used while paused and gave to no call yet (read then: since their pause,
  or the call's previous extension), and again until they use no more (at most
  :data:`LONGEST_EXTENSION`). Calls are made one at a time, so on the match's one core
  that is what they took from it (or from the referee's moment between two calls); on another core it
  is a little more time, never less. Read only at a time limit, it costs a call nothing;
- a paused agent that used more than :data:`RAN_ON_LIMIT` seconds of CPU in one pause has run on
  after it was paused: a ``timeout`` fault, told when it is next resumed (or at the match's end),
  and the CPU counts in its own figures. A pause itself costs a few microseconds per thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from apdp.game.fault import FaultKind
from apdp.sandbox.cgroup import is_v1
from apdp.sandbox.cpu import CpuMeter

#: The most CPU seconds an agent may use while paused, in one pause (work left in the kernel):
#: a legitimate one uses microseconds; exiting children it killed before its reply, a tenth of a second.
RAN_ON_LIMIT = 0.25
#: The longest a call's time limit is extended by what paused agents took from it, in seconds.
LONGEST_EXTENSION = 60.0
#: Paused agents' CPU below this (seconds) extends no call: the noise of a pause.
LEAST_EXTENSION = 0.001
#: CPU seconds in one pause past which an agent is settled before every later call of another's: far
#: above what stopping its threads takes (microseconds), and above what a call too short to be read
#: leaves to its pause's reading (:data:`apdp.sandbox.process.SHORT_CALL`).
SUSPECT_CPU = 0.005
#: Seconds of the first wait while a paused agent is settled (the core is its meanwhile): enough for
#: its threads to stop; then :data:`SETTLE_WAIT` at a time, while some have not.
FIRST_SETTLE_WAIT = 0.0002
SETTLE_WAIT = 0.001
#: The most CPU seconds of one pause, and seconds of waiting, a paused agent is waited for: past it
#: (a fork of a huge mapping, say), the next call starts all the same, and extends by what it takes.
LONGEST_SETTLE = 10.0
#: Seconds a thread that waits in the kernel must be seen to use no CPU to be at rest: one that reads
#: a file page by page from a disk waits in between (D) for a millisecond or so, and works on.
REST_SPAN = 0.01
#: A thread's states (proc(5)) once it has stopped, or is gone.
_STOPPED_STATES = frozenset("TtZXx")


class ThreadsAtRest:
    """Whether every thread of an agent's processes is at rest, looked at again at each call: those
    of its control group ``group`` (which holds all it started), or else of its process ``pid``
    alone. A thread is read in ``/proc``. It is at rest once it has stopped (``T``) or is gone; or
    once it waits in the kernel (``D``, ``S``: a vfork's parent waits for its child, which its pause
    stopped, say) and has been seen to use no CPU for :data:`REST_SPAN`. One still in a call its pause
    waits for is running (``R``), or waits in the kernel between its steps while it uses the core."""

    def __init__(self, group: str | None, pid: int) -> None:
        self._group, self._pid = group, pid
        self._used: dict[str, tuple[int, float]] = {}  # each waiting thread: its CPU, and since when

    def __call__(self) -> bool:
        try:
            if self._group is None:
                threads = os.listdir(f"/proc/{self._pid}/task")
            else:
                with open(os.path.join(self._group, "tasks" if is_v1(self._group) else "cgroup.threads")) as f:
                    threads = f.read().split()
        except OSError:
            return True  # gone
        used: dict[str, tuple[int, float]] = {}
        at_rest, now = True, time.monotonic()
        for tid in threads:
            state, cpu = _thread_state(tid)
            if state in _STOPPED_STATES:
                continue
            if state == "R" or cpu is None:
                at_rest = False
                continue
            before = self._used.get(tid)
            used[tid] = before if before is not None and before[0] == cpu else (cpu, now)
            at_rest = at_rest and now - used[tid][1] >= REST_SPAN
        self._used = used
        return at_rest


def _thread_state(tid: str) -> tuple[str, int | None]:
    """A thread's state (proc(5); gone: ``X``) and the CPU it has used, in the finest unit at hand:
    nanoseconds on the core (``schedstat``) or else clock ticks."""
    try:
        with open(f"/proc/{tid}/stat", "rb") as f:
            stat = f.read(1024)
    except OSError:
        return "X", None
    fields = stat[stat.rfind(b")") + 2 :].split()
    state = fields[0].decode("ascii", "replace") if fields else "X"
    try:
        with open(f"/proc/{tid}/schedstat", "rb") as f:
            return state, int(f.read(64).split()[0])
    except (OSError, ValueError, IndexError):
        pass
    try:
        return state, int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    except (ValueError, IndexError):
        return state, None


def ran_on_message(used: float) -> str:
    """The fault of an agent that used ``used`` seconds of CPU while it was paused."""
    return (f"ran on after it was paused: its processes used {used:.2f} s of CPU while paused between its "
            f"calls (at most {RAN_ON_LIMIT:g} s), in work left in the kernel (a fork, mprotect or madvise over a "
            "huge mapping, say) that its pause had to wait for; that time is not its opponent's to lose")


#: The kind of its fault: a timeout (the kinds a record holds are fixed; the message says which it is).
RAN_ON = FaultKind.TIMEOUT


@dataclass
class PausedCpu:
    """An agent's CPU while it is paused, read on its meter."""

    meter: CpuMeter
    #: The CPU seconds it used while paused in its latest pause (read when it was resumed).
    last: float = 0.0
    #: The seconds the referee waited for it to settle while it still used the core (:meth:`settle`).
    settled: float = 0.0
    _paused_at: float | None = field(default=None, init=False)  # the meter when it was paused
    _given: float = field(default=0.0, init=False)  # the meter up to which it was given to another's call

    def paused(self) -> None:
        """It was just paused. Its latest reading stands for now (at most the CPU of the call that
        ended, when that call was too short to be read: under a millisecond)."""
        self._paused_at = self._given = self.meter.latest

    def resumed(self) -> float | None:
        """It is about to run again: the CPU seconds it used while paused (read now), or None if
        it was not paused."""
        if self._paused_at is None:
            return None
        self.last = max(0.0, self.meter.sample() - self._paused_at)
        self._paused_at = None
        return self.last

    def settle(self, at_rest: Callable[[], bool]) -> None:
        """Wait (the core is the paused agent's meanwhile) until ``at_rest()`` says all its
        processes' threads are at rest (:class:`ThreadsAtRest`): a thread in a call its pause waits
        for is not until that call ends. At most :data:`LONGEST_SETTLE` seconds of its CPU in this pause
        (past :data:`RAN_ON_LIMIT`, its fault, told when it is resumed: waited for all the same, so
        that what it runs on takes nothing from the next call), or of waiting. What it used meanwhile
        was no call's time: it extends none. The seconds waited past a first wait, for threads that
        had not stopped by then, add to ``settled``."""
        start = time.monotonic()
        now = self.meter.sample()
        since = now if self._paused_at is None else self._paused_at  # killed while it ran: from now
        wait = FIRST_SETTLE_WAIT
        while True:
            time.sleep(wait)
            now = self.meter.sample()
            if at_rest() or now - since > LONGEST_SETTLE or time.monotonic() - start > LONGEST_SETTLE:
                break
            wait = SETTLE_WAIT
        self._given = max(self._given, now)
        if wait == SETTLE_WAIT:  # its threads had not stopped after the first wait: it was waited for
            self.settled += time.monotonic() - start

    def taken(self) -> float:
        """The CPU seconds it used while paused since it was paused or since the last time they
        were given to another agent's call (read now); 0 if it is not paused."""
        if self._paused_at is None:
            return 0.0
        now = self.meter.sample()
        taken = max(0.0, now - self._given)
        self._given = now
        return taken
