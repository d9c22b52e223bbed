"""A core of its own for each worker of a local tournament, shared by its matches' processes.

A match is played one call at a time (the referee waits while an agent thinks, and an agent is
stopped between its calls), so the referee and both agents of a match can share one core without
one taking time from another. Pinned together, each message between them is a switch on one core
instead of a wake-up across cores, several times cheaper (on a virtual machine, ten times); and no
match's agent can use another match's core.

The parent makes a folder holding one lock file per core it may use (:class:`CoreLocks`); each
worker, as it starts, takes the first lock it can hold (:func:`take_core`) and keeps it until it
exits, so a worker that dies frees its core for the worker that replaces it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile

#: The lock this worker holds (its descriptor stays open for as long as the worker lives).
_held: list[int] = []


class CoreLocks:
    """The lock files of the cores this process may use; ``folder`` is None (nothing is pinned)
    when there are fewer cores than ``jobs`` or no way to pin (another OS)."""

    def __init__(self, jobs: int) -> None:
        self.folder: str | None = None
        if not hasattr(os, "sched_getaffinity"):
            return
        cores = sorted(os.sched_getaffinity(0))
        if jobs > len(cores):
            return
        self.folder = tempfile.mkdtemp(prefix="apdp-cores-")
        for core in cores:
            with open(os.path.join(self.folder, str(core)), "w"):
                pass

    def close(self) -> None:
        """Remove the lock files (workers still holding one keep their descriptor)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> CoreLocks:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def take_core(folder: str) -> int | None:
    """Lock the first free core of ``folder`` for this process's lifetime and return it; None if
    every core is taken."""
    try:
        names = sorted(os.listdir(folder), key=int)
    except (OSError, ValueError):
        return None
    for name in names:
        try:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _held.append(fd)
        return int(name)
    return None


def pin_to_core(core: int) -> bool:
    """Run this process's calling thread (a referee) on ``core`` alone; False if it cannot."""
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {core})
        return True
    return False
