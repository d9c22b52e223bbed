"""Checks that run inside a confined agent process: each tries what the sandbox must refuse.

The referee's side is :mod:`apdp.sandbox.protections`; this half runs in the agent process (the
worker answers a ``probe`` request with :func:`run`). Every check returns whether the attempt was
refused as it should be, and what happened.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import resource
import select
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from apdp.sandbox.environment import AGENT_VARIABLES


def _refused(attempt: Callable[[], object]) -> tuple[bool, str]:
    try:
        attempt()
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.EPERM, errno.ENOENT), f"refused ({exc.strerror})"
    return False, "allowed"


def _all_refused(attempts: dict[str, Callable[[], object]]) -> tuple[bool, str]:
    """Whether every attempt, by name, is refused (:func:`_refused`), and those that were not."""
    allowed = [name for name, attempt in attempts.items() if not _refused(attempt)[0]]
    return not allowed, f"allowed: {', '.join(allowed)}" if allowed else "refused"


def _on_file(path: str, action: Callable[[int], object], flags: int = os.O_RDONLY) -> Callable[[], None]:
    """An attempt: ``action`` on a descriptor of ``path`` opened with ``flags``, closed after."""
    def attempt() -> None:
        fd = os.open(path, flags)
        try:
            action(fd)
        finally:
            os.close(fd)
    return attempt


def _environment(referee_variables: list[str]) -> tuple[bool, str]:
    with open("/proc/self/environ", "rb") as f:
        initial = {item.split(b"=", 1)[0].decode() for item in f.read().split(b"\0") if item}
    seen = (set(os.environ) | initial) - AGENT_VARIABLES
    leaked = sorted(seen & set(referee_variables)) or sorted(seen)
    return not leaked, f"leaked: {', '.join(leaked)}" if leaked else "only " + ", ".join(sorted(os.environ))


def _disk(limit_bytes: int) -> tuple[bool, str]:
    chunk = b"\0" * (1 << 20)
    written = 0
    try:
        with open("fill", "wb") as f:
            while written <= limit_bytes + (4 << 20):
                f.write(chunk)
                f.flush()
                written += len(chunk)
    except OSError as exc:
        os.unlink("fill")
        return exc.errno == errno.ENOSPC, f"stopped after {written >> 20} MiB ({exc.strerror})"
    os.unlink("fill")
    return False, f"wrote {written >> 20} MiB past a {limit_bytes >> 20} MiB cap"


def _disk_files(limit: int) -> tuple[bool, str]:
    """Whether the private folder refuses files past its cap (each file costs the kernel memory)."""
    os.mkdir("files")
    made = 0
    try:
        while made <= limit + 8:
            os.close(os.open(os.path.join("files", str(made)), os.O_CREAT | os.O_WRONLY, 0o600))
            made += 1
    except OSError as exc:
        ok, detail = exc.errno == errno.ENOSPC, f"refused after {made} files ({exc.strerror})"
    else:
        ok, detail = False, f"made {made} files past a cap of {limit}"
    for k in range(made):
        os.unlink(os.path.join("files", str(k)))
    os.rmdir("files")
    return ok, detail


def _scheduling(referee: int) -> tuple[bool, str]:
    """Whether the priority, scheduling and limits of another process are out of reach (tried with
    the values it already has: were it allowed, nothing would change)."""
    attempts: dict[str, Callable[[], object]] = {
        "setpriority": lambda: os.setpriority(os.PRIO_PROCESS, referee, os.getpriority(os.PRIO_PROCESS, referee)),
        "sched_setscheduler": lambda: os.sched_setscheduler(referee, os.sched_getscheduler(referee),
                                                            os.sched_getparam(referee)),
        "prlimit": lambda: resource.prlimit(referee, resource.RLIMIT_CORE,
                                            resource.prlimit(referee, resource.RLIMIT_CORE)),
    }
    allowed = []
    for name, attempt in attempts.items():
        try:
            attempt()
            allowed.append(name)
        except OSError:
            pass
    return not allowed, "refused" if not allowed else f"allowed: {', '.join(allowed)}"


def _process_handles(referee: int) -> tuple[bool, str]:
    """Whether another process is out of reach by its pid alone: no pidfd of it (whose PIDFD_GET_INFO
    tells its parent, ids and control group), nor its process group or session."""
    attempts: dict[str, Callable[[], object]] = {
        "pidfd_open": lambda: os.close(os.pidfd_open(referee)),
        "getpgid": lambda: os.getpgid(referee),
        "getsid": lambda: os.getsid(referee),
    }
    return _all_refused(attempts)


def memory_run(args: dict[str, Any]) -> dict[str, Any]:
    """Three children each fill half the memory limit with shared memory (which no rlimit counts);
    the limit holds if they never hold more than it together (or if the agent is killed for it)."""
    import mmap

    limit = int(args["memory_bytes"])
    chunk = limit // 2
    read_end, write_end = os.pipe()
    children = []
    for index in range(3):
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            area = mmap.mmap(-1, chunk)  # MAP_SHARED | MAP_ANONYMOUS
            for offset in range(0, chunk, 4096):
                area[offset] = 1
            os.write(write_end, bytes([index]))
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    os.close(write_end)
    filled, dead = set[int](), set[int]()
    # A child killed for the group's memory frees it before it is reaped: one that filled in its stead
    # may say so first. What they held is told once all are told and nothing changed for half a second.
    quiet_since, deadline = time.monotonic(), time.monotonic() + 8
    while time.monotonic() < deadline and (len(filled | dead) < len(children) or time.monotonic() - quiet_since < 0.5):
        told = set(os.read(read_end, 8)) if select.select([read_end], [], [], 0.05)[0] else set()
        died = {i for i, pid in enumerate(children) if i not in dead and os.waitpid(pid, os.WNOHANG) != (0, 0)}
        if told - filled or died:
            filled, dead, quiet_since = filled | told, dead | died, time.monotonic()
    held = len(filled - dead) * chunk
    for pid in children:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    os.close(read_end)
    detail = (f"{len(dead)} of {len(children)} children filling {chunk >> 20} MiB of shared memory each were "
              f"killed; the others held {held >> 20} MiB under a {limit >> 20} MiB limit")
    return {"checks": {"memory": [held <= limit, detail]}}


def _zero_page_mapping(size: int) -> int:
    """The address of ``size`` bytes mapped read-only and read page by page: the zero page at every
    4 KiB, which costs no memory and a page-table entry each."""
    import numpy as np

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    base = libc.mmap(None, size, 1, 0x02 | 0x20 | 0x4000, -1, 0)  # PROT_READ, MAP_PRIVATE|ANONYMOUS|NORESERVE
    if base in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap")
    libc.madvise(ctypes.c_void_p(base), ctypes.c_size_t(size), 15)  # MADV_NOHUGEPAGE: 4 KiB entries
    int(np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(base))[::4096].sum())
    return int(base)


def _leave_walks(base: int, size: int, threads: int) -> None:
    """Start ``threads`` threads that each walk the page tables of the mapping at ``base`` at once
    (``madvise(MADV_COLD)``, which looks for no signal but SIGKILL), and return once all are in it.
    The threads are all made first: making one maps its stack, which waits for the walks under way."""
    libc = ctypes.CDLL(None, use_errno=True)
    go = threading.Event()
    started = [0]

    def walk() -> None:
        go.wait()
        started[0] += 1
        libc.madvise(ctypes.c_void_p(base), ctypes.c_size_t(size), 20)

    for _ in range(threads):
        threading.Thread(target=walk, daemon=True).start()
    go.set()
    end = time.monotonic() + 5
    while started[0] < threads and time.monotonic() < end:
        time.sleep(0.001)
    time.sleep(0.01)


def ran_on_run(args: dict[str, Any]) -> dict[str, Any]:
    """Leave work in the kernel that runs on after this call's reply, which a pause waits for: threads
    of a child of this process (which it does not wait for) walking the page tables of a mapping of
    the zero page. The referee reads what the agent's processes used while paused. (The walks are a
    child's: this process's own would hold up its reply, which maps memory, until they end.)"""
    size, threads = int(args["mib"]) << 20, int(args["threads"])
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        try:
            _leave_walks(_zero_page_mapping(size), size, threads)
        finally:
            os.write(write_end, b"x")
        time.sleep(120)  # paused with its agent, killed with it
        os._exit(0)
    os.close(write_end)
    os.read(read_end, 1)
    os.close(read_end)
    return {"checks": {}}


def _processes(limit: int) -> tuple[bool, str]:
    children: list[int] = []
    try:
        for _ in range(limit + 8):
            pid = os.fork()
            if pid == 0:
                time.sleep(30)
                os._exit(0)
            children.append(pid)
    except OSError as exc:
        ok, detail = exc.errno == errno.EAGAIN, f"refused after {len(children)} ({exc.strerror})"
    else:
        ok, detail = False, f"started {len(children)} with a limit of {limit}"
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return ok, detail


def _daemon() -> int:
    """A double-forked, detached process; returns its pid (the referee checks it is gone later)."""
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        with contextlib.suppress(OSError):  # refused to a confined process: it stays in the group
            os.setsid()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            os.write(write_end, b"x")
            time.sleep(60)
            os._exit(0)
        os.write(write_end, str(pid).encode().rjust(16))
        os._exit(0)
    os.close(write_end)
    data = b""
    while len(data) < 17:
        more = os.read(read_end, 64)
        if not more:
            break
        data += more
    os.close(read_end)
    return int(data.replace(b"x", b"").strip() or b"0")


def _leave_group() -> tuple[bool, str]:
    """Whether a child of this process is refused a session (and a process group) of its own."""
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            os.setsid()
        except OSError as exc:
            code = 0 if exc.errno == errno.EPERM else 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return code == 0, "refused (Operation not permitted)" if code == 0 else f"a child left the group (code {code})"


#: Counted by a thread the probe leaves running (see :func:`start_counting`).
_count = [0]
_counted_at = [0]


def _counter() -> None:
    while True:
        _count[0] += 1


def start_counting() -> None:
    """Leave a thread counting as fast as it can, and note the count (the end of this call)."""
    threading.Thread(target=_counter, daemon=True).start()
    _counted_at[0] = _count[0]


def idle_run() -> dict[str, Any]:
    """How long the counting thread ran between the previous call and this one, in seconds of its
    own pace (measured now, over 0.1 s): a confined agent must not run between its calls."""
    since = _count[0] - _counted_at[0]
    before = _count[0]
    time.sleep(0.1)
    pace = max(1, _count[0] - before) / 0.1
    ran = since / pace
    return {"checks": {"between_calls": [ran < 0.25, f"ran {ran:.3f} s between two calls 0.5 s apart"]}}


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def _read_start(path: str) -> bytes:
    """The first bytes of a file (a /proc file may be huge, and slow to read whole)."""
    with open(path, "rb") as f:
        return f.read(8)


def _create(path: str) -> None:
    with open(path, "w") as f:
        f.write("planted")


def _kernel_work(libc: ctypes.CDLL) -> tuple[bool, str]:
    """Calls that fill memory in the kernel (which a SIGSTOP waits for) are refused."""
    import mmap

    def populate() -> None:
        mmap.mmap(-1, 1 << 16, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x8000).close()  # MAP_POPULATE

    def advise() -> None:
        area = mmap.mmap(-1, 1 << 16)
        try:
            area.madvise(22)  # MADV_POPULATE_READ
        finally:
            area.close()

    def lock() -> None:
        buffer = ctypes.create_string_buffer(4096)
        if libc.mlock(buffer, 4096) != 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))

    def walk() -> None:
        area = mmap.mmap(-1, 1 << 16)
        try:
            vector = ctypes.create_string_buffer(16)
            start = ctypes.addressof(ctypes.c_char.from_buffer(area))
            if libc.mincore(ctypes.c_void_p(start), ctypes.c_size_t(1 << 16), vector) != 0:
                raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        finally:
            area.close()

    def move() -> None:
        page = ctypes.create_string_buffer(4096)
        pages = (ctypes.c_void_p * 1)(ctypes.addressof(page))
        status = (ctypes.c_int * 1)()
        if libc.syscall(279, 0, 1, pages, None, status, 0) != 0:  # move_pages(self, 1 page, query only)
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))

    return _all_refused({"MAP_POPULATE": populate, "MADV_POPULATE_READ": advise, "mlock": lock, "mincore": walk,
                         "move_pages": move})


def _kernel_workers(libc: ctypes.CDLL) -> tuple[bool, str]:
    """Files sent over a unix socket (which the kernel's collector tears down, in flight in a cycle)
    and Linux AIO (whose requests release files in the kernel's workers) are refused."""
    def send_file() -> None:
        ours, theirs = socket.socketpair()
        try:
            socket.send_fds(ours, [b"x"], [theirs.fileno()])
        finally:
            ours.close()
            theirs.close()

    def aio() -> None:
        context = ctypes.c_ulong(0)
        if libc.syscall(206, 1, ctypes.byref(context)) != 0:  # io_setup
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        libc.syscall(207, context)  # io_destroy

    return _all_refused({"sendmsg": send_file, "io_setup": aio})


def _uncounted_memory(libc: ctypes.CDLL) -> tuple[bool, str]:
    """Memory that no figure of a process shows, which only a memory group counts, is refused: a
    memfd, and System V shared memory, semaphore sets and message queues (each removed if made)."""
    private, create = 0, 0o1000 | 0o600  # IPC_PRIVATE, IPC_CREAT and its mode
    made: dict[str, tuple[int, Callable[[int], object]]] = {
        "memfd_create": (libc.syscall(319, b"probe", 0), os.close),
        "shmget": (libc.syscall(29, private, 4096, create), lambda i: libc.syscall(31, i, 0, None)),
        "semget": (libc.syscall(64, private, 1, create), lambda i: libc.syscall(66, i, 0, 0)),
        "msgget": (libc.syscall(68, private, create), lambda i: libc.syscall(71, i, 0, None)),
        "landlock_create_ruleset": (libc.syscall(444, None, 0, 1), lambda _: None),  # its ABI version: no ruleset
    }
    allowed = []
    for name, (result, remove) in made.items():
        if result >= 0:
            allowed.append(name)
            remove(result)  # IPC_RMID
    return not allowed, f"allowed: {', '.join(allowed)}" if allowed else "refused"


def _readable_files() -> tuple[bool, str]:
    """A lease on a module file it may read, a dnotify watch on its folder, and setting the file's
    own inode flags again are refused."""
    import fcntl
    import json

    module = json.__file__

    def lease(fd: int) -> None:
        fcntl.fcntl(fd, 1024, fcntl.F_RDLCK)  # F_SETLEASE
        fcntl.fcntl(fd, 1024, fcntl.F_UNLCK)

    def flag(fd: int) -> None:
        try:
            flags = fcntl.ioctl(fd, 0x80086601, b"\0" * 8)  # FS_IOC_GETFLAGS
        except OSError as exc:  # a file system without flags has none to set
            raise PermissionError(errno.EPERM, f"no inode flags here ({exc.strerror})") from None
        fcntl.ioctl(fd, 0x40086602, flags)  # FS_IOC_SETFLAGS, the same flags

    return _all_refused({
        "F_SETLEASE": _on_file(module, lease),
        "F_NOTIFY": _on_file(os.path.dirname(module), lambda fd: fcntl.fcntl(fd, 1026, 0x1),  # DN_ACCESS
                             os.O_RDONLY | os.O_DIRECTORY),
        "FS_IOC_SETFLAGS": _on_file(module, flag),
        "POSIX_FADV_DONTNEED": _on_file(module, lambda fd: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)),
        "RWF_NOWAIT": _on_file(module, lambda fd: os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT)),  # preadv2
    })


def _own_memory_walk() -> tuple[bool, str]:
    """Its own /proc files that walk its memory page by page in the kernel (which a pause waits for),
    its threads' among them, are unreadable; those runtimes read about themselves are not."""
    own = f"/proc/{os.getpid()}"
    walks = [f"{own}/{name}" for name in ("pagemap", "smaps", "smaps_rollup", "numa_maps")]
    walks.append(f"{own}/task/{threading.get_native_id()}/pagemap")
    readable = [path for path in walks if not _refused(functools.partial(_read_start, path))[0]]
    unreadable = [path for path in (f"{own}/status", f"{own}/maps")
                  if _refused(functools.partial(_read_start, path))[0]]
    if readable or unreadable:
        return False, f"readable: {', '.join(readable) or 'none'}; unreadable: {', '.join(unreadable) or 'none'}"
    return True, "refused (status and maps readable)"


def run(args: dict[str, Any]) -> dict[str, Any]:
    """Try every attack the sandbox must refuse; ``args`` name the referee's pid and a canary folder."""
    referee = int(args["referee_pid"])
    canary = str(args["canary_dir"])
    libc = ctypes.CDLL(None, use_errno=True)
    checks: dict[str, tuple[bool, str]] = {
        "environment": _environment(list(args["referee_variables"])),
        "read": _refused(lambda: _read(os.path.join(canary, "secret"))),
        "neighbours": _refused(lambda: _read(str(args["neighbour"]))),
        "write": _refused(lambda: _create(os.path.join(canary, "planted"))),
        "private_folder": (os.access(".", os.W_OK) and os.getcwd() == os.environ.get("HOME"), os.getcwd()),
        "disk": _disk(int(args["disk_bytes"])),
        "disk_files": _disk_files(int(args["disk_files"])),
        "processes_visible": _refused(lambda: _read(f"/proc/{referee}/cmdline")),
        "process_handles": _process_handles(referee),
        "signals": _refused(lambda: os.kill(referee, 0)),
        "ptrace": (libc.ptrace(16, referee, 0, 0) == -1, f"errno {ctypes.get_errno()}"),
        "network": _refused(lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM)),
        "unix_sockets": _refused(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)),
        "process_count": _processes(int(args["processes"])),
        "core_dumps": (resource.getrlimit(resource.RLIMIT_CORE) == (0, 0), "RLIMIT_CORE 0"),
        "open_files": (resource.getrlimit(resource.RLIMIT_NOFILE)[1] == int(args["open_files"]),
                       f"RLIMIT_NOFILE {resource.getrlimit(resource.RLIMIT_NOFILE)[1]}"),
        "process_group": _leave_group(),
        "affinity": _refused(lambda: os.sched_setaffinity(0, os.sched_getaffinity(0))),
        "kernel_work": _kernel_work(libc),
        "own_memory_walk": _own_memory_walk(),
        "scheduling": _scheduling(referee),
        "kernel_workers": _kernel_workers(libc),
        "readable_files": _readable_files(),
        "uncounted_memory": _uncounted_memory(libc),
    }
    start_counting()
    return {"checks": {k: [ok, detail] for k, (ok, detail) in checks.items()}, "daemon": _daemon()}
