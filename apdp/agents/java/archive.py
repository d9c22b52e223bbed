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
from apdp.agents.program import BUILD_DIR, AgentProgram, BuildLock
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
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb", buffering=0) as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        h = hashlib.sha256()
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


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
    """What an agent's command says of its JVM: the launcher, its options, its class path."""

    def __init__(self, program: AgentProgram) -> None:
        command = list(program.command)
        self.ok = OPTION + str(archive_path(program.folder)) in command and "-cp" in command
        cp = command.index("-cp") if self.ok else 0
        java = [a for a in command[:cp] if os.path.basename(a) == "java"]
        self.ok = self.ok and len(java) == 1
        self.java = java[0] if self.ok else ""
        self.options = [a for a in command[command.index(self.java) + 1:cp] if not a.startswith(OPTION)] \
            if self.ok else []
        #: The agent's folder, whole (the archive is made from another working folder); the JVM
        #: knows a jar by its file, whatever path names it.
        self.folder = Path(os.path.realpath(program.folder))
        self.host = self.folder / "lib" / HOST_JAR


def _key(launch: _Launch, folder: Path) -> dict[str, object]:
    """What an archive is made from: a change to any of it makes a new one."""
    java = os.path.realpath(launch.java)
    jvm = Path(java).parent.parent / "lib" / "server" / "libjvm.so"
    st = os.stat(jvm) if jvm.exists() else os.stat(java)
    host = os.stat(launch.host)  # the JVM checks the jar's size and time as well as its path
    return {
        "apdp": apdp_version(), "java": java, "jvm": [st.st_size, st.st_mtime_ns], "options": launch.options,
        "folder": os.path.realpath(folder), "host": _digest(launch.host), "host_file": [host.st_size, host.st_mtime_ns],
    }


def _read_key(path: Path) -> dict[str, object] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            value = json.loads(f.read(64 * 1024))
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
    launch = _Launch(program)
    if not launch.ok:
        return None
    archive, key_file = archive_path(launch.folder), launch.folder / BUILD_DIR / KEY_FILE
    if not enabled():
        if archive.exists() or key_file.exists():
            with BuildLock(program):
                _remove(archive, key_file)
        return f"class data archives are off ({SWITCH}=0)"
    try:
        key = _key(launch, launch.folder)
    except OSError as exc:
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
    if launch.options != list(OPTIONS):
        return "no class data archive: the agent's JVM options are not apdp's (reinstall it)"
    try:
        java = find_jdk().java
    except UserError as exc:
        return f"no class data archive: {exc}"
    if os.path.realpath(java) != key["java"]:
        return f"no class data archive: the agent's JVM is not the JDK apdp uses ({java}; reinstall it)"
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
        if done.returncode != 0 or not partial.is_file() or partial.stat().st_size == 0:
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
