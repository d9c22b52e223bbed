"""CPU seconds of an agent process, read by the referee from outside: ``/proc/<pid>/stat``.

A reading is user + system time of the process (all its threads) plus that of its children it
waited for (``utime + stime + cutime + cstime``). The file is opened once and re-read with
``pread``, so a reading costs one system call and a parse; the open descriptor stays bound to that
process (never to a later one reusing its pid) and fails once the process is reaped. Where there is
no ``/proc`` (another OS) there is no meter and no CPU figures.
"""

from __future__ import annotations

import contextlib
import os

_TICK = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


class CpuMeter:
    """CPU seconds used by one process; :meth:`take` returns what was used since the last take."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
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
        return cls(fd)

    def sample(self) -> None:
        """Read the process's CPU time now; once it is gone, the latest reading stays."""
        if self._fd is None:
            return
        try:
            stat = os.pread(self._fd, 1024, 0)
            fields = stat[stat.rindex(b")") + 2 :].split()
            # Fields 14-17 of proc(5): utime, stime, cutime, cstime (fields[0] is field 3).
            ticks = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        except (OSError, ValueError, IndexError):
            self.close()
            return
        self._latest = ticks * _TICK

    def take(self) -> float:
        """Sample, and return the CPU seconds used since the previous take (or the first reading)."""
        self.sample()
        used = max(0.0, self._latest - self._taken)
        self._taken = self._latest
        return used

    def close(self) -> None:
        """Release the file (later samples keep the latest reading)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
