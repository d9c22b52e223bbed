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

Every store carries its schema version (``PRAGMA user_version``); :mod:`apdp.tournament.migrations`
lists the versions and migrates an older store on a resume that is allowed (a reader reads it as it
is, and writes nothing); a store of a newer apdp is refused in one line.

What a store hands back is bounded (:mod:`apdp.tournament.stored_json`): no value longer than 64 MiB
is read, no JSON nested deeper than 64; a store whose tables are views, virtual tables or computed
columns (which a query could run without end) is refused before anything is read from it. A value
that is not what apdp writes is one line naming the store and the row, never a traceback or a hang.
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
from apdp.referee.record_format import MatchRecord
from apdp.secret import new_secret
from apdp.text import clean_line
from apdp.tournament.config import config_difference, from_earlier_apdp, grows
from apdp.tournament.events import TournamentEvents
from apdp.tournament.migrations import STORE_SQL, create_store, has_column, migrate_store, newer_store, store_version
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.stored_json import MAX_VALUE_BYTES, TooDeep, bound, finite_number, loads

#: The database's file name inside an output folder.
STORE_FILE = "tournament.sqlite"
#: Held (flock) by the run writing to a folder; the OS releases it when that process dies.
LOCK_FILE = "tournament.lock"

#: The tables of a current store (:mod:`apdp.tournament.migrations` has its versions).
_SCHEMA = STORE_SQL


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


def _has_error_column(conn: sqlite3.Connection) -> bool:
    """Whether the store has the ``matches.error`` column (a store of schema 3 or older has not)."""
    return has_column(conn, "matches", "error")


def _check_version(conn: sqlite3.Connection, path: Path) -> int:
    """The store's schema version (:mod:`apdp.tournament.migrations`), or StoreError when this apdp
    does not know it."""
    version = store_version(conn)
    reason = newer_store(version)
    if reason is not None:
        raise StoreError(f"{path}: {reason}")
    return version


def _connect(path: Path) -> sqlite3.Connection:
    conn = bound(sqlite3.connect(path, timeout=30.0))
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
        conn = bound(sqlite3.connect(uri, uri=True, timeout=30.0))
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
    return bound(sqlite3.connect(uri + "&immutable=1", uri=True, timeout=30.0))  # nothing can change it


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


def _unreadable(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    """The one-line error for a store at ``path`` that cannot be opened."""
    if "malformed" in str(exc):
        return _problem(path, exc)
    return StoreError(f"{path}: not a readable results store ({exc})")


def _check_intact(conn: sqlite3.Connection, path: Path) -> None:
    """Raise StoreError if the store's pages are damaged (before anything is written to it)."""
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as exc:
        raise _problem(path, exc) from None
    if rows != [("ok",)]:
        first = str(rows[0][0]).splitlines()[-1]  # e.g. "Page 2: btreeInitPage() returns error code 11"
        raise _problem(path, sqlite3.DatabaseError(f"database disk image is malformed: {first}"))


#: The tables of a store, as :data:`_SCHEMA` makes them.
TABLES = ("tournament", "secret", "agents", "matches")


def check_tables(conn: sqlite3.Connection, path: Path) -> None:
    """Raise StoreError if a table of the store is a view, a virtual table or has computed columns:
    apdp makes none, and reading one runs whatever query it holds (one with no end, too)."""
    names = ", ".join("?" * len(TABLES))
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') "
                        f"AND lower(name) IN ({names})", TABLES).fetchall()
    for kind, name, sql in rows:
        if kind != "table" or str(sql or "").lstrip()[:14].upper() == "CREATE VIRTUAL":
            what = "a view" if kind != "table" else "a virtual table"
        elif any(column[6] for column in conn.execute(f'PRAGMA table_xinfo("{name}")')):
            what = "a table with computed columns"
        else:
            continue
        raise StoreError(f"{path}: its {clean_line(name, 40)} is {what}, which no results store apdp writes "
                         "has; give the folder `apdp tournament --out DIR` wrote")


def _crafted(path: Path, what: str, reason: str, repair: bool = True) -> StoreError:
    """The one-line error for a value of the store at ``path`` that apdp never writes."""
    fix = (f"`apdp tournament-repair {path.parent}` keeps the rest of the store" if repair
           else "give the folder `apdp tournament --out DIR` wrote")
    return StoreError(f"{path}: {what} {reason}, which no results store apdp writes holds; {fix}")


def _match(key: object) -> str:
    return f"match {clean_line(key, 100)!r}" if isinstance(key, str) else "a match with no key"


def _key(value: object, path: Path) -> bytes:
    """The stored secret ``value`` (a BLOB), or StoreError."""
    if not isinstance(value, bytes):
        raise _crafted(path, "its secret", "is not a key", repair=False)
    return value


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
                check_tables(conn, folder / STORE_FILE)
            if _check_version(conn, folder / STORE_FILE) == 0:
                create_store(conn)
        except StoreError:
            conn.close()
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
                stored_config = _config(row[0], folder / STORE_FILE)
                difference = config_difference(stored_config, config)
                earlier = from_earlier_apdp(stored_config, config)
                if difference is not None and grow and grows(stored_config, config):
                    conn.execute("UPDATE tournament SET config = ? WHERE id = 1", (wanted,))
                    difference = None
            if difference is None:  # only a store that resumes is brought to the current schema
                migrate_store(conn)
                stored = conn.execute("SELECT key FROM secret WHERE id = 1").fetchone()
                if stored is None:
                    conn.execute("INSERT INTO secret VALUES (1, ?)", (secret or new_secret(),))
                elif secret is not None and _key(stored[0], folder / STORE_FILE) != secret:
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
        except sqlite3.DatabaseError as exc:
            raise _unreadable(path, exc) from None
        try:
            check_tables(conn, path)  # before any query of them: a view's could have no end
            conn.execute("SELECT key FROM matches LIMIT 1")
            _check_version(conn, path)  # read as it is: the queries below tolerate older schemas
        except (sqlite3.DatabaseError, StoreError) as exc:
            conn.close()
            raise _unreadable(path, exc) if isinstance(exc, sqlite3.DatabaseError) else exc from None
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
        return None if row is None else _key(row[0], self.path)

    @_translated
    def config(self) -> dict[str, Any]:
        """The stored tournament configuration."""
        row = self.conn.execute("SELECT config FROM tournament WHERE id = 1").fetchone()
        return {} if row is None else _config(row[0], self.path)

    def add_identities(self, identities: Mapping[str, Mapping[str, Any]]) -> None:
        """Store each agent's identity (:mod:`apdp.agents.identity`) unless one is stored already."""
        with self.conn:
            self.conn.executemany(
                "INSERT OR IGNORE INTO agents VALUES (?, ?)",
                [(name, json.dumps(dict(identity), sort_keys=True)) for name, identity in identities.items()],
            )

    @_translated
    def identities(self) -> dict[str, dict[str, Any]]:
        """Each agent's stored identity; empty for a store made before identities were kept."""
        try:
            rows = self.conn.execute("SELECT name, identity FROM agents").fetchall()
        except sqlite3.OperationalError:  # no such table: an older store
            return {}
        except sqlite3.DataError:
            raise _crafted(self.path, "an agent's identity", f"is larger than {MAX_VALUE_BYTES // 2**20} MiB") from None
        found: dict[str, dict[str, Any]] = {}
        for name, identity in rows:
            what = f"the identity of agent {clean_line(name, 100)!r}"
            if not isinstance(name, str):
                raise _crafted(self.path, what, "is not under a name")
            found[name] = _object(identity, self.path, what)
        return found

    @_translated
    def finished_keys(self) -> set[str]:
        """Keys of the matches already stored and finished (a referee error is played again)."""
        if not _has_error_column(self.conn):
            return {k for (k,) in self.conn.execute("SELECT key FROM matches")}
        return {k for (k,) in self.conn.execute("SELECT key FROM matches WHERE error IS NULL")}

    @_translated
    def add(self, match: MatchSpec, record: MatchRecord) -> None:
        """Store one match and commit at once; a match stored as a referee error is replaced."""
        result = record.result
        error = record.referee_error
        data = record.to_json()
        winner = None if result.winner is None or error is not None else match.agents[result.winner]
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
                    json.dumps([float(p) for p in result.profit]),
                    winner,
                    json.dumps(data["result"]["faults"], ensure_ascii=False),
                    json.dumps(data, separators=(",", ":"), ensure_ascii=False),
                    now,
                    error,
                ),
            )

    @property
    def path(self) -> Path:
        """The store's file."""
        return self.folder / STORE_FILE

    def matches(self) -> Iterator[StoredMatch]:
        """Every stored match's summary (referee errors included: see ``error``), in key order;
        StoreError (one line naming the match) for a row that is not what apdp writes."""
        try:
            error = "error" if _has_error_column(self.conn) else "NULL"
            rows = self.conn.execute(
                f"SELECT key, topology, tournament_seed, seed, agents, profit, winner, faults, {error} "
                "FROM matches ORDER BY key"
            ).fetchall()
        except sqlite3.DataError:
            raise _crafted(self.path, self._too_large(), f"is larger than {MAX_VALUE_BYTES // 2**20} MiB") from None
        except sqlite3.DatabaseError as exc:
            raise _problem(self.path, exc) from None
        for row in rows:
            yield stored_match(row, self.path)

    def _too_large(self) -> str:
        """Which match holds a value longer than MAX_VALUE_BYTES (read row by row to find it)."""
        with contextlib.suppress(sqlite3.DatabaseError):
            for (rowid,) in self.conn.execute("SELECT rowid FROM matches").fetchall():
                try:
                    self.conn.execute("SELECT * FROM matches WHERE rowid = ?", (rowid,)).fetchone()
                except sqlite3.DataError:
                    try:
                        (key,) = self.conn.execute("SELECT key FROM matches WHERE rowid = ?", (rowid,)).fetchone()
                    except sqlite3.DataError:
                        return f"the match in row {rowid}"
                    return f"a value of {_match(key)}"
        return "a value of a match"

    @_translated
    def record(self, match_id: str) -> dict[str, Any] | None:
        """The full record of the match ``match_id`` as stored (its JSON), or None."""
        try:
            row = self.conn.execute("SELECT CAST(record AS BLOB) FROM matches WHERE key = ?", (match_id,)).fetchone()
        except sqlite3.DataError:
            raise _crafted(self.path, f"the record of {_match(match_id)}",
                           f"is larger than {MAX_VALUE_BYTES // 2**20} MiB") from None
        if row is None:
            return None
        what = f"the record of {_match(match_id)}"
        try:
            value = loads(bytes(row[0]).decode("utf-8"))
        except TooDeep as exc:
            raise _crafted(self.path, what, str(exc)) from None
        except (ValueError, TypeError) as exc:  # a record that is no JSON (or no UTF-8) was damaged in the file
            raise _problem(self.path, sqlite3.DatabaseError(
                f"database disk image is malformed: the record of {match_id} is unreadable ({exc})")) from None
        if not isinstance(value, dict):
            raise _crafted(self.path, what, "is not a JSON object")
        return value

    def close(self) -> None:
        """Close the database (and let another run write to the folder)."""
        self.conn.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def _object(text: object, path: Path, what: str, repair: bool = True) -> dict[str, Any]:
    """The JSON object stored as ``text`` (``what``: "the identity of agent ..."), or StoreError."""
    try:
        value = loads(text if isinstance(text, str | bytes) else b"")
    except ValueError as exc:
        raise _crafted(path, what, str(exc), repair) from None
    if not isinstance(value, dict):
        raise _crafted(path, what, "is not a JSON object", repair)
    return value


def _config(text: object, path: Path) -> dict[str, Any]:
    """The stored configuration ``text`` (a store without a sound one cannot be repaired)."""
    return _object(text, path, "its configuration", repair=False)


def stored_match(row: tuple[Any, ...], path: Path) -> StoredMatch:
    """The summary of the ``matches`` row ``row``, or StoreError when it is not what apdp writes."""
    key, topology, t_seed, seed, agents, profit, winner, faults, reason = row
    what = _match(key)
    if not (isinstance(key, str) and isinstance(topology, str) and isinstance(t_seed, int)
            and isinstance(seed, int)):
        raise _crafted(path, f"the key, network or seeds of {what}", "are not text and whole numbers")
    if not (winner is None or isinstance(winner, str)) or not (reason is None or isinstance(reason, str)):
        raise _crafted(path, f"the winner or error of {what}", "is not text")
    loaded = []
    for column, text in (("agents", agents), ("profits", profit), ("faults", faults)):
        try:
            loaded.append(loads(text if isinstance(text, str | bytes) else b""))
        except ValueError as exc:
            raise _crafted(path, f"the {column} of {what}", str(exc)) from None
    names, figures, found = loaded
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise _crafted(path, f"the agents of {what}", "are not a list of names")
    if not (isinstance(figures, list) and len(figures) == len(names) and all(map(finite_number, figures))):
        raise _crafted(path, f"the profits of {what}", "are not one finite number per agent")
    if not (isinstance(found, list) and all(isinstance(f, dict) for f in found)):
        raise _crafted(path, f"the faults of {what}", "are not a list of objects")
    return StoredMatch(key, topology, t_seed, seed, tuple(names), tuple(figures), winner, tuple(found), reason)


class StoreWriter(TournamentEvents):
    """Observer that stores each finished match the moment it ends."""

    def __init__(self, store: ResultsStore) -> None:
        self.store = store

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        self.store.add(match, record)

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        self.store.add(match, record)
