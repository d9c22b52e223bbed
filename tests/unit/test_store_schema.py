"""Schema versions of the results store (apdp.tournament.migrations): a new store carries the current
one; a store of each earlier version (made with that version's CREATE statements, as it had no
version) reads, replays and verifies as it is, and resumes (migrated to the current version) or says
in one line why it cannot; a store of a newer apdp is one line. (The command on such stores:
tests/integration/test_store_schema_cli.py.)"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from apdp import Stop, Task, Vehicle, load_topology, plan_from_stops
from apdp.check.verify import verify_record
from apdp.cli.replay import stored_record
from apdp.errors import UserError
from apdp.game.company import Company
from apdp.game.plan import plans_to_json
from apdp.pages.replay import replay_html
from apdp.referee.record import RECORD_FORMAT, settle
from apdp.tournament.migrations import STORE_SCHEMA, store_version
from apdp.tournament.repair import repair
from apdp.tournament.report import report
from apdp.tournament.schedule import MatchSpec, double_round_robin
from apdp.tournament.store import STORE_FILE, ResultsStore

CONFIG: dict[str, Any] = {"format": "apdp-tournament/1", "agents": ["a", "b"], "topologies": ["france"],
                          "seed": 0, "repeat": 1}
#: The two matches of the tournament of CONFIG, both stored.
SCHEDULE = double_round_robin(CONFIG["agents"], CONFIG["topologies"], CONFIG["seed"], CONFIG["repeat"])
KEY = SCHEDULE[0].match_id
KEYS = {m.match_id for m in SCHEDULE}

_V1 = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    config TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    key TEXT PRIMARY KEY,
    topology TEXT NOT NULL,
    tournament_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    agents TEXT NOT NULL,
    profit TEXT NOT NULL,
    winner TEXT,
    faults TEXT NOT NULL,
    record TEXT NOT NULL,
    finished TEXT NOT NULL
);
"""
_SECRET = """
CREATE TABLE IF NOT EXISTS secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB NOT NULL
);
"""
_AGENTS = """
CREATE TABLE IF NOT EXISTS agents (
    name TEXT PRIMARY KEY,
    identity TEXT NOT NULL
);
"""
#: The CREATE statements of each earlier store version (02b2022, e4e6a6d, 1c8a277), none versioned.
EARLIER = {1: _V1, 2: _SECRET + _V1, 3: _SECRET + _AGENTS + _V1}


def a_record(match: MatchSpec) -> dict[str, Any]:
    """A whole record (no ``settlement``: as records of the earlier stores were written)."""
    fr = load_topology("france")
    companies = [Company("A", (Vehicle("a", "Paris", 10, 5),)), Company("B", (Vehicle("b", "Lyon", 10, 3),))]
    t0, t1 = Task(0, "Paris", "Lyon", 1), Task(1, "Lyon", "Marseille", 1)
    plans = [plan_from_stops(fr, companies[0].vehicles[0], [Stop.pickup(t0), Stop.deliver(t0)]),
             plan_from_stops(fr, companies[1].vehicles[0], [Stop.pickup(t1), Stop.deliver(t1)])]
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "topology": match.topology, "seed": match.seed, "agents": list(match.agents),
        "companies": [c.to_json() for c in companies], "tasks": [t0.to_json(), t1.to_json()],
        "auctions": [{"task": 0, "bids": [1000, 3000], "winner": 0},
                     {"task": 1, "bids": [2500, 2000], "winner": 1}],
        "plans": [plans_to_json([plans[0]]), plans_to_json([plans[1]])],
    }
    record["result"] = settle(record, fr, companies, [])
    return record


def earlier_store(folder: Path, version: int, config: dict[str, Any] = CONFIG) -> dict[str, Any]:
    """A store of ``version`` as that apdp made it, with the tournament's matches; the record of KEY."""
    records = {m.match_id: a_record(m) for m in SCHEDULE}
    with sqlite3.connect(folder / STORE_FILE) as db:
        db.executescript(EARLIER[version])
        db.execute("INSERT INTO tournament VALUES (1, ?, 'then')", (json.dumps(config, sort_keys=True),))
        for m in SCHEDULE:
            record = records[m.match_id]
            result = record["result"]
            winner = None if result["winner"] is None else record["agents"][result["winner"]]
            db.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, '[]', ?, 'then')",
                       (m.match_id, m.topology, m.tournament_seed, m.seed, json.dumps(record["agents"]),
                        json.dumps(result["profit"]), winner, json.dumps(record)))
        if version >= 2:
            db.execute("INSERT INTO secret VALUES (1, ?)", (b"k" * 32,))
        if version >= 3:
            db.execute("INSERT INTO agents VALUES ('a', '{\"sha256\": \"0\"}')")
    db.close()
    return records[KEY]


def schema(folder: Path) -> tuple[int, list[str]]:
    """The store's user_version and its tables and columns, read without apdp."""
    with sqlite3.connect(folder / STORE_FILE) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        columns = [f"{t}.{c[1]}" for t in tables for c in db.execute(f"PRAGMA table_info({t})")]
    db.close()
    return version, columns


def test_a_new_store_carries_the_current_schema_version(tmp_path: Path) -> None:
    ResultsStore.create_or_resume(tmp_path, CONFIG).close()
    version, columns = schema(tmp_path)
    assert version == STORE_SCHEMA == 4
    assert "matches.error" in columns and "agents.identity" in columns and "secret.key" in columns
    repair(tmp_path)
    assert schema(tmp_path) == (version, columns)  # a repaired store is a current one too


@pytest.mark.parametrize("version", sorted(EARLIER))
def test_an_earlier_store_reads_replays_verifies_and_resumes(tmp_path: Path, version: int) -> None:
    record = earlier_store(tmp_path, version)
    before = schema(tmp_path)
    store = ResultsStore.open(tmp_path)
    assert store_version(store.conn) == version
    assert {m.match_id for m in store.matches()} == KEYS and store.finished_keys() == KEYS
    assert (store.secret() is None) == (version < 2) and bool(store.identities()) == (version >= 3)
    store.close()
    assert json.loads(report([tmp_path], "json"))
    stored = stored_record(tmp_path, KEY)
    assert stored == record and verify_record(stored) == []
    assert "<html" in replay_html(stored).lower()
    assert schema(tmp_path) == before  # reading writes nothing

    resumed = ResultsStore.create_or_resume(tmp_path, CONFIG)
    assert resumed.finished_keys() == KEYS and resumed.secret() is not None
    assert resumed.record(KEY) == record
    resumed.close()
    version_now, columns = schema(tmp_path)
    assert version_now == STORE_SCHEMA and "matches.error" in columns and "agents.identity" in columns


def test_an_earlier_store_that_cannot_resume_says_why_in_one_line_and_is_left_as_it_was(tmp_path: Path) -> None:
    earlier_store(tmp_path, 1, {**CONFIG, "scenario": {"tasks": 50}})
    before = schema(tmp_path)
    with pytest.raises(UserError, match="played by an earlier apdp") as err:
        ResultsStore.create_or_resume(tmp_path, {**CONFIG, "scenario": {"tasks": 50, "settlement": "delivered"}})
    assert "\n" not in str(err.value) and "still read" in str(err.value)
    assert schema(tmp_path) == before


def test_a_store_of_a_newer_apdp_is_one_line(tmp_path: Path) -> None:
    ResultsStore.create_or_resume(tmp_path, CONFIG).close()
    with sqlite3.connect(tmp_path / STORE_FILE) as db:
        db.execute(f"PRAGMA user_version = {STORE_SCHEMA + 1}")
    db.close()
    for use in (ResultsStore.open, lambda f: ResultsStore.create_or_resume(f, CONFIG), repair):
        with pytest.raises(UserError) as err:
            use(tmp_path)
        message = str(err.value)
        assert f"made by a newer apdp (schema {STORE_SCHEMA + 1}" in message and "upgrade apdp" in message
        assert "\n" not in message
