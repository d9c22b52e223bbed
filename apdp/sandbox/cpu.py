"""CPU seconds of an agent, read by the referee from outside: its control group's, or its process's.

Where the agent has a group that counts CPU (:mod:`apdp.sandbox.cgroup`), a reading is that group's
count: every process the agent started, those that are gone included, and the work they do in the
kernel after they were paused (cgroup v2's ``cpu.stat`` ``usage_usec``, cgroup v1's
``cpuacct.usage``). Elsewhere it is ``/proc/<pid>/stat``: user + system time of the agent's process
(all its threads) plus that of its children it waited for (``utime + stime + cutime + cstime``), and
an agent program's own process (a child the agent process has not waited for), added with
:meth:`CpuMeter.watch`; other children are not seen. Each file is opened once and re-read with
``pread``, so a reading costs one system call and a parse; an open ``stat`` file stays bound to
that process (never to a later one reusing its pid) and fails once the process is reaped. Where
there is no ``/proc`` (another OS) there is no meter and no CPU figures.
"""

from __future__ import annotations

import contextlib
import os

from apdp.sandbox.cgroup import cpu_counted_by, is_v1

_TICK = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
#: What counts an agent's CPU where it has no group for it.
CPU_OWN = "its process's own CPU, /proc/PID/stat (its threads, the children it waited for, its program)"


def _ticks(fd: int) -> tuple[int, int]:
    """(CPU ticks, parent pid) of the process whose stat file is open on ``fd``."""
    stat = os.pread(fd, 1024, 0)
    fields = stat[stat.rindex(b")") + 2 :].split(b" ", 16)  # the 17 needed, not all ~50
    # Fields 4 and 14-17 of proc(5): ppid; utime, stime, cutime, cstime (fields[0] is field 3).
    return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14]), int(fields[1])


def _group_seconds(fd: int) -> float:
    """CPU seconds counted by the group whose ``cpu.stat`` (v2) or ``cpuacct.usage`` (v1) is open on ``fd``."""
    data = os.pread(fd, 256, 0)
    if data.startswith(b"usage_usec "):
        return int(data[11 : data.index(b"\n")]) / 1e6
    return int(data) / 1e9


class CpuMeter:
    """CPU seconds used by one agent; :meth:`take` returns what was used since the last take."""

    def __init__(self, fd: int, pid: int, group: str | None = None) -> None:
        self._pid = pid
        self._group = group
        self._group_fd = fd if group is not None else -1
        self._fds: dict[int, int] = {} if group is not None else {fd: 0}  # open stat file -> latest ticks
        self._done = 0  # ticks of watched processes that are gone
        self._taken = 0.0
        self._latest = 0.0
        self.sample()
        self._taken = self._latest

    @classmethod
    def open(cls, pid: int, group: str | None = None) -> CpuMeter | None:
        """A meter on the agent in ``group`` (a group that counts CPU), or else on process ``pid``
        (first reading now); None without ``/proc``."""
        if group is not None:
            name = "cpuacct.usage" if is_v1(group) else "cpu.stat"
            try:
                fd = os.open(os.path.join(group, name), os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                pass
            else:
                return cls(fd, pid, group)
        try:
            fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        return cls(fd, pid)

    @property
    def counted_by(self) -> str:
        """What this meter reads: the agent's group (which version) or its process's own figures."""
        return CPU_OWN if self._group is None else cpu_counted_by(self._group)

    @property
    def resolution(self) -> float:
        """The step of its readings, in seconds: a group's count is exact; a process's figures are
        whole clock ticks."""
        return 0.0 if self._group is not None else _TICK

    @property
    def latest(self) -> float:
        """The CPU seconds of the latest reading (since the meter opened, plus where it began)."""
        return self._latest

    def watch(self, child: int) -> None:
        """Count the CPU of ``child`` too, if it is a child of the metered process (its group counts
        it already)."""
        if self._group is not None:
            return
        try:
            fd = os.open(f"/proc/{child}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return
        try:
            ticks, parent = _ticks(fd)
        except (OSError, ValueError, IndexError):
            os.close(fd)
            return
        if parent != self._pid or not self._fds:
            os.close(fd)
            return
        self._fds[fd] = ticks

    def sample(self) -> float:
        """Read the CPU time now (and return it); a process that is gone keeps its latest reading."""
        if self._group is not None:
            if self._group_fd >= 0:
                with contextlib.suppress(OSError, ValueError):
                    self._latest = max(self._latest, _group_seconds(self._group_fd))
            return self._latest
        for fd in list(self._fds):
            try:
                self._fds[fd] = _ticks(fd)[0]
            except (OSError, ValueError, IndexError):
                self._done += self._fds.pop(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._latest = (self._done + sum(self._fds.values())) * _TICK
        return self._latest

    def take(self) -> float:
        """Sample, and return the CPU seconds used since the previous take (or the first reading)."""
        self.sample()
        used = max(0.0, self._latest - self._taken)
        self._taken = self._latest
        return used

    def close(self) -> None:
        """Release the files (later samples keep the latest reading)."""
        if self._group_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._group_fd)
            self._group_fd = -1
        for fd in list(self._fds):
            self._done += self._fds.pop(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
