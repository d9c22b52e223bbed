"""Reading a file that a record, a configuration or a user names: a regular file, to a size cap.

A crafted record may name ``/dev/zero``, a FIFO or ``/proc/self/fd/0`` where a configuration is
expected; read whole, any of them hangs the reader or takes all its memory. So such a file is opened
without blocking (a FIFO with no writer does not wait), must be a regular file, and is read up to a
cap: anything else is one :class:`OSError`-free :class:`ReadRefused` saying why.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class ReadRefused(Exception):
    """The file is not one to read (not a regular file, larger than its cap, unreadable): the
    message says why, without the path (the caller names it)."""


def read_regular(path: str | Path, most: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``most`` of them; ReadRefused otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ReadRefused(f"cannot read it ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadRefused("not a regular file")
        if info.st_size > most:
            raise ReadRefused(f"{info.st_size:,} bytes, more than {most:,}")
        chunks: list[bytes] = []
        size = 0
        while size <= most:
            chunk = os.read(fd, min(1 << 20, most + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > most:
            raise ReadRefused(f"more than {most:,} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise ReadRefused(f"cannot read it ({exc.strerror})") from None
    finally:
        os.close(fd)
