"""Grouping agents by where they came from (model, strategy) for reports.

A generated agent carries its provenance (``apdp codegen ingest`` writes it); a shipped baseline
(and the course's template) is in the ``baseline`` group and any other agent in ``human``. Agents
whose file cannot be found any more are ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from apdp.codegen.provenance import read_provenance
from apdp.discovery import PROJECT_ROOT, AgentNotFound, find_agent
from apdp.errors import UserError
from tournament.stats import Standing

GROUP_BY = ("model", "strategy", "provenance")


@dataclass(frozen=True, slots=True)
class Group:
    """The pooled results of the agents of one group."""

    group: str
    agents: list[str]
    matches: int
    wins: int
    losses: int
    draws: int
    win_rate: float
    faults: int
    mean_rating: float


def _origin(agent: str) -> dict[str, str]:
    try:
        path = find_agent(agent).path
    except AgentNotFound:
        return {"model": "unknown", "strategy": "unknown"}
    provenance = read_provenance(path)
    if provenance is None:
        shipped = {PROJECT_ROOT / "baselines", PROJECT_ROOT / "agents" / "template.py"}
        kind = "baseline" if {Path(path).parent, Path(path)} & shipped else "human"
        return {"model": kind, "strategy": kind}
    return {
        "model": str(provenance.get("model") or "unknown model"),
        "strategy": str(provenance.get("strategy") or "unknown strategy"),
    }


def label_function(by: str) -> Callable[[str], str]:
    """The group label of an agent name, for ``by`` in GROUP_BY."""
    if by not in GROUP_BY:
        raise UserError(f"unknown grouping {by!r}; choose one of: {', '.join(GROUP_BY)}")

    def label(agent: str) -> str:
        origin = _origin(agent)
        if by == "provenance":
            same = origin["model"] == origin["strategy"]
            return origin["model"] if same else f"{origin['model']} / {origin['strategy']}"
        return origin[by]

    return label


def group_standings(standings: Sequence[Standing], by: str) -> list[Group]:
    """Standings pooled per group, best win rate first."""
    label = label_function(by)
    members: dict[str, list[Standing]] = {}
    for s in standings:
        members.setdefault(label(s.agent), []).append(s)
    out = []
    for name, rows in members.items():
        wins = sum(s.total_wins for s in rows)
        losses = sum(s.total_losses for s in rows)
        draws = sum(s.draws for s in rows)
        played = sum(s.matches for s in rows)
        out.append(Group(
            group=name,
            agents=[s.agent for s in rows],
            matches=played,
            wins=wins,
            losses=losses,
            draws=draws,
            win_rate=wins / played if played else 0.0,
            faults=sum(s.faults for s in rows),
            mean_rating=sum(s.rating for s in rows) / len(rows),
        ))
    return sorted(out, key=lambda g: (-g.win_rate, g.group))
