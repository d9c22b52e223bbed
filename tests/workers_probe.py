"""Play functions for tests of the tournament's worker processes (importable by the workers)."""

from __future__ import annotations

import os
import sys
import time

from apdp.referee.record import referee_error_record
from apdp.referee.record_format import MatchRecord
from apdp.tournament.schedule import MatchSpec


def where_played(match: MatchSpec) -> MatchRecord:
    """A referee error record whose reason says the worker's parent and whether the referee was
    loaded before the worker's first match."""
    record = referee_error_record(match.topology, match.seed, match.agents, "probe")
    record["result"]["referee_error"] = f"{os.getppid()} {'apdp.referee.match' in sys.modules}"
    return MatchRecord.read(record)


def sleep_long(match: MatchSpec) -> MatchRecord:
    """Write this worker's pid to the file named by the match's topology, then sleep a minute."""
    with open(match.topology, "w", encoding="utf-8") as f:
        f.write(str(os.getpid()))
    time.sleep(60)
    return MatchRecord.read(referee_error_record(match.topology, match.seed, match.agents, "slept"))
