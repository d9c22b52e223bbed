"""No Python process apdp starts looks for modules in the folder it is run from.

A user who runs apdp from their agents' folder has files there, and an agent may be called after a
module (``glob.py``, ``json.py``, ``numpy.py``). Found before the real module by the zygote, a worker
pool's fork server or resource tracker, or a worker, such a file would run outside the sandbox (as the
user, with their secret key at hand, before any agent is confined). Each file here leaves a mark when
imported where it can write (a confined agent process cannot: its mark would fail)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.namesakes import plant_namesakes

pytestmark = pytest.mark.sandbox

APDP = str(Path(sys.executable).with_name("apdp"))  # the installed command, as a user runs it


@pytest.fixture
def shadowed_folder(tmp_path: Path) -> tuple[Path, Path]:
    """(a folder full of modules' namesakes to run apdp from, the folder their marks go to)."""
    folder, marks = tmp_path / "agents-here", tmp_path / "marks"
    plant_namesakes(folder, marks)
    return folder, marks


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert Path(APDP).is_file(), f"the installed command {APDP} is missing"
    return subprocess.run([APDP, *args], cwd=folder, capture_output=True, text=True, timeout=300)


def test_a_match_run_from_such_a_folder_imports_none_of_it(shadowed_folder: tuple[Path, Path]) -> None:
    folder, marks = shadowed_folder
    run = _run(folder, "match", "--agents", "template", "naive", "--topology", "france", "--tasks", "3",
               "--seed", "1")
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in marks.iterdir()) == []


def test_a_tournament_run_from_such_a_folder_imports_none_of_it(
    shadowed_folder: tuple[Path, Path], tmp_path: Path
) -> None:
    folder, marks = shadowed_folder
    run = _run(folder, "tournament", "--topology", "france", "--agents", "template,naive", "--tasks", "3",
               "--seed", "1", "--quiet", "--out", str(tmp_path / "results"))
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in marks.iterdir()) == []
