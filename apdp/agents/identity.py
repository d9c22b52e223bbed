"""An agent's identity at the time it played: its file's hash, where it came from, apdp's version.

Match records (``identities``) and tournament stores (table ``agents``) keep one per agent, so that
a report groups agents by what was played, never by the files present when the report runs::

    {"name": "gen-a1", "file": "gen_a1.py", "sha256": "<hex of the file>",
     "origin": "baseline" | "generated" | "hand-written",
     "provenance": {"model", "strategy", "round", "prompt_hash", "date", ...} | null,
     "apdp": "0.1.0"}

A hand-written agent whose ledger holds a line for its hash that apdp's key did not sign (forged, or
written before apdp signed its ledgers: :func:`apdp.agents.provenance.vouch`) has ``"ledger":
"unsigned"`` too, so that a report can say why it is not counted as generated.
"""

from __future__ import annotations

import functools
from importlib import metadata
from pathlib import Path
from typing import Any

from apdp.agents.discovery import is_bundled
from apdp.agents.files import agent_hash
from apdp.agents.provenance import Vouched, vouch

#: The values of an identity's ``origin``.
ORIGINS = ("baseline", "generated", "hand-written")
#: An identity's ``ledger`` when its ledger holds a line for it that apdp's key did not sign.
UNSIGNED = "unsigned"


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
    vouched = Vouched(None) if bundled else vouch(path, digest)
    provenance = vouched.provenance
    origin = "baseline" if bundled else "generated" if provenance is not None else "hand-written"
    identity = {
        "name": name,
        "file": path.name,
        "sha256": digest,
        "origin": origin,
        "provenance": provenance,
        "apdp": apdp_version(),
    }
    if provenance is None and vouched.unsigned:
        identity["ledger"] = UNSIGNED
    return identity
