"""Landlock: the kernel's unprivileged access control, applied by a process to itself.

A ruleset lists what the process may still do once it is restricted: which file hierarchies it may
read or write, which TCP ports it may bind or connect to (none, here), and whether signals and
abstract unix sockets are scoped to its own domain. Everything the ruleset "handles" and no rule
allows is denied, for the process and every process it starts, for good.

Only the kernel's ABI version decides what can be handled; :func:`abi_version` reads it.
"""

from __future__ import annotations

import ctypes
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass

from apdp.sandbox.syscalls import (
    SYS_LANDLOCK_ADD_RULE,
    SYS_LANDLOCK_CREATE_RULESET,
    SYS_LANDLOCK_RESTRICT_SELF,
    syscall,
)

_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

# Filesystem rights (the ABI version that added each is in the comment).
EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5

# Network rights (ABI 4) and scopes (ABI 6).
BIND_TCP = 1 << 0
CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1

#: Rights that make sense on a file (not a directory).
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
#: Reading and running what is beneath a path.
READ = EXECUTE | READ_FILE | READ_DIR


def all_rights(abi: int) -> int:
    """Every filesystem right the kernel's ABI ``abi`` knows."""
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    try:
        version = syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    except OSError:
        return 0
    return max(version, 0)


@dataclass(frozen=True, slots=True)
class Rule:
    """Rights granted beneath one path (on a file: only its file rights apply).

    ``fd``, when given, is an ``O_PATH`` descriptor of ``path`` opened beforehand (it stays open).
    """

    path: str
    rights: int
    fd: int | None = None


def open_rule(path: str, rights: int) -> Rule | None:
    """A rule whose path is opened now (``O_PATH``), to be applied later; None if it does not exist."""
    try:
        fd = os.open(path, os.O_PATH)
    except OSError:
        return None
    if not stat.S_ISDIR(os.fstat(fd).st_mode):
        rights &= FILE_RIGHTS
    return Rule(path, rights, fd)


@dataclass(frozen=True, slots=True)
class Enforced:
    """What :func:`restrict_self` put in force."""

    abi: int
    network: bool  # no TCP at all
    signals: bool  # signals and abstract unix sockets scoped to the domain


def restrict_self(rules: Iterable[Rule], abi: int) -> Enforced:
    """Restrict this process (and its future children) to ``rules``; no TCP at all.

    Paths that do not exist are skipped. The caller must have set no_new_privs.
    Raises OSError if the kernel refuses.
    """
    handled_fs = all_rights(abi)
    handled_net = BIND_TCP | CONNECT_TCP if abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = _RulesetAttr(handled_fs, handled_net, scoped)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), size, 0)
    try:
        for rule in rules:
            opened = rule if rule.fd is not None else open_rule(rule.path, rule.rights)
            if opened is None or opened.fd is None:
                continue
            try:
                beneath = _PathBeneathAttr(opened.rights & handled_fs, opened.fd)
                syscall(SYS_LANDLOCK_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(beneath), 0)
            finally:
                if rule.fd is None:
                    os.close(opened.fd)
        syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)
    return Enforced(abi, handled_net != 0, scoped != 0)
