"""Schema versions of apdp's results stores and match records, and the ordered migrations between them.

Every compatibility rule for what an earlier apdp wrote lives here or is listed here, in order.

Results store (SQLite; its version is ``PRAGMA user_version``):

====  ==========  ===============================================================================
 1    2026-11-21  apdp 0.1: tables ``tournament`` (the configuration) and ``matches``
 2    2026-11-22  table ``secret`` (the tournament's secret, made on the store's first resume)
 3    2026-11-22  table ``agents`` (each agent's identity when it played; filled on a resume)
 4    2026-11-25  column ``matches.error`` (why the referee failed in a match; NULL: it finished)
====  ==========  ===============================================================================

Stores before version 4 carry no version (``user_version`` 0): theirs is read from their tables
(:func:`store_version`). A resume (:meth:`apdp.tournament.store.ResultsStore.create_or_resume`)
applies :data:`STORE_MIGRATIONS` in order, each one step ``k -> k+1``, and writes the version, all
in one transaction; it does so only once the stored configuration is known to be resumable, so a refused resume
leaves the store as it was. A reader (report, replay, verify) never writes: it reads an older store
as it is, its queries tolerating the tables and columns that store lacks (no ``secret``: None; no
``agents``: no identities; no ``error``: every match finished). A store of a version newer than
:data:`STORE_SCHEMA` is refused in one line (:func:`check_known`).

A resume can still be refused for what the stored *configuration* says rather than the schema: a
tournament stored by an earlier apdp whose scenario lacks fields this one writes
(:func:`apdp.tournament.config.from_earlier_apdp`) would draw other matches, so it is finished by the
apdp that started it; its results still read.

Match records (JSON, ``format`` "apdp-record/1"; the version is the record's ``schema`` integer,
absent in records of version 1; the rules live with the record, below this package, in
:mod:`apdp.referee.record_format` and :mod:`apdp.referee.record`):

====  ===============================================================================================
 1    apdp 0.1 up to 2026-11-28: no ``schema`` field. Read with these rules:
      a record without ``settlement`` was settled by the rule "won"
      (:func:`apdp.referee.record.settlement`);
      an embedded network of apdp 0.1's form (a topology file's ``routes``) reads as a network
      (:func:`apdp.referee.record.record_topology`).
 2    2026-11-28: ``schema`` beside ``format`` (the fields are those of version 1's latest records).
====  ===============================================================================================

A record of a ``schema`` newer than :data:`apdp.referee.record.RECORD_SCHEMA` is refused in one line
by its readers (:func:`apdp.referee.record.unknown_schema`: ``apdp verify``, and every reader of a
record file, :func:`apdp.check.verify.read_record`).

Other earlier names still honoured (not versioned data): the secret file's apdp 0.1 names
(``$APDP_KEY_FILE``, ``$XDG_DATA_HOME/apdp/key``: :mod:`apdp.secret`), and a match's id stored under
its apdp 0.1 name ``key`` in the ``matches`` table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

#: The results store's current schema version (``PRAGMA user_version`` of every new store).
STORE_SCHEMA = 4

#: The tables of a current store.
STORE_SQL = """
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


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {str(n).lower() for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """Whether ``table`` of the store has ``column``."""
    return any(row[1] == column for row in conn.execute(f'PRAGMA table_info("{table}")'))


def _add_secret(conn: sqlite3.Connection) -> None:
    """1 -> 2: the ``secret`` table (its one row is made by the resume, or given by --secret)."""
    conn.execute("CREATE TABLE IF NOT EXISTS secret (id INTEGER PRIMARY KEY CHECK (id = 1), key BLOB NOT NULL)")


def _add_agents(conn: sqlite3.Connection) -> None:
    """2 -> 3: the ``agents`` table (the identities of the agents that play from now on)."""
    conn.execute("CREATE TABLE IF NOT EXISTS agents (name TEXT PRIMARY KEY, identity TEXT NOT NULL)")


def _add_error(conn: sqlite3.Connection) -> None:
    """3 -> 4: the ``matches.error`` column (NULL for every match stored before: they finished)."""
    if not has_column(conn, "matches", "error"):
        conn.execute("ALTER TABLE matches ADD COLUMN error TEXT")


#: STORE_MIGRATIONS[k - 1] takes a store of version k to version k + 1.
STORE_MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_add_secret, _add_agents, _add_error)
assert len(STORE_MIGRATIONS) == STORE_SCHEMA - 1


def stored_version(conn: sqlite3.Connection) -> int:
    """The version the store says it has (``PRAGMA user_version``; 0 for stores before versions)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def store_version(conn: sqlite3.Connection) -> int:
    """The schema version of the store of ``conn``: the one it carries, or, for a store made before
    versions were written, the one its tables show; 0 for a database with no table yet."""
    version = stored_version(conn)
    if version:
        return version
    tables = _tables(conn)
    if "matches" not in tables:
        return 0
    if has_column(conn, "matches", "error"):
        return 4
    return 3 if "agents" in tables else 2 if "secret" in tables else 1


def newer_store(version: int) -> str | None:
    """Why a store of ``version`` cannot be used by this apdp (one phrase), or None."""
    if version > STORE_SCHEMA:
        return f"made by a newer apdp (schema {version}, this apdp knows {STORE_SCHEMA}): upgrade apdp"
    if version < 0:
        return f"its schema version {version} is no version apdp writes"
    return None


def create_store(conn: sqlite3.Connection) -> None:
    """Make the tables of a new store and write its version."""
    conn.executescript(STORE_SQL)
    conn.execute(f"PRAGMA user_version = {STORE_SCHEMA}")


def migrate_store(conn: sqlite3.Connection) -> int:
    """Bring the store of ``conn`` to :data:`STORE_SCHEMA`, one migration after the other, and write
    its version (in one transaction); return the version it had. A new (empty) database gets the
    current tables."""
    version = store_version(conn)
    if version == 0:
        create_store(conn)
        return 0
    if stored_version(conn) == STORE_SCHEMA:
        return version
    with conn:  # all steps or none
        if not conn.in_transaction:
            conn.execute("BEGIN IMMEDIATE")
        for step in range(version, STORE_SCHEMA):
            STORE_MIGRATIONS[step - 1](conn)
        conn.execute(f"PRAGMA user_version = {STORE_SCHEMA}")
    return version

