"""An agent's identity at the time it played: its file's hash, where it came from, apdp's version.

Match records (``identities``) and tournament stores (table ``agents``) keep one per agent, so that
a report groups agents by what was played, never by the files present when the report runs::

    {"name": "gen-a1", "file": "gen_a1.py", "sha256": "<hex of the file>",
     "origin": "baseline" | "generated" | "hand-written",
     "provenance": {"model", "strategy", "round", "prompt_hash", "date", ...} | null,
     "apdp": "0.1.0"}
"""

from __future__ import annotations

import functools
from importlib import metadata
from pathlib import Path
from typing import Any

from apdp.agents.discovery import is_bundled
from apdp.agents.files import agent_hash
from apdp.agents.provenance import read_provenance

#: The values of an identity's ``origin``.
ORIGINS = ("baseline", "generated", "hand-written")


@functools.cache
def apdp_version() -> str:
    """The installed apdp's version (``unknown`` when it is run without being installed)."""
    try:
        return metadata.version("apdp")
    except metadata.PackageNotFoundError:
        return "unknown"


def agent_identity(name: str, path: str | Path) -> dict[str, Any]:
    """The identity of agent ``name`` played from the file ``path`` (see the module docstring)."""
    path = Path(path)
    digest = agent_hash(path)
    bundled = is_bundled(path)
    provenance = None if bundled else read_provenance(path, digest)
    origin = "baseline" if bundled else "generated" if provenance is not None else "hand-written"
    return {
        "name": name,
        "file": path.name,
        "sha256": digest,
        "origin": origin,
        "provenance": provenance,
        "apdp": apdp_version(),
    }
