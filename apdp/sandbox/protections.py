"""Which protections the sandbox has in force on this machine, each checked by trying it.

:func:`unprotected` confines one process and lists what could not be put in force (the referee
says it once, in one line); :func:`check` also runs :mod:`apdp.sandbox.probe` inside a confined
process, so each protection is reported as checked, off, or failed.
"""

from __future__ import annotations

import functools
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from apdp.game.fault import FaultKind
from apdp.messages.calls import SandboxCall
from apdp.messages.replies import Report, SetupDone
from apdp.sandbox.process import AgentProcess
from apdp.scenario import Limits

#: A small cap and limits for the check, so that it runs in a moment.
_CHECK_DISK_MB = 8
_CHECK_PROCESSES = 16
_CHECK_OPEN_FILES = 128
_CHECK_FILES = 64


def _check_limits(memory_mb: int, files: int = 4096) -> Limits:
    """The limits of a check's process: ``memory_mb``, ``files`` in its private folder, the small caps above."""
    return Limits(memory_mb=memory_mb, output_kb=1, disk_mb=_CHECK_DISK_MB, disk_files=files,
                  processes=_CHECK_PROCESSES, open_files=_CHECK_OPEN_FILES)


@dataclass(frozen=True, slots=True)
class Protection:
    """One protection: what it refuses, the mechanism, and how the check went."""

    name: str
    refuses: str
    mechanism: str
    status: str  # "on", "off" or "FAILED"
    detail: str


#: (check key, what it refuses, the mechanism, the words of an "unprotected" entry that turn it off)
_TABLE = (
    ("environment", "reading the referee's environment", "clean environment", ""),
    ("read", "reading files other than Python, apdp and its own file", "Landlock", "Landlock"),
    ("neighbours", "reading the files beside its own (other agents, parameters, keys, results)",
     "Landlock: its own file only", "Landlock"),
    ("write", "writing outside its private folder", "Landlock", "Landlock"),
    ("private_folder", "a shared working folder", "private $HOME/$TMPDIR", ""),
    ("disk", "filling the disk (private folder capped)", "user namespace + tmpfs", "size cap"),
    ("disk_files", "filling its private folder with files (each costs kernel memory)", "tmpfs nr_inodes",
     "size cap"),
    ("memory", "more memory than its limit, all its processes and kinds of memory together", "", ""),
    ("processes_visible", "seeing other processes (/proc)", "Landlock", "Landlock"),
    ("process_handles", "seeing other processes by their pid: a pidfd (pidfd_open; PIDFD_GET_INFO tells the "
                        "process tree), their process group or session", "seccomp", "system call filter"),
    ("signals", "signalling other processes", "Landlock scoping", "signal"),
    ("ptrace", "tracing other processes", "seccomp + Landlock", "system call filter"),
    ("network", "any network socket", "seccomp + Landlock", "system call filter"),
    ("unix_sockets", "unix sockets to other programs", "seccomp", "system call filter"),
    ("process_count", "more than its process limit", "RLIMIT_NPROC (root: pids cgroup)", "process count"),
    ("core_dumps", "core dumps", "RLIMIT_CORE", ""),
    ("open_files", "more than its open-file limit", "RLIMIT_NOFILE", ""),
    ("leftovers", "processes outliving the match", "subreaper zygote", ""),
    ("between_calls", "running between its calls (threads, children)", "SIGSTOP of its process group", ""),
    ("process_group", "leaving its process group", "seccomp", "system call filter"),
    ("affinity", "changing its CPU affinity (leaving its core)", "seccomp", "system call filter"),
    ("kernel_work", "running on between its calls in the kernel (MAP_POPULATE, MADV_POPULATE_*, mlock, mincore, "
                    "move_pages)",
     "seccomp", "system call filter"),
    ("own_memory_walk", "running on between its calls in the kernel, reading its own /proc pagemap or smaps",
     "Landlock: its own /proc files listed", "Landlock"),
    ("scheduling", "changing the priority, scheduling or limits of another process", "seccomp",
     "system call filter"),
    ("kernel_workers", "handing work to the kernel's own workers, counted to nobody (files in flight on unix "
                       "sockets, Linux AIO)", "seccomp", "system call filter"),
    ("uncounted_memory", "memory no process's figures show (memfd, System V shared memory, semaphores, message "
                         "queues, Landlock rulesets)", "seccomp", "system call filter"),
    ("readable_files", "leasing, watching, flagging or uncaching files it may only read, or asking what others "
                       "read (F_SETLEASE, F_NOTIFY, FS_IOC_SETFLAGS, FADV_DONTNEED, cachestat, RWF_NOWAIT)", "seccomp",
     "system call filter"),
    ("ran_on", "running on after its pause, on its opponent's time (work left in the kernel: a fork, mprotect or "
               "madvise over a huge mapping)", "", ""),
)
#: The memory limit of the memory check, in MiB.
_CHECK_MEMORY_MB = 160
#: The work the check of CPU while paused leaves in the kernel: threads walking a mapping of the zero
#: page this size (MiB; about 0.3 s of CPU in all, 0.1 to 0.2 s of it after the pause), and the least
#: of it the referee must see.
_RAN_ON = {"mib": 3072, "threads": 12}
_RAN_ON_SEEN = 0.04


def _probe_file() -> str:
    return str(Path(__file__).with_name("probe.py"))


@functools.cache
def unprotected() -> tuple[str, ...]:
    """The protections that are off on this machine (empty when all are in force)."""
    process = AgentProcess(_check_limits(256))
    process.start(_probe_file())
    try:
        result = process.call(SandboxCall("unprotected"), 30.0)
    finally:
        process.close()
    if not isinstance(result.reply, SetupDone):
        why = result.fault.message if result.fault else "no reply"
        return (f"every protection (the confined process failed: {why})",)
    return result.reply.unprotected


def warning(off: tuple[str, ...] | list[str] | None = None) -> str | None:
    """One line naming the protections that are off here (``off``, or found out), or None."""
    if off is None:
        off = unprotected()
    if not off:
        return None
    return f"apdp: sandbox protections off on this machine: {'; '.join(off)} (see `apdp sandbox`)"


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[-1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.02)
    return False


def check() -> list[Protection]:
    """Every protection, checked by trying it from inside a confined process."""
    off = unprotected()
    # Outside /tmp where it can be: under it, the agent's private /tmp hides the canary, and the
    # checks would not reach the file rules behind it.
    with tempfile.TemporaryDirectory(prefix="apdp-canary-", dir=_outside_tmp()) as canary:
        Path(canary, "secret").write_text("canary\n")
        agent = Path(canary, "agents")
        agent.mkdir()
        Path(agent, "agent.py").write_text("# the checked agent's own file\n")
        Path(agent, "neighbour.py").write_text("# another agent, beside it\n")
        process = AgentProcess(_check_limits(256, files=_CHECK_FILES))
        process.start(str(agent / "agent.py"))
        try:
            args = {
                "referee_pid": os.getpid(), "canary_dir": canary, "referee_variables": sorted(os.environ),
                "disk_bytes": _CHECK_DISK_MB << 20, "disk_files": _CHECK_FILES, "processes": _CHECK_PROCESSES,
                "open_files": _CHECK_OPEN_FILES, "neighbour": str(agent / "neighbour.py"),
            }
            result = process.call(SandboxCall("probe", args), 60.0)
            time.sleep(0.5)  # the probe left a thread counting: it must not count while paused
            idle = process.call(SandboxCall("probe_idle"), 30.0)
        finally:
            process.close()
        planted = Path(canary, "planted").exists()
    if not isinstance(result.reply, Report):
        message = result.fault.message if result.fault else "no reply"
        return [Protection(n, r, m, "FAILED", f"the check process failed: {message}") for n, r, m, _ in _TABLE]
    checks: dict[str, list[object]] = dict(result.reply.data["checks"])
    if isinstance(idle.reply, Report):
        checks.update(idle.reply.data["checks"])
    daemon = int(result.reply.data.get("daemon", 0))
    checks["leftovers"] = [daemon > 0 and _gone(daemon, 3.0), f"detached process {daemon}"]
    if planted:
        checks["write"] = [False, "a file was planted outside the private folder"]
    elif canary.startswith("/tmp/") and not checks.get("write", [False])[0]:
        checks["write"] = [True, "written into its private /tmp, which hides the host's"]
    memory_by, checks["memory"] = _memory_check()
    cpu_by, checks["ran_on"], no_group = _ran_on_check()
    counted_by = {"memory": memory_by, "ran_on": cpu_by}
    out = []
    for key, refuses, mechanism, words in _TABLE:
        passed, detail = checks.get(key, [False, "not checked"])
        reason = no_group if key == "ran_on" else next((o for o in off if words and words in o), None)
        if passed:
            status = "on"
        elif reason is not None:
            status, detail = "off", f"{reason}: {detail}"
        else:
            status = "FAILED"
        out.append(Protection(key, refuses, mechanism or counted_by[key], status, str(detail)))
    return out


def _outside_tmp() -> str | None:
    """A folder of this user's outside /tmp for the checks' canary (None: the temporary folder)."""
    folder = Path.home() / ".cache" / "apdp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder) if os.access(folder, os.W_OK) else None


def _ran_on_check() -> tuple[str, list[object], str | None]:
    """(what counts an agent's CPU here, [passed, detail], why it cannot pass here or None): threads of
    a child of a confined process (which it did not wait for) leave work in the kernel that runs on
    after their pause; the referee must see it in the CPU the agent used while paused."""
    process = AgentProcess(_check_limits(256))
    process.start(_probe_file())
    try:
        result = process.call(SandboxCall("probe_ran_on", _RAN_ON), 60.0)
        if result.fault is None:
            time.sleep(1.0)  # paused: the walks run on
            result = process.call(SandboxCall("unprotected"), 30.0)  # resumed: its CPU while paused is read
    finally:
        process.close()
    counted_by = process.cpu_counted_by or "nothing (no /proc here)"
    no_group = None if process.cpu_group else "no writable cgroup counts an agent's CPU here"
    if result.fault is not None and result.fault.ran_on:  # seen, past the limit (a slower machine)
        detail = f"saw {process.paused_cpu:.2f} s of CPU used while paused (past the limit: a fault)"
        return counted_by, [True, detail], no_group
    if result.fault is not None:
        return counted_by, [False, f"the check process failed: {result.fault.message}"], None
    used = process.paused_cpu
    detail = f"saw {used:.2f} s of CPU used while paused, by a child's threads walking its page tables"
    return counted_by, [used >= _RAN_ON_SEEN, detail], no_group


def _memory_check() -> tuple[str, list[object]]:
    """(what holds an agent to its memory limit here, [passed, detail]): children of a confined
    process fill more shared memory than its limit together."""
    process = AgentProcess(_check_limits(_CHECK_MEMORY_MB))
    process.start(_probe_file())
    try:
        result = process.call(SandboxCall("probe_memory", {"memory_bytes": _CHECK_MEMORY_MB << 20}), 60.0)
    finally:
        process.close()
    if result.fault is not None:
        killed = result.fault.kind == FaultKind.MEMORY
        return process.memory_counted_by, [killed, f"killed: {result.fault.message}" if killed else
                                           f"the check process failed: {result.fault.message}"]
    assert isinstance(result.reply, Report)
    return process.memory_counted_by, list(result.reply.data["checks"]["memory"])
