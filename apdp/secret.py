"""The secret behind every match's random streams: its size, its hex form and the per-user secret file.

A tournament keeps its secret in its results store; ``apdp match`` uses the per-user file, made on first
use with mode 0600 (see :func:`secret_file_path`). Records keep match seeds, never the secret.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from apdp.errors import UserError
from apdp.reading import ReadRefused, read_regular

#: Length of a secret in bytes (64 hex digits).
SECRET_BYTES = 32
#: Environment variable naming the per-user secret file, instead of the default path.
SECRET_FILE_ENV = "APDP_SECRET_FILE"
#: Its name in apdp 0.1, still honoured.
_OLD_FILE_ENV = "APDP_KEY_FILE"


def new_secret() -> bytes:
    """A fresh random secret."""
    return os.urandom(SECRET_BYTES)


def parse_secret(text: str, where: str = "--secret") -> bytes:
    """A secret from its hex form; anything but 64 hex digits raises UserError (one line)."""
    text = text.strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != SECRET_BYTES:
        raise UserError(f"{where}: a secret is {2 * SECRET_BYTES} hex digits, got {text[:80]!r}")
    return secret


def secret_file_path() -> Path:
    """The per-user secret file: ``$APDP_SECRET_FILE`` (or apdp 0.1's ``$APDP_KEY_FILE``), else
    ``$XDG_DATA_HOME/apdp/secret``, or ``$XDG_DATA_HOME/apdp/key`` where apdp 0.1 made one (the same
    secret, so the same matches, as before).

    ``$XDG_DATA_HOME`` defaults to ``~/.local/share`` (also when unset, empty or relative).
    """
    override = os.environ.get(SECRET_FILE_ENV) or os.environ.get(_OLD_FILE_ENV)
    if override:
        return Path(override).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    old = base / "apdp" / "key"
    return old if old.is_file() and not (base / "apdp" / "secret").exists() else base / "apdp" / "secret"


def _create_secret_file(path: Path) -> None:
    """Write a new secret to ``path`` (mode 0600) unless a file is already there; race-free."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".secret-")  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(new_secret().hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # another process made one first: keep it
            os.link(temp, path)
    finally:
        os.unlink(temp)


def user_secret(path: Path | None = None) -> bytes:
    """The per-user secret (see :func:`secret_file_path`), created on first use with mode 0600."""
    path = secret_file_path() if path is None else path
    try:
        if not path.exists() and not path.is_symlink():
            _create_secret_file(path)
        text = read_regular(path, 4096).decode("ascii", "replace")  # never a FIFO's wait or /dev/zero's end
    except OSError as exc:
        raise UserError(f"secret file {path}: {exc.strerror or exc}; set {SECRET_FILE_ENV} or use --secret") from None
    except ReadRefused as exc:
        raise UserError(f"secret file {path}: {exc} (a secret file holds {2 * SECRET_BYTES} hex digits)") from None
    return parse_secret(text, f"secret file {path} (delete it to make a new one)")
