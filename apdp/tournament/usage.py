"""What each generated agent cost to make: the model calls, tokens and seconds in its provenance.

``apdp codegen run`` writes the totals under ``usage`` in an agent's provenance (see
:mod:`apdp.codegen.usage`); grouped reports show them next to the agent's results, with the tokens
spent per win. The provenance is the one stored with the results (each agent's identity when it
played: :func:`stored_provenance`), wherever the report runs; only for results stored before apdp kept
identities is it read from the agent file found now. Agents written by hand, the baselines and
agents ingested from a pasted reply have no usage: their figures are None. A provenance's figures
come from files anyone could have edited: a figure that is not a sane whole number (a fraction,
NaN, infinity, 1e308...) is unknown (None) too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from apdp.agents.discovery import find_agent
from apdp.agents.provenance import read_provenance
from apdp.codegen.usage import MAX_TOTAL_TOKENS, seconds_figure, token_count
from apdp.errors import UserError
from apdp.tournament.pool import Tournament
from apdp.tournament.stats import Standing

Provenance = Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class AgentUsage:
    """One agent's results and the model usage that made it (the JSON ``usage`` entries)."""

    agent: str
    model: str | None
    calls: int | None
    prompt_tokens: int | None
    completion_tokens: int | None
    total_tokens: int | None
    seconds: float | None
    wins: int
    matches: int
    win_rate: float
    tokens_per_win: float | None


def stored_provenance(tournaments: Sequence[Tournament], agents: Sequence[str]) -> dict[str, Provenance]:
    """The provenance each of ``agents`` had when it played, from the identities its tournaments stored
    (the first that played it); an agent without a stored identity is left out. Only a generated
    agent's identity vouches for a provenance (a baseline's or a hand-written one's is None)."""
    out: dict[str, Provenance] = {}
    for agent in agents:
        for t in tournaments:
            identity = t.identities.get(agent)
            if isinstance(identity, Mapping) and any(agent in m.agents for m in t.matches.values()):
                provenance = identity.get("provenance")
                generated = identity.get("origin") == "generated" and isinstance(provenance, Mapping)
                out[agent] = provenance if generated else None
                break
    return out


def provenance_lookup(stored: Mapping[str, Provenance]) -> Callable[[str], Provenance]:
    """Provenance by agent: the stored one, else (results older than stored identities) the file's now."""
    return lambda agent: stored[agent] if agent in stored else file_provenance(agent)


def file_provenance(agent: str) -> Provenance:
    """The provenance of the agent file ``agent`` names now (None when it has none or is gone)."""
    try:
        return read_provenance(find_agent(agent).path)
    except UserError:
        return None


def _count(totals: Mapping[str, Any], key: str) -> int | None:
    return token_count(totals.get(key), MAX_TOTAL_TOKENS)


def agent_usage(
    standings: Sequence[Standing], provenance_of: Callable[[str], Provenance] = file_provenance
) -> list[AgentUsage]:
    """Each agent's usage next to its results, in the standings' order."""
    out = []
    for s in standings:
        provenance = provenance_of(s.agent) or {}
        totals = provenance.get("usage")
        totals = totals if isinstance(totals, Mapping) else {}
        total = _count(totals, "total_tokens")
        out.append(AgentUsage(
            agent=s.agent,
            model=str(provenance["model"]) if provenance.get("model") else None,
            calls=_count(totals, "calls"),
            prompt_tokens=_count(totals, "prompt_tokens"),
            completion_tokens=_count(totals, "completion_tokens"),
            total_tokens=total,
            seconds=seconds_figure(totals.get("seconds")),
            wins=s.total_wins,
            matches=s.matches,
            win_rate=s.win_rate,
            tokens_per_win=total / s.total_wins if total is not None and s.total_wins else None,
        ))
    return out
