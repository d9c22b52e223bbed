"""The ``apdp`` command as a user runs it: in a process of its own (its installed entry point), with its
exit code and output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def apdp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )
