"""The code stays ruff- and mypy-clean (both configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("tool", [["ruff", "check", "."], ["mypy"]], ids=["ruff", "mypy"])
def test_static_checks_pass(tool: list[str]) -> None:
    if shutil.which(tool[0]) is None and not (Path(sys.executable).parent / tool[0]).exists():
        pytest.fail(f"{tool[0]} is not installed: pip install -e '.[test]'")
    exe = str(Path(sys.executable).parent / tool[0]) if (Path(sys.executable).parent / tool[0]).exists() else tool[0]
    run = subprocess.run([exe, *tool[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
