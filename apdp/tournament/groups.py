"""Grouping agents by where they came from (model, strategy) for reports.

The origin is read from the identity each tournament stored when its agents played
(:mod:`apdp.agents.identity`), never from the files present when the report runs: a generated agent carries
its provenance (model, strategy), a shipped baseline (and the course's template) is in the
``baseline`` group and any other agent in ``human`` (one whose ledger line is not signed with this
user's key too: the report names it in one line). Only for a store older than stored identities
is the origin read from the agent files present now (the report says so in one line); an agent
whose file cannot be found then is ``unknown``.

A group's figures are pooled like an agent's: wins and losses per tournament (the group's wins in
a tournament divided by how many of its agents played it) averaged over the tournaments it played,
with their SDs. Its rating is the mean Bradley-Terry rating of its agents (each fitted in the whole
field, :mod:`apdp.tournament.rating`).

Its 95% interval comes from a two-level bootstrap, so that "model X beats model Y" holds for the
models and not only for the few agents sampled from them: a model's agents are samples, and another
run would have drawn others. Each resample of the ratings' bootstrap (the matches drawn with
replacement, the ratings fitted again) is paired with a draw of the group's agents with replacement
(as many as it has); the group's figure in that resample is the mean rating, in that fit, of the
agents drawn. The 2.5th and 97.5th percentiles of these figures are the interval. The spread between
a group's samples widens it; the matches' luck widens it too. A group of one agent has no spread
between samples to measure: its interval comes from the matches alone (``interval_from`` says so).
A group with fewer than :data:`~apdp.tournament.stats.MIN_INTERVAL_MATCHES` agent matches has no
interval, as an agent. The agents are drawn, not fitted as a field of their own: an agent drawn
twice has the rating the whole field gave it, against the same opponents. With two samples per
model the bootstrap can only see the two: the interval spans about both samples' ratings with the
matches' luck around them. With ``--group-by model`` a model's agents are drawn from all of them,
whatever strategy made each (no draw per strategy): the interval holds for the model's agents as the
study's strategies made them, and is wider than one that took the strategies as given. Both draws are
seeded: the same results give the same report.
"""

from __future__ import annotations

import statistics
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from apdp.agents.discovery import find_agent, is_bundled
from apdp.agents.identity import UNSIGNED
from apdp.agents.provenance import read_provenance
from apdp.errors import UserError
from apdp.tournament.percentile import percentiles
from apdp.tournament.pool import Tournament
from apdp.tournament.rating import FloatArray
from apdp.tournament.stats import MIN_INTERVAL_MATCHES, Statistics, sample_sd

#: The groupings of ``--group-by``; ``provenance`` is ``model,strategy`` by its older name.
GROUP_BY = ("model", "strategy", "model,strategy", "provenance")
#: Seed of the draws of a group's agents (with the group's name: a group draws the same agents
#: whatever other groups the report holds).
AGENT_DRAW_SEED = 1
#: ``interval_from`` of a group's interval: its agents and matches resampled, or the matches alone.
FROM_AGENTS_AND_MATCHES = "agents and matches"
FROM_MATCHES = "matches only"


@dataclass(frozen=True, slots=True)
class Group:
    """The pooled results of the agents of one group (the JSON ``groups`` entries)."""

    group: str
    agents: list[str]
    #: How many agents (a model's samples) stand behind the group's figures.
    samples: int
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
    #: What the interval resampled: FROM_AGENTS_AND_MATCHES, FROM_MATCHES (a group of one agent),
    #: or None (no interval: too few matches).
    interval_from: str | None


def interval_note(resamples: int) -> str:
    """How a group's rating and interval are made, in one line (reports print it with the groups)."""
    return (
        "group rating: the mean rating of the group's agents; 95% CI by a two-level bootstrap "
        f"({resamples} resamples, each drawing the matches and the group's agents with replacement); "
        f"a group of one agent: over its matches only; no interval under {MIN_INTERVAL_MATCHES} agent matches"
    )


def check_grouping(by: str) -> None:
    """Raise UserError unless ``by`` is one of GROUP_BY."""
    if by not in GROUP_BY:
        raise UserError(f"unknown grouping {by!r}; choose one of: {' | '.join(GROUP_BY)}")


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
    if by in ("provenance", "model,strategy"):
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
    unsigned: list[str] = []
    for agent in agents:
        stored = [
            t.identities[agent] for t in tournaments
            if agent in t.identities and any(agent in m.agents for m in t.matches.values())
        ]
        found = [_label(_origin_of_identity(identity), by) for identity in stored]
        if any(identity.get("ledger") == UNSIGNED for identity in stored):
            unsigned.append(agent)
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
    if unsigned:
        notes.append(
            f"a ledger line beside {', '.join(unsigned)} claims a model made it, not signed by this user's apdp "
            "(forged, another user's, or written before apdp signed its ledgers): counted as hand-written"
        )
    return labels, notes


def group_rating_samples(samples: FloatArray, columns: Sequence[int], group: str) -> FloatArray:
    """The group's rating in each resample of the ratings (``samples``: one row per resample, one
    column per agent; ``columns``: the group's agents): the mean, in that resample, of as many of
    its agents drawn with replacement as it has. The draws are seeded by the group's name."""
    members = np.asarray(columns, dtype=np.intp)
    rng = np.random.default_rng([AGENT_DRAW_SEED, zlib.crc32(group.encode("utf-8"))])
    drawn = members[rng.integers(0, len(members), size=(len(samples), len(members)))]
    return np.asarray(np.take_along_axis(samples, drawn, axis=1).mean(axis=1), dtype=np.float64)


def group_standings(stats: Statistics, labels: Mapping[str, str]) -> list[Group]:
    """Standings pooled per group (``labels``: agent -> group), best win rate first; each group's
    interval by the two-level bootstrap of the module's docstring."""
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
        interval_from: str | None = None
        samples = stats.rating_samples
        if samples.size and played >= MIN_INTERVAL_MATCHES:
            means = group_rating_samples(samples, [stats.rating_columns[a] for a in agents], name)
            low, high = (float(x) for x in percentiles(means, [2.5, 97.5]))
            interval_from = FROM_AGENTS_AND_MATCHES if len(agents) > 1 else FROM_MATCHES
        out.append(Group(
            group=name,
            agents=agents,
            samples=len(agents),
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
            interval_from=interval_from,
        ))
    return sorted(out, key=lambda g: (-g.win_rate, g.group))
