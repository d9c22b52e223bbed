"""Confinement of an agent process, applied by the process to itself before any agent code runs.

In order:

1. **Clean slate**: every inherited file descriptor but the referee's pipe and stdio is closed; the
   environment is replaced by a minimal one (``PATH``, ``LANG``, ``HOME`` and ``TMPDIR`` = the
   private folder).
2. **Namespaces** (unprivileged user namespace with mount, IPC and UTS namespaces): ``/tmp``
   becomes a tmpfs of the agent's own, capped in size and in files, that disappears with its last
   process, and is its working directory, ``$HOME`` and ``$TMPDIR`` (an agent file that sat under
   /tmp is bound back at its path, read-only); an agent program's build folder becomes such a tmpfs
   too, during its build (what the build wrote is then copied into the real folder by the worker,
   regular files and folders only); every capability the namespace granted is then dropped.
   Without user namespaces, the private folder is one the referee made, removed after the match.
3. **Limits**: processes, open files, file size, no core dumps.
4. **Landlock**: read only what an agent needs to run (Python, its libraries, apdp, and *its own*
   file, or its own folder for a folder agent: never the folder of a one-file agent, where other
   agents, parameters, keys or results may sit), write only the private folder, no TCP, signals and
   abstract unix sockets scoped to the agent's own processes (so no ptrace, no ``/proc/<pid>/mem``
   or ``environ`` of another process).
5. **seccomp**: no sockets, no tracing, no namespaces or mounts, no scheduling or limits of other
   processes (see :mod:`apdp.sandbox.seccomp`).

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

from apdp.bundled import PACKAGE_DIR
from apdp.sandbox import cgroup, landlock, seccomp
from apdp.sandbox.environment import BASE_ENVIRONMENT
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
#: Past any descriptor a process may hold (os.closerange closes a range in one system call).
MAX_FD = 1 << 30


@dataclass(frozen=True, slots=True)
class Confinement:
    """What the referee asks of an agent process's confinement."""

    agent_path: str
    private_dir: str
    disk_bytes: int
    processes: int
    open_files: int
    file_bytes: int
    #: Files and folders its private folder (and a build's folder) may hold.
    disk_files: int = 4096
    #: An agent program's build folder, for its build: a fresh folder capped like the private one
    #: stands in its place, and what the build wrote there is copied into it afterwards.
    build_dir: str | None = None


#: The real build folder, opened before a fresh one was mounted in its place (see
#: :func:`build_output`); None outside a build.
_real_build_dir: list[int] = []


def build_output() -> tuple[str, int] | None:
    """In a build's process: (the folder the build writes, a descriptor of the real build folder
    to copy it into); None where the build writes the real folder itself (no user namespaces)."""
    return None if not _real_build_dir else (_build_path[0], _real_build_dir[0])


_build_path: list[str] = []


def readable_paths() -> list[str]:
    """What every agent may read: the interpreter, its libraries, apdp (its baselines too), system libraries."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.update(sysconfig.get_paths().values())
    with contextlib.suppress(AttributeError):
        paths.update(site.getsitepackages())
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site:
        paths.add(user_site)
    paths.add(str(PACKAGE_DIR))
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


def _unlisted_packages(readable: list[str]) -> list[str]:
    """apdp's folder when no readable folder covers its parent (an editable install: the clone,
    whose other folders, ``agents/`` first, no agent may list). A new interpreter in the sandbox
    (an agent program written in Python) finds it through a link in its private folder instead
    (:func:`_python_path`)."""
    packages = [os.path.realpath(PACKAGE_DIR)]
    return [p for p in packages
            if not any(os.path.dirname(p) == r or os.path.dirname(p).startswith(r.rstrip("/") + "/") for r in readable)]


_static_rules: list[landlock.Rule] = []
#: The packages an agent program's interpreter reaches through links (see :func:`_unlisted_packages`).
_linked_packages: list[str] = []
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
    _linked_packages[:] = _unlisted_packages(readable)
    wanted = [(p, landlock.READ) for p in readable]
    wanted += [(p, landlock.READ_FILE | landlock.WRITE_FILE) for p in DEVICES]
    for path, rights in wanted:
        rule = landlock.open_rule(path, rights)
        if rule is not None:
            _static_rules.append(rule)
    if seccomp.supported():  # both filters (with unix sockets, and without: no memory group), as
        for unix_sockets in (True, False):  # seccomp.install asks for them: its cache keys on that
            seccomp.program(unix_sockets)


def _python_path(private: str) -> None:
    """Links to apdp's packages in the private folder, on ``PYTHONPATH``: so a Python interpreter
    started in the sandbox finds them without listing the folder that holds them."""
    if not _linked_packages:
        return
    folder = os.path.join(private, ".apdp-python")
    with contextlib.suppress(OSError):
        os.mkdir(folder, 0o700)
        for package in _linked_packages:
            os.symlink(package, os.path.join(folder, os.path.basename(package)))
    os.environ["PYTHONPATH"] = folder


def _clean_slate(keep: set[int], private_dir: str) -> None:
    low = 3
    for fd in sorted(k for k in keep if k >= low):  # every other descriptor, a range at a time
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, MAX_FD)
    environment = {**BASE_ENVIRONMENT, "HOME": private_dir, "TMPDIR": private_dir, "PYTHONDONTWRITEBYTECODE": "1"}
    # What differs from the zygote's (already minimal) environment only: the same result as
    # clearing it and setting it anew, without unsetting and setting forty variables one by one.
    for name in [name for name in os.environ if name not in environment]:
        del os.environ[name]
    for name, value in environment.items():
        if os.environ.get(name) != value:
            os.environ[name] = value
    sys.dont_write_bytecode = True
    if "tempfile" in sys.modules:  # it reads TMPDIR once, on first use
        sys.modules["tempfile"].tempdir = None  # type: ignore[attr-defined]


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _namespaces(c: Confinement, agent_path: str) -> tuple[str, list[str]]:
    """A user namespace whose ``/tmp`` is a private tmpfs, capped in size: (the agent's private
    folder, what could not be done). Without user namespaces the private folder is the referee's
    ``c.private_dir``, uncapped."""
    uid, gid = os.geteuid(), os.getegid()
    agent_dir = own_folder(agent_path)
    try:
        unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS)
    except OSError:
        return c.private_dir, ["private folder size cap (no user namespaces)"]
    private = c.private_dir
    off: list[str] = []
    real_build = None
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        mount("none", "/", None, MS_REC | MS_PRIVATE, None)
        size = f"size={max(c.disk_bytes // 1024, 64)}k,nr_inodes={c.disk_files},mode=0700"
        if c.build_dir is not None:  # before /tmp is covered: the real folder may lie under it
            real_build = os.open(c.build_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        if agent_dir == "/tmp":  # the agent's own file must stay visible: keep the host's /tmp
            mount("apdp", private, "tmpfs", MS_NOSUID | MS_NODEV, size)
        else:
            private = _private_tmp(size, agent_path)
        if c.build_dir is not None and real_build is not None:
            mount("apdp-build", c.build_dir, "tmpfs", MS_NOSUID | MS_NODEV, size)
            _real_build_dir[:] = [real_build]
            _build_path[:] = [c.build_dir]
    except OSError:
        off.append("private folder size cap (the user namespace may not mount)")
        if real_build is not None and not _real_build_dir:
            os.close(real_build)
    drop_capabilities()
    return private, off


def _private_tmp(size: str, agent_path: str) -> str:
    """Mount a private tmpfs on /tmp, with the agent's own file or folder (if it was under /tmp) and
    the folders every agent may read that were under /tmp bound back into it, read-only, at the
    same paths."""
    kept: list[tuple[str, int]] = []  # (path, its file or folder), outer folders first
    try:
        shown = {p for p in _readable_under_tmp if os.path.isdir(p)}
        if agent_path.startswith("/tmp/"):
            shown.add(agent_path)
        kept += [(p, os.open(p, os.O_PATH)) for p in _outermost(shown)]  # inner ones come with them
        mount("apdp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, size)
        for path, fd in kept:
            if os.path.isdir(f"/proc/self/fd/{fd}"):
                os.makedirs(path, exist_ok=True)
            else:  # a one-file agent: its file alone, bound on an empty file in its place
                os.makedirs(os.path.dirname(path), exist_ok=True)
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o400))
            mount(f"/proc/self/fd/{fd}", path, None, MS_BIND, None)
            mount("none", path, None, MS_BIND | MS_REMOUNT | MS_RDONLY, None)
    finally:
        for _, fd in kept:
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
    """An agent's folder: an agent folder itself, or the folder that holds an agent file."""
    return agent_path if os.path.isdir(agent_path) else os.path.dirname(agent_path)


#: What an agent may read of its own process in /proc: the files runtimes read about themselves
#: (their limits, memory, stack, mounts and control groups, open files). Not the files whose reading
#: walks its memory page by page in the kernel, which a pause waits for (``pagemap``, ``smaps``,
#: ``smaps_rollup``, ``numa_maps``), nor its threads' folders (``task/``), which hold them again.
PROC_FILES = ("stat", "statm", "status", "maps", "cmdline", "comm", "environ", "auxv", "cgroup", "limits",
              "mountinfo", "mounts", "io")
#: Folders of its own process it may read whole: its open files' links and their details.
PROC_FOLDERS = ("fd", "fdinfo")


def _own_proc_rules() -> list[landlock.Rule]:
    """Rules for this process's own /proc files (see :data:`PROC_FILES`), each opened now and left
    open (``O_PATH``: nothing can be read through it): a rule names an inode, and procfs makes a new
    one for a file whose entry left the kernel's cache, after which the file would be unreadable."""
    proc = f"/proc/{os.getpid()}"
    rules = [landlock.Rule(proc, landlock.READ_DIR)]  # listed, but no file beneath read without a rule
    for name in (*PROC_FILES, *PROC_FOLDERS):
        rule = landlock.open_rule(f"{proc}/{name}", landlock.READ_FILE | landlock.READ_DIR)
        if rule is not None:
            rules.append(rule)
    return rules


def _rules(agent_path: str, private_dir: str, abi: int, build_dir: str | None) -> list[landlock.Rule]:
    prepare()
    rules = [
        *_static_rules,
        # its own file (never the folder beside it), or its own folder for a folder agent
        landlock.Rule(agent_path, landlock.READ),
        *_own_proc_rules(),
        landlock.Rule(private_dir, landlock.all_rights(abi)),
    ]
    if build_dir is not None:
        rules.append(landlock.Rule(build_dir, landlock.all_rights(abi)))
        if _real_build_dir:
            rules.append(landlock.Rule(build_dir, landlock.all_rights(abi), _real_build_dir[0]))
    return rules


def confine(keep_fd: int, c: Confinement) -> list[str]:
    """Confine this process for good; returns the protections that are off on this machine."""
    agent_path = os.path.realpath(c.agent_path)
    _clean_slate({keep_fd, *(r.fd for r in _static_rules if r.fd is not None)}, c.private_dir)
    off: list[str] = []
    if sys.platform != "linux":
        os.chdir(c.private_dir)
        return ["every kernel protection (not Linux)"]
    # The kernel exempts root from RLIMIT_NPROC (the user namespace maps root to itself).
    in_pids, in_memory, in_cpu = cgroup.join(cgroup.assigned)
    if os.getuid() == 0 and not in_pids:
        off.append("process count limit (root is exempt from RLIMIT_NPROC and no pids cgroup is writable)")
    if cgroup.assigned is not None and cgroup.assigned.memory is not None and not in_memory:
        raise OSError("the agent's process could not join its memory group")
    if cgroup.assigned is not None and cgroup.assigned.cpu is not None and not in_cpu:  # the referee reads it
        raise OSError("the agent's process could not join the group that counts its CPU")
    private, ns_off = _namespaces(c, agent_path)
    off += ns_off
    os.environ["HOME"] = os.environ["TMPDIR"] = private
    os.chdir(private)
    _python_path(private)
    off += _limits(c)
    abi = landlock.abi_version()
    if abi == 0:
        off.append("file, network and signal rules (Landlock missing)")
    else:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        done = landlock.restrict_self(_rules(agent_path, private, abi, c.build_dir), abi)
        for rule in _static_rules:  # its own /proc files' stay open: see _own_proc_rules
            if rule.fd is not None:
                os.close(rule.fd)
        if not done.network:
            off.append("TCP rules (Landlock ABI < 4)")
        if not done.signals:
            off.append("signal and abstract socket scoping (Landlock ABI < 6)")
    if seccomp.supported():
        seccomp.install(unix_sockets=in_memory)
    else:
        off.append("system call filter (no seccomp table for this machine's architecture)")
    return off
