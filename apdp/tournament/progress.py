"""The progress bar of a run: matches done of total, faults so far, elapsed time and ETA, and under
it the live standings (wins, draws, losses, faults per agent; :mod:`apdp.tournament.standings`).

Drawn with rich, on stderr, only when stderr is a terminal (never in CI logs or pipes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from apdp.referee.record_format import MatchRecord
from apdp.tournament.eta_column import EtaColumn
from apdp.tournament.events import TournamentEvents
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.standings import Standings
from apdp.tournament.store import StoredMatch


class _BarAndStandings(Progress):
    """rich's Progress, with the standings table drawn under the bar."""

    def __init__(self, *columns: str | ProgressColumn, standings: Standings, console: Console) -> None:
        self.standings = standings  # both before Progress draws for the first time
        self._screen = console
        super().__init__(*columns, console=console, transient=False)

    def get_renderables(self) -> Iterable[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        if self.standings.lines:
            yield self.standings.table(max_rows=max(3, self._screen.height - 4))


class ProgressBar(TournamentEvents):
    """Observer that draws the bar and the standings; it does nothing when stderr is not a terminal.

    ``agents`` are listed in the standings from the start; ``stored`` gives the matches a resume
    found already played (called once, on a terminal only).
    """

    def __init__(
        self,
        console: Console | None = None,
        agents: Sequence[str] = (),
        stored: Callable[[], Iterable[StoredMatch]] | None = None,
    ) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.standings = Standings(agents)
        self._stored = stored
        self.faults = 0
        self.errors = 0
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def on_start(self, total: int, done: int) -> None:
        if not self.enabled:
            return
        if self._stored is not None:
            self.standings.add_stored(self._stored())
        self._progress = _BarAndStandings(
            TextColumn("[bold]tournament"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("faults {task.fields[faults]}"),
            TextColumn("{task.fields[errors]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            EtaColumn(),  # the run's own pace: rich's reads a burst of finished matches as the pace
            standings=self.standings,
            console=self.console,
        )
        self._task = self._progress.add_task("", total=total, completed=done, faults=0, errors="", resumed=done)
        self._progress.start()

    def _update(self, advance: int) -> None:
        if self._progress is not None and self._task is not None:
            errors = f"errors {self.errors}" if self.errors else ""
            self._progress.update(self._task, advance=advance, faults=self.faults, errors=errors)

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        if self.enabled:
            self.standings.on_match_finished(match, record)
        self._update(1)

    def on_match_faulted(self, match: MatchSpec, record: MatchRecord) -> None:
        self.faults += len(record.result.faults)
        self._update(0)

    def on_match_error(self, match: MatchSpec, record: MatchRecord) -> None:
        self.errors += 1
        self._update(0)

    def on_end(self, interrupted: bool) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
