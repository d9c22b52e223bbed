"""A Java agent's class data archive: the classes of apdp's host, the Logist API and the JDK that
every agent loads, parsed and verified once, so that the agent's JVM maps them instead of loading
them at each start (HotSpot's dynamic AppCDS archive, ``-XX:SharedArchiveFile``).

JDK 17 ties an archive to the absolute paths of the class path it was made with, so the archive
is made per agent folder, for its own copy of the host: ``.build/apdp-logist-host.jsa``, beside a
key file that says what it was made from (the host jar's digest, the JVM and its options, the
folder's path) and the archive's own digest. The archive is made, outside the sandbox, only by
running apdp's own code: the JDK apdp uses (:func:`apdp.agents.java.jdk.find_jdk`), with apdp's own
JVM options (:mod:`apdp.agents.java.jvm`), runs the host jar alone, the one apdp compiled, playing
:file:`Rehearsal.java` through a short match; none of the agent's classes is on its class path, and
nothing of its agent.toml is run: an agent whose command names another JVM, other options or a
host jar that differs from apdp's gets no archive.

Whether an agent is one apdp installed is decided first, from the strings of its command alone
(:func:`_launch`): before that, nothing of its folder is read or stat'ed. The host jar is then read
without following any link of the agent's folder, a build folder that is a link is left alone, and
the key holds nothing of a file outside the agent's folder but apdp's own JDK: an agent's folder
cannot make the referee, which runs outside the sandbox, look at a file of the host for it.

Before each match the referee checks the key (:func:`ensure_archive`): an archive that is missing,
damaged or made from another host jar, JVM or folder is made again (once: a failure is
remembered with its key); where it cannot be made, it is removed and the agent's JVM starts
without it (an archive it cannot use costs it nothing but time). The agent reads the archive and
cannot write it (it is in its own folder, which the sandbox lets it read only), and no agent's
archive is another's. ``APDP_JAVA_ARCHIVE=0`` turns archives off: none is made, and an existing
one is removed before the match.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path

from apdp.agents.identity import apdp_version
from apdp.agents.java.host import HOST_JAR, MAIN_CLASS, cache_root, sources_digest
from apdp.agents.java.jdk import find_jdk
from apdp.agents.java.jvm import OPTIONS
from apdp.agents.program import BUILD_DIR, AgentProgram, BuildLock, read_regular
from apdp.errors import UserError

#: The archive's file name, in the agent's build folder.
ARCHIVE_FILE = "apdp-logist-host.jsa"
#: What it was made from, and its digest (JSON), beside it.
KEY_FILE = ARCHIVE_FILE + ".key"
#: The JVM option that names the archive in an agent's command.
OPTION = "-XX:SharedArchiveFile="
#: The environment variable that turns archives off (``0``).
SWITCH = "APDP_JAVA_ARCHIVE"
#: The class the host plays while the archive is made.
REHEARSAL_CLASS = "apdp.host.Rehearsal"
#: The longest the making of an archive may take, in seconds.
DUMP_TIMEOUT = 120.0
#: The tasks auctioned in the rehearsal.
REHEARSAL_TASKS = 30


def archive_path(folder: Path) -> Path:
    """Where the archive of the agent in ``folder`` is."""
    return folder / BUILD_DIR / ARCHIVE_FILE


def archive_option(folder: str = "{dir}") -> str:
    """The JVM option that makes an agent's JVM use its archive (``{dir}`` as in agent.toml)."""
    return f"{OPTION}{folder}/{BUILD_DIR}/{ARCHIVE_FILE}"


def enabled() -> bool:
    """False when ``APDP_JAVA_ARCHIVE=0`` turns archives off."""
    return os.environ.get(SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


def _digest(path: Path) -> str:
    """The SHA-256 of a regular file, read without following a link or waiting on a FIFO (OSError
    for anything else)."""
    return _read_digest(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC), path)[0]


#: The digests this process read, by the status of the file read (see :func:`_read_digest`).
_DIGESTS: dict[tuple[int, int, int, int, int], str] = {}
#: The most digests kept (then they are forgotten, all at once).
_MOST_DIGESTS = 4096


def _read_digest(fd: int, path: Path) -> tuple[str, os.stat_result]:
    """The SHA-256 and the status of the regular file open on ``fd`` (which it closes; OSError for
    anything but a regular file).

    A file read before in this process, whose status (device, inode, size, modification and change
    times) is the same, is not read again: a tournament checks the same host jar and archive
    before each of its matches. Any write to the file, or a file put in its place, changes its
    change time, which no one but the system's clock sets."""
    with os.fdopen(fd, "rb", buffering=0) as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        known = _DIGESTS.get(seen)
        if known is not None:
            return known, st
        h = hashlib.sha256()
        while chunk := f.read(1 << 20):
            h.update(chunk)
    if len(_DIGESTS) >= _MOST_DIGESTS:
        _DIGESTS.clear()
    _DIGESTS[seen] = digest = h.hexdigest()
    return digest, st


def _trusted_host_digests() -> set[str]:
    """The digests of the host jars apdp compiled from its current sources (any JDK)."""
    found = set()
    for jar in cache_root().glob(f"{sources_digest()[:20]}-jdk*/{HOST_JAR}"):
        try:
            found.add(_digest(jar))
        except OSError:
            continue
    return found


class _Launch:
    """The JVM of an agent that apdp installed, as its command names it: apdp's own JDK, apdp's
    options, then the archive's option, then ``-cp`` with the agent folder's own copy of the host
    jar first. Only the strings of the command are compared with apdp's own values; nothing of the
    agent's folder is read here."""

    def __init__(self, program: AgentProgram, java: str) -> None:
        self.java = java
        self.options = list(OPTIONS)
        #: The agent's folder, whole (the archive is made from another working folder); the JVM
        #: knows a jar by its file, whatever path names it. The folder is the one apdp was given:
        #: no link within it is followed.
        self.folder = Path(os.path.realpath(program.folder))
        self.host = self.folder / "lib" / HOST_JAR


def _asks(program: AgentProgram) -> bool:
    """Whether an agent's command names its archive (it looks like a Java agent apdp installed)."""
    return OPTION + str(archive_path(program.folder)) in program.command and "-cp" in program.command


def _launch(program: AgentProgram) -> _Launch | str:
    """The launch of an agent that asks for an archive, when its command is exactly the one apdp
    writes at install (:func:`apdp.agents.java.install.agent_toml`) as to what runs outside the
    sandbox: the java of the JDK apdp uses, apdp's options then the archive's, ``-cp`` then the
    folder's ``lib/apdp-logist-host.jar`` first on the class path; otherwise why not (one line).
    Only strings are compared: nothing is read, followed or stat'ed."""
    try:
        java = str(find_jdk().java)
    except UserError as exc:
        return f"no class data archive: {exc}"
    command = list(program.command)
    if command.count(java) != 1:
        return f"no class data archive: the agent's JVM is not the JDK apdp uses ({java}; reinstall it)"
    at, cp = command.index(java), command.index("-cp")
    option = OPTION + str(archive_path(program.folder))
    if cp < at or command[at + 1:cp] != [*OPTIONS, option]:
        return "no class data archive: the agent's JVM options are not apdp's (reinstall it)"
    host = str(program.folder / "lib" / HOST_JAR)
    if cp + 1 >= len(command) or command[cp + 1].split(os.pathsep)[0] != host:
        return "no class data archive: the agent's class path does not start with its own copy of apdp's host " \
               "jar (reinstall it)"
    return _Launch(program, java)


def _open_dir(folder: Path, name: str) -> int:
    """A descriptor of the folder ``name`` in the agent's ``folder``, opened without following a link
    (OSError for a link, or anything but a folder)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
    finally:
        os.close(fd)


def _build_folder(folder: Path) -> bool:
    """Whether the agent's build folder is a folder, not a link, if there is one (True when there is
    none: apdp makes it)."""
    try:
        mode = os.lstat(folder / BUILD_DIR).st_mode
    except FileNotFoundError:
        return True
    return stat.S_ISDIR(mode)


def _host_file(folder: Path) -> tuple[str, int, int]:
    """The digest, size and modification time of the agent folder's own ``lib/apdp-logist-host.jar``,
    a regular file read without following any link of the folder (OSError otherwise)."""
    where = folder / "lib" / HOST_JAR
    try:
        lib = _open_dir(folder, "lib")
        try:
            fd = os.open(HOST_JAR, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=lib)
        finally:
            os.close(lib)
    except OSError as exc:
        raise OSError(f"{where} is not a regular file of the agent's folder ({exc.strerror or exc})") from None
    digest, st = _read_digest(fd, where)
    return digest, st.st_size, st.st_mtime_ns


def _key(launch: _Launch, folder: Path) -> dict[str, object]:
    """What an archive is made from: a change to any of it makes a new one. Of what lies outside the
    agent's folder, only apdp's own JDK."""
    java = os.path.realpath(launch.java)
    jvm = Path(java).parent.parent / "lib" / "server" / "libjvm.so"
    st = os.stat(jvm) if jvm.exists() else os.stat(java)
    digest, size, mtime = _host_file(launch.folder)  # the JVM checks the jar's size and time as well as its path
    return {
        "apdp": apdp_version(), "java": java, "jvm": [st.st_size, st.st_mtime_ns], "options": launch.options,
        "folder": os.path.realpath(folder), "host": digest, "host_file": [size, mtime],
    }


def _read_key(path: Path) -> dict[str, object] | None:
    try:
        value = json.loads(read_regular(path, 64 * 1024))
    except (OSError, ValueError, RecursionError):  # the agent's build may have written anything there
        return None
    return value if isinstance(value, dict) else None


def _usable(archive: Path, recorded: dict[str, object] | None, key: dict[str, object]) -> bool:
    if recorded is None or recorded.get("made_from") != key or not recorded.get("archive"):
        return False
    try:
        return _digest(archive) == recorded["archive"]
    except OSError:
        return False


def _remove(*paths: Path) -> None:
    """Remove these files; what is not a file (a folder put there) is left, and the JVM passes it over."""
    for path in paths:
        with contextlib.suppress(FileNotFoundError, IsADirectoryError, PermissionError):
            path.unlink()


def _remove_archive(folder: Path) -> None:
    """Remove the archive and its key from the agent's build folder, if it is a folder and not a
    link (unlink follows no link of its own); nothing else is touched."""
    try:
        build = _open_dir(folder, BUILD_DIR)
    except OSError:
        return
    try:
        for name in (ARCHIVE_FILE, KEY_FILE):
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=build)
    finally:
        os.close(build)


def ensure_archive(program: AgentProgram) -> str | None:
    """Make sure a Java agent's archive is usable, or absent: made now if missing, damaged or made
    from something else (and apdp may make it), removed where it cannot be made. Returns why there
    is none (one line), or None when it is there or the agent asks for none (any agent that is not
    a Logist agent installed by this apdp). Never raises: without an archive the agent still plays."""
    try:
        return _ensure(program)
    except OSError as exc:
        return f"no class data archive: {exc.strerror or exc}"
    except Exception as exc:  # never the match's end: the agent plays without an archive
        return f"no class data archive: {type(exc).__name__}: {exc}"


def _ensure(program: AgentProgram) -> str | None:
    if not _asks(program):
        return None
    folder = Path(os.path.realpath(program.folder))
    if not enabled():
        _remove_archive(folder)
        return f"class data archives are off ({SWITCH}=0)"
    launch = _launch(program)  # from its command's strings alone
    if isinstance(launch, str):  # not an agent apdp installed: no archive, and nothing of it is read
        _remove_archive(folder)
        return launch
    if not _build_folder(folder):  # a link: nothing of apdp's is read or written through it
        return f"no class data archive: {BUILD_DIR} in the agent's folder is not a folder"
    archive, key_file = archive_path(launch.folder), launch.folder / BUILD_DIR / KEY_FILE
    try:
        key = _key(launch, launch.folder)
    except OSError as exc:
        _remove_archive(folder)
        return f"no class data archive: {exc.strerror or exc}"
    recorded = _read_key(key_file)
    if _usable(archive, recorded, key):
        return None
    with BuildLock(program):
        recorded = _read_key(key_file)
        if _usable(archive, recorded, key):
            return None
        _remove(archive)
        if recorded is not None and recorded.get("made_from") == key and recorded.get("failed"):
            return str(recorded["failed"])  # made from the same things before, and failed: not again
        why = _make(launch, launch.folder, archive, key)
        record: dict[str, object] = {"made_from": key}
        record.update({"failed": why} if why else {"archive": _digest(archive)})
        _write_key(key_file, record)
        return why


def _write_key(path: Path, record: dict[str, object]) -> None:
    from apdp.files import write_atomically

    _remove(path)
    write_atomically(path, json.dumps(record, sort_keys=True) + "\n")


def _make(launch: _Launch, folder: Path, archive: Path, key: dict[str, object]) -> str | None:
    """Make the archive by playing the rehearsal with the host jar alone; why not, or None. Only
    apdp's own JDK, options and host jar are run here, outside the sandbox."""
    if key["host"] not in _trusted_host_digests():
        return "no class data archive: the agent's host jar is not the one this apdp compiled (reinstall it)"
    java = launch.java  # apdp's own (_launch)
    partial = archive.with_name(f".{ARCHIVE_FILE}.{os.getpid()}.tmp")
    _remove(partial)
    command = [str(java), *OPTIONS, f"-XX:ArchiveClassesAtExit={partial}", "-cp", str(launch.host),
               MAIN_CLASS, REHEARSAL_CLASS, "rehearsal"]
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "APDP_READY_LINE": "1"}
    try:
        with tempfile.TemporaryDirectory(prefix="apdp-archive-") as work:
            done = subprocess.run(command, input=rehearsal_requests(), capture_output=True, cwd=work,
                                  env={**environment, "HOME": work, "TMPDIR": work}, timeout=DUMP_TIMEOUT,
                                  check=False)
        made = os.lstat(partial) if os.path.lexists(partial) else None
        if done.returncode != 0 or made is None or not stat.S_ISREG(made.st_mode) or made.st_size == 0:
            last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1][:200]
            return f"no class data archive: the JVM could not make it (exit code {done.returncode}: {last})"
        os.replace(partial, archive)
    except subprocess.TimeoutExpired:
        return f"no class data archive: making it took more than {DUMP_TIMEOUT:g} s"
    except OSError as exc:
        return f"no class data archive: {exc.strerror or exc}"
    finally:
        _remove(partial)
    return None


def rehearsal_requests() -> bytes:
    """The requests of the rehearsal match (apdp-agent/1 lines): a setup on the France network,
    auctions of a few tasks that company 0 wins when its first vehicle can carry them, its plan."""
    import numpy as np

    from apdp.messages.calls import AuctionResultCall, BidCall, Call, PlanCall, SetupCall
    from apdp.scenario import load_scenario

    scenario = load_scenario(None, {"topology": "france", "tasks": REHEARSAL_TASKS})
    topology = scenario.load_topology()
    companies = scenario.build_companies(topology, 2)
    distribution = scenario.distribution_for(topology)
    tasks = scenario.draw_tasks(topology, distribution, np.random.default_rng(0))
    timeouts = scenario.timeouts.model_dump()
    capacity = companies[0].vehicles[0].capacity
    calls: list[Call] = [SetupCall(0, 2, 1, {}, timeouts, topology, distribution, companies[0])]
    won = []
    for task in tasks:
        winner = 0 if task.weight <= capacity else 1
        calls += [BidCall(task, timeouts["bid"]), AuctionResultCall(task, winner, (1000.0, 1200.0), timeouts["bid"])]
        if winner == 0:
            won.append(task)
    calls.append(PlanCall(companies[0].vehicles, tuple(won), timeouts["plan"]))
    return "".join(json.dumps(c.to_json(), separators=(",", ":")) + "\n" for c in calls).encode()
