"""A core of its own for each match being played, shared by the match's referee and agents.

(Used by the tournament's executors and ``apdp match``; :func:`apdp.referee.match.play_match` itself pins
nothing, so a program that calls it places its matches as it likes.)

A match is played one call at a time (the referee waits while an agent thinks, and an agent is
paused between its calls), so the referee and both agents of a match can share one core without
one taking time from another. Pinned together, each message between them is a switch on one core
instead of a wake-up across cores, several times cheaper (on a virtual machine, ten times); and no
match's agent can use another match's core.

Cores are handed out through lock files, one per core of the machine, in a folder of the user's
(``$APDP_CORES_DIR``, default ``$TMPDIR/apdp-cores-UID``), held with ``flock``: a lock is
released when its holder exits, however it exits. A local tournament's worker keeps a core for its
lifetime (:func:`take_core`), so a worker that dies frees its core for the one that replaces it; a
Ray worker, which plays matches of any run, and ``apdp match`` hold one for a match
(:func:`core_for_a_match`). Two runs at once on one machine share its cores this way instead of
doubling up on the first ones; a match that finds every core taken plays unpinned.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator

from apdp.files import opened
from apdp.sandbox.zygote_link import Zygote

#: The lock this worker keeps (its descriptor stays open for as long as the worker lives).
_held: list[int] = []


def _usable_cores() -> list[int]:
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def _make_locks(folder: str, cores: list[int]) -> None:
    for core in cores:
        path = os.path.join(folder, str(core))
        with contextlib.suppress(OSError):  # made already (or not makeable: that core stays unused)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))


def _lock_free_core(folder: str) -> tuple[int, int] | None:
    """(core, descriptor holding its lock) for the first free core of ``folder``, or None."""
    try:
        names = sorted(os.listdir(folder), key=int)
    except (OSError, ValueError):
        return None
    for name, fd in opened(folder, names, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return int(name), fd
    return None


def take_core() -> int | None:
    """Lock the first free core of this machine for this process's lifetime and return it; None if
    every core is taken (or cores cannot be locked or pinned here)."""
    folder = _machine_folder()
    taken = None if folder is None else _lock_free_core(folder)
    if taken is None:
        return None
    core, fd = taken
    _held.append(fd)
    return core


def pin_to_core(core: int, zygote: Zygote) -> bool:
    """Run this process's calling thread (a referee) and its ``zygote`` (so the agents it starts
    from now on) on ``core`` alone; False if this process cannot be pinned."""
    try:
        os.sched_setaffinity(0, {core})
    except OSError:
        return False
    zygote.pin(core)
    return True


def _machine_folder() -> str | None:
    """This user's lock folder for the cores of this machine (made on first use), or None if it
    cannot be trusted (not a folder of this user's alone) or this OS cannot pin."""
    if not _usable_cores():
        return None
    folder = os.environ.get("APDP_CORES_DIR") or os.path.join(tempfile.gettempdir(), f"apdp-cores-{os.getuid()}")
    with contextlib.suppress(OSError):  # it exists, or cannot be made (then lstat says so)
        os.mkdir(folder, 0o700)
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    _make_locks(folder, _usable_cores())
    return folder


@contextlib.contextmanager
def core_for_a_match() -> Iterator[int | None]:
    """Hold a free core of this machine while the block plays a match: this process and its zygote
    (so the agents it starts) run on it alone, and are set free again after. Yields the core, or
    None when every core is taken (more matches at once than cores: the match runs unpinned)."""
    cores = _usable_cores()
    folder = _machine_folder()
    taken = None if folder is None else _lock_free_core(folder)
    if taken is None:
        yield None
        return
    core, fd = taken
    zygote = Zygote.get()
    try:
        yield core if pin_to_core(core, zygote) else None
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, cores)
            os.sched_setaffinity(zygote.pid, cores)
        os.close(fd)
