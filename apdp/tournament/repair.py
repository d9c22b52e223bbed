"""Repairing a damaged results store: every row that still reads back whole goes into a new store.

SQLite reads a damaged database a page at a time: a query that touches a broken page fails, the
others work. So each table is read whole if it can be, else row by row (by rowid), and every row
that reads back is copied into a new store made beside the damaged one. The damaged file is then
renamed (``tournament.sqlite.damaged-<time>``), never deleted, and the new store takes its place. A
resume then plays exactly the matches that were lost: their seeds come from the configuration and
the secret, which must both be readable (without them the tournament cannot go on, and nothing is
changed).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from apdp.tournament.migrations import create_store, newer_store, store_version
from apdp.tournament.store import (
    STORE_FILE,
    TABLES,
    StoreError,
    _lock,
    _refuse_symlinks,
    check_tables,
    stored_match,
)
from apdp.tournament.stored_json import bound, loads

#: Columns holding JSON: a row whose JSON does not parse (or nests deeper than a store's values may)
#: is not kept; nor is one holding a value too long to read.
JSON_COLUMNS = ("agents", "profit", "faults", "record", "identity", "config")
#: The columns of a match's summary, in the order :func:`apdp.tournament.store.stored_match` takes them.
SUMMARY = ("key", "topology", "tournament_seed", "seed", "agents", "profit", "winner", "faults", "error")
#: When the largest rowid cannot be read, the scan stops after this many rowids in a row found
#: neither readable nor present.
GIVE_UP_AFTER = 10_000


@dataclass(frozen=True, slots=True)
class Repaired:
    """What a repair did: matches kept, rows that could not be read, where the damaged file went."""

    matches: int
    #: Rows that could not be read; None when their number is unknown (the table's end was lost).
    unreadable: int | None
    damaged: Path


def _whole(row: sqlite3.Row, path: Path) -> bool:
    if "faults" in row.keys():  # noqa: SIM118 (a match: its summary reads back as apdp wrote it)
        try:
            stored_match(tuple(row[c] if c in row.keys() else None for c in SUMMARY), path)  # noqa: SIM118
        except StoreError:
            return False
    for column in JSON_COLUMNS:
        if column in row.keys():  # noqa: SIM118 (a Row's "in" looks at its values)
            try:
                loads(row[column])
            except ValueError:
                return False
    return True


def readable_rows(conn: sqlite3.Connection, table: str, path: Path) -> tuple[list[sqlite3.Row], int | None]:
    """The rows of ``table`` that read back whole, and how many could not be read (None: unknown,
    when the table's largest rowid could not be read either)."""
    try:
        rows = conn.execute(f"SELECT * FROM {table}").fetchall()
        kept = [r for r in rows if _whole(r, path)]
        return kept, len(rows) - len(kept)
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return [], 0
    except sqlite3.DatabaseError:
        pass
    try:
        top: int | None = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    except sqlite3.DatabaseError:
        top = None
    kept, unreadable, rowid, misses = [], 0, 0, 0
    while (rowid < top) if top is not None else (misses < GIVE_UP_AFTER):
        rowid += 1
        try:
            row = conn.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            unreadable += 1
            misses += 1
            continue
        if row is None:
            misses += 1
        elif _whole(row, path):
            kept.append(row)
            misses = 0
        else:
            unreadable += 1
    return kept, unreadable if top is not None else None


def repair(folder: str | Path) -> Repaired:
    """Replace the store of ``folder`` by its readable rows; StoreError if it cannot be repaired."""
    folder = Path(folder)
    path = folder / STORE_FILE
    _refuse_symlinks(path)
    if not path.is_file():
        raise StoreError(f"{folder}: no tournament results here (no {STORE_FILE})")
    lock = _lock(folder)  # no run writes to the folder meanwhile
    try:
        source = bound(sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True))
        source.row_factory = sqlite3.Row
        try:
            check_tables(source, path)  # a view could have no end
            newer = newer_store(store_version(source))
            if newer is not None:  # its tables may hold what this apdp would drop
                raise StoreError(f"{path}: {newer}")
            found = {table: readable_rows(source, table, path) for table in TABLES}
        finally:
            source.close()
        for table, what in (("tournament", "configuration"), ("secret", "secret")):
            if len(found[table][0]) != 1:
                raise StoreError(
                    f"{path} cannot be repaired: its {what} is unreadable, and the matches still to "
                    "play are derived from it; start the tournament anew in another --out folder"
                )
        fresh = folder / f".{STORE_FILE}.repair"
        for leftover in (fresh, fresh.with_name(fresh.name + "-journal")):
            leftover.unlink(missing_ok=True)
        target = sqlite3.connect(fresh)
        try:
            create_store(target)  # the current schema: the rows of an older store fit it
            with target:
                for table, (rows, _) in found.items():
                    for row in rows:
                        columns = ", ".join(row.keys())
                        marks = ", ".join("?" * len(row.keys()))
                        target.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})", tuple(row))
        finally:
            target.close()
        damaged = folder / f"{STORE_FILE}.damaged-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
        for suffix in ("", "-wal", "-shm"):
            old = folder / f"{STORE_FILE}{suffix}"
            if old.exists():
                os.rename(old, damaged.with_name(damaged.name + suffix))
        os.rename(fresh, path)
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{path} cannot be repaired ({exc}); start the tournament anew in another --out folder"
        ) from None
    finally:
        os.close(lock)
    counts = [lost for _, lost in found.values()]
    unreadable = None if None in counts else sum(c for c in counts if c is not None)
    return Repaired(len(found["matches"][0]), unreadable, damaged)
