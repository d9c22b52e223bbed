"""Live standings of a running tournament: wins, draws, losses and faults per agent so far.

:class:`Standings` counts the matches as they finish (and those a resume found already stored);
the progress bar draws its :meth:`Standings.table` under the bar, on a terminal only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.table import Table

from apdp.referee.record_format import MatchRecord
from apdp.tournament.events import TournamentEvents
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.store import StoredMatch


@dataclass
class Line:
    """One agent's results so far."""

    agent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: int = 0

    @property
    def played(self) -> int:
        """Matches finished."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """Wins over matches finished (0 before the first)."""
        return self.wins / self.played if self.played else 0.0


class Standings(TournamentEvents):
    """Observer that keeps every agent's wins, draws, losses and faults up to date."""

    def __init__(self, agents: Iterable[str] = ()) -> None:
        self.lines: dict[str, Line] = {a: Line(a) for a in agents}

    def add(self, agents: tuple[str, ...], winner: str | None, faulty: Iterable[str]) -> None:
        """Count one finished match (``winner`` None for a draw or when both faulted)."""
        for agent in agents:
            line = self.lines.setdefault(agent, Line(agent))
            if winner is None:
                line.draws += 1
            elif agent == winner:
                line.wins += 1
            else:
                line.losses += 1
        for agent in faulty:
            self.lines.setdefault(agent, Line(agent)).faults += 1

    def add_stored(self, matches: Iterable[StoredMatch]) -> None:
        """Count the matches a resume found in the store."""
        for m in matches:
            self.add(m.agents, m.winner, [m.agents[int(f["agent"])] for f in m.faults])

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        w = record.result.winner
        winner = None if w is None else match.agents[w]
        self.add(match.agents, winner, [match.agents[f.agent] for f in record.result.faults])

    def ranked(self) -> list[Line]:
        """Best first: win rate, then wins, then name."""
        return sorted(self.lines.values(), key=lambda s: (-s.win_rate, -s.wins, s.agent))

    def table(self, max_rows: int | None = None) -> Table:
        """The standings as a rich table, cut to ``max_rows`` agents (the rest summed up in a line)."""
        table = Table(title="standings so far", title_justify="left", box=None, pad_edge=False)
        for name, justify in (("#", "right"), ("agent", "left"), ("played", "right"), ("W", "right"),
                              ("D", "right"), ("L", "right"), ("win rate", "right"), ("faults", "right")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        ranked = self.ranked()
        shown = ranked if max_rows is None or len(ranked) <= max_rows else ranked[: max(1, max_rows - 1)]
        for rank, s in enumerate(shown, 1):
            table.add_row(str(rank), s.agent, str(s.played), str(s.wins), str(s.draws), str(s.losses),
                          f"{s.win_rate:.3f}", str(s.faults) if s.faults else "-")
        if len(shown) < len(ranked):
            table.add_row("", f"... {len(ranked) - len(shown)} more", "", "", "", "", "", "")
        return table
