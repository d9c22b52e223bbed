"""How networks and agents are looked up: the folders searched, and names matched loosely."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path


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
