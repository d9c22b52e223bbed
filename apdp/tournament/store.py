"""The results store: one SQLite database per output folder, one row per finished match.

Each row holds the match's full record (JSON) and the summary columns the reports read. A row is
committed as soon as its match ends, in WAL mode, so a SIGKILL at any moment loses at most the
matches in flight, and a resume is a query: the match ids already stored are skipped. Only the parent
process of a run writes. The tournament's configuration is stored once; opening the store with a
different one is refused. So is the tournament's secret (:mod:`apdp.referee.seeding`), made when the
store is created (or, for a store older than secrets, on its first resume) and never put in a record.
Each agent's identity when it played (:mod:`apdp.agents.identity`) is stored once per tournament, in the
``agents`` table (a store older than it gets it on its first resume).

A match in which the referee itself failed (apdp's error, never an agent's) is stored too, with the
reason in ``error`` and no winner: reports count it and never call its tournament complete, and a
resume plays it again, replacing the row (a store older than the column gets it on its first resume).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote

from apdp.errors import UserError
from apdp.referee.record import referee_error
from apdp.secret import new_secret
from apdp.tournament.config import config_difference, from_earlier_apdp, grows
from apdp.tournament.events import Record, TournamentEvents
from apdp.tournament.schedule import MatchSpec

#: The database's file name inside an output folder.
STORE_FILE = "tournament.sqlite"
#: Held (flock) by the run writing to a folder; the OS releases it when that process dies.
LOCK_FILE = "tournament.lock"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    config TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB NOT NULL          -- the secret every match's streams derive from; published on request
);
CREATE TABLE IF NOT EXISTS agents (
    name TEXT PRIMARY KEY,
    identity TEXT NOT NULL     -- JSON, apdp.agents.identity: file hash, origin, provenance, apdp version
);
CREATE TABLE IF NOT EXISTS matches (
    key TEXT PRIMARY KEY,      -- the match id (MatchSpec.match_id); the name of apdp 0.1's stores
    topology TEXT NOT NULL,
    tournament_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    agents TEXT NOT NULL,      -- JSON list of names, company order
    profit TEXT NOT NULL,      -- JSON list, company order
    winner TEXT,               -- agent name, NULL when nobody won
    faults TEXT NOT NULL,      -- JSON list of {agent, kind, phase, task, message}
    record TEXT NOT NULL,      -- the full apdp-record/1 JSON
    finished TEXT NOT NULL,    -- UTC time the row was written
    error TEXT                 -- why the referee failed in the match (NULL: it finished)
);
"""


class StoreError(UserError):
    """An output folder's store cannot be used (not a store, or another tournament's)."""


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """The summary of one stored match, as the reports read it."""

    match_id: str
    topology: str
    tournament_seed: int
    seed: int
    agents: tuple[str, ...]
    profit: tuple[float, ...]
    winner: str | None
    faults: tuple[dict[str, Any], ...]
    #: Why the referee failed in this match (None: it finished); such a match counts for nobody.
    error: str | None = None


def _refuse_symlinks(path: Path) -> None:
    """Raise StoreError if the store file ``path`` or its WAL files are symlinks (planted to
    redirect the store's writes: SQLite would follow them)."""
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.is_symlink():
            raise StoreError(f"{file} is a symlink, not a results store; remove it or choose another --out")


def _lock(folder: Path) -> int:
    """Take the folder's run lock, or raise StoreError if another run holds it."""
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(f"{path} is a symlink; remove it or choose another --out") from None
        raise
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise StoreError(
            f"{folder} is in use by another tournament run; wait for it or stop it first"
        ) from None
    return fd


def _add_error_column(conn: sqlite3.Connection) -> None:
    """Give a store older than referee errors its ``error`` column."""
    if not _has_error_column(conn):
        conn.execute("ALTER TABLE matches ADD COLUMN error TEXT")


def _has_error_column(conn: sqlite3.Connection) -> bool:
    return any(row[1] == "error" for row in conn.execute("PRAGMA table_info(matches)"))


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30.0)
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a committed match survives any crash of the process; only a power loss
    # can drop the last few commits, and the database stays consistent either way.
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes, for a store in a folder (or a file) this process cannot
    write: results copied from elsewhere, a read-only mount, another user's folder."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=30.0)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:  # SQLite could not make the WAL index (-shm) beside it
        pass
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:  # unfinished writes that only the WAL index can read
        raise StoreError(
            f"{path}: its last matches are still in {wal.name}, which cannot be read in a folder this "
            "user cannot write; copy the folder somewhere writable and read that copy"
        )
    return sqlite3.connect(uri + "&immutable=1", uri=True, timeout=30.0)  # nothing can change it


def _problem(path: Path, exc: sqlite3.Error) -> StoreError:
    """The one-line error for a failed use of the store at ``path``, saying what to do."""
    text = str(exc)
    if "malformed" in text or "not a database" in text or "decode" in text:
        return StoreError(
            f"{path} is damaged ({text}); nothing in it was changed: `apdp tournament-repair "
            f"{path.parent}` keeps its readable matches (and the damaged file beside them), then rerun "
            "the tournament to play the rest"
        )
    return StoreError(f"{path}: {text}")


def _check_intact(conn: sqlite3.Connection, path: Path) -> None:
    """Raise StoreError if the store's pages are damaged (before anything is written to it)."""
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as exc:
        raise _problem(path, exc) from None
    if rows != [("ok",)]:
        first = str(rows[0][0]).splitlines()[-1]  # e.g. "Page 2: btreeInitPage() returns error code 11"
        raise _problem(path, sqlite3.DatabaseError(f"database disk image is malformed: {first}"))


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _translated(method: Callable[Concatenate[ResultsStore, _P], _T]) -> Callable[Concatenate[ResultsStore, _P], _T]:
    """``method`` with SQLite's errors turned into one-line StoreErrors naming the store."""

    def wrapper(self: ResultsStore, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise _problem(self.folder / STORE_FILE, exc) from None

    functools.update_wrapper(wrapper, method)
    return wrapper


@contextlib.contextmanager
def _closing_on_error(conn: sqlite3.Connection, lock: int, path: Path) -> Iterator[None]:
    """Close the store at ``path`` and release its folder's lock if the block fails; SQLite's
    errors become one-line StoreErrors."""
    try:
        yield
    except BaseException as exc:
        conn.close()
        os.close(lock)
        if isinstance(exc, sqlite3.DatabaseError):
            raise _problem(path, exc) from None
        raise


class ResultsStore:
    """The store of one output folder. Use :meth:`create_or_resume` to run, :meth:`open` to read."""

    def __init__(self, folder: Path, conn: sqlite3.Connection, lock: int | None = None) -> None:
        self.folder = folder
        self.conn = conn
        self._lock = lock

    @classmethod
    def create_or_resume(
        cls, folder: str | Path, config: Mapping[str, Any], secret: bytes | None = None, *, grow: bool = False
    ) -> ResultsStore:
        """Open (creating it if needed) the store of ``folder`` for the tournament ``config``.

        ``secret`` is the tournament's secret; None keeps the stored one, or makes a new one. A
        store that already holds another configuration or another secret raises StoreError (one line).
        With ``grow``, a configuration that only adds agents, networks or tournaments to the stored
        one (:func:`apdp.tournament.config.grows`) replaces it: the stored matches stay, the new ones
        are still to play.
        """
        folder = Path(folder)
        _refuse_symlinks(folder / STORE_FILE)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = _lock(folder)
        except OSError as exc:
            raise StoreError(f"{folder}: cannot create the results folder ({exc})") from None
        existed = (folder / STORE_FILE).is_file()
        try:
            conn = _connect(folder / STORE_FILE)
            if existed:
                _check_intact(conn, folder / STORE_FILE)
            with conn:
                conn.executescript(_SCHEMA)
                _add_error_column(conn)
        except StoreError:
            os.close(lock)
            raise
        except sqlite3.DatabaseError as exc:
            os.close(lock)
            if existed:
                raise _problem(folder / STORE_FILE, exc) from None
            raise StoreError(f"{folder}: cannot create the results store ({exc})") from None
        except OSError as exc:
            os.close(lock)
            raise StoreError(f"{folder}: cannot create the results store ({exc})") from None
        wanted = json.dumps(dict(config), sort_keys=True)
        difference = None
        earlier = False
        with _closing_on_error(conn, lock, folder / STORE_FILE), conn:
            row = conn.execute("SELECT config FROM tournament WHERE id = 1").fetchone()
            if row is None:
                now = datetime.now(UTC).isoformat(timespec="seconds")
                conn.execute("INSERT INTO tournament VALUES (1, ?, ?)", (wanted, now))
            else:
                stored_config = json.loads(row[0])
                difference = config_difference(stored_config, config)
                earlier = from_earlier_apdp(stored_config, config)
                if difference is not None and grow and grows(stored_config, config):
                    conn.execute("UPDATE tournament SET config = ? WHERE id = 1", (wanted,))
                    difference = None
            if difference is None:
                stored = conn.execute("SELECT key FROM secret WHERE id = 1").fetchone()
                if stored is None:
                    conn.execute("INSERT INTO secret VALUES (1, ?)", (secret or new_secret(),))
                elif secret is not None and bytes(stored[0]) != secret:
                    difference = "its secret differs from --secret"
        if difference is not None:
            conn.close()
            os.close(lock)
            if earlier:
                raise StoreError(
                    f"{folder} holds a tournament played by an earlier apdp ({difference}): its results still "
                    "read (apdp report, replay, verify); finish it with the apdp that started it, or choose "
                    "another --out"
                )
            raise StoreError(
                f"{folder} holds a tournament with another configuration: {difference}; "
                "rerun with the same options, or choose another --out"
            )
        return cls(folder, conn, lock)

    @classmethod
    def open(cls, folder: str | Path) -> ResultsStore:
        """Open the existing store of ``folder`` for reading (read-only where this process cannot
        write the folder or the file); a damaged one raises StoreError, one line that points to
        ``apdp tournament-repair``, whichever of its pages is damaged."""
        folder = Path(folder)
        path = folder / STORE_FILE
        _refuse_symlinks(path)
        if not path.is_file():
            raise StoreError(f"{folder}: no tournament results here (no {STORE_FILE}); give the folder that "
                             "`apdp tournament --out DIR` wrote")
        writable = os.access(folder, os.W_OK) and os.access(path, os.W_OK)
        try:
            conn = _connect(path) if writable else _connect_read_only(path)
            conn.execute("SELECT key FROM matches LIMIT 1")
        except sqlite3.DatabaseError as exc:
            if "malformed" in str(exc):
                raise _problem(path, exc) from None
            raise StoreError(f"{path}: not a readable results store ({exc})") from None
        try:  # a damaged page anywhere (a record's too) is said before anything is read from it
            _check_intact(conn, path)
        except StoreError:
            conn.close()
            raise
        return cls(folder, conn)

    @_translated
    def secret(self) -> bytes | None:
        """The tournament's secret, or None for a store made before secrets and never resumed."""
        try:
            row = self.conn.execute("SELECT key FROM secret WHERE id = 1").fetchone()
        except sqlite3.OperationalError:  # no such table: a store older than keys
            return None
        return None if row is None else bytes(row[0])

    @_translated
    def config(self) -> dict[str, Any]:
        """The stored tournament configuration."""
        row = self.conn.execute("SELECT config FROM tournament WHERE id = 1").fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    def add_identities(self, identities: Mapping[str, Mapping[str, Any]]) -> None:
        """Store each agent's identity (:mod:`apdp.agents.identity`) unless one is stored already."""
        with self.conn:
            self.conn.executemany(
                "INSERT OR IGNORE INTO agents VALUES (?, ?)",
                [(name, json.dumps(dict(identity), sort_keys=True)) for name, identity in identities.items()],
            )

    def identities(self) -> dict[str, dict[str, Any]]:
        """Each agent's stored identity; empty for a store made before identities were kept."""
        try:
            rows = self.conn.execute("SELECT name, identity FROM agents").fetchall()
        except sqlite3.OperationalError:  # no such table: an older store
            return {}
        return {name: dict(json.loads(identity)) for name, identity in rows}

    @_translated
    def finished_keys(self) -> set[str]:
        """Keys of the matches already stored and finished (a referee error is played again)."""
        if not _has_error_column(self.conn):
            return {k for (k,) in self.conn.execute("SELECT key FROM matches")}
        return {k for (k,) in self.conn.execute("SELECT key FROM matches WHERE error IS NULL")}

    @_translated
    def add(self, match: MatchSpec, record: Record) -> None:
        """Store one match and commit at once; a match stored as a referee error is replaced."""
        result = record["result"]
        error = referee_error(record)
        winner_index = result.get("winner")
        winner = None if winner_index is None or error is not None else match.agents[int(winner_index)]
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self.conn:
            self.conn.execute("DELETE FROM matches WHERE key = ? AND error IS NOT NULL", (match.match_id,))
            self.conn.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match.match_id,
                    match.topology,
                    match.tournament_seed,
                    match.seed,
                    json.dumps(list(match.agents)),
                    json.dumps([float(p) for p in result["profit"]]),
                    winner,
                    json.dumps(result.get("faults", []), ensure_ascii=False),
                    json.dumps(record, separators=(",", ":"), ensure_ascii=False),
                    now,
                    error,
                ),
            )

    def matches(self) -> Iterator[StoredMatch]:
        """Every stored match's summary (referee errors included: see ``error``), in key order."""
        try:
            error = "error" if _has_error_column(self.conn) else "NULL"
            rows = self.conn.execute(
                f"SELECT key, topology, tournament_seed, seed, agents, profit, winner, faults, {error} "
                "FROM matches ORDER BY key"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _problem(self.folder / STORE_FILE, exc) from None
        for key, topology, t_seed, seed, agents, profit, winner, faults, reason in rows:
            yield StoredMatch(
                match_id=key,
                topology=topology,
                tournament_seed=t_seed,
                seed=seed,
                agents=tuple(json.loads(agents)),
                profit=tuple(json.loads(profit)),
                winner=winner,
                faults=tuple(json.loads(faults)),
                error=reason,
            )

    @_translated
    def record(self, match_id: str) -> Record | None:
        """The full record of the match ``match_id``, or None."""
        row = self.conn.execute("SELECT CAST(record AS BLOB) FROM matches WHERE key = ?", (match_id,)).fetchone()
        if row is None:
            return None
        try:
            return dict(json.loads(bytes(row[0]).decode("utf-8")))
        except ValueError as exc:  # a record that is no JSON (or no UTF-8) was damaged in the file
            raise _problem(self.folder / STORE_FILE, sqlite3.DatabaseError(
                f"database disk image is malformed: the record of {match_id} is unreadable ({exc})")) from None

    def close(self) -> None:
        """Close the database (and let another run write to the folder)."""
        self.conn.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


class StoreWriter(TournamentEvents):
    """Observer that stores each finished match the moment it ends."""

    def __init__(self, store: ResultsStore) -> None:
        self.store = store

    def on_match_finished(self, match: MatchSpec, record: Record) -> None:
        self.store.add(match, record)

    def on_match_error(self, match: MatchSpec, record: Record) -> None:
        self.store.add(match, record)
