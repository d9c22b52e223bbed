"""The few Linux system calls the sandbox makes that Python's ``os`` module does not offer.

Calls go through the C library with ctypes; a failure raises OSError with the call's errno.
"""

from __future__ import annotations

import ctypes
import os
import platform
from typing import Any

# The running program's own symbols include the C library's (no search, no subprocess).
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

# Landlock's numbers are the same on every architecture.
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446

# prctl options.
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2

# Namespace flags (clone and unshare).
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWTIME = 0x00000080
CLONE_THREAD = 0x00010000
NAMESPACE_FLAGS = (
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
    | CLONE_NEWNET | CLONE_NEWTIME
)

# mount flags.
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18


def libc() -> ctypes.CDLL:
    """The C library."""
    return _libc


def _check(result: int, what: str) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")
    return result


def syscall(number: int, *args: Any) -> int:
    """A raw system call; OSError on failure."""
    return _check(libc().syscall(ctypes.c_long(number), *args), f"syscall {number}")


def prctl(option: int, arg2: int = 0, arg3: Any = 0, arg4: int = 0, arg5: int = 0) -> int:
    """prctl(2); OSError on failure."""
    third = ctypes.c_ulong(arg3) if isinstance(arg3, int) else arg3
    return _check(
        libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), third, ctypes.c_ulong(arg4), ctypes.c_ulong(arg5)),
        f"prctl {option}",
    )


def unshare(flags: int) -> None:
    """Move this process into new namespaces."""
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    """mount(2)."""
    _check(
        libc().mount(
            source.encode(), target.encode(), fstype.encode() if fstype else None, ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """Give up every capability, now and after any execve (the bounding set is emptied too)."""
    cap = 0
    while True:
        try:
            prctl(PR_CAPBSET_DROP, cap)
        except OSError as exc:
            if exc.errno == 22:  # EINVAL: past the last capability the kernel knows
                break
            raise
        cap += 1
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(libc().capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def machine() -> str:
    """The CPU architecture as the kernel names it (x86_64, aarch64, ...)."""
    return platform.machine()
