"""Tournament events: the runner announces what happens; observers (progress bar, store, log) listen.

The runner calls the hooks of one :class:`TournamentEvents`; :class:`Broadcast` fans them out to
several observers, so the runner knows none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from apdp.tournament.schedule import MatchSpec

if TYPE_CHECKING:
    from apdp.referee.record_format import MatchRecord


class TournamentEvents:
    """No-op observer: subclass it and override the hooks you need.

    Order: ``on_start`` once; for each match ``on_match_started`` then either ``on_match_finished``
    (followed by ``on_match_faulted`` if an agent faulted in it) or ``on_match_error`` (the referee
    could not finish the match: a bug or a lost worker, never an agent's fault); ``on_end`` once.
    """

    def on_start(self, total: int, done: int) -> None:
        """The run begins: ``total`` matches in the schedule, ``done`` of them already stored."""

    def on_match_started(self, match: MatchSpec) -> None:
        """``match`` was handed to the workers (it plays at once, or as soon as one is free)."""

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        """``match`` was played; ``record`` is its full record."""

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        """``match`` was played and at least one agent faulted (see ``record.result.faults``)."""

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        """The referee could not finish ``match``: ``record`` says why (``result.referee_error``); it
        is stored as such, counted by the reports, and a rerun plays it again."""

    def on_end(self, interrupted: bool) -> None:
        """The run is over (``interrupted``: stopped before the end of the schedule)."""


class Broadcast(TournamentEvents):
    """Forwards every event to each observer, in the order given."""

    def __init__(self, observers: Iterable[TournamentEvents]) -> None:
        self.observers = list(observers)

    def _each(self, hook: Callable[[TournamentEvents], None]) -> None:
        """Call ``hook`` on each observer, in order."""
        for o in self.observers:
            hook(o)

    def on_start(self, total: int, done: int) -> None:
        self._each(lambda o: o.on_start(total, done))

    def on_match_started(self, match: MatchSpec) -> None:
        self._each(lambda o: o.on_match_started(match))

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        self._each(lambda o: o.on_match_finished(match, record))

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        self._each(lambda o: o.on_match_faulted(match, record))

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        self._each(lambda o: o.on_match_error(match, record))

    def on_end(self, interrupted: bool) -> None:
        self._each(lambda o: o.on_end(interrupted))


def announce(events: TournamentEvents, match: MatchSpec, record: MatchRecord) -> None:
    """Tell ``events`` how ``match`` ended, by its ``record``: finished (and faulted), or a referee error."""
    if record.referee_error is not None:
        events.on_match_error(match, record)
        return
    events.on_match_finished(match, record)
    if record.result.faults:
        events.on_match_faulted(match, record)


def failed(match: MatchSpec, reason: str) -> MatchRecord:
    """The record of ``match`` when its referee failed before it could make one (its worker died)."""
    from apdp.referee.record import referee_error_record
    from apdp.referee.record_format import MatchRecord

    return MatchRecord.read(referee_error_record(match.topology, match.seed, match.agents, reason))
