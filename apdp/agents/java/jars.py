"""Reading an agent's jar (or zip) on the host, with caps: a jar is the agent's, and a few MB of it
may inflate to gigabytes (a zip bomb). Every read of an agent's jar goes through :class:`AgentJar`,
which refuses, in one line naming the jar and the cap, a jar file of more than :data:`MAX_JAR_BYTES`
(before it is read or copied), a jar of more than :data:`MAX_MEMBERS` members, a member of more than
:data:`MAX_MEMBER_BYTES` bytes, or more than :data:`MAX_TOTAL_BYTES` in all, uncompressed (the agent
folder's own cap, :data:`apdp.agents.files.MAX_BYTES`). Declared sizes are checked before anything
is inflated; as they may lie, the bytes actually inflated are counted too, read in chunks, and
reading stops as soon as one is past its cap.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path
from types import TracebackType

from apdp.agents.files import MAX_BYTES, MAX_FILES
from apdp.errors import UserError

#: The most members a jar may hold.
MAX_MEMBERS = MAX_FILES
#: The largest member, uncompressed.
MAX_MEMBER_BYTES = 64 * 2**20
#: The most bytes inflated from one jar, in all.
MAX_TOTAL_BYTES = MAX_BYTES
#: The largest jar file (compressed, as it lies on disk).
MAX_JAR_BYTES = 128 * 2**20
#: What a jar that cannot be read raises (a damaged or encrypted member, an unknown compression).
UNREADABLE = (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, zlib.error)
#: How much is inflated at a time.
_CHUNK = 1 << 20


class JarTooLarge(UserError):
    """A jar past one of the caps (one line: the jar and the cap)."""


def _mib(size: int) -> str:
    return f"{size // 2**20} MiB"


class AgentJar:
    """An agent's jar, open for reading under the caps (a context manager). ``zipfile.BadZipFile``
    and OSError for a jar that cannot be read, :class:`JarTooLarge` past a cap. ``already`` is what
    earlier reads of the same jar inflated, counted in its total."""

    def __init__(self, path: Path, already: int = 0) -> None:
        self.path = path
        self.inflated = already
        size = os.stat(path).st_size
        if size > MAX_JAR_BYTES:
            raise JarTooLarge(f"{path}: {size >> 20} MiB; an agent's jar may be at most {_mib(MAX_JAR_BYTES)}")
        self._zip = zipfile.ZipFile(path)
        try:
            if len(self._zip.infolist()) > MAX_MEMBERS:
                raise JarTooLarge(f"{path}: more than {MAX_MEMBERS} members; an agent's jar may hold no more")
            self._infos = {info.filename: info for info in self._zip.infolist()}
            declared = 0
            for info in self._zip.infolist():
                self._check_member(info.filename, info.file_size)
                declared += info.file_size
            self._check_total(declared)
        except BaseException:
            self._zip.close()
            raise

    def _check_member(self, name: str, size: int) -> None:
        if size > MAX_MEMBER_BYTES:
            raise JarTooLarge(f"{self.path}: member {name[:100]!r} is larger than {_mib(MAX_MEMBER_BYTES)} "
                              "uncompressed; an agent's jar may hold none larger")

    def _check_total(self, size: int) -> None:
        if size > MAX_TOTAL_BYTES:
            raise JarTooLarge(f"{self.path}: more than {_mib(MAX_TOTAL_BYTES)} uncompressed in all; an agent's jar "
                              "may hold no more")

    def __enter__(self) -> AgentJar:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the jar."""
        self._zip.close()

    def names(self) -> list[str]:
        """The names of the jar's members, in its order."""
        return self._zip.namelist()

    def size(self, name: str) -> int | None:
        """The size member ``name`` declares, uncompressed (None when there is none)."""
        info = self._infos.get(name)
        return None if info is None else info.file_size

    def read(self, name: str) -> bytes:
        """The bytes of member ``name`` (KeyError when there is none), inflated in chunks: the
        reading stops past a cap, whatever the member declares."""
        info = self._infos[name]
        self._check_member(name, info.file_size)
        chunks: list[bytes] = []
        size = 0
        with self._zip.open(info) as member:
            while chunk := member.read(_CHUNK):
                size += len(chunk)
                self.inflated += len(chunk)
                self._check_member(name, size)
                self._check_total(self.inflated)
                chunks.append(chunk)
        return b"".join(chunks)
