"""A damaged or read-only results store: one line instead of a traceback, and nothing stored lost.

A resume, a report or a key lookup on a store with a damaged page says so in one line and leaves
the file as it was; ``apdp tournament-repair`` keeps every readable match (and the damaged file
beside them), after which a resume plays exactly what was lost and ends as an undamaged run would.
A report reads results in a folder it cannot write.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from apdp.tournament.store import STORE_FILE, ResultsStore

APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]
TOURNAMENT = ["tournament", "--topology", "ch", "--agents", "naive,template", "--tasks", "3", "--seed", "5",
              "--quiet", "--jobs", "1"]


def apdp(*args: str, user: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(user or []), *APDP, *args], capture_output=True, text=True, timeout=240)


def one_line_error(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode == 2, run.stdout + run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr, run.stderr
    for word in words:
        assert word in run.stderr, run.stderr


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def outcomes(folder: Path) -> list[tuple[Any, ...]]:
    store = ResultsStore.open(folder)
    try:
        return [(m.match_id, m.seed, m.profit, m.winner) for m in store.matches()]
    finally:
        store.close()


def damage_a_match(folder: Path) -> None:
    """Overwrite one leaf page of the matches table (a page holding some of the stored matches)."""
    path = folder / STORE_FILE
    conn = sqlite3.connect(path)
    try:
        pages = conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'matches' AND pagetype = 'leaf' ORDER BY pageno"
        ).fetchall()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table to find a page of the matches")
    finally:
        conn.close()
    assert len(pages) >= 2, "the matches should span several pages"
    with open(path, "r+b") as f:
        f.seek((pages[-1][0] - 1) * size)
        f.write(b"\xff" * 512)


def damage_a_record(folder: Path) -> None:
    """Overwrite a few bytes inside a match's record, the pages intact: the summaries a report
    reads are sound, the record a replay reads is not (neither JSON nor UTF-8)."""
    path = folder / STORE_FILE
    data = path.read_bytes()
    at = data.index(b'"auctions":')
    path.write_bytes(data[:at] + b"\xff" * 16 + data[at + 16:])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament of two matches."""
    folder = tmp_path_factory.mktemp("played") / "out"
    run = apdp(*TOURNAMENT, "--out", str(folder))
    assert run.returncode == 0, run.stderr
    return folder


def test_a_damaged_store_is_one_line_changes_nothing_and_repairs_to_the_same_results(
    played: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "out"
    shutil.copytree(played, folder)
    damage_a_match(folder)
    before = digest(folder / STORE_FILE)

    one_line_error(apdp(*TOURNAMENT, "--out", str(folder)), "is damaged", "apdp tournament-repair")
    one_line_error(apdp("report", str(folder)), "is damaged")
    assert digest(folder / STORE_FILE) == before  # nothing written to it

    repaired = apdp("tournament-repair", str(folder))
    assert repaired.returncode == 0, repaired.stderr
    assert "kept 1 match(es)" in repaired.stdout
    (kept_aside,) = [p for p in folder.glob(f"{STORE_FILE}.damaged-*") if not p.name.endswith(("-wal", "-shm"))]
    assert digest(kept_aside) == before  # the damaged file is kept, unchanged

    resumed = apdp(*TOURNAMENT, "--out", str(folder))
    assert resumed.returncode == 0, resumed.stderr
    assert "1 played now, 1 resumed" in resumed.stdout
    assert outcomes(folder) == outcomes(played)


def damaged_copy(played: Path, tmp_path: Path, damage: Callable[[Path], None]) -> tuple[Path, str]:
    """A copy of ``played`` in ``tmp_path/out`` damaged by ``damage``, and its file's digest."""
    folder = tmp_path / "out"
    shutil.copytree(played, folder)
    damage(folder)
    return folder, digest(folder / STORE_FILE)


def test_every_read_of_a_damaged_store_says_so_in_one_line(played: Path, tmp_path: Path) -> None:
    folder, before = damaged_copy(played, tmp_path, damage_a_match)
    page = tmp_path / "report.html"
    for args in (["report", str(folder)], ["report", str(folder), "--format", "json"],
                 ["report", str(folder), "--format", "html", "--out", str(page)],
                 ["report", str(folder), "--format", "html", "--out", str(page), "--replays"],
                 ["replay", str(folder), "--out", str(tmp_path / "replay.html")],
                 ["replay", str(folder), "--match", "ch/5/naive/template", "--out", str(tmp_path / "replay.html")],
                 ["tournament-secret", str(folder)]):
        one_line_error(apdp(*args), "is damaged", f"apdp tournament-repair {folder}")
    assert not page.exists() and not (tmp_path / "replay.html").exists()
    assert digest(folder / STORE_FILE) == before


def test_a_damaged_record_is_said_by_the_reads_of_records(played: Path, tmp_path: Path) -> None:
    folder, before = damaged_copy(played, tmp_path, damage_a_record)
    page = tmp_path / "report.html"
    one_line_error(apdp("report", str(folder), "--format", "html", "--out", str(page), "--replays"),
                   "is damaged", "is unreadable", f"apdp tournament-repair {folder}")
    assert not page.exists()
    keys = [m.match_id for m in ResultsStore.open(folder).matches()]
    runs = [apdp("replay", str(folder), "--match", key, "--out", str(tmp_path / "replay.html")) for key in keys]
    assert sorted(run.returncode for run in runs) == [0, 2]  # one record damaged, the other sound
    one_line_error(next(run for run in runs if run.returncode), "is damaged", "apdp tournament-repair")
    assert digest(folder / STORE_FILE) == before


def test_a_store_whose_key_is_unreadable_is_not_repaired(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    shutil.copytree(played, folder)
    conn = sqlite3.connect(folder / STORE_FILE)
    try:
        (page,) = conn.execute("SELECT pageno FROM dbstat WHERE name = 'secret'").fetchone()
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table")
    finally:
        conn.close()
    with open(folder / STORE_FILE, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xff" * 512)
    before = digest(folder / STORE_FILE)
    one_line_error(apdp("tournament-repair", str(folder)), "cannot be repaired", "its secret is unreadable")
    assert digest(folder / STORE_FILE) == before and not list(folder.glob("*.damaged-*"))


def _reader() -> list[str]:
    """Run as a user who cannot write the results (root writes anywhere, so another user)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot read as another user")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


KILLED_WRITER = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA wal_autocheckpoint = 0")
with conn:
    conn.execute("UPDATE matches SET winner = 'from-the-wal' WHERE rowid = 1")
os._exit(0)  # killed: the change is in the WAL only, never checkpointed
"""
READER = "from apdp.tournament.store import ResultsStore; print([m.winner for m in ResultsStore.open({!r}).matches()])"


@pytest.mark.parametrize("unfinished", [False, True], ids=["closed", "killed-writer"])
def test_a_report_reads_a_folder_it_cannot_write(played: Path, unfinished: bool) -> None:
    user = _reader()
    base = Path(tempfile.mkdtemp(prefix="apdp-read-only-"))  # reachable by that other user
    try:
        folder = base / "out"
        shutil.copytree(played, folder)
        if unfinished:
            subprocess.run([sys.executable, "-c", KILLED_WRITER, str(folder / STORE_FILE)], check=True)
            assert (folder / f"{STORE_FILE}-wal").stat().st_size > 0
        for path in folder.iterdir():
            path.chmod(0o444)
        folder.chmod(0o555)
        base.chmod(0o755)
        run = apdp("report", str(folder), "--format", "json", user=user)
        assert run.returncode == 0, run.stderr
        assert "naive" in run.stdout and "template" in run.stdout
        if unfinished:  # the WAL's content is read, not skipped
            seen = subprocess.run([*user, sys.executable, "-c", READER.format(str(folder))],
                                  capture_output=True, text=True, timeout=60)
            assert "from-the-wal" in seen.stdout, seen.stderr
    finally:
        for path in [base, *base.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(base)
