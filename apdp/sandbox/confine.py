"""Confinement of an agent process, applied by the process to itself before any agent code runs.

In order:

1. **Clean slate**: every inherited file descriptor but the referee's pipe and stdio is closed; the
   environment is replaced by a minimal one (``PATH``, ``LANG``, ``HOME`` and ``TMPDIR`` = the
   private folder).
2. **Namespaces** (unprivileged user namespace with mount, IPC and UTS namespaces): ``/tmp``
   becomes a tmpfs of the agent's own, capped in size, that disappears with its last process, and
   is its working directory, ``$HOME`` and ``$TMPDIR`` (an agent file that sat under /tmp is bound
   back at its path, read-only); every capability the namespace granted is then dropped. Without
   user namespaces, the private folder is one the referee made, removed after the match.
3. **Limits**: processes, open files, file size, no core dumps.
4. **Landlock**: read only what an agent needs to run, write only the private folder, no TCP,
   signals and abstract unix sockets scoped to the agent's own processes (so no ptrace, no
   ``/proc/<pid>/mem`` or ``environ`` of another process).
5. **seccomp**: no sockets, no tracing, no namespaces or mounts (see :mod:`apdp.sandbox.seccomp`).

Each step that the machine cannot do is skipped and named in the returned list, so the referee can
say once which protections are off; :func:`apdp.sandbox.protections.check` tries each one.
"""

from __future__ import annotations

import contextlib
import glob
import os
import resource
import site
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from apdp.sandbox import cgroup, landlock, seccomp
from apdp.sandbox.syscalls import (
    CLONE_NEWIPC,
    CLONE_NEWNS,
    CLONE_NEWUSER,
    CLONE_NEWUTS,
    MS_BIND,
    MS_NODEV,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    PR_SET_NO_NEW_PRIVS,
    drop_capabilities,
    mount,
    prctl,
    unshare,
)

#: Debian's and Ubuntu's JDKs keep their configuration in /etc/java-N-openjdk (linked from the
#: JDK's lib/jvm.cfg and conf/): without it the JVM of a Java agent cannot start its security
#: classes (MessageDigest, SecureRandom) and reads its defaults from nowhere.
JDK_CONFIG = tuple(sorted(glob.glob("/etc/java-*-openjdk")))
#: System folders an agent may read and run programs from.
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt", "/sys/devices/system/cpu",
                   *JDK_CONFIG)
#: Single system files an agent may read.
SYSTEM_FILES = (
    "/etc/ld.so.cache", "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
    "/etc/os-release", "/etc/mime.types", "/dev/random", "/dev/urandom",
)
#: Devices an agent may read and write.
DEVICES = ("/dev/null", "/dev/zero", "/dev/full")


#: The environment every agent process starts from (the zygote's, then the agent's own folders).
BASE_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
#: Every variable an agent process may see: the base, its folders, and where apdp may come from.
AGENT_VARIABLES = frozenset({*BASE_ENVIRONMENT, "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "PYTHONPATH"})


@dataclass(frozen=True, slots=True)
class Confinement:
    """What the referee asks of an agent process's confinement."""

    agent_path: str
    private_dir: str
    disk_bytes: int
    processes: int
    open_files: int
    file_bytes: int
    #: Folders it may also write (an agent program's build folder, for its build).
    writable: tuple[str, ...] = ()


def readable_paths() -> list[str]:
    """What every agent may read: the interpreter, its libraries, apdp, baselines, system libraries."""
    import apdp
    import baselines

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.update(sysconfig.get_paths().values())
    with contextlib.suppress(AttributeError):
        paths.update(site.getsitepackages())
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site:
        paths.add(user_site)
    paths.update(str(Path(p.__file__).parent) for p in (apdp, baselines) if p.__file__)
    paths.update(SYSTEM_READABLE)
    paths.update(SYSTEM_FILES)
    paths.add(os.path.realpath(sys.executable))
    return _outermost(os.path.realpath(p) for p in paths if p and os.path.exists(p))


def _outermost(paths: Iterable[str]) -> list[str]:
    """The paths that no other path of the set contains (a rule on a folder covers what is in it)."""
    out: list[str] = []
    for path in sorted(set(paths)):
        if not out or not path.startswith(out[-1].rstrip("/") + "/"):
            out.append(path)
    return out


def _package_parents(readable: list[str]) -> list[str]:
    """The folders holding apdp and baselines where no readable folder covers them (an editable
    install: the clone). A new interpreter in the sandbox (an agent program written in Python)
    finds a package by listing its parent, so it may list them, names only: it still reads no file
    there but the packages'."""
    import apdp
    import baselines

    parents = {os.path.dirname(os.path.dirname(os.path.realpath(p.__file__))) for p in (apdp, baselines) if p.__file__}
    return sorted(p for p in parents if not any(p == r or p.startswith(r.rstrip("/") + "/") for r in readable))


_static_rules: list[landlock.Rule] = []
#: The folders of :func:`readable_paths` that lie under /tmp (a virtualenv there, or apdp itself as a
#: Ray cluster ships it, in /tmp/ray): the agent's private /tmp hides them, so they are bound back
#: into it, read-only (:func:`_private_tmp`); what an agent may read stays what Landlock allows.
_readable_under_tmp: list[str] = []


def prepare() -> None:
    """Open the rules every agent shares, once, in the zygote (so each agent process starts fast)."""
    if _static_rules or sys.platform != "linux":
        return
    readable = readable_paths()
    _readable_under_tmp[:] = [p for p in readable if p.startswith("/tmp/")]
    wanted = [(p, landlock.READ) for p in readable]
    wanted += [(p, landlock.READ_DIR) for p in _package_parents(readable)]
    wanted += [(p, landlock.READ_FILE | landlock.WRITE_FILE) for p in DEVICES]
    for path, rights in wanted:
        rule = landlock.open_rule(path, rights)
        if rule is not None:
            _static_rules.append(rule)
    if seccomp.supported():
        seccomp.program()


def _clean_slate(keep: set[int], private_dir: str) -> None:
    for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
        fd = int(name)
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)
    os.environ.clear()
    os.environ.update({
        **BASE_ENVIRONMENT,
        "HOME": private_dir,
        "TMPDIR": private_dir,
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    sys.dont_write_bytecode = True
    if "tempfile" in sys.modules:  # it reads TMPDIR once, on first use
        sys.modules["tempfile"].tempdir = None  # type: ignore[attr-defined]


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _namespaces(c: Confinement, agent_dir: str) -> tuple[str, list[str]]:
    """A user namespace whose ``/tmp`` is a private tmpfs, capped in size: (the agent's private
    folder, what could not be done). Without user namespaces the private folder is the referee's
    ``c.private_dir``, uncapped."""
    uid, gid = os.geteuid(), os.getegid()
    try:
        unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS)
    except OSError:
        return c.private_dir, ["private folder size cap (no user namespaces)"]
    private = c.private_dir
    off: list[str] = []
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        mount("none", "/", None, MS_REC | MS_PRIVATE, None)
        size = f"size={max(c.disk_bytes // 1024, 64)}k,mode=0700"
        if agent_dir == "/tmp":  # the agent's own folder must stay visible: keep the host's /tmp
            mount("apdp", private, "tmpfs", MS_NOSUID | MS_NODEV, size)
        else:
            private = _private_tmp(size, agent_dir, c.writable)
    except OSError:
        off.append("private folder size cap (the user namespace may not mount)")
    drop_capabilities()
    return private, off


def _private_tmp(size: str, agent_dir: str, writable: tuple[str, ...]) -> str:
    """Mount a private tmpfs on /tmp, with the agent's own folder (if it was under /tmp) and the
    folders every agent may read that were under /tmp bound back into it, read-only, at the same
    paths (and the agent's ``writable`` folders in its own folder, writable)."""
    kept: list[tuple[str, int, bool]] = []  # (path, its folder, read-only), outer folders first
    try:
        shown = {p for p in _readable_under_tmp if os.path.isdir(p)}
        if agent_dir.startswith("/tmp/"):
            shown.add(agent_dir)
        kept += [(p, os.open(p, os.O_PATH), True) for p in sorted(shown, key=len)]
        if agent_dir.startswith("/tmp/"):
            kept += [(w, os.open(w, os.O_PATH), False) for w in writable if w.startswith(agent_dir + "/")]
        mount("apdp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, size)
        for path, fd, read_only in kept:
            if read_only:
                os.makedirs(path, exist_ok=True)
            mount(f"/proc/self/fd/{fd}", path, None, MS_BIND, None)
            if read_only:
                mount("none", path, None, MS_BIND | MS_REMOUNT | MS_RDONLY, None)
    finally:
        for _, fd, _ in kept:
            os.close(fd)
    return "/tmp"


def _limits(c: Confinement) -> list[str]:
    off: list[str] = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (c.open_files, c.open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (c.file_bytes, c.file_bytes))
    resource.setrlimit(resource.RLIMIT_NPROC, (c.processes, c.processes))
    return off


def own_folder(agent_path: str) -> str:
    """The folder an agent may read: an agent program's folder, or the folder of an agent file."""
    return agent_path if os.path.isdir(agent_path) else os.path.dirname(agent_path)


def _rules(agent_path: str, private_dir: str, abi: int) -> list[landlock.Rule]:
    prepare()
    return [
        *_static_rules,
        # its own file and folder (agents import modules that sit beside them)
        landlock.Rule(own_folder(agent_path), landlock.READ),
        landlock.Rule(f"/proc/{os.getpid()}", landlock.READ_FILE | landlock.READ_DIR),
        landlock.Rule(private_dir, landlock.all_rights(abi)),
    ]


def confine(keep_fd: int, c: Confinement) -> list[str]:
    """Confine this process for good; returns the protections that are off on this machine."""
    agent_path = os.path.realpath(c.agent_path)
    _clean_slate({keep_fd, *(r.fd for r in _static_rules if r.fd is not None)}, c.private_dir)
    off: list[str] = []
    if sys.platform != "linux":
        os.chdir(c.private_dir)
        return ["every kernel protection (not Linux)"]
    # The kernel exempts root from RLIMIT_NPROC (the user namespace maps root to itself).
    if os.getuid() == 0 and not cgroup.join(cgroup.assigned):
        off.append("process count limit (root is exempt from RLIMIT_NPROC and no pids cgroup is writable)")
    private, ns_off = _namespaces(c, own_folder(agent_path))
    off += ns_off
    os.environ["HOME"] = os.environ["TMPDIR"] = private
    os.chdir(private)
    off += _limits(c)
    abi = landlock.abi_version()
    if abi == 0:
        off.append("file, network and signal rules (Landlock missing)")
    else:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        rules = _rules(agent_path, private, abi)
        rules += [landlock.Rule(w, landlock.all_rights(abi)) for w in c.writable]
        done = landlock.restrict_self(rules, abi)
        for rule in _static_rules:
            if rule.fd is not None:
                os.close(rule.fd)
        if not done.network:
            off.append("TCP rules (Landlock ABI < 4)")
        if not done.signals:
            off.append("signal and abstract socket scoping (Landlock ABI < 6)")
    if seccomp.supported():
        seccomp.install()
    else:
        off.append(f"system call filter (no seccomp table for {sys.platform}/{os.uname().machine})")
    return off
