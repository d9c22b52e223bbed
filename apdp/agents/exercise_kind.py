"""Which game an agent plays, told without running it: on the Logist platform an agent's class decides
its kind (the first of ``ReactiveBehavior``, ``DeliberativeBehavior``, ``CentralizedBehavior``,
``AuctionBehavior`` it implements), whatever the configuration's ``mode=`` says, and agents of
different kinds may share a round. apdp does the same: a Logist agent's kind is the one ``apdp
logist add`` / ``import`` recorded; a Python agent's is the exercise's agent class its file's classes
subclass (read from its source, never imported here: the referee runs no agent code).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from apdp.agents.discovery import AGENT_MODULE
from apdp.agents.java.names import installed_behavior
from apdp.agents.program import PROGRAM_FILE
from apdp.agents.source import base_name, class_bases, parsed, read_source

#: The base class of each exercise's Python agents (apdp.ReactiveAgent, ...).
BASES = {"ReactiveAgent": "reactive", "DeliberativeAgent": "deliberative", "CentralizedAgent": "centralized",
         "Agent": "auction"}


def python_kind(path: Path) -> str | None:
    """The game of the Python agent in ``path`` (a file, or a folder's agent.py): the one kind among
    reactive, deliberative, centralized and auction its classes subclass directly; None when its
    source names none of them, several, or cannot be read. A large source is read by its class
    lines (:func:`apdp.agents.source.class_bases`), never parsed whole."""
    file = path / AGENT_MODULE if path.is_dir() else path
    try:
        info = file.stat()
    except OSError:
        return None
    return _kind_of(str(file), info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _kind_of(file: str, _size: int, _mtime: int) -> str | None:
    """The kind of ``file`` as it is now (its size and time of change key the cache: a round asks
    for each of its agents' kinds, a field for every round)."""
    source = read_source(Path(file))
    if source is None:
        return None
    tree = parsed(source)
    if tree is None:
        names = class_bases(source)
    else:
        names = [name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                 for name in map(base_name, node.bases) if name is not None]
    kinds = {BASES[name] for name in names if name in BASES}
    return kinds.pop() if len(kinds) == 1 else None


def agent_kind(path: Path) -> str | None:
    """The game the agent of ``path`` plays (reactive, deliberative, centralized or auction), as its
    own class says; None when that cannot be told (its exercise is then the round's)."""
    if path.is_dir() and (path / PROGRAM_FILE).is_file():
        return installed_behavior(path)  # None for a program apdp logist did not install
    return python_kind(path)
