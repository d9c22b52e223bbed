"""How networks and agents are looked up: the folders searched, and names matched loosely."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from apdp.errors import UserError


def normalise_name(name: str) -> str:
    """Lower case without separators: ``The-Netherlands`` and ``the_netherlands`` match."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def search_path(env_var: str, defaults: Sequence[Path]) -> list[Path]:
    """The folders in ``$env_var`` (``os.pathsep``-separated), then ``defaults``: those that exist,
    each once, in that order (the first holding a name wins)."""
    dirs = [Path(p) for p in os.environ.get(env_var, "").split(os.pathsep) if p]
    unique: list[Path] = []
    for d in [*dirs, *defaults]:
        if d.is_dir() and all(d.resolve() != u.resolve() for u in unique):
            unique.append(d)
    return unique


@contextmanager
def searched_first(env_var: str, folder: Path | None) -> Iterator[None]:
    """While in the block, ``folder`` is searched before the folders of ``$env_var`` (a command's
    ``--agents-dir``); None changes nothing. UserError if ``folder`` is not a folder."""
    if folder is None:
        yield
        return
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder; create it, or give another")
    before = os.environ.get(env_var)
    os.environ[env_var] = os.pathsep.join([str(folder.resolve()), *([before] if before else [])])
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(env_var, None)
        else:
            os.environ[env_var] = before
