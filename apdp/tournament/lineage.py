"""Agents made from agents, in a report: each child against its parent, and the curve of each evolve
lineage (:mod:`apdp.study.evolve`).

A child names its parent in its provenance (``parent``, ``parent_sha256``: see
:mod:`apdp.codegen.loop`), read, like the report's groups, from the identities the tournaments stored
when the agents played: only an agent the harness's ledger vouched for is generated, so a hand-edited
sidecar names no parent. The parent is the agent of the same pooled results whose stored file hash is
``parent_sha256`` (the name alone is not enough: a parent edited since its child was made is another
agent). An evolve version also carries ``lineage`` (the run's name), ``evolve_round`` and
``cumulative_tokens``: the versions of one lineage that played make its curve, rating per round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from apdp.codegen.usage import MAX_TOTAL_TOKENS, token_count
from apdp.tournament.pool import Tournament
from apdp.tournament.stats import Statistics


@dataclass(frozen=True, slots=True)
class ChildAndParent:
    """A child against its parent: their head-to-head (the child's wins, draws, losses), and each one's
    win rate and rating over the whole report."""

    agent: str
    parent: str
    matches: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    parent_win_rate: float
    rating: float
    parent_rating: float
    #: The evolve lineage and round of the child (None for ``improve``).
    lineage: str | None = None
    evolve_round: int | None = None


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One version of an evolve lineage: its round, the tokens spent on the lineage up to it, its rating."""

    round: int
    agent: str
    cumulative_tokens: int | None
    rating: float
    rating_low: float | None
    rating_high: float | None
    win_rate: float


@dataclass
class Lineage:
    """The lineage section of a report: pairs of child and parent, and each evolve lineage's curve."""

    pairs: list[ChildAndParent] = field(default_factory=list)
    curves: dict[str, list[CurvePoint]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"pairs": [...], "curves": [{"lineage", "points": [...]}]}``."""
        return {"pairs": [asdict(p) for p in self.pairs],
                "curves": [{"lineage": name, "points": [asdict(p) for p in points]}
                           for name, points in self.curves.items()]}


def _generated(tournaments: Sequence[Tournament], agent: str) -> Mapping[str, Any] | None:
    """The provenance the ledger vouched for when ``agent`` played (the first tournament's), or None."""
    for t in tournaments:
        identity = t.identities.get(agent)
        if identity is not None:
            provenance = identity.get("provenance")
            if identity.get("origin") == "generated" and isinstance(provenance, Mapping):
                return provenance
            return None
    return None


def _hashes(tournaments: Sequence[Tournament]) -> dict[str, str]:
    """Each stored agent's file hash -> its name."""
    out: dict[str, str] = {}
    for t in tournaments:
        for name, identity in t.identities.items():
            digest = identity.get("sha256")
            if isinstance(digest, str):
                out.setdefault(digest, name)
    return out


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def lineage(stats: Statistics, tournaments: Sequence[Tournament]) -> Lineage:
    """The lineage of the agents of ``stats`` (see the module docstring)."""
    rows = {s.agent: s for s in stats.standings}
    hashes = _hashes(tournaments)
    out = Lineage()
    for s in stats.standings:
        provenance = _generated(tournaments, s.agent)
        if provenance is None:
            continue
        name = provenance.get("lineage")
        evolve_round = _int(provenance.get("evolve_round"))
        if isinstance(name, str) and evolve_round is not None:
            tokens = token_count(provenance.get("cumulative_tokens"), MAX_TOTAL_TOKENS)  # edited files: unknown
            out.curves.setdefault(name, []).append(CurvePoint(
                evolve_round, s.agent, tokens, s.rating, s.rating_low, s.rating_high, s.win_rate))
        parent = hashes.get(str(provenance.get("parent_sha256")))
        if parent is None or parent == s.agent or parent not in rows:
            continue
        w, d, lo = stats.grid.get(s.agent, {}).get(parent, (0, 0, 0))
        out.pairs.append(ChildAndParent(
            s.agent, parent, w + d + lo, w, d, lo, s.win_rate, rows[parent].win_rate, s.rating, rows[parent].rating,
            name if isinstance(name, str) else None, evolve_round))
    out.pairs.sort(key=lambda p: (p.lineage or "", p.evolve_round or 0, p.agent))
    for points in out.curves.values():
        points.sort(key=lambda p: (p.round, p.agent))
    return out
