"""The secret behind every match's random streams: its size, its hex form and the per-user secret file.

A tournament keeps its secret in its results store; ``apdp match`` uses the per-user file, made on first
use with mode 0600 (see :func:`key_file_path`). Records keep match seeds, never the secret.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from apdp.errors import UserError

#: Length of a key in bytes (64 hex digits).
KEY_BYTES = 32
#: Environment variable naming the per-user key file, instead of the default path.
KEY_FILE_ENV = "APDP_KEY_FILE"


def new_key() -> bytes:
    """A fresh random key."""
    return os.urandom(KEY_BYTES)


def parse_key(text: str, where: str = "--key") -> bytes:
    """A key from its hex form; anything but 64 hex digits raises UserError (one line)."""
    text = text.strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise UserError(f"{where}: a key is {2 * KEY_BYTES} hex digits, got {text[:80]!r}")
    return key


def key_file_path() -> Path:
    """The per-user key file: ``$APDP_KEY_FILE``, else ``$XDG_DATA_HOME/apdp/key``.

    ``$XDG_DATA_HOME`` defaults to ``~/.local/share`` (also when unset, empty or relative).
    """
    override = os.environ.get(KEY_FILE_ENV)
    if override:
        return Path(override).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "apdp" / "key"


def _create_key_file(path: Path) -> None:
    """Write a new key to ``path`` (mode 0600) unless a file is already there; race-free."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".key-")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(new_key().hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # another process made one first: keep it
            os.link(temp, path)
    finally:
        os.unlink(temp)


def user_key(path: Path | None = None) -> bytes:
    """The per-user key (see :func:`key_file_path`), created on first use with mode 0600."""
    path = key_file_path() if path is None else path
    try:
        if not path.exists():
            _create_key_file(path)
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise UserError(f"key file {path}: {exc.strerror or exc}; set {KEY_FILE_ENV} or use --key") from None
    return parse_key(text, f"key file {path} (delete it to make a new one)")
