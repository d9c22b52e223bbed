"""Records for tests that need only a few of a record's fields: the rest filled in, empty."""

from __future__ import annotations

from typing import Any

from apdp.referee.record_format import MatchRecord

_FAULT = {"agent": 0, "kind": "exception", "phase": "bid", "task": None, "message": ""}


def typed_record(partial: dict[str, Any]) -> MatchRecord:
    """The record of ``partial`` (some fields of a record's JSON, ``result`` perhaps in part)."""
    agents = partial.get("agents", ["a", "b"])
    n = len(agents)
    given = partial.get("result", {})
    result = {"revenue": [0.0] * n, "cost": [0.0] * n, "profit": [0.0] * n, "winner": None, "faults": [], **given}
    result["faults"] = [{**_FAULT, **f} for f in result["faults"]]
    empty = {"format": "apdp-record/1", "topology": "france", "seed": 0, "agents": agents, "companies": [],
             "tasks": [], "auctions": [], "plans": [None] * n}
    return MatchRecord.read({**empty, **partial, "result": result})
