"""Saying once, in one line, which sandbox protections were off for a tournament's matches.

The records say it (``record.sandbox["unprotected"]``, filled by the agents' processes as they
confine themselves), so the run need not start a process of its own to find out.
"""

from __future__ import annotations

from collections.abc import Callable

from apdp.referee.record_format import MatchRecord
from apdp.sandbox.protections import warning
from apdp.tournament.events import TournamentEvents
from apdp.tournament.schedule import MatchSpec


class SandboxNotice(TournamentEvents):
    """Calls ``say`` with the warning line of the first record that had protections off."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say
        self._said = False

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        if self._said:
            return
        line = warning((record.sandbox or {}).get("unprotected"))
        if line:
            self._said = True
            self._say(line)

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        self.on_match_finished(match, record)
