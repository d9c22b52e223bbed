"""Building an agent program before it plays: once, in the sandbox, and again when its files change."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from apdp.program import AgentProgram, BuildLock, is_built, mark_built
from apdp.sandbox.process import AgentProcess


def _first_lines(text: str, count: int = 6) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[:count])[:1500]


def ensure_built(program: AgentProgram, memory_mb: int, disk_mb: int, processes: int, open_files: int,
                 confined: bool = True) -> str | None:
    """Build ``program`` if its sources changed since its last build; the build's error, or None."""
    if program.build is None:
        return None
    with BuildLock(program):
        if is_built(program):
            return None
        process = AgentProcess(memory_mb, 64, disk_mb, processes, open_files, confined,
                               (str(program.build_dir),))
        process.start(str(program.folder))
        try:
            result = process.call("build", str(program.folder), program.build_timeout)
        finally:
            process.stop()
        if result.fault is not None:
            return f"the build failed: {result.fault.message}"
        assert result.reply is not None
        code = int(result.reply.get("code", 1))
        if code != 0:
            output = _first_lines(str(result.reply.get("output", "")))
            return f"the build failed (exit code {code}): {output or 'no output'}"
        make_executable(program.build_dir)
        mark_built(program)
    return None


def make_executable(folder: Path) -> None:
    """Give every readable regular file the build wrote the execute bits (a confined build cannot
    change a file's mode); links are never followed."""
    for root, _, files in os.walk(folder, followlinks=False):
        for name in files:
            try:
                fd = os.open(os.path.join(root, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode):
                    readable = st.st_mode & 0o444
                    os.fchmod(fd, st.st_mode | (readable >> 2))
            finally:
                os.close(fd)
