"""A crafted results store (values apdp never writes) is one line naming the store and the row, never a
traceback or a hang: JSON nested thousands deep, values of 70 MiB, a ``matches`` view with no end,
computed columns, values of the wrong kind (issue 32, point 7)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord
from apdp.tournament.repair import repair
from apdp.tournament.report import report
from apdp.tournament.schedule import double_round_robin
from apdp.tournament.store import STORE_FILE, ResultsStore, StoreError
from apdp.tournament.stored_json import MAX_DEPTH, MAX_VALUE_BYTES, loads
from tests.records import typed_record

CONFIG: dict[str, Any] = {"format": "apdp-tournament/1", "agents": ["a", "b"], "seed": 0}
SCHEDULE = double_round_robin(["a", "b"], ["france"], 0, 1)
FIRST = SCHEDULE[0].match_id
DEEP = "[" * 100_000 + "]" * 100_000
#: Deeper than a store's values may be, not so deep that the parser itself gives up.
NESTED = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
ENDLESS = ("CREATE VIEW matches AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
           "SELECT r.key || i AS key, topology, tournament_seed, seed, agents, profit, winner, faults, record, "
           "finished, error FROM n, real_matches AS r")


def _record(profit: tuple[float, float]) -> MatchRecord:
    return typed_record({"format": "apdp-record/1", "result": {"profit": list(profit), "winner": 0, "faults": []}})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A store of the two matches of a, b on france (no match played)."""
    store = ResultsStore.create_or_resume(tmp_path / "out", CONFIG)
    store.add_identities({"a": {"origin": "hand-written"}, "b": {"origin": "hand-written"}})
    for m in SCHEDULE:
        store.add(m, _record((10.0, 5.0)))
    store.close()
    return tmp_path / "out"


def craft(folder: Path, *statements: str, value: object = None) -> None:
    conn = sqlite3.connect(folder / STORE_FILE)
    with conn:
        for statement in statements:
            conn.execute(statement, () if value is None or "?" not in statement else (value,))
    conn.close()


def read_all(folder: Path) -> None:
    """Everything a report, a replay or an analysis reads from a store."""
    store = ResultsStore.open(folder)
    try:
        store.config(), store.secret(), store.identities()
        for m in store.matches():
            store.record(m.match_id)
    finally:
        store.close()


def one_line(error: pytest.ExceptionInfo[Exception], *words: str) -> None:
    message = str(error.value)
    assert "\n" not in message and "Traceback" not in message, message
    for word in words:
        assert word in message, message


#: A column of the first match, set to a value, and what the error says.
ROWS: dict[str, tuple[str, object, str]] = {
    "deep faults": ("faults", DEEP, f"the faults of match {FIRST!r} is nested"),
    "nested agents": ("agents", NESTED, f"the agents of match {FIRST!r} is nested"),
    "deep profit": ("profit", DEEP, f"the profits of match {FIRST!r} is nested"),
    "deep record": ("record", DEEP, f"the record of match {FIRST!r} is nested"),
    "long faults": ("faults", "[" + " " * (MAX_VALUE_BYTES + 1) + "]", f"of match {FIRST!r} is larger than 64 MiB"),
    "names that are numbers": ("agents", "[1, 2]", "are not a list of names"),
    "infinite profit": ("profit", "[1e999, 0]", "one finite number per agent"),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_a_crafted_match_is_one_line_naming_it_and_repair_leaves_it_out(folder: Path, name: str) -> None:
    column, value, said = ROWS[name]
    conn = sqlite3.connect(folder / STORE_FILE)
    with conn:
        conn.execute(f"UPDATE matches SET {column} = ? WHERE key = ?", (value, FIRST))
    conn.close()
    with pytest.raises(StoreError) as error:
        read_all(folder)
    one_line(error, str(folder / STORE_FILE), said, f"apdp tournament-repair {folder}")
    if column != "record":  # a report reads the summaries (a record only for its pages)
        with pytest.raises(UserError) as failed:
            report([folder], "json")
        one_line(failed, said)
    assert repair(folder).matches == 1
    read_all(folder)


@pytest.mark.parametrize(("statements", "said", "resume"), [
    (("UPDATE tournament SET config = ?",), "its configuration is nested", True),
    (("UPDATE agents SET identity = ? WHERE name = 'a'",), "the identity of agent 'a' is nested", False),
    (("UPDATE secret SET key = 99999999999",), "its secret is not a key", False),  # bytes(int): 93 GB of zeros
    (("ALTER TABLE matches RENAME TO real_matches", ENDLESS), "its matches is a view", True),
    (("ALTER TABLE matches ADD COLUMN big TEXT AS (printf('%.*c', 900000000, 'x'))",),
     "its matches is a table with computed columns", True),
], ids=["deep-config", "deep-identity", "number-secret", "endless-view", "computed-column"])
def test_a_crafted_store_is_one_line_not_a_traceback_or_a_hang(
    folder: Path, statements: tuple[str, ...], said: str, resume: bool
) -> None:
    craft(folder, *statements, value=DEEP)
    errors: list[BaseException] = []
    reads: list[Callable[[], object]] = [lambda: read_all(folder), lambda: report([folder], "json")]
    if resume:  # (a resume reads the configuration and the matches' keys, not the identities or the key)
        reads.append(lambda: ResultsStore.create_or_resume(folder, CONFIG))
    for read in reads:
        reader = threading.Thread(target=_catch, args=(read, errors), daemon=True)
        reader.start()
        reader.join(60)
        assert not reader.is_alive(), "the read did not end"  # the view with no end hung report
    assert len(errors) == len(reads) and all(isinstance(e, UserError) for e in errors), errors
    for e in errors:
        assert "\n" not in str(e) and said in str(e) and str(folder / STORE_FILE) in str(e), str(e)


def _catch(read: Callable[[], object], errors: list[BaseException]) -> None:
    try:
        read()
    except BaseException as exc:  # (the test looks at what it is)
        errors.append(exc)


def test_stored_json_is_bounded_in_depth_but_reads_what_apdp_writes() -> None:
    assert loads('{"a": [[1, {"b": null}]]}') == {"a": [[1, {"b": None}]]}
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    for text in (NESTED, DEEP, '{"a": ' * 70 + "1" + "}" * 70):
        with pytest.raises(ValueError, match=f"nested more than {MAX_DEPTH} deep"):
            loads(text)
    with pytest.raises(ValueError, match="is no JSON"):
        loads(b"\xff")
