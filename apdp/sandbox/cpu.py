"""CPU seconds of an agent process, read by the referee from outside: ``/proc/<pid>/stat``.

A reading is user + system time of the process (all its threads) plus that of its children it
waited for (``utime + stime + cutime + cstime``). The file is opened once and re-read with
``pread``, so a reading costs one system call and a parse; the open descriptor stays bound to that
process (never to a later one reusing its pid) and fails once the process is reaped. Where there is
no ``/proc`` (another OS) there is no meter and no CPU figures. An agent program's own process (a
child the agent process has not waited for) is added with :meth:`CpuMeter.watch`.
"""

from __future__ import annotations

import contextlib
import os

_TICK = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _ticks(fd: int) -> tuple[int, int]:
    """(CPU ticks, parent pid) of the process whose stat file is open on ``fd``."""
    stat = os.pread(fd, 1024, 0)
    fields = stat[stat.rindex(b")") + 2 :].split(b" ", 16)  # the 17 needed, not all ~50
    # Fields 4 and 14-17 of proc(5): ppid; utime, stime, cutime, cstime (fields[0] is field 3).
    return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14]), int(fields[1])


class CpuMeter:
    """CPU seconds used by one process (and the children it watches); :meth:`take` returns what was
    used since the last take."""

    def __init__(self, fd: int, pid: int) -> None:
        self._pid = pid
        self._fds: dict[int, int] = {fd: 0}  # open stat file -> its latest reading (ticks)
        self._done = 0  # ticks of watched processes that are gone
        self._taken = 0.0
        self._latest = 0.0
        self.sample()
        self._taken = self._latest

    @classmethod
    def open(cls, pid: int) -> CpuMeter | None:
        """A meter on process ``pid`` (first reading now), or None without ``/proc``."""
        try:
            fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        return cls(fd, pid)

    def watch(self, child: int) -> None:
        """Count the CPU of ``child`` too, if it is a child of the metered process."""
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

    def sample(self) -> None:
        """Read the CPU time now; a process that is gone keeps its latest reading."""
        for fd in list(self._fds):
            try:
                self._fds[fd] = _ticks(fd)[0]
            except (OSError, ValueError, IndexError):
                self._done += self._fds.pop(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._latest = (self._done + sum(self._fds.values())) * _TICK

    def take(self) -> float:
        """Sample, and return the CPU seconds used since the previous take (or the first reading)."""
        self.sample()
        used = max(0.0, self._latest - self._taken)
        self._taken = self._latest
        return used

    def close(self) -> None:
        """Release the files (later samples keep the latest reading)."""
        for fd in list(self._fds):
            self._done += self._fds.pop(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
