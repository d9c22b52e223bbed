"""Writing files the referee can trust: only through a file it has just created itself.

Agents are untrusted code: one may plant a symlink where the referee will write (a record, a
sidecar) so that the write lands in a file of its choosing. So every write goes to a new file
created beside the target (``O_CREAT | O_EXCL | O_NOFOLLOW``: never an existing file, never through
a link), is flushed to disk, then renamed over the target: ``rename`` replaces a symlink at the
target, it does not follow it. A failure is a one-line :class:`UserError` naming the path.

Reading a folder others write to goes through :func:`opened`, whose callers open without following
links (``O_NOFOLLOW``) and pass over what does not open.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from apdp.errors import UserError

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _problem(path: Path, exc: OSError) -> UserError:
    """The one-line error for a failed write of ``path``, with what to do about it."""
    folder = path.parent
    if exc.errno == errno.ENOENT:
        return UserError(f"cannot write {path}: the folder {folder} does not exist; "
                         "create it first or choose another path")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return UserError(f"cannot write {path}: the folder {folder} is not writable "
                         f"({exc.strerror}); make it writable or choose another path")
    if exc.errno == errno.ENOTDIR:
        return UserError(f"cannot write {path}: {folder} is not a folder; choose another path")
    if exc.errno == errno.EISDIR:
        return UserError(f"cannot write {path}: it is a folder; give a file name")
    return UserError(f"cannot write {path}: {exc.strerror or exc}")


def _create(path: Path) -> tuple[int, Path]:
    """A new, empty file beside ``path`` (mode 0o644 less the umask): its descriptor and path."""
    if path.is_dir():
        raise _problem(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, _FLAGS, 0o644), tmp
        except FileExistsError:
            continue
        except OSError as exc:
            raise _problem(path, exc) from None


def check_writable(path: str | Path) -> None:
    """Raise UserError now if ``path`` could not be written later (missing or read-only folder)."""
    fd, tmp = _create(Path(path))
    os.close(fd)
    os.unlink(tmp)


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: into a new file of our own, renamed over the target."""
    path = Path(path)
    fd, tmp = _create(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _problem(path, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def opened(folder: str, names: Iterable[str], flags: int) -> Iterator[tuple[str, int]]:
    """Each of ``names`` in ``folder`` that opens with ``flags``, with its descriptor (the caller's to
    close); a name that does not open (gone, a link under ``O_NOFOLLOW``, no access) is passed over."""
    for name in names:
        try:
            fd = os.open(os.path.join(folder, name), flags)
        except OSError:
            continue
        yield name, fd


def open_new(path: str | Path) -> IO[str]:
    """A new file at ``path`` open for writing (UTF-8), replacing whatever was there (a log)."""
    path = Path(path)
    fd, tmp = _create(path)
    try:
        os.replace(tmp, path)
    except OSError as exc:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _problem(path, exc) from None
    return os.fdopen(fd, "w", encoding="utf-8")


def open_to_append(path: str | Path) -> IO[str]:
    """The file at ``path`` open to add lines to (UTF-8; made if missing, mode 0600), never through a
    link: a symlink there (planted to make the lines land elsewhere) is a one-line UserError."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError(f"cannot write {path}: it is a symbolic link; remove it, apdp adds to files it "
                            "made itself") from None
        raise _problem(path, exc) from None
    return os.fdopen(fd, "a", encoding="utf-8")
