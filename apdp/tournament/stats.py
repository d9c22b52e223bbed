"""The study's statistics, computed from stored matches: standings, pairs, faults, profits, ratings.

A tournament is one (results folder, network, tournament seed); averages "per tournament" are over
the tournaments an agent played. A match with no winner (equal profits, or both agents faulted)
counts as a draw. SDs are sample SDs, None (shown "-") over fewer than two values: a single
tournament has no spread to measure. A rating's 95% interval is a bootstrap over matches: None
(shown "-") for an agent with fewer than :data:`MIN_INTERVAL_MATCHES` matches, where resampling
a handful of matches yields an interval that means nothing (2 wins resample to "1640 to 1640").

Profits: a faulted agent's profit is no measure of its play (it stopped, or its plan was thrown
away: see :mod:`apdp.referee.record` for what it is paid), so every profit figure (per match, per
pairing) leaves out the entries of an agent in a match where it faulted; ``faulted`` counts them.
A figure with no entry left is None (shown "-").
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from apdp.tournament.rating import BOOTSTRAP, FloatArray, Rating, bradley_terry_samples
from apdp.tournament.store import StoredMatch

#: The fewest matches of an agent for which its rating's bootstrap interval is shown.
MIN_INTERVAL_MATCHES = 10


@dataclass(frozen=True, slots=True)
class PooledMatch:
    """A stored match and the tournament it belongs to."""

    tournament: tuple[str, str, int]  # (results folder, topology, tournament seed)
    match: StoredMatch


@dataclass
class Standing:
    """One agent's row of the study's table (the JSON ``agents`` entries)."""

    agent: str
    avg_wins: float
    sd_wins: float | None
    avg_losses: float
    sd_losses: float | None
    total_wins: int
    total_losses: int
    draws: int
    win_rate: float
    faults: int
    rating: float
    rating_low: float | None
    rating_high: float | None
    matches: int
    tournaments: int
    #: Its matches the referee could not finish (apdp's failure: counted for nobody).
    referee_errors: int = 0


@dataclass
class Leg:
    """One side of a pairing: ``agent`` as company 0 against ``opponent`` as company 1."""

    agent: str
    opponent: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Mean profit of ``agent`` and of ``opponent`` over the matches where that side did not fault
    #: (None when it faulted in all).
    profit: float | None = None
    opponent_profit: float | None = None
    #: Matches where ``agent``, and where ``opponent``, faulted (left out of its mean profit).
    faulted: int = 0
    opponent_faulted: int = 0


@dataclass
class ProfitStats:
    """Profit per match of one agent, over the ``matches`` where it did not fault (``faulted``:
    those where it did, left out); None without such matches (``sd``: with fewer than two)."""

    agent: str
    matches: int
    mean: float | None
    sd: float | None
    min: float | None
    median: float | None
    max: float | None
    faulted: int = 0


@dataclass
class Statistics:
    """Everything the reports show."""

    tournaments: int
    matches: int
    standings: list[Standing]
    legs: list[Leg]
    grid: dict[str, dict[str, tuple[int, int, int]]]  # agent -> opponent -> (W, D, L)
    faults: dict[str, dict[str, int]]  # agent -> fault kind -> count
    profits: list[ProfitStats]
    fault_kinds: list[str] = field(default_factory=list)
    #: agent -> tournament -> (W, D, L) in that tournament
    by_tournament: dict[str, dict[tuple[str, str, int], tuple[int, int, int]]] = field(default_factory=dict)
    #: bootstrap ratings, one row per resample, column ``rating_columns[agent]``
    rating_samples: FloatArray = field(default_factory=lambda: np.empty((0, 0)))
    rating_columns: dict[str, int] = field(default_factory=dict)
    #: Resamples of the ratings' bootstrap behind every interval (agents' and groups').
    resamples: int = BOOTSTRAP
    #: Matches the referee could not finish (stored as referee errors: in no other figure).
    referee_errors: int = 0


def outcome(match: StoredMatch, side: int) -> str:
    """``"W"``, ``"D"`` or ``"L"`` for the agent of company ``side``."""
    if match.winner is None:
        return "D"
    return "W" if match.agents[side] == match.winner else "L"


def sample_sd(values: Sequence[float]) -> float | None:
    """The sample SD of ``values``; None for fewer than two (no spread to measure)."""
    return statistics.stdev(values) if len(values) >= 2 else None


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def faulted_sides(match: StoredMatch) -> set[int]:
    """The companies (0, 1) whose agent faulted in ``match``."""
    return {int(f["agent"]) for f in match.faults}


TournamentKey = tuple[str, str, int]  # (results folder, topology, tournament seed)


@dataclass
class _Tally:
    """What the matches add up to, match by match, before the standings are drawn from it."""

    played: dict[str, set[TournamentKey]] = field(default_factory=lambda: defaultdict(set))
    wins: dict[str, Counter[TournamentKey]] = field(default_factory=lambda: defaultdict(Counter))
    losses: dict[str, Counter[TournamentKey]] = field(default_factory=lambda: defaultdict(Counter))
    draws: Counter[str] = field(default_factory=Counter)
    #: draws per tournament
    ties: dict[str, Counter[TournamentKey]] = field(default_factory=lambda: defaultdict(Counter))
    count: Counter[str] = field(default_factory=Counter)
    faults: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    profits: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    faulted: Counter[str] = field(default_factory=Counter)
    leg_profits: dict[tuple[str, str], tuple[list[float], list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: ([], [])))
    legs: dict[tuple[str, str], Leg] = field(default_factory=dict)
    grid: dict[str, dict[str, list[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0, 0, 0])))
    #: the ratings' data: company 0's agent, company 1's, and company 0's score, match by match
    first: list[int] = field(default_factory=list)
    second: list[int] = field(default_factory=list)
    score: list[float] = field(default_factory=list)

    def add(self, p: PooledMatch, index: dict[str, int]) -> None:
        """Count match ``p`` (``index``: each agent's column in the ratings)."""
        m = p.match
        bad = faulted_sides(m)
        for side, agent in enumerate(m.agents):
            self.played[agent].add(p.tournament)
            self.count[agent] += 1
            if side in bad:
                self.faulted[agent] += 1
            else:
                self.profits[agent].append(m.profit[side])
                self.leg_profits[(m.agents[0], m.agents[1])][side].append(m.profit[side])
            result = outcome(m, side)
            if result == "W":
                self.wins[agent][p.tournament] += 1
            elif result == "L":
                self.losses[agent][p.tournament] += 1
            else:
                self.draws[agent] += 1
                self.ties[agent][p.tournament] += 1
            self.grid[agent][m.agents[1 - side]]["WDL".index(result)] += 1
        for fault in m.faults:
            self.faults[m.agents[int(fault["agent"])]][str(fault.get("kind"))] += 1
        leg = self.legs.setdefault((m.agents[0], m.agents[1]), Leg(m.agents[0], m.agents[1]))
        result = outcome(m, 0)
        leg.matches += 1
        leg.wins += result == "W"
        leg.draws += result == "D"
        leg.losses += result == "L"
        leg.faulted += 0 in bad
        leg.opponent_faulted += 1 in bad
        self.first.append(index[m.agents[0]])
        self.second.append(index[m.agents[1]])
        self.score.append({"W": 1.0, "D": 0.5, "L": 0.0}[result])

    def standing(self, agent: str, rating: Rating, referee_errors: int) -> Standing:
        """``agent``'s row of the table, with its ``rating``."""
        tournaments = sorted(self.played[agent])
        w = [self.wins[agent][t] for t in tournaments]
        lo = [self.losses[agent][t] for t in tournaments]
        interval = self.count[agent] >= MIN_INTERVAL_MATCHES
        return Standing(
            agent=agent,
            avg_wins=statistics.fmean(w),
            sd_wins=sample_sd(w),
            avg_losses=statistics.fmean(lo),
            sd_losses=sample_sd(lo),
            total_wins=sum(w),
            total_losses=sum(lo),
            draws=self.draws[agent],
            win_rate=sum(w) / self.count[agent],
            faults=sum(self.faults.get(agent, Counter()).values()),
            rating=rating.rating,
            rating_low=rating.low if interval else None,
            rating_high=rating.high if interval else None,
            matches=self.count[agent],
            tournaments=len(tournaments),
            referee_errors=referee_errors,
        )

    def profit_stats(self, agent: str) -> ProfitStats:
        """``agent``'s profit per match, over its matches without a fault."""
        profits = self.profits[agent]
        return ProfitStats(
            agent=agent,
            matches=len(profits),
            mean=_mean(profits),
            sd=sample_sd(profits),
            min=min(profits, default=None),
            median=statistics.median(profits) if profits else None,
            max=max(profits, default=None),
            faulted=self.faulted[agent],
        )


def compute(pooled: Sequence[PooledMatch], *, bootstrap: int = BOOTSTRAP,
            errors: Sequence[PooledMatch] = ()) -> Statistics:
    """All statistics of the pooled matches (two agents per match), the intervals from ``bootstrap``
    resamples; ``errors`` are the matches the referee could not finish, counted apart (per agent and
    in all) and in no other figure."""
    agents = sorted({a for p in pooled for a in p.match.agents})
    index = {a: i for i, a in enumerate(agents)}
    tally = _Tally()
    for p in pooled:
        tally.add(p, index)
    for key, leg in tally.legs.items():
        ours, theirs = tally.leg_profits[key]
        leg.profit, leg.opponent_profit = _mean(ours), _mean(theirs)
    failed = Counter(a for p in errors for a in p.match.agents)
    ratings, samples = bradley_terry_samples(len(agents), tally.first, tally.second, tally.score, bootstrap=bootstrap)
    standings = [tally.standing(agent, ratings[index[agent]], failed[agent]) for agent in agents]
    standings.sort(key=lambda s: (-s.win_rate, -s.rating, s.agent))
    order = {s.agent: k for k, s in enumerate(standings)}
    faults, grid, played = tally.faults, tally.grid, tally.played
    return Statistics(
        tournaments=len({p.tournament for p in pooled}),
        matches=len(pooled),
        standings=standings,
        legs=sorted(tally.legs.values(), key=lambda g: (order[g.agent], order[g.opponent])),
        grid={
            a: {o: (v[0], v[1], v[2]) for o, v in grid[a].items()}
            for a in sorted(grid, key=order.__getitem__)
        },
        faults={a: dict(faults[a]) for a in sorted(faults, key=order.__getitem__)},
        profits=[tally.profit_stats(a) for a in sorted(agents, key=order.__getitem__)],
        fault_kinds=sorted({k for c in faults.values() for k in c}),
        by_tournament={
            a: {t: (tally.wins[a][t], tally.ties[a][t], tally.losses[a][t]) for t in sorted(played[a])}
            for a in agents
        },
        rating_samples=samples,
        rating_columns=index,
        resamples=bootstrap,
        referee_errors=len(errors),
    )


def tournaments_text(pooled: Sequence[PooledMatch]) -> str:
    """How many tournaments ``pooled`` holds, in words a reader checks against the runs made: one
    ``--topology all`` run is "4 tournaments: 4 networks x 1 seed"."""
    keys = {p.tournament for p in pooled}
    n = len(keys)
    text = f"{n} tournament{'' if n == 1 else 's'}"
    networks = {t for _, t, _ in keys}
    seeds = {s for _, _, s in keys}
    if len(networks) > 1:
        if n == len(networks) * len(seeds):
            return f"{text}: {len(networks)} networks x {len(seeds)} seed{'' if len(seeds) == 1 else 's'}"
        return f"{text} on {len(networks)} networks"
    return text


def match_json(p: PooledMatch) -> dict[str, Any]:
    """One entry of the JSON report's ``matches`` list."""
    m = p.match
    return {
        "topology": m.topology,
        "tournament_seed": m.tournament_seed,
        "seed": m.seed,
        "agents": list(m.agents),
        "profit": list(m.profit),
        "winner": m.winner,
        "faults": [
            {**f, "agent": m.agents[int(f["agent"])], "company": int(f["agent"])} for f in m.faults
        ],
        "results": p.tournament[0],
    }
