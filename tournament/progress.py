"""The progress bar of a run: matches done of total, faults so far, elapsed time and ETA.

Drawn with rich, on stderr, only when stderr is a terminal (never in CI logs or pipes).
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tournament.events import Record, TournamentEvents
from tournament.schedule import MatchSpec


class ProgressBar(TournamentEvents):
    """Observer that draws the bar; it does nothing when stderr is not a terminal."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.faults = 0
        self.errors = 0
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def on_start(self, total: int, done: int) -> None:
        if not self.enabled:
            return
        self._progress = Progress(
            TextColumn("[bold]tournament"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("faults {task.fields[faults]}"),
            TextColumn("{task.fields[errors]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self._task = self._progress.add_task("", total=total, completed=done, faults=0, errors="")
        self._progress.start()

    def _update(self, advance: int) -> None:
        if self._progress is not None and self._task is not None:
            errors = f"errors {self.errors}" if self.errors else ""
            self._progress.update(self._task, advance=advance, faults=self.faults, errors=errors)

    def on_match_finished(self, match: MatchSpec, record: Record) -> None:
        self._update(1)

    def on_match_faulted(self, match: MatchSpec, record: Record) -> None:
        self.faults += len(record["result"]["faults"])
        self._update(0)

    def on_match_error(self, match: MatchSpec, message: str) -> None:
        self.errors += 1
        self._update(0)

    def on_end(self, interrupted: bool) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
