"""Agent programs: an agent folder with an ``agent.toml`` that names the command to run it (any
language, speaking the ``apdp-agent/1`` protocol) and, optionally, a build command, and whether the
program says when it has started (``ready = true``: its start, up to :data:`START_TIMEOUT`, is not
counted in its setup; docs/protocol.md).

The build runs in the sandbox like the agent (it may write only ``{dir}/.build``), once, and again
whenever a file of the folder changes; the referee keeps the sources' signature in
``.build/.apdp-sources`` and builds under a lock, so parallel matches build an agent once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path

#: The file that makes a folder an agent program.
PROGRAM_FILE = "agent.toml"
#: The largest agent.toml read.
PROGRAM_FILE_BYTES = 64 * 1024
#: The longest a program that announces its start (``ready = true``) may take to start, in seconds;
#: that time is not counted in its setup (docs/protocol.md).
START_TIMEOUT = 10.0
#: Where a build writes (the only place it may).
BUILD_DIR = ".build"
_SIGNATURE_FILE = ".apdp-sources"
_FAILED_FILE = ".apdp-failed"
#: apdp's own files in the build folder, which a build never writes or removes.
BUILD_BOOKKEEPING = frozenset({".lock", _SIGNATURE_FILE, _FAILED_FILE})


class ProgramError(Exception):
    """An agent.toml that cannot be used (the agent's fault)."""


@dataclass(frozen=True, slots=True)
class AgentProgram:
    """How to build and run one agent program."""

    folder: Path
    command: tuple[str, ...]
    build: tuple[str, ...] | None
    build_timeout: float
    #: The program writes a ready line once it runs, before its first request (``ready = true``).
    ready: bool = False

    @property
    def build_dir(self) -> Path:
        """The one folder a build may write."""
        return self.folder / BUILD_DIR


def is_program(path: Path) -> bool:
    """True for an agent folder with an agent.toml."""
    return path.is_dir() and (path / PROGRAM_FILE).is_file()


def _argv(value: object, key: str, folder: Path) -> tuple[str, ...]:
    if not (isinstance(value, list) and value and all(isinstance(a, str) for a in value)):
        raise ProgramError(f"{folder / PROGRAM_FILE}: {key} must be a list of strings, e.g. {key} = [\"./agent\"]")
    return tuple(a.replace("{dir}", str(folder)) for a in value)


def read_program(folder: Path) -> AgentProgram:
    """Read ``folder/agent.toml``; ProgramError says what is wrong."""
    path = folder / PROGRAM_FILE
    try:
        raw = read_regular(path, PROGRAM_FILE_BYTES)
    except OSError as exc:
        raise ProgramError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > PROGRAM_FILE_BYTES:
        raise ProgramError(f"{path}: larger than {PROGRAM_FILE_BYTES // 1024} KiB; an agent.toml names a command")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProgramError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ProgramError(f"{path}: not valid TOML (nested too deeply)") from None
    unknown = set(data) - {"command", "build", "build_timeout", "ready"}
    if unknown:
        raise ProgramError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; use command, build, build_timeout, "
                           "ready")
    if "command" not in data:
        raise ProgramError(f'{path}: no command; add e.g. command = ["python3", "{{dir}}/agent.py"]')
    timeout = data.get("build_timeout", 300)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ProgramError(f"{path}: build_timeout must be a positive number of seconds")
    build = _argv(data["build"], "build", folder) if "build" in data else None
    ready = data.get("ready", False)
    if not isinstance(ready, bool):
        raise ProgramError(f"{path}: ready must be true or false")
    return AgentProgram(folder, _argv(data["command"], "command", folder), build, float(timeout), ready)


def source_files(folder: Path) -> list[Path]:
    """The program's files (its build output and bytecode caches aside), sorted; regular files only
    (:func:`apdp.agents.files.agent_files`)."""
    from apdp.agents.files import agent_files

    return [f.path for f in agent_files(folder)]


def source_signature(folder: Path) -> str:
    """A digest of the folder's files (names, sizes, modification times), its build output aside."""
    from apdp.agents.files import agent_files

    h = hashlib.sha256()
    for file in agent_files(folder):
        try:
            st = os.stat(file.path)
        except OSError:
            continue
        h.update(f"{file.relative}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


#: apdp's own files in a build folder are a few lines long; anything longer is not apdp's.
_BOOKKEEPING_BYTES = 64 * 1024


def _remove(path: Path) -> None:
    """Remove whatever is at ``path`` (a folder with what it holds); nothing if nothing is there."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        pass


def _keep_regular(path: Path) -> None:
    """Remove what is at ``path`` unless it is a regular file: apdp's bookkeeping is never a folder,
    a link or a FIFO, whatever a build may have left there."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        _remove(path)


def read_regular(path: Path, most: int) -> bytes:
    """The first ``most`` bytes of a regular file of an agent's folder and one more, if there is one
    (so that a caller can tell a larger file), read without following a link or waiting on a FIFO
    (OSError for anything but a regular file)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return f.read(most + 1)


def _read_bookkeeping(path: Path) -> str:
    """The text of one of apdp's files in a build folder, at most a few kB (OSError or
    UnicodeDecodeError otherwise)."""
    return read_regular(path, _BOOKKEEPING_BYTES)[:_BOOKKEEPING_BYTES].decode("utf-8")


class BuildLock:
    """The folder's build lock (flock), held while a build and its signature are written."""

    def __init__(self, program: AgentProgram) -> None:
        try:
            program.build_dir.mkdir(exist_ok=True)
        except FileExistsError:
            raise ProgramError(f"{program.build_dir} is not a folder: remove it (apdp keeps the agent's build "
                               "there)") from None
        if stat.S_ISLNK(os.lstat(program.build_dir).st_mode):  # nothing of apdp's is written through it
            raise ProgramError(f"{program.build_dir} is a link: remove it (apdp keeps the agent's build there, "
                               "in the agent's own folder)")
        path = program.build_dir / ".lock"
        _keep_regular(path)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)

    def __enter__(self) -> BuildLock:
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)


def is_built(program: AgentProgram, signature: str | None = None) -> bool:
    """True when the last build's signature is the folder's current one (``signature``, if known)."""
    try:
        recorded = _read_bookkeeping(program.build_dir / _SIGNATURE_FILE).strip()
    except (OSError, UnicodeDecodeError):
        return False
    return recorded == (signature or source_signature(program.folder))


def mark_built(program: AgentProgram, signature: str | None = None) -> None:
    """Record the folder's current signature (written as a new file renamed into place)."""
    from apdp.files import write_atomically

    _keep_regular(program.build_dir / _SIGNATURE_FILE)
    write_atomically(program.build_dir / _SIGNATURE_FILE, (signature or source_signature(program.folder)) + "\n")
    _remove(program.build_dir / _FAILED_FILE)


def failed_build(program: AgentProgram, signature: str) -> str | None:
    """Why the build of these very sources (``signature``) failed before, or None."""
    try:
        recorded, _, why = _read_bookkeeping(program.build_dir / _FAILED_FILE).partition("\n")
    except (OSError, UnicodeDecodeError):
        return None
    return why.strip() if recorded == signature else None


def mark_failed(program: AgentProgram, signature: str, why: str) -> None:
    """Remember that the build of ``signature`` failed, and why: later matches fault at once
    instead of building again (and waiting for its time limit again) until a source changes."""
    from apdp.files import write_atomically

    _keep_regular(program.build_dir / _FAILED_FILE)
    write_atomically(program.build_dir / _FAILED_FILE, f"{signature}\n{why}\n")
