"""Preparing an agent to play, whatever its language: a Python agent needs nothing; an agent
program (:mod:`apdp.agents.program`) is built when its sources changed, and a Java agent's JVM gets
its class-data archive (:mod:`apdp.agents.java.archive`), with which it starts faster.

The build itself runs in the sandbox, a layer above this one: the referee hands it in as a
:data:`Builder`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from apdp.agents.java.archive import ensure_archive
from apdp.agents.program import AgentProgram, ProgramError, is_program, read_program

#: Builds an agent program whose sources changed: the build's error, or None.
Builder = Callable[[AgentProgram], str | None]


def prepare_agent(path: Path, build: Builder) -> str | None:
    """Make the agent of ``path`` ready to play; why it cannot (its fault), or None."""
    if not is_program(path):
        return None
    try:
        program = read_program(path)
        problem = build(program)
    except ProgramError as exc:
        problem = str(exc)
    except (OSError, ValueError, RecursionError, MemoryError) as exc:  # what its files, as they are, caused
        problem = f"its program cannot be read or built from its files ({type(exc).__name__}: {exc})"
    if problem is not None:
        return problem
    ensure_archive(program)  # a Java agent's class data: its JVM starts faster, or without it
    return None
