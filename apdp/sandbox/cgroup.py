"""Control groups per agent process: its process limit (pids), its memory limit (memory) and the count
of its CPU time (cpu).

The kernel exempts root from RLIMIT_NPROC, so for a root referee the process limit comes from a
group of the pids controller. An rlimit on memory counts each process's private memory alone, so an
agent's processes together, or its shared memory and tmpfs files, could pass it: a group of the
memory controller counts all of it, for the whole process tree, and the kernel's OOM killer acts
within the group when it is full. Both come from cgroup v1's ``pids`` and ``memory`` hierarchies (the
memory group nested in the referee's own, so the agent stays within whatever limits the referee
has), or cgroup v2 with the controllers enabled at its root; where neither is writable (a user who
is not root), :mod:`apdp.sandbox.process` watches the agent's resident memory instead.

The CPU time of every process an agent started, its children that are gone included, is the
CPU count of a group of its own: ``cpu.stat``'s ``usage_usec``, which every cgroup v2 group has with no
controller enabled, or cgroup v1's ``cpuacct.usage``. The referee reads it from outside (see
:mod:`apdp.sandbox.cpu`), also while the agent is paused, which is how it sees the work an agent left
in the kernel run on. Where the agent's other groups are cgroup v2's, it is the same group; on a
machine that mounts both versions (v1 controllers, v2 beside them), cgroup v1's cpuacct is used: a
process moves into a v1 group by ``tasks`` at once, into a v2 group only by ``cgroup.procs`` (see
:func:`join`), which took 5 to 16 ms per agent there.

The zygote keeps a pool of groups, one per agent process alive: it hands one to each agent process
it forks (:data:`assigned`, read by the child), the agent process moves itself in (:func:`join`),
and once the agent and everything it started are gone the group is empty and serves the next one.
Making and removing a group per agent would cost more than the agent's start.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

_ROOT = "/sys/fs/cgroup"
_V1_PIDS = "/sys/fs/cgroup/pids"
_V1_MEMORY = "/sys/fs/cgroup/memory"
_V1_CPUACCT = "/sys/fs/cgroup/cpuacct"
_V2_BESIDE_V1 = "/sys/fs/cgroup/unified"
#: What counts an agent's CPU, by the file the referee reads in its group.
CPU_V2 = "cgroup v2 cpu.stat per agent"
CPU_V1 = "cgroup v1 cpuacct per agent"


@dataclass(frozen=True, slots=True)
class AgentGroup:
    """The groups of one agent process: its pids group, its memory group and the group that counts its
    CPU (None: none here; in cgroup v2 they are one group)."""

    pids: str | None
    memory: str | None
    cpu: str | None = None


#: The groups the zygote gave the agent process it is forking (read by that child), or None.
assigned: AgentGroup | None = None


#: The kinds of group an agent process gets, in :class:`AgentGroup`'s order.
_KINDS = ("pids", "memory", "cpu")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _v2_base(controller: str) -> str | None:
    """cgroup v2's root, with ``controller`` enabled for its children, if this process may."""
    try:
        with open(os.path.join(_ROOT, "cgroup.controllers")) as f:
            if controller not in f.read().split():
                return None
        _write(os.path.join(_ROOT, "cgroup.subtree_control"), f"+{controller}")
    except OSError:
        return None
    return _ROOT


def _v1_own(mount: str, controller: str) -> str | None:
    """This process's own group in cgroup v1's ``controller`` hierarchy mounted at ``mount``."""
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                if controller in controllers.split(","):
                    return os.path.join(mount, path.lstrip("/")).rstrip("/")
    except (OSError, ValueError):
        return None
    return None


def _base(controller: str) -> str | None:
    """Where this process may make groups of ``controller`` (``cpu``: groups that count CPU time);
    None where it may not."""
    if controller == "pids" and os.path.isfile(os.path.join(_V1_PIDS, "cgroup.procs")):
        base: str | None = _V1_PIDS
    elif controller == "memory" and os.path.isfile(os.path.join(_V1_MEMORY, "cgroup.procs")):
        base = _v1_own(_V1_MEMORY, "memory")
    elif controller == "cpu":
        base = _cpu_base()
    else:
        base = _v2_base(controller)
    return base if base is not None and os.access(base, os.W_OK) else None


def _cpu_base() -> str | None:
    """Where groups that count CPU time go: cgroup v2's root where it is the only hierarchy (no
    controller needed: every v2 group has cpu.stat), else cgroup v1's cpuacct, else a v2 hierarchy
    mounted beside v1."""
    if os.path.isfile(os.path.join(_ROOT, "cgroup.controllers")):
        return _ROOT
    if os.path.isfile(os.path.join(_V1_CPUACCT, "cpuacct.usage")):
        return _v1_own(_V1_CPUACCT, "cpuacct")
    if os.path.isfile(os.path.join(_V2_BESIDE_V1, "cgroup.controllers")):
        return _V2_BESIDE_V1
    return None


def is_v1(group: str) -> bool:
    """True for a group of a cgroup v1 hierarchy."""
    return group.startswith((_V1_PIDS + "/", _V1_MEMORY + "/", _V1_CPUACCT + "/"))


def cpu_accounting() -> str | None:
    """What counts an agent's CPU where this process would make its groups (:data:`CPU_V1` or
    :data:`CPU_V2`), or None where it may make none."""
    base = _base("cpu")
    return None if base is None else cpu_counted_by(os.path.join(base, "apdp"))


def cpu_counted_by(group: str) -> str:
    """What counts the CPU time of the processes in ``group``: :data:`CPU_V1` or :data:`CPU_V2`."""
    return CPU_V1 if is_v1(group) else CPU_V2


#: The most memory (bytes) a group may still be charged for, once its agent's processes are gone, and
#: be handed to another agent: the pages of files it read first and the kernel's objects it made (the
#: lookups of names, say) stay charged to it, and an agent given a full group would pay to reclaim
#: them, in its own calls (a second of a bid, for a group filled with lookups of missing names).
REUSED_CHARGES_MOST = 16 << 20


class Pool:
    """The zygote's groups: free ones are reused; all are removed by :meth:`close`."""

    def __init__(self) -> None:
        self._bases = {c: _base(c) for c in _KINDS}
        self._free: list[AgentGroup] = []
        self._made: list[str] = []
        self._limits: dict[str, int] = {}
        self._count = 0
        for base in self._bases.values():
            if base is not None:
                _remove_leftovers(base)

    @property
    def memory(self) -> bool:
        """Whether agents get a memory group here."""
        return self._bases["memory"] is not None

    def take(self, processes: int, memory_bytes: int) -> AgentGroup | None:
        """Groups capped at ``processes`` and ``memory_bytes``, or None where none is writable."""
        if all(base is None for base in self._bases.values()):
            return None
        group = self._free.pop() if self._free else self._new()
        try:
            if group.pids is not None:
                self._limit(group.pids, "pids.max", processes)
            if group.memory is not None:
                self._limit_memory(group.memory, memory_bytes)
        except OSError:
            return None
        return group

    def _new(self) -> AgentGroup:
        """New groups; one group where several kinds share a hierarchy (cgroup v2: a process is in one
        group of it)."""
        self._count += 1
        made: dict[str | None, str | None] = {None: None}
        for kind in _KINDS:
            base = self._bases[kind]
            if base not in made:
                made[base] = self._new_group(base)
        return AgentGroup(*(made[self._bases[kind]] for kind in _KINDS))

    def _new_group(self, base: str | None) -> str | None:
        """A new empty group under ``base`` (a name taken by a group left over from a dead zygote
        with this pid is skipped: that group may still hold a process)."""
        if base is None:
            return None
        while True:
            group = os.path.join(base, f"apdp-{os.getpid()}-{self._count}")
            try:
                os.mkdir(group, 0o755)
            except FileExistsError:
                self._count += 1
                continue
            except OSError:
                return None
            self._made.append(group)
            return group

    def _limit(self, group: str, name: str, value: int) -> None:
        key = f"{group}/{name}"
        if self._limits.get(key) != value:
            _write(key, str(value))
            self._limits[key] = value

    def _limit_memory(self, group: str, limit: int) -> None:
        """Cap the group's memory at ``limit``, swap included (cgroup v1 wants the memory limit
        below the memory+swap one at every step)."""
        if not is_v1(group):
            self._limit(group, "memory.max", limit)
            with contextlib.suppress(OSError):
                self._limit(group, "memory.swap.max", 0)
            return
        previous = self._limits.get(f"{group}/memory.limit_in_bytes")
        swap = os.path.exists(f"{group}/memory.memsw.limit_in_bytes")
        if swap and previous is not None and limit > previous:
            self._limit(group, "memory.memsw.limit_in_bytes", limit)
        self._limit(group, "memory.limit_in_bytes", limit)
        if swap:
            self._limit(group, "memory.memsw.limit_in_bytes", limit)

    def give_back(self, group: AgentGroup) -> None:
        """Return the groups of an agent process that ended (and whose leftovers were killed). Groups
        still charged for more than :data:`REUSED_CHARGES_MOST` of memory are removed instead."""
        for path in (group.pids, group.memory, group.cpu):
            if path is not None and not _empty(path):
                self._forget(path)  # something escaped the sweep: never share it again
                return
        charged = None if group.memory is None else _charged(group.memory)
        if group.memory is not None and (charged is None or charged > REUSED_CHARGES_MOST):
            self._remove(group)
            return
        self._free.append(group)

    def _remove(self, group: AgentGroup) -> None:
        """Remove empty groups (what the kernel still charges them for goes to their parent)."""
        for path in {p for p in (group.pids, group.memory, group.cpu) if p is not None}:
            with contextlib.suppress(OSError):
                os.rmdir(path)
                self._made.remove(path)
            self._forget(path)

    def _forget(self, group: str) -> None:
        """Forget the limits written to ``group``: it is never handed out again."""
        for key in [k for k in self._limits if k.startswith(group + "/")]:
            del self._limits[key]

    def close(self) -> None:
        """Remove every group this pool made (those still holding a process stay)."""
        for group in self._made:
            with contextlib.suppress(OSError):
                os.rmdir(group)
        self._free.clear()
        self._made.clear()
        self._limits.clear()


def _charged(group: str) -> int | None:
    """The memory (bytes) a memory group is charged for, or None if unreadable."""
    try:
        with open(os.path.join(group, "memory.usage_in_bytes" if is_v1(group) else "memory.current")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def _empty(group: str) -> bool:
    try:
        with open(os.path.join(group, "cgroup.procs")) as f:
            return not f.read().strip()
    except OSError:
        return False


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


def join(group: AgentGroup | None) -> tuple[bool, bool, bool]:
    """Move this (single-threaded) process into its groups: (in its pids group, in its memory group,
    in the group that counts its CPU).

    In cgroup v1 the move goes through ``tasks`` (this thread alone, which is the whole process):
    moving through ``cgroup.procs`` takes the kernel's thread-group lock, whose writer waits for an
    RCU grace period, up to tens of milliseconds per agent. A group that holds several kinds is
    joined once.
    """
    if group is None:
        return False, False, False
    joined: dict[str, bool] = {}
    for path in (group.pids, group.memory, group.cpu):
        if path is None or path in joined:
            continue
        try:
            _write(os.path.join(path, "tasks" if is_v1(path) else "cgroup.procs"), "0")
            joined[path] = True
        except OSError:
            joined[path] = False
    def member(path: str | None) -> bool:
        return path is not None and joined[path]

    return member(group.pids), member(group.memory), member(group.cpu)


def oom_kills(group: str) -> int | None:
    """How many processes the kernel killed for lack of memory in ``group`` so far (None: unknown)."""
    name = "memory.oom_control" if is_v1(group) else "memory.events"
    try:
        with open(os.path.join(group, name)) as f:
            for line in f:
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    except (OSError, ValueError):
        return None
    return None
