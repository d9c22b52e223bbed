"""The referee writes only through files it created itself: a planted symlink is replaced, never
followed; a missing or read-only folder is a one-line error, found before a match is played."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.agents.provenance import Provenance, write_sidecar
from apdp.errors import UserError
from apdp.files import check_writable, open_new, write_atomically
from apdp.referee.record import write_record
from apdp.tournament.logs import RunLog
from apdp.tournament.store import LOCK_FILE, STORE_FILE, ResultsStore, StoreError
from tests.command import apdp

CONFIG: dict[str, Any] = {"format": "apdp-tournament/1", "agents": ["a", "b"], "seed": 0}


def plant(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A symlink at ``tmp_path/name`` to a victim file outside the folder; (link, victim)."""
    victim = tmp_path / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    folder = tmp_path / "out"
    folder.mkdir(exist_ok=True)
    link = folder / name
    link.symlink_to(victim)
    return link, victim


def test_a_planted_symlink_is_replaced_and_its_target_untouched(tmp_path: Path) -> None:
    link, victim = plant(tmp_path, "r.json")
    write_record({"format": "apdp-record/1"}, link)
    assert not link.is_symlink() and json.loads(link.read_text()) == {"format": "apdp-record/1"}
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in link.parent.iterdir()) == ["r.json"]  # no temporary file left
    assert (link.stat().st_mode & 0o777) == 0o644 & ~_umask()


def test_sidecar_and_transcript_are_not_written_through_symlinks(tmp_path: Path) -> None:
    sidecar, victim = plant(tmp_path, "me.json")
    write_sidecar(sidecar.with_suffix(".py"), Provenance(None, None, 0, None, None))
    assert not sidecar.is_symlink() and "model" in json.loads(sidecar.read_text())
    transcript = sidecar.with_suffix(".transcript.jsonl")
    transcript.symlink_to(victim)
    with open_new(transcript) as f:
        f.write("{}\n")
    assert not transcript.is_symlink() and transcript.read_text() == "{}\n"
    assert victim.read_text() == "precious\n"


def test_missing_folder_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"the folder .*nope does not exist; create it first"):
        write_atomically(tmp_path / "nope" / "r.json", "x")
    with pytest.raises(UserError, match="it is a folder"):
        write_atomically(tmp_path, "x")


def test_read_only_folder_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def read_only(path: Any, flags: int, mode: int = 0o777, **kw: Any) -> int:
        if str(path).endswith(".tmp"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, mode, **kw)

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(UserError, match=r"the folder .* is not writable \(Read-only file system\); make it"):
        check_writable(tmp_path / "r.json")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_by_permissions(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    with pytest.raises(UserError, match="is not writable"):
        write_atomically(folder / "r.json", "x")


def test_match_record_into_a_symlink_replaces_the_link(tmp_path: Path) -> None:
    link, victim = plant(tmp_path, "r.json")
    run = apdp("match", "--topology", "france", "--agents", "template", "template", "--tasks", "2",
               "--quiet", "--record", str(link))
    assert run.returncode == 0, run.stderr
    assert victim.read_text() == "precious\n"
    assert not link.is_symlink() and json.loads(link.read_text())["format"] == "apdp-record/1"


def test_match_record_into_a_missing_folder_fails_before_playing(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "r.json"
    run = apdp("match", "--topology", "france", "--agents", "template", "template", "--tasks", "2",
               "--record", str(target))
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"error: cannot write {target}: the folder {target.parent} does not exist; "
        "create it first or choose another path"
    ]
    assert "match on" not in run.stdout and "Traceback" not in run.stderr


def test_match_record_into_a_read_only_folder_fails_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from apdp.cli import main

    real_open = os.open

    def read_only(path: Any, flags: int, mode: int = 0o777, **kw: Any) -> int:
        if str(path).endswith(".tmp"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, mode, **kw)

    monkeypatch.setattr(os, "open", read_only)
    target = tmp_path / "r.json"
    monkeypatch.setattr(sys, "argv", ["apdp", "match", "--topology", "france", "--agents", "template",
                                      "template", "--tasks", "2", "--record", str(target)])
    with pytest.raises(SystemExit) as exit_:
        main()
    out, err = capsys.readouterr()
    assert exit_.value.code == 2
    assert err.strip().splitlines() == [
        f"error: cannot write {target}: the folder {tmp_path} is not writable (Permission denied); "
        "make it writable or choose another path"
    ]
    assert "match on" not in out


@pytest.mark.parametrize("name", [STORE_FILE, STORE_FILE + "-wal", LOCK_FILE])
def test_a_symlinked_store_or_lock_is_refused(tmp_path: Path, name: str) -> None:
    link, victim = plant(tmp_path, name)
    with pytest.raises(StoreError, match="is a symlink") as refused:
        ResultsStore.create_or_resume(link.parent, CONFIG)
    assert "\n" not in str(refused.value)
    if name != LOCK_FILE:
        with pytest.raises(StoreError, match="is a symlink"):
            ResultsStore.open(link.parent)
    assert victim.read_text() == "precious\n"


def test_a_symlinked_run_log_is_refused(tmp_path: Path) -> None:
    link, victim = plant(tmp_path, "tournament.log")
    with pytest.raises(UserError, match="is a symlink"):
        RunLog(link.parent)
    assert victim.read_text() == "precious\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
