"""Grouping agents by where they came from (model, strategy) for reports.

The origin is read from the identity each tournament stored when its agents played
(:mod:`apdp.agents.identity`), never from the files present when the report runs: a generated agent carries
its provenance (model, strategy), a shipped baseline (and the course's template) is in the
``baseline`` group and any other agent in ``human``. Only for a store older than stored identities
is the origin read from the agent files present now (the report says so in one line); an agent
whose file cannot be found then is ``unknown``.

A group's figures are pooled like an agent's: wins and losses per tournament (the group's wins in
a tournament divided by how many of its agents played it) averaged over the tournaments it played,
with their SDs, and the mean rating of its agents with a 95% interval from the same bootstrap
resamples as the agents' ratings.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from apdp.agents.discovery import find_agent, is_bundled
from apdp.agents.provenance import read_provenance
from apdp.errors import UserError
from apdp.tournament.pool import Tournament
from apdp.tournament.stats import MIN_INTERVAL_MATCHES, Statistics, sample_sd

GROUP_BY = ("model", "strategy", "provenance")


@dataclass(frozen=True, slots=True)
class Group:
    """The pooled results of the agents of one group (the JSON ``groups`` entries)."""

    group: str
    agents: list[str]
    #: Agent-matches: each match counts once per agent of the group in it (wins and win rate too).
    matches: int
    wins: int
    losses: int
    draws: int
    win_rate: float
    faults: int
    mean_rating: float
    tournaments: int
    avg_wins: float
    sd_wins: float | None
    avg_losses: float
    sd_losses: float | None
    rating_low: float | None
    rating_high: float | None


def check_grouping(by: str) -> None:
    """Raise UserError unless ``by`` is one of GROUP_BY."""
    if by not in GROUP_BY:
        raise UserError(f"unknown grouping {by!r}; choose one of: {', '.join(GROUP_BY)}")


def _origin_of_identity(identity: Mapping[str, Any]) -> dict[str, str]:
    origin = identity.get("origin")
    if origin == "baseline":
        return {"model": "baseline", "strategy": "baseline"}
    provenance = identity.get("provenance")
    if origin == "generated" and isinstance(provenance, Mapping):
        return {
            "model": str(provenance.get("model") or "unknown model"),
            "strategy": str(provenance.get("strategy") or "unknown strategy"),
        }
    return {"model": "human", "strategy": "human"}


def _origin_of_file(agent: str) -> dict[str, str]:
    """The origin from the agent file present now (stores older than stored identities)."""
    try:
        path = find_agent(agent).path
    except UserError:  # not found, or its name is ambiguous now
        return {"model": "unknown", "strategy": "unknown"}
    if is_bundled(path):
        return {"model": "baseline", "strategy": "baseline"}
    provenance = read_provenance(path)
    if provenance is None:
        return {"model": "human", "strategy": "human"}
    return _origin_of_identity({"origin": "generated", "provenance": provenance})


def _label(origin: Mapping[str, str], by: str) -> str:
    if by == "provenance":
        same = origin["model"] == origin["strategy"]
        return origin["model"] if same else f"{origin['model']} / {origin['strategy']}"
    return origin[by]


def label_function(by: str) -> Callable[[str], str]:
    """The group label of an agent name from the agent files present now, for ``by`` in GROUP_BY
    (the fallback for stores without identities)."""
    check_grouping(by)
    return lambda agent: _label(_origin_of_file(agent), by)


def stored_labels(
    tournaments: Sequence[Tournament], agents: Sequence[str], by: str
) -> tuple[dict[str, str], list[str]]:
    """Each agent's group from the identities its tournaments stored, and notes for the report:
    agents without a stored identity (grouped from the files present now) and agents whose stored
    origins differ between tournaments (grouped by the first)."""
    check_grouping(by)
    labels: dict[str, str] = {}
    unstored: list[str] = []
    differing: list[str] = []
    for agent in agents:
        found = [
            _label(_origin_of_identity(t.identities[agent]), by)
            for t in tournaments
            if agent in t.identities and any(agent in m.agents for m in t.matches.values())
        ]
        if not found:
            unstored.append(agent)
            labels[agent] = label_function(by)(agent)
            continue
        labels[agent] = found[0]
        if len(set(found)) > 1:
            differing.append(f"{agent} ({', '.join(sorted(set(found)))})")
    notes = []
    if unstored:
        notes.append(
            f"no stored identity for {', '.join(unstored)} (results made before apdp kept them): "
            f"grouped by {by} from the agent files present now"
        )
    if differing:
        notes.append(f"stored origins differ between tournaments for {'; '.join(differing)}: grouped by the first")
    return labels, notes


def group_standings(stats: Statistics, labels: Mapping[str, str]) -> list[Group]:
    """Standings pooled per group (``labels``: agent -> group), best win rate first."""
    members: dict[str, list[str]] = {}
    for s in stats.standings:
        members.setdefault(labels.get(s.agent, "unknown"), []).append(s.agent)
    rows = {s.agent: s for s in stats.standings}
    out = []
    for name, agents in members.items():
        per_tournament: dict[tuple[str, str, int], list[tuple[int, int, int]]] = {}
        for a in agents:
            for t, wdl in stats.by_tournament.get(a, {}).items():
                per_tournament.setdefault(t, []).append(wdl)
        wins_t = [sum(w for w, _, _ in r) / len(r) for r in per_tournament.values()]
        losses_t = [sum(lo for _, _, lo in r) / len(r) for r in per_tournament.values()]
        wins = sum(rows[a].total_wins for a in agents)
        played = sum(rows[a].matches for a in agents)
        mean_rating = statistics.fmean(rows[a].rating for a in agents)
        low: float | None = None
        high: float | None = None
        samples = stats.rating_samples
        if samples.size and played >= MIN_INTERVAL_MATCHES:
            means = samples[:, [stats.rating_columns[a] for a in agents]].mean(axis=1)
            low, high = (float(x) for x in np.percentile(means, [2.5, 97.5]))
        out.append(Group(
            group=name,
            agents=agents,
            matches=played,
            wins=wins,
            losses=sum(rows[a].total_losses for a in agents),
            draws=sum(rows[a].draws for a in agents),
            win_rate=wins / played if played else 0.0,
            faults=sum(rows[a].faults for a in agents),
            mean_rating=mean_rating,
            tournaments=len(per_tournament),
            avg_wins=statistics.fmean(wins_t) if wins_t else 0.0,
            sd_wins=sample_sd(wins_t),
            avg_losses=statistics.fmean(losses_t) if losses_t else 0.0,
            sd_losses=sample_sd(losses_t),
            rating_low=low,
            rating_high=high,
        ))
    return sorted(out, key=lambda g: (-g.win_rate, g.group))
