"""The commands that read a results store, on a crafted copy of a played one: JSON nested 100,000 deep
in one row, or a ``matches`` view with no end, is one line naming the store (and the match), never a
traceback or a hang; ``apdp tournament-repair`` keeps the other matches (issue 32, point 7)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from apdp.tournament.store import STORE_FILE
from tests.command import apdp

DEEP = "[" * 100_000 + "]" * 100_000
KEY = "switzerland/5/naive/template"
ENDLESS = ("CREATE VIEW matches AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
           "SELECT r.key || i AS key, topology, tournament_seed, seed, agents, profit, winner, faults, record, "
           "finished, error FROM n, real_matches AS r")
#: What each craft does to a copy of the store (``?``: DEEP), and what its error names.
CRAFTS = {
    "deep-faults": ((f"UPDATE matches SET faults = ? WHERE key = '{KEY}'",), f"the faults of match '{KEY}'"),
    "deep-record": ((f"UPDATE matches SET record = ? WHERE key = '{KEY}'",), f"the record of match '{KEY}'"),
    "endless-view": (("ALTER TABLE matches RENAME TO real_matches", ENDLESS), "its matches is a view"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament of two matches."""
    folder = tmp_path_factory.mktemp("played") / "out"
    run = apdp("tournament", "--topology", "ch", "--agents", "naive,template", "--tasks", "3", "--seed", "5",
               "--quiet", "--jobs", "1", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    return folder


def crafted(played: Path, tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(played, folder)
    conn = sqlite3.connect(folder / STORE_FILE)
    with conn:
        for statement in CRAFTS[name][0]:
            conn.execute(statement, (DEEP,) if "?" in statement else ())
    conn.close()
    return folder


def bounded(*args: str) -> subprocess.CompletedProcess[str]:
    """The command, given 120 s (the view with no end held `apdp report` for ever)."""
    command = [sys.executable, "-c", "from apdp.cli import console; console()", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", list(CRAFTS))
def test_every_read_of_a_crafted_store_is_one_line(played: Path, tmp_path: Path, name: str) -> None:
    folder = crafted(played, tmp_path, name)
    said = CRAFTS[name][1]
    reads = [["analyze", str(folder), "--jobs", "1", "--quiet"]]
    if name != "deep-faults":  # a replay of one match reads its record alone
        reads.append(["replay", str(folder), "--match", KEY, "--out", str(tmp_path / "replay.html")])
    if name != "deep-record":  # a report reads the summaries; a record only for its pages
        reads.append(["report", str(folder)])
    for args in reads:
        run = bounded(*args)
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        error = run.stderr.strip()
        assert len(error.splitlines()) == 1 and "Traceback" not in error, error
        assert str(folder / STORE_FILE) in error and said in error, error
    repaired = bounded("tournament-repair", str(folder))
    if name == "endless-view":
        assert repaired.returncode == 2 and said in repaired.stderr and "Traceback" not in repaired.stderr
    else:
        assert repaired.returncode == 0 and "kept 1 match(es)" in repaired.stdout, repaired.stderr
        assert bounded("report", str(folder)).returncode == 0
