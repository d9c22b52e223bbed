"""A pids control group per agent process, where the referee runs as root.

The kernel exempts root from RLIMIT_NPROC, so for root the process limit comes from a control group
of the pids controller (cgroup v1's ``pids`` hierarchy, or cgroup v2 with ``pids`` enabled at its
root). The zygote keeps a pool of such groups, one per agent process alive: it hands one to each
agent process it forks (:data:`assigned`, read by the child), the agent process moves itself in
(:func:`join`), and once the agent and everything it started are gone the group is empty and
serves the next one. Making and removing a group per agent would cost more than the agent's start.
"""

from __future__ import annotations

import contextlib
import os

_V1 = "/sys/fs/cgroup/pids"
_V2 = "/sys/fs/cgroup"

#: The group the zygote gave the agent process it is forking (read by that child), or None.
assigned: str | None = None


def _base() -> str | None:
    if os.path.isfile(os.path.join(_V1, "cgroup.procs")):
        return _V1
    try:
        with open(os.path.join(_V2, "cgroup.controllers")) as f:
            if "pids" not in f.read().split():
                return None
        with open(os.path.join(_V2, "cgroup.subtree_control"), "w") as f:
            f.write("+pids")
    except OSError:
        return None
    return _V2


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


class Pool:
    """The zygote's groups: free ones are reused; all are removed by :meth:`close`."""

    def __init__(self) -> None:
        self._base = _base()
        self._free: list[str] = []
        self._limits: dict[str, int] = {}
        self._made = 0
        if self._base is not None:
            _remove_leftovers(self._base)

    def take(self, processes: int) -> str | None:
        """A group capped at ``processes``, or None where no pids cgroup is writable."""
        if self._base is None:
            return None
        try:
            group = self._free.pop() if self._free else self._new_group(self._base)
            if self._limits.get(group) != processes:
                _write(os.path.join(group, "pids.max"), str(processes))
                self._limits[group] = processes
        except OSError:
            return None
        return group

    def _new_group(self, base: str) -> str:
        """A new empty group (a name taken by a group left over from a dead zygote with this pid
        is skipped: that group may still hold a process)."""
        while True:
            self._made += 1
            group = os.path.join(base, f"apdp-{os.getpid()}-{self._made}")
            try:
                os.mkdir(group, 0o755)
            except FileExistsError:
                continue
            return group

    def give_back(self, group: str) -> None:
        """Return a group whose agent process ended (and whose leftovers were killed)."""
        try:
            with open(os.path.join(group, "cgroup.procs")) as f:
                empty = not f.read().strip()
        except OSError:
            return
        if empty:
            self._free.append(group)
        else:  # something escaped the sweep: never share it with another agent
            self._limits.pop(group, None)

    def close(self) -> None:
        """Remove every group this pool made (those still holding a process stay)."""
        for group in list(self._limits):
            with contextlib.suppress(OSError):
                os.rmdir(group)
        self._free.clear()
        self._limits.clear()


def _remove_leftovers(base: str) -> None:
    """Remove the empty groups of zygotes that are gone (one killed outright cannot remove its own)."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if len(parts) != 3 or parts[0] != "apdp" or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
            continue  # its zygote (or a process that reused its pid) is alive: leave it be
        except ProcessLookupError:
            pass
        except OSError:
            continue
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(base, name))


def join(group: str | None) -> bool:
    """Move this (single-threaded) process into ``group``; False if there is none or it failed.

    In cgroup v1 the move goes through ``tasks`` (this thread alone, which is the whole process):
    moving through ``cgroup.procs`` takes the kernel's thread-group lock, whose writer waits for an
    RCU grace period, up to tens of milliseconds per agent.
    """
    if group is None:
        return False
    v1 = group.startswith(_V1 + "/")
    try:
        _write(os.path.join(group, "tasks" if v1 else "cgroup.procs"), "0")
    except OSError:
        return False
    return True
