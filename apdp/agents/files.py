"""The files of an agent, as apdp reads them on the host: to hash, ship or copy them.

An agent's files are untrusted like its code: a folder may hold a FIFO (reading it waits forever), a
link to ``/dev/zero`` (reading it never ends) or to a secret elsewhere (copying it would put the
secret where the agent can read it). Everything apdp does with an agent's files on the host goes
through :func:`agent_files`, which returns regular files only, never follows a link out of the
agent's folder, and refuses anything else with one line naming the file and the fix. An agent
folder can be read by its agent: one that holds apdp's secrets or results (the per-user secret file, a
results store, a match record) is refused the same way, so that no agent ever plays beside them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from apdp.errors import UserError

#: Folders never part of an agent's sources: its build output, Python's bytecode caches.
SKIPPED_FOLDERS = frozenset({".build", "__pycache__"})
#: The most files, and bytes, an agent folder may hold.
MAX_FILES = 20_000
MAX_BYTES = 512 * 2**20
#: The most bytes of a one-file agent (a Python source file).
MAX_FILE_BYTES = 16 * 2**20
#: The most files and folders walked to copy a tree of a project into an agent's folder.
MAX_WALKED = 5 * MAX_FILES
#: Files of a results store (:mod:`apdp.tournament.store`): its database, the database's journals, its lock.
STORE_FILES = frozenset({"tournament.sqlite", "tournament.sqlite-wal", "tournament.sqlite-shm", "tournament.lock"})
#: How a match record begins (:func:`apdp.referee.record.write_record`), and how much of a JSON file is read
#: to tell.
_RECORD_MARK = b'"format": "apdp-record/'
_RECORD_HEAD = 256


class AgentFilesError(UserError):
    """An agent's file or folder holds something apdp does not read (one line: what, and the fix)."""


@dataclass(frozen=True, slots=True)
class AgentFile:
    """A regular file of an agent: where it is, its path relative to the agent, its size and mode."""

    path: Path
    relative: str
    size: int
    mode: int


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def is_inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies beneath it (as strings: nothing is resolved)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def agent_files(agent: str | Path) -> list[AgentFile]:
    """The regular files of an agent (a file, or a folder less its build output and bytecode
    caches), sorted by relative path. A link is read as the file it points to when that file lies
    in the agent's folder; a link out of the folder, a link to a folder, a FIFO, a socket or a
    device raises AgentFilesError, and so does a folder of more than :data:`MAX_FILES` files or
    :data:`MAX_BYTES` bytes."""
    agent = Path(agent)
    if not agent.is_dir():
        return [_single(agent)]
    root = os.path.realpath(agent)
    found: list[AgentFile] = []
    total = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise AgentFilesError(f"{folder}: cannot list the agent's folder ({exc.strerror})") from None
        for entry in entries:
            relative = os.path.relpath(entry.path, root)
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_FOLDERS:
                    stack.append(entry.path)
                continue
            item = _entry(entry.path, relative, root)
            _refuse_secrets(item, agent)
            found.append(item)
            total += item.size
            if len(found) > MAX_FILES or total > MAX_BYTES:
                raise AgentFilesError(
                    f"{agent}: an agent folder may hold at most {MAX_FILES} files and {MAX_BYTES >> 20} MiB; "
                    "move what the agent does not need out of it"
                )
    return sorted(found, key=lambda f: f.relative)


def _refuse_secrets(file: AgentFile, agent: Path) -> None:
    """AgentFilesError if ``file`` of the agent folder ``agent`` is apdp's secret, a results store or a record."""
    from apdp.secret import secret_file_path

    what = None
    if file.path.name in STORE_FILES:
        what = "a results store"
    elif os.path.realpath(file.path) == os.path.realpath(secret_file_path()):
        what = "apdp's secret file"
    elif file.path.suffix == ".json":
        with contextlib.suppress(OSError), open(os.path.realpath(file.path), "rb") as f:
            if _RECORD_MARK in f.read(_RECORD_HEAD).replace(b'"format":"', b'"format": "'):
                what = "a match record"
    if what is not None:
        raise AgentFilesError(
            f"{file.path} is {what}, inside the folder of agent {agent.name!r}, which the agent can read: "
            "move it out of the agent's folder"
        )


def _single(path: Path) -> AgentFile:
    """An agent file: a regular file, or a link to one."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise AgentFilesError(f"{path}: cannot read the agent's file ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise AgentFilesError(f"{path}: {_kind(st.st_mode)}; an agent must be a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise AgentFilesError(f"{path}: {st.st_size >> 20} MiB; a one-file agent may hold at most "
                              f"{MAX_FILE_BYTES >> 20} MiB (make it a folder agent if it needs data files)")
    return AgentFile(path, path.name, st.st_size, stat.S_IMODE(st.st_mode))


def _entry(path: str, relative: str, root: str) -> AgentFile:
    """One entry of an agent folder that is not a folder."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        target = os.path.realpath(path)
        if not is_inside(target, root):
            raise AgentFilesError(
                f"{path} is a link out of the agent's folder (to {target}); an agent may hold only its own "
                "files: copy what it needs into its folder, or remove the link"
            )
        st = os.stat(target)
        if stat.S_ISDIR(st.st_mode):
            raise AgentFilesError(f"{path} is a link to a folder; an agent folder may not hold one: remove it")
    if not stat.S_ISREG(st.st_mode):
        raise AgentFilesError(f"{path} is {_kind(st.st_mode)}; an agent folder may hold only regular files: remove it")
    return AgentFile(Path(path), relative, st.st_size, stat.S_IMODE(st.st_mode))


def read_agent_file(file: AgentFile) -> bytes:
    """The bytes of an agent's regular file (never more than it held when it was listed)."""
    return b"".join(agent_file_chunks(file))


def agent_file_chunks(file: AgentFile) -> Iterator[bytes]:
    """The bytes of an agent's regular file, a MiB at a time (never more than it held when it was
    listed): a large file is hashed without being held in memory whole."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    fd = os.open(os.path.realpath(file.path), flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced since it was listed
            raise AgentFilesError(f"{file.path} changed into {_kind(os.fstat(fd).st_mode)} while apdp read it")
        left = file.size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            left -= len(chunk)
            yield chunk
    finally:
        os.close(fd)


def agent_hash(agent: str | Path) -> str:
    """The SHA-256 (hex) of an agent file's bytes; of an agent folder, of its files' names and bytes
    (its build output and bytecode caches aside). Only regular files are read (AgentFilesError for
    anything else)."""
    h = hashlib.sha256()
    agent = Path(agent)
    folder = agent.is_dir()
    for file in agent_files(agent):
        if folder:
            h.update(f"{file.relative}\0".encode())
        for chunk in agent_file_chunks(file):
            h.update(chunk)
    return h.hexdigest()


def check_outside_agents(path: str | Path, agents: Sequence[str | Path], what: str) -> None:
    """AgentFilesError if ``path`` (where results will be written) lies in the folder of one of the
    ``agents`` (which its agent can read): ``what`` names it in the message (``--out``, ``--record``)."""
    target = os.path.realpath(path)
    for agent in agents:
        if os.path.isdir(agent) and is_inside(target, os.path.realpath(agent)):
            raise AgentFilesError(
                f"{what} {path} is inside the folder of agent {Path(agent).name!r}, which the agent can read; "
                "write results elsewhere"
            )


def regular_file_within(path: str | Path, root: str | Path) -> Path:
    """``path`` resolved, if it is a regular file inside ``root`` (a link is followed only within
    it); AgentFilesError otherwise. For copying a file of a project into an agent's folder."""
    real = os.path.realpath(path)
    if not is_inside(real, os.path.realpath(root)):
        raise AgentFilesError(f"{path} leads out of {root} (to {real}); copy what the agent needs into {root}")
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise AgentFilesError(f"{path}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        raise AgentFilesError(f"{path} is {_kind(mode)}; only regular files are copied")
    return Path(real)


def copy_within(source: str | Path, root: str | Path, destination: str | Path, largest: int) -> int:
    """Copy ``source``, a regular file inside ``root`` (:func:`regular_file_within`), to
    ``destination``; the bytes copied. A file of more than ``largest`` bytes is refused
    (AgentFilesError) before it is read, and so is one that grows past it while it is copied."""
    real = regular_file_within(source, root)
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced since it was looked at
            raise AgentFilesError(f"{source} is {_kind(st.st_mode)}; only regular files are copied")
        copied = st.st_size
        if copied <= largest:
            with open(destination, "wb") as out:
                while copied <= largest:
                    chunk = f.read(min(1 << 20, largest + 1))
                    if not chunk:
                        return out.tell()
                    out.write(chunk)
                    copied = out.tell()
    raise AgentFilesError(f"{source} is {copied / 2**20:.1f} MiB; apdp copies no file larger than "
                          f"{largest / 2**20:.0f} MiB into an agent's folder: remove it, or move it out of {root}")


def copy_tree_of(root: str | Path, target: str | Path, suffix: str, largest: int = MAX_FILE_BYTES) -> int:
    """Copy the regular files of ``root`` whose names end in ``suffix`` into ``target`` (the same
    tree), reading nothing that is not a regular file inside ``root``; the number copied. Bounded:
    each file at most ``largest`` bytes (checked before it is read), and as an agent's folder, at most
    :data:`MAX_FILES` files and :data:`MAX_BYTES` in all, among at most :data:`MAX_WALKED` entries
    of ``root``'s tree (AgentFilesError past any of them)."""
    root = Path(root)
    copied = total = walked = 0
    for dirpath, dirs, names in os.walk(root, followlinks=False):
        walked += len(dirs) + len(names)
        if walked > MAX_WALKED:
            raise AgentFilesError(f"{root} holds more than {MAX_WALKED} files and folders; give the folder of the "
                                  f"agent's {suffix} files alone")
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(dirpath, d))]
        for name in names:
            if not name.endswith(suffix):
                continue
            destination = Path(target) / os.path.relpath(os.path.join(dirpath, name), root)
            destination.parent.mkdir(parents=True, exist_ok=True)
            total += copy_within(os.path.join(dirpath, name), root, destination, largest)
            copied += 1
            if copied > MAX_FILES or total > MAX_BYTES:
                raise AgentFilesError(f"{root}: more than {MAX_FILES} {suffix} files or {MAX_BYTES >> 20} MiB of them; "
                                      "an agent folder may hold no more")
    return copied
