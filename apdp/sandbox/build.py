"""Building an agent program before it plays: once, in the sandbox, and again when its files change.

The build runs in a confined process like the agent itself, under apdp's limits: its time is the
agent.toml's ``build_timeout`` or ``limits.build_timeout``, whichever is shorter; it writes into a
fresh folder capped like an agent's private one (``limits.disk_mb``, ``limits.disk_files``), whose
regular files and folders are copied into ``.build`` once it succeeds (see
:mod:`apdp.sandbox.confine`). A failed build is remembered with the sources' signature: until a
source changes, the agent's later matches fault at once with the same reason.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from apdp.agents.identity import apdp_version
from apdp.agents.program import (
    BUILD_BOOKKEEPING,
    AgentProgram,
    BuildLock,
    failed_build,
    is_built,
    mark_built,
    mark_failed,
    source_signature,
)
from apdp.files import opened
from apdp.messages.calls import SandboxCall
from apdp.messages.replies import BuildDone
from apdp.sandbox.process import AgentProcess
from apdp.scenario import Limits


def _first_lines(text: str, count: int = 6) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[:count])[:1500]


def ensure_built(program: AgentProgram, limits: Limits) -> str | None:
    """Build ``program`` if its sources changed since its last build; the build's error, or None."""
    if program.build is None:
        return None
    with BuildLock(program):
        signature = source_signature(program.folder)
        if is_built(program, signature):
            return None
        # a failure is remembered for these sources, this apdp and these limits only
        attempt = (f"{signature} {apdp_version()} {limits.build_timeout:g} {limits.disk_mb} {limits.disk_files} "
                   f"{limits.memory_mb}")
        before = failed_build(program, attempt)
        if before is not None:
            return f"{before} (these sources failed to build before: change one to build again)"
        problem = _build(program, limits)
        if problem is None:
            make_executable(program.build_dir)
            mark_built(program, signature)
        else:
            mark_failed(program, attempt, problem)
    return problem


def _build(program: AgentProgram, limits: Limits) -> str | None:
    """Run the build in the sandbox; its error, or None."""
    assert program.build is not None
    timeout = min(program.build_timeout, limits.build_timeout)
    process = AgentProcess(limits.model_copy(update={"output_kb": 64}), build_dir=str(program.build_dir))
    process.start(str(program.folder))
    try:
        result = process.call(SandboxCall("build", str(program.folder)), timeout)
    finally:
        process.close()
    if result.fault is not None:  # killed, perhaps while copying its output: nothing of it is kept
        clear_output(program.build_dir)
        return f"the build failed: {result.fault.message}"
    assert isinstance(result.reply, BuildDone)
    if result.reply.code != 0:
        clear_output(program.build_dir)
        output = _first_lines(result.reply.output)
        return f"the build failed (exit code {result.reply.code}): {output or 'no output'}"
    size, files = output_size(program.build_dir, limits.disk_files)
    if size > limits.disk_mb * 2**20 or files > limits.disk_files:
        clear_output(program.build_dir)
        return (f"the build wrote more than its limits allow ({limits.disk_mb} MiB, {limits.disk_files} files: "
                "limits.disk_mb, limits.disk_files)")
    return None


def output_size(folder: Path, most_files: int) -> tuple[int, int]:
    """(bytes, files and folders) a build left in ``folder``, its bookkeeping aside; links are not
    followed, and counting stops past ``most_files``."""
    size = files = 0
    stack = [str(folder)]
    while stack and files <= most_files:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.name in BUILD_BOOKKEEPING and os.path.dirname(entry.path) == str(folder):
                continue
            files += 1
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.is_file(follow_symlinks=False):
                size += entry.stat(follow_symlinks=False).st_size
    return size, files


def clear_output(folder: Path) -> None:
    """Remove what a build left in ``folder`` (its bookkeeping stays)."""
    import contextlib
    import shutil

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name in BUILD_BOOKKEEPING:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def make_executable(folder: Path) -> None:
    """Give every readable regular file the build wrote the execute bits (a confined build cannot
    change a file's mode); links are never followed."""
    for root, _, files in os.walk(folder, followlinks=False):
        for _, fd in opened(root, files, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK):
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode):
                    readable = st.st_mode & 0o444
                    os.fchmod(fd, st.st_mode | (readable >> 2))
            finally:
                os.close(fd)
