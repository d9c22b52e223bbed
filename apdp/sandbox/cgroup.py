"""A pids control group per agent process, where the referee runs as root.

The kernel exempts root from RLIMIT_NPROC, so for root the process limit comes from a control group
of the pids controller (cgroup v1's ``pids`` hierarchy, or cgroup v2 with ``pids`` enabled at its
root): the agent process moves itself into a new group whose ``pids.max`` is its process limit,
and the zygote removes the group once the agent and everything it started are gone.
"""

from __future__ import annotations

import contextlib
import os

_V1 = "/sys/fs/cgroup/pids"
_V2 = "/sys/fs/cgroup"


def _base() -> str | None:
    if os.path.isfile(os.path.join(_V1, "cgroup.procs")):
        return _V1
    controllers = os.path.join(_V2, "cgroup.controllers")
    try:
        with open(controllers) as f:
            if "pids" not in f.read().split():
                return None
        with open(os.path.join(_V2, "cgroup.subtree_control"), "w") as f:
            f.write("+pids")
    except OSError:
        return None
    return _V2


def _group(pid: int) -> str | None:
    base = _base()
    return None if base is None else os.path.join(base, f"apdp-agent-{pid}")


def limit_self(processes: int) -> bool:
    """Move this process into a pids group of its own capped at ``processes``; False if impossible."""
    group = _group(os.getpid())
    if group is None:
        return False
    try:
        os.mkdir(group, 0o755)
        with open(os.path.join(group, "pids.max"), "w") as f:
            f.write(str(processes))
        with open(os.path.join(group, "cgroup.procs"), "w") as f:
            f.write("0")
    except OSError:
        with contextlib.suppress(OSError):
            os.rmdir(group)
        return False
    return True


def remove(pid: int) -> None:
    """Remove the group of agent process ``pid`` (once empty), if there is one."""
    group = _group(pid)
    if group is not None:
        with contextlib.suppress(OSError):
            os.rmdir(group)
