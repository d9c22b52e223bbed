"""Results stores and match records that earlier apdp wrote (tests/data/earlier, each made by running
that commit's own code: its README says how) read, replay and verify with this apdp, through the
commands a user runs; a resume either goes on with the tournament or says in one line why it cannot,
and a refused resume, like every read, leaves the store's file as it was.

The stores go back to the first one (no ``secret``, ``agents`` nor ``matches.error``), the records to
apdp 0.1's (no ``settlement``, a network named or embedded in a topology file's form), and include a
Logist tournament stored before its configuration said how its tasks were drawn (``task_draw``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from apdp.tournament.migrations import STORE_SCHEMA
from apdp.tournament.store import STORE_FILE, ResultsStore
from tests.command import apdp
from tests.paths import DATA, LOGIST

EARLIER = DATA / "earlier"

#: Each store's folder and the options its tournament was played with (besides the agents and tasks).
STORES = {
    "store1-19b49c8": ["--topology", "switzerland", "--seed", "0"],
    "store2-d069b4f": ["--topology", "switzerland", "--seed", "4270890719901018268"],
    "store3-feebf1b": ["--topology", "switzerland", "--seed", "1061989440330035605"],
    "store4-020c506": ["--topology", "switzerland", "--seed", "1624476080283081445"],
    # played from a copy of tests/data/logist/config in /tmp: the same configuration
    "store4-logist-b651e12": ["--scenario", str(LOGIST / "config" / "auction_switzerland.xml"), "--seed", "7"],
}
#: Every record file, and whether today's apdp can still check it.
RECORDS = {
    "record-feebf1b.json": True,
    "record-628cd77.json": True,
    "record-628cd77-fault.json": True,
    "record-b651e12.json": True,
    "record-b651e12-logist.json": True,
    "record-020c506.json": True,
    # a network given as a file was named, not embedded: a record names shipped networks only now
    "record-19b49c8-by-name.json": False,
}


def _copy(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    shutil.copytree(EARLIER / name, folder)
    return folder


def _digest(folder: Path) -> str:
    return hashlib.sha256((folder / STORE_FILE).read_bytes()).hexdigest()


def _rows(folder: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{folder / STORE_FILE}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT key, topology, tournament_seed, seed, agents, profit, winner, faults, record, "
                          "finished FROM matches ORDER BY key").fetchall()
    db.close()
    return rows


def _match_ids(folder: Path) -> list[str]:
    store = ResultsStore.open(folder)
    try:
        return [m.match_id for m in store.matches()]
    finally:
        store.close()


def _no_traceback(run: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr


@pytest.mark.parametrize("name", sorted(STORES))
def test_an_earlier_store_reports_as_it_is(name: str, tmp_path: Path) -> None:
    folder = _copy(name, tmp_path)
    before = _digest(folder)
    for style in ("table", "markdown", "csv", "json"):
        run = apdp("report", str(folder), "--format", style)
        assert run.returncode == 0, run.stdout + run.stderr
        _no_traceback(run)
        assert "naive" in run.stdout and "honest" in run.stdout
    assert _digest(folder) == before


@pytest.mark.parametrize("name", sorted(STORES))
def test_each_match_of_an_earlier_store_replays_and_verifies(name: str, tmp_path: Path) -> None:
    folder = _copy(name, tmp_path)
    before = _digest(folder)
    ids = _match_ids(folder)
    assert len(ids) == 2
    for k, match_id in enumerate(ids):
        page = tmp_path / f"replay-{k}.html"
        run = apdp("replay", str(folder), "--match", match_id, "--out", str(page))
        assert run.returncode == 0, run.stdout + run.stderr
        assert page.stat().st_size > 10_000
        store = ResultsStore.open(folder)
        try:
            record = store.record(match_id)
        finally:
            store.close()
        assert record is not None
        file = tmp_path / f"record-{k}.json"
        file.write_text(json.dumps(record), encoding="utf-8")
        run = apdp("verify", str(file))
        assert run.returncode == 0 and ": valid (4 tasks, 2 agents)" in run.stdout, run.stdout + run.stderr
    assert _digest(folder) == before


@pytest.mark.parametrize("name", sorted(STORES))
def test_an_earlier_store_resumes_or_says_in_one_line_why_not(name: str, tmp_path: Path) -> None:
    folder = _copy(name, tmp_path)
    before, rows = _digest(folder), _rows(folder)
    run = apdp("tournament", *STORES[name], "--agents", "naive,honest", "--tasks", "4", "--jobs", "1",
               "--quiet", "--out", str(folder))
    _no_traceback(run)
    if run.returncode == 0:  # resumed: nothing left to play, and nothing stored was lost
        assert "(0 played now, 2 resumed" in run.stdout, run.stdout
        assert _rows(folder) == rows
    else:
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert f"{folder} holds a tournament" in run.stderr and "--out" in run.stderr, run.stderr
        assert _digest(folder) == before
    assert apdp("report", str(folder)).returncode == 0  # and its results still read


def test_the_last_store_before_versions_resumes(tmp_path: Path) -> None:
    """The store apdp wrote just before stores carried a version is played by today's rules: it
    resumes and then carries the current version, unless one of its agents' files changed since (then
    one line says which, and the store stays as it was)."""
    folder = _copy("store4-020c506", tmp_path)
    run = apdp("tournament", *STORES["store4-020c506"], "--agents", "naive,honest", "--tasks", "4", "--jobs", "1",
               "--quiet", "--out", str(folder))
    assert run.returncode == 0 or "the file of agent" in run.stderr, run.stdout + run.stderr
    with sqlite3.connect(f"file:{folder / STORE_FILE}?mode=ro", uri=True) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    db.close()
    assert version == (STORE_SCHEMA if run.returncode == 0 else 0)  # a resume writes the version, a refusal nothing


def test_an_older_logist_store_does_not_resume(tmp_path: Path) -> None:
    """A Logist tournament stored before its configuration said how its tasks were drawn was played
    with the platform's draw and its generator as agents found it: today's apdp cannot play the rest
    alike, whichever draw it is asked for."""
    folder = _copy("store4-logist-b651e12", tmp_path)
    before = _digest(folder)
    for draw in ([], ["--platform-tasks"]):
        run = apdp("tournament", *STORES["store4-logist-b651e12"], *draw, "--agents", "naive,honest",
                   "--tasks", "4", "--jobs", "1", "--quiet", "--out", str(folder))
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stdout + run.stderr
        _no_traceback(run)
    assert _digest(folder) == before


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_an_earlier_record_verifies_and_replays(name: str, tmp_path: Path) -> None:
    file = EARLIER / name
    before = file.read_bytes()
    page = tmp_path / "replay.html"
    verified = apdp("verify", str(file))
    replayed = apdp("replay", str(file), "--out", str(page))
    for run in (verified, replayed):
        _no_traceback(run)
    if RECORDS[name]:
        assert verified.returncode == 0 and ": valid (4 tasks, 2 agents)" in verified.stdout, verified.stdout
        assert replayed.returncode == 0 and page.stat().st_size > 10_000, replayed.stderr
    else:  # one line naming the network it cannot find
        assert verified.returncode == 1 and "topology:" in verified.stdout and "tiny" in verified.stdout
        assert replayed.returncode == 2 and len(replayed.stderr.strip().splitlines()) == 1, replayed.stderr
        assert "tiny" in replayed.stderr
    assert file.read_bytes() == before


def test_a_faulted_winner_of_an_earlier_record_keeps_its_bids() -> None:
    """Settled by the rule of its time ("won", no ``settlement`` field): the faulted agent kept the
    bids it won, and the record verifies by that rule, not today's."""
    record = json.loads((EARLIER / "record-628cd77-fault.json").read_text(encoding="utf-8"))
    assert "settlement" not in record and record["result"]["faults"][0]["agent"] == 0
    assert record["result"]["revenue"][0] > 0
    run = apdp("verify", str(EARLIER / "record-628cd77-fault.json"))
    assert run.returncode == 0, run.stdout + run.stderr
