"""A seccomp filter: the system calls an agent process is refused, whatever its privileges.

Refused with EPERM: opening sockets of any kind (a ``socketpair`` of unix sockets stays allowed, for
pipes between the agent's own processes, but not ``sendmsg``: files sent in flight in a cycle of
sockets are torn down by the kernel's collector, a worker of the kernel's that no agent's group
counts, on the opponent's time; nor Linux AIO, whose requests release files in such workers),
tracing or reading other processes (``ptrace``,
``process_vm_*``, ``pidfd_getfd``, ``kcmp``), a pidfd of any process by its pid (``pidfd_open``: its
``PIDFD_GET_INFO`` tells a process's parent, ids and control group, the process tree that /proc hides;
an agent's own children come with a pidfd from ``clone``'s ``CLONE_PIDFD``, which neither Python nor a
JVM needs), new namespaces and mounts, kernel keyrings, BPF,
``perf_event_open``, ``userfaultfd``, io_uring (which could open sockets behind the filter's back),
the administrator's calls, changing a file's mode, owner, times or extended attributes (which
Landlock does not cover; the referee makes an agent program's build output executable itself),
leaving the agent's process group (``setsid``, ``setpgid``) and changing CPU affinity, memory that
no limit counts without a memory cgroup (``memfd_create``, System V shared memory, semaphores and
message queues), and work in the
kernel over a whole range of memory (``mmap`` with ``MAP_POPULATE`` or ``MAP_LOCKED``, ``madvise``'s
``MADV_POPULATE_*``, ``mlock*``, ``mincore`` and ``move_pages``, which walk a range or a list page by
page, and the other calls that move pages between memory nodes): a pause (SIGSTOP) waits for such a call,
which over a huge mapping (of the zero page, or reserved and never touched) runs for seconds, on the
opponent's time, at almost no memory. Changing the priority, scheduling, I/O priority or resource
limits of a process is allowed for the calling process only (``who`` or ``pid`` 0; ``setpriority`` of
its process group too): never of another process of the same user, which the kernel would allow
(the referee, the opponent, the user's shell); so is asking for a process's group or session
(``getpgid``, ``getsid``), which would show whose group a process is in (its opponent's program is in
its opponent's). ``clone3`` answers ENOSYS so that the C library falls
back to ``clone``, whose flags the filter can read. System calls of another ABI (32-bit, x32) end the process.

The numbers are x86_64's; on another architecture :func:`supported` is False and no filter is set.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import struct

from apdp.sandbox.syscalls import (
    CLONE_THREAD,
    NAMESPACE_FLAGS,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_SECCOMP,
    SECCOMP_MODE_FILTER,
    machine,
    prctl,
)

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_SYSCALL_BIT = 0x40000000

_X86_64 = {
    "socket": 41, "socketpair": 53, "clone": 56, "clone3": 435,
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "pidfd_getfd": 438, "kcmp": 312,
    "pidfd_open": 434, "getpgid": 121, "getsid": 124,
    "perf_event_open": 298, "bpf": 321, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442, "open_by_handle_at": 304, "name_to_handle_at": 303,
    "keyctl": 250, "add_key": 248, "request_key": 249,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
    "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163,
    "quotactl": 179, "syslog": 103, "iopl": 172, "ioperm": 173,
    "chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93, "lchown": 94, "fsetxattr": 190,
    "fremovexattr": 199, "fchmodat": 268, "fchmodat2": 452, "fchownat": 260,
    "utime": 132, "utimes": 235, "utimensat": 280, "futimesat": 261,
    "setxattr": 188, "lsetxattr": 189, "removexattr": 197, "lremovexattr": 198,
    "setxattrat": 463, "removexattrat": 466, "setpgid": 109, "setsid": 112, "sched_setaffinity": 203,
    "memfd_create": 319, "memfd_secret": 447, "shmget": 29, "shmat": 30, "shmctl": 31,
    "setpriority": 141, "sched_setparam": 142, "sched_setscheduler": 144, "sched_setattr": 314,
    "ioprio_set": 251, "prlimit64": 302,
    "mmap": 9, "madvise": 28, "mlock": 149, "mlock2": 325, "mlockall": 151, "remap_file_pages": 216,
    "mincore": 27, "move_pages": 279, "migrate_pages": 256, "mbind": 237, "process_madvise": 440,
    "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254, "fanotify_init": 300, "fanotify_mark": 301,
    "sendmsg": 46, "sendmmsg": 307, "fcntl": 72, "ioctl": 16,
    "io_setup": 206, "io_destroy": 207, "io_getevents": 208, "io_submit": 209,
    "io_cancel": 210, "io_pgetevents": 333,
    "semget": 64, "semop": 65, "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
    "msgctl": 71, "cachestat": 451, "preadv2": 327, "pwritev2": 328, "fadvise64": 221,
    "landlock_create_ruleset": 444, "landlock_add_rule": 445, "landlock_restrict_self": 446,
}
#: mmap flags that fill a mapping in the kernel (MAP_POPULATE, MAP_LOCKED), and madvise's advice that
#: does (MADV_POPULATE_READ, MADV_POPULATE_WRITE): a pause (SIGSTOP) waits for such a call to end, and one call
#: over a huge mapping of the zero page runs for seconds at almost no memory.
_POPULATING_FLAGS = 0x8000 | 0x2000
_POPULATING_ADVICE = (22, 23)

#: Refused outright with EPERM.
REFUSED = (
    "socket", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    # a pidfd of another process: PIDFD_GET_INFO on it tells its parent, ids and control group
    "pidfd_open",
    "perf_event_open", "bpf", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "open_by_handle_at", "name_to_handle_at",
    "keyctl", "add_key", "request_key", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "iopl", "ioperm",
    # Landlock does not cover changing a file's mode, owner, times or attributes (a file opened
    # for reading would do for the fd-based calls)
    "chmod", "fchmod", "chown", "fchown", "lchown", "fsetxattr", "fremovexattr", "fchmodat",
    "fchmodat2", "fchownat", "utime", "utimes", "utimensat",
    "futimesat", "setxattr", "lsetxattr", "removexattr", "lremovexattr", "setxattrat", "removexattrat",
    # the agent's process group holds all it starts (the referee pauses it between calls), and a
    # match's core holds all its processes
    "setpgid", "setsid", "sched_setaffinity",
    # memory outside every process's own (counted by a memory cgroup, by no rlimit or watch)
    "memfd_create", "memfd_secret", "shmget", "shmat", "shmctl",
    # and System V's semaphore sets and message queues: kernel memory (2 MiB a set) that no process's
    # figures show, and that only a memory group counts
    "semget", "semop", "semctl", "semtimedop", "msgget", "msgsnd", "msgrcv", "msgctl",
    # and Landlock's own rulesets (a node of kernel memory per rule): the referee confined the agent
    # before this filter; it has no use for them
    "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
    # work in the kernel that pausing the agent between its calls would wait for (see _POPULATING_FLAGS);
    # mincore reports on every page of a range, and move_pages on every page of a list, without looking
    # for signals: over a reserved 32 TiB (PROT_NONE, no memory), or a list of 160 million untouched
    # entries, one call runs for seconds, from a thread, on its opponent's time (and outlives SIGKILL);
    # the other calls that move pages between memory nodes, or advise on a process's memory, with them
    "mlock", "mlock2", "mlockall", "remap_file_pages", "mincore", "move_pages", "migrate_pages", "mbind",
    "process_madvise",
    # watching files (Landlock covers neither): a watch on the agents' folder, or on the libraries,
    # tells when another agent's process opens its file, its name and what it imports; and inotify
    # instances are counted per user, so taking them all denies every process of the referee's user
    "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark",
    # nor which files the page cache holds (what another process read since): cachestat, and a read
    # that fails rather than wait for the disk (preadv2's RWF_NOWAIT; pwritev2 with it), and so no
    # dropping of a file's pages either (fadvise's DONTNEED, below), which would also slow every other
    # process that reads it
    "cachestat", "preadv2", "pwritev2",
    # handing work to the kernel's own workers, which no agent's group counts: files sent over a unix
    # socket (an ancillary message: sendmsg), put in flight in a cycle of sockets, are torn down by
    # the kernel's collector (an epoll of half a million watches, a second of CPU on its opponent's
    # time); a file whose last holder is a Linux AIO request is torn down by a worker too
    "sendmsg", "sendmmsg", "io_setup", "io_destroy", "io_getevents", "io_submit", "io_cancel", "io_pgetevents",
)

#: Commands of a call refused (EPERM), by the call and the argument that names the command. A file an
#: agent may only read is still its own where the referee is root (its user namespace maps root to
#: root), and these act on any file it can open, for good or on other processes' opening of it:
#: a lease (F_SETLEASE: every process that opens the file waits 45 s for the holder, each of Python's
#: modules), a watch (F_NOTIFY, dnotify: a signal each time any process reads in a folder: what its
#: opponent imports), and an inode's flags (FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR, FS_IOC_SETVERSION, in
#: their 32-bit forms too: synchronous writes, no access times, on the system's files, after the match);
#: and dropping its pages from the page cache (fadvise's POSIX_FADV_DONTNEED: to see who reads it next).
REFUSED_COMMANDS: tuple[tuple[str, int, tuple[int, ...]], ...] = (
    ("fcntl", 1, (1024, 1026)),  # F_SETLEASE, F_NOTIFY
    ("ioctl", 1, (0x40086602, 0x40046602, 0x401C5820, 0x40087602, 0x40047602,
                  0x40086604, 0x40046604)),  # and ext4's own EXT4_IOC_SETVERSION
    ("fadvise64", 3, (4,)),  # POSIX_FADV_DONTNEED
)

#: Calls allowed on the calling process only: (name, the argument that names the target process,
#: the values allowed for the argument that says what kind of target that is: (index, values)).
SELF_ONLY: tuple[tuple[str, int, tuple[int, tuple[int, ...]] | None], ...] = (
    ("setpriority", 1, (0, (0, 1))),  # PRIO_PROCESS or PRIO_PGRP, of itself (PRIO_USER: every process)
    ("ioprio_set", 1, (0, (1, 2))),  # IOPRIO_WHO_PROCESS or _PGRP, of itself (_USER: every process)
    ("sched_setparam", 0, None),
    ("sched_setscheduler", 0, None),
    ("sched_setattr", 0, None),
    ("prlimit64", 0, None),
    ("getpgid", 0, None),  # another process's group or session: whose it is
    ("getsid", 0, None),
)

# Classic BPF, as seccomp reads it.
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data


def _arg(index: int, high: bool = False) -> int:
    """The offset of an argument's low (or high) 32 bits in struct seccomp_data (little-endian)."""
    return _ARG0 + 8 * index + (4 if high else 0)


def supported() -> bool:
    """True on the architectures whose system call numbers this filter knows."""
    return machine() == "x86_64"


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


@functools.cache
def program(unix_sockets: bool = True) -> bytes:
    """The filter, as classic BPF instructions. ``unix_sockets``: whether ``socketpair`` may make unix
    sockets (not where no memory group counts an agent's memory: their buffers are kernel memory
    that no figure of its processes shows)."""
    nr = _X86_64
    eperm = _ERRNO | errno.EPERM
    ops = [
        _op(_LD_W_ABS, _ARCH),
        _op(_JEQ_K, _AUDIT_ARCH_X86_64, 1, 0),
        _op(_RET_K, _KILL_PROCESS),
        _op(_LD_W_ABS, _NR),
        _op(_JGE_K, _X32_SYSCALL_BIT, 0, 1),
        _op(_RET_K, _KILL_PROCESS),
        # socketpair: unix sockets only
        _op(_JEQ_K, nr["socketpair"], 0, 4),
        _op(_LD_W_ABS, _ARG0),
        _op(_JEQ_K, 1, 0, 1),  # AF_UNIX
        _op(_RET_K, _ALLOW if unix_sockets else eperm),
        _op(_RET_K, eperm),
        # clone: threads and plain processes, no new namespaces
        _op(_JEQ_K, nr["clone"], 0, 4),
        _op(_LD_W_ABS, _ARG0),
        _op(_JSET_K, NAMESPACE_FLAGS & ~CLONE_THREAD, 0, 1),
        _op(_RET_K, eperm),
        _op(_RET_K, _ALLOW),
        _op(_JEQ_K, nr["clone3"], 0, 1),
        _op(_RET_K, _ERRNO | errno.ENOSYS),
        # mmap and madvise: never filling a mapping in the kernel
        _op(_JEQ_K, nr["mmap"], 0, 4),
        _op(_LD_W_ABS, _arg(3)),
        _op(_JSET_K, _POPULATING_FLAGS, 0, 1),
        _op(_RET_K, eperm),
        _op(_RET_K, _ALLOW),
        _op(_JEQ_K, nr["madvise"], 0, 5),
        _op(_LD_W_ABS, _arg(2)),
        _op(_JEQ_K, _POPULATING_ADVICE[0], 2, 0),
        _op(_JEQ_K, _POPULATING_ADVICE[1], 1, 0),
        _op(_RET_K, _ALLOW),
        _op(_RET_K, eperm),
    ]
    for name, target, kind in SELF_ONLY:
        ops += _self_only(nr[name], target, kind, eperm)
    for name, index, commands in REFUSED_COMMANDS:
        ops += _refused_commands(nr[name], index, commands, eperm)
    # One comparison per refused call, each jumping to the shared EPERM at the end: the kernel
    # compiles the filter for every agent process, so its length is start-up time.
    for i, name in enumerate(REFUSED):
        ops.append(_op(_JEQ_K, nr[name], len(REFUSED) - i, 0))
    ops.append(_op(_RET_K, _ALLOW))
    ops.append(_op(_RET_K, eperm))
    return b"".join(ops)


def _refused_commands(number: int, index: int, commands: tuple[int, ...], refuse: int) -> list[bytes]:
    """A block that refuses call ``number`` when its argument ``index`` (its low 32 bits: a command)
    is one of ``commands``, and allows it else. A call of another number jumps past the block."""
    body = [_op(_LD_W_ABS, _arg(index))]
    body += [_op(_JEQ_K, command, len(commands) - k, 0) for k, command in enumerate(commands)]
    body += [_op(_RET_K, _ALLOW), _op(_RET_K, refuse)]
    return [_op(_JEQ_K, number, 0, len(body)), *body]


_TO_REFUSAL = -1  # a jump target resolved to the block's refusal


def _self_only(number: int, target: int, kind: tuple[int, tuple[int, ...]] | None, refuse: int) -> list[bytes]:
    """A block that allows call ``number`` when its argument ``target`` is 0 (the caller itself) and,
    with ``kind`` = (index, values), its argument ``index`` is one of ``values``; refuses it else.
    A call of another number jumps past the block with the accumulator unchanged."""
    body: list[tuple[int, int, int, int]] = [  # (code, k, jump if true, jump if false)
        (_LD_W_ABS, _arg(target), 0, 0),
        (_JEQ_K, 0, 0, _TO_REFUSAL),
        (_LD_W_ABS, _arg(target, high=True), 0, 0),
        (_JEQ_K, 0, 0, _TO_REFUSAL),
    ]
    if kind is not None:
        index, values = kind
        body.append((_LD_W_ABS, _arg(index), 0, 0))
        for k, value in enumerate(values):
            last = k == len(values) - 1
            body.append((_JEQ_K, value, len(values) - 1 - k, _TO_REFUSAL if last else 0))
    body.append((_RET_K, _ALLOW, 0, 0))
    body.append((_RET_K, refuse, 0, 0))
    refusal = len(body) - 1
    ops = [_op(code, k, jt, refusal - i - 1 if jf == _TO_REFUSAL else jf) for i, (code, k, jt, jf) in enumerate(body)]
    return [_op(_JEQ_K, number, 0, len(ops)), *ops]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(unix_sockets: bool = True) -> None:
    """Set no_new_privs and install the filter on this process (inherited by its children); see
    :func:`program` for ``unix_sockets``."""
    code = program(unix_sockets)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog))
