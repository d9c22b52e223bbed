"""How far a run is, for logs and pipes: a plain line every few matches, and the ETA both it and
the progress bar show (the bar's column: :mod:`apdp.tournament.eta_column`).

The ETA is the run's own average pace: the time since this run started over the matches it played,
times the matches left. rich's estimate is the pace over the last few completions; matches end in
bursts (``jobs`` at a time, after a long wait), so it read a burst as the pace of the whole run
(``2/30 ... ETA 0:00:01``, then ``ETA 0:01:05``). No ETA is given before :data:`SETTLED` matches.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import TextIO

from apdp.referee.record_format import MatchRecord
from apdp.tournament.events import TournamentEvents
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.terminal import is_terminal

#: Matches this run must have played before an ETA is given.
SETTLED = 3
#: Lines a run prints off a terminal (about; one every ``ceil(to play / LINES)`` matches).
LINES = 20


def eta_seconds(played: int, elapsed: float, left: int) -> float | None:
    """Seconds left at the run's average pace so far; None until it has played SETTLED matches
    (0 once nothing is left, however few it played)."""
    if left <= 0:
        return 0.0
    if played < SETTLED or elapsed <= 0:
        return None
    return elapsed / played * left


def clock_text(seconds: float | None) -> str:
    """``1:02:03``, or ``-:--:--`` when unknown."""
    if seconds is None:
        return "-:--:--"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}"


class ProgressLines(TournamentEvents):
    """Observer that prints one plain line every few matches when ``stream`` is not a terminal
    (where the progress bar draws nothing); it does nothing on a terminal."""

    def __init__(self, stream: TextIO | None = None, every: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = not is_terminal(self.stream)
        self.every = every
        self.clock = clock
        self.total = self.done = self.resumed = self.faults = self.errors = 0
        self.started = 0.0

    def on_start(self, total: int, done: int) -> None:
        self.total, self.done, self.resumed = total, done, done
        self.started = self.clock()
        if self.every is None:
            self.every = max(1, math.ceil((total - done) / LINES))

    def _step(self) -> None:
        handled = self.done + self.errors - self.resumed
        if self.enabled and (handled % (self.every or 1) == 0 or self.done + self.errors >= self.total):
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        """Where the run is: matches done, faults, errors, time elapsed and the ETA."""
        elapsed = self.clock() - self.started
        eta = eta_seconds(self.done - self.resumed, elapsed, self.total - self.done - self.errors)
        errors = f", {self.errors} not played" if self.errors else ""
        share = 100 * self.done // self.total if self.total else 100
        return (f"tournament: {self.done}/{self.total} matches ({share}%), {self.faults} faults{errors}, "
                f"{clock_text(elapsed)} elapsed, ETA {clock_text(eta)}")

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        self.done += 1
        self.faults += len(record.result.faults)
        self._step()

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        self.errors += 1
        self._step()
