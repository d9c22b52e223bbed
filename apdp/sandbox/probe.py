"""Checks that run inside a confined agent process: each tries what the sandbox must refuse.

The referee's side is :mod:`apdp.sandbox.protections`; this half runs in the agent process (the
worker answers a ``probe`` request with :func:`run`). Every check returns whether the attempt was
refused as it should be, and what happened.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import socket
import time
from collections.abc import Callable
from typing import Any

from apdp.sandbox.confine import AGENT_VARIABLES


def _refused(attempt: Callable[[], object]) -> tuple[bool, str]:
    try:
        attempt()
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.EPERM, errno.ENOENT), f"refused ({exc.strerror})"
    return False, "allowed"


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


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def _create(path: str) -> None:
    with open(path, "w") as f:
        f.write("planted")


def run(args: dict[str, Any]) -> dict[str, Any]:
    """Try every attack the sandbox must refuse; ``args`` name the referee's pid and a canary folder."""
    referee = int(args["referee_pid"])
    canary = str(args["canary_dir"])
    libc = ctypes.CDLL(None, use_errno=True)
    checks: dict[str, tuple[bool, str]] = {
        "environment": _environment(list(args["referee_variables"])),
        "read": _refused(lambda: _read(os.path.join(canary, "secret"))),
        "write": _refused(lambda: _create(os.path.join(canary, "planted"))),
        "private_folder": (os.access(".", os.W_OK) and os.getcwd() == os.environ.get("HOME"), os.getcwd()),
        "disk": _disk(int(args["disk_bytes"])),
        "processes_visible": _refused(lambda: _read(f"/proc/{referee}/cmdline")),
        "signals": _refused(lambda: os.kill(referee, 0)),
        "ptrace": (libc.ptrace(16, referee, 0, 0) == -1, f"errno {ctypes.get_errno()}"),
        "network": _refused(lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM)),
        "unix_sockets": _refused(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)),
        "process_count": _processes(int(args["processes"])),
        "core_dumps": (resource.getrlimit(resource.RLIMIT_CORE) == (0, 0), "RLIMIT_CORE 0"),
        "open_files": (resource.getrlimit(resource.RLIMIT_NOFILE)[1] == int(args["open_files"]),
                       f"RLIMIT_NOFILE {resource.getrlimit(resource.RLIMIT_NOFILE)[1]}"),
    }
    return {"checks": {k: [ok, detail] for k, (ok, detail) in checks.items()}, "daemon": _daemon()}
