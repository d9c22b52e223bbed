"""``apdp report`` on results stores of other schema versions (tests/unit/test_store_schema.py makes
them): the oldest reads, as it is; one of a newer apdp is one line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from apdp.tournament.migrations import STORE_SCHEMA
from apdp.tournament.store import STORE_FILE
from tests.command import apdp
from tests.unit.test_store_schema import earlier_store, schema


def test_report_reads_the_oldest_store_and_writes_nothing_to_it(tmp_path: Path) -> None:
    earlier_store(tmp_path, 1)
    before = schema(tmp_path)
    done = apdp("report", str(tmp_path), "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert "\na," in done.stdout or "\nb," in done.stdout
    assert schema(tmp_path) == before


def test_report_of_a_store_of_a_newer_apdp_is_one_line(tmp_path: Path) -> None:
    earlier_store(tmp_path, 3)
    with sqlite3.connect(tmp_path / STORE_FILE) as db:
        db.execute(f"PRAGMA user_version = {STORE_SCHEMA + 1}")
    db.close()
    done = apdp("report", str(tmp_path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert f"made by a newer apdp (schema {STORE_SCHEMA + 1}" in done.stderr and "upgrade apdp" in done.stderr
