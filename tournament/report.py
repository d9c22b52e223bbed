"""Reports over any number of results folders: table, markdown, csv, json or html.

Sections: the study's table (standings with ratings), the pairwise grid (W-D-L of each row agent
against each column agent, both sides pooled), every pairing side by side (W/D/L and both mean
profits), faults per agent and kind, and profit statistics per agent. ``csv`` prints each section
as its own CSV block after a ``# section`` line; ``json`` has ``agents``, ``matches`` and the rest;
``html`` is a self-contained page drawn from the json (:mod:`tournament.report_page`). Grouped
reports add the model usage (tokens, time) of each generated agent next to its results.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tabulate import tabulate

from apdp.errors import UserError
from tournament.groups import group_standings, label_function
from tournament.stats import PooledMatch, Statistics, compute, match_json
from tournament.store import ResultsStore
from tournament.usage import agent_usage

FORMATS = ("table", "markdown", "csv", "json", "html")

#: Keys of each JSON ``agents`` entry, in order.
AGENT_FIELDS = (
    "agent", "avg_wins", "sd_wins", "avg_losses", "sd_losses", "total_wins", "total_losses",
    "draws", "win_rate", "faults", "rating", "rating_low", "rating_high",
)


def load(folders: Sequence[str | Path]) -> list[PooledMatch]:
    """Every stored match of ``folders``; a folder without results raises UserError."""
    pooled: list[PooledMatch] = []
    unique = {Path(f).resolve(): f for f in reversed(folders)}  # a folder named twice counts once
    for folder in reversed(unique.values()):
        store = ResultsStore.open(folder)
        try:
            label = str(folder)
            pooled += [
                PooledMatch((label, m.topology, m.tournament_seed), m) for m in store.matches()
            ]
        finally:
            store.close()
    if not pooled:
        raise UserError(f"no finished matches in {', '.join(str(f) for f in folders)}")
    return pooled


Section = tuple[str, list[str], list[list[Any]]]


def _r(x: float) -> float:
    return round(x, 1) + 0.0  # + 0.0: no "-0" in tables


def _grid_cell(stats: Statistics, agent: str, opponent: str) -> str:
    if agent == opponent:
        return ""
    w, d, lo = stats.grid.get(agent, {}).get(opponent, (0, 0, 0))
    return f"{w}-{d}-{lo}"


def sections(stats: Statistics, group_by: str | None = None) -> list[Section]:
    """(title, headers, rows) of every section, in print order."""
    out: list[Section] = []
    if group_by is not None:
        out.append((
            f"Groups by {group_by}",
            ["group", "agents", "matches", "wins", "losses", "draws", "win rate", "faults",
             "mean rating"],
            [[g.group, len(g.agents), g.matches, g.wins, g.losses, g.draws, f"{g.win_rate:.3f}",
              g.faults, round(g.mean_rating)] for g in group_standings(stats.standings, group_by)],
        ))
    if group_by is not None:
        out.append((
            "Model usage per agent",
            ["agent", "model", "calls", "prompt tokens", "completion tokens", "tokens", "model s", "wins",
             "win rate", "tokens/win"],
            [[u.agent, u.model or "-", *("-" if x is None else x for x in (u.calls, u.prompt_tokens,
              u.completion_tokens, u.total_tokens)), "-" if u.seconds is None else _r(u.seconds), u.wins,
              f"{u.win_rate:.3f}", "-" if u.tokens_per_win is None else round(u.tokens_per_win)]
             for u in agent_usage(stats.standings)],
        ))
    out.append((
        f"Standings: {stats.tournaments} tournament(s), {stats.matches} matches",
        ["agent", "avg wins", "sd", "avg losses", "sd", "wins", "losses", "draws", "win rate",
         "faults", "rating", "95% CI"],
        [[s.agent, round(s.avg_wins, 2), round(s.sd_wins, 2), round(s.avg_losses, 2),
          round(s.sd_losses, 2), s.total_wins, s.total_losses, s.draws, f"{s.win_rate:.3f}",
          s.faults, round(s.rating), f"{s.rating_low:.0f}-{s.rating_high:.0f}"]
         for s in stats.standings],
    ))
    names = [s.agent for s in stats.standings]
    out.append((
        "Pairwise grid: W-D-L of the row agent against the column agent",
        ["", *names],
        [[a, *(_grid_cell(stats, a, o) for o in names)] for a in names],
    ))
    out.append((
        "Pairings by side: company 0 agent vs company 1 agent",
        ["company 0", "company 1", "matches", "W", "D", "L", "profit 0", "profit 1"],
        [[g.agent, g.opponent, g.matches, g.wins, g.draws, g.losses, _r(g.profit),
          _r(g.opponent_profit)] for g in stats.legs],
    ))
    kinds = stats.fault_kinds
    out.append((
        "Faults per agent and kind" if stats.faults else "Faults: none",
        ["agent", *kinds, "total"],
        [[a, *(c.get(k, 0) for k in kinds), sum(c.values())] for a, c in stats.faults.items()],
    ))
    out.append((
        "Profit per match",
        ["agent", "matches", "mean", "sd", "min", "median", "max"],
        [[p.agent, p.matches, _r(p.mean), _r(p.sd), _r(p.min),
          _r(p.median), _r(p.max)] for p in stats.profits],
    ))
    return out


def to_json(stats: Statistics, pooled: Sequence[PooledMatch], group_by: str | None = None) -> dict[str, Any]:
    """The JSON report (with ``groups`` when grouped)."""
    extra: dict[str, Any] = {}
    if group_by is not None:
        extra = {"group_by": group_by, "groups": [asdict(g) for g in group_standings(stats.standings, group_by)]}
        extra["usage"] = [asdict(u) for u in agent_usage(stats.standings)]
    return {
        **extra,
        "tournaments": stats.tournaments,
        "agents": [
            {**{k: asdict(s)[k] for k in AGENT_FIELDS}, "matches": s.matches,
             "tournaments": s.tournaments}
            for s in stats.standings
        ],
        "pairs": [asdict(g) for g in stats.legs],
        "faults": stats.faults,
        "profits": [asdict(p) for p in stats.profits],
        "matches": [match_json(p) for p in pooled],
    }


def render(stats: Statistics, pooled: Sequence[PooledMatch], fmt: str, group_by: str | None = None) -> str:
    """The report in ``fmt`` (one of FORMATS), with a section of groups when ``group_by`` is set."""
    if fmt not in FORMATS:
        raise UserError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if fmt == "json":
        return json.dumps(to_json(stats, pooled, group_by), indent=2)
    if fmt == "html":
        from tournament.report_page import report_html

        return report_html(to_json(stats, pooled, group_by))
    blocks = []
    for title, headers, rows in sections(stats, group_by):
        if fmt == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(headers)
            writer.writerows(rows)
            blocks.append(f"# {title}\n{buffer.getvalue()}")
        elif not rows:
            blocks.append(f"{title}\n" if fmt == "table" else f"## {title}\n")
        elif fmt == "markdown":
            blocks.append(f"## {title}\n\n{tabulate(rows, headers, tablefmt='github')}\n")
        else:
            blocks.append(f"{title}\n{tabulate(rows, headers, tablefmt='simple')}\n")
    return "\n".join(blocks)


def report(folders: Sequence[str | Path], fmt: str = "table", group_by: str | None = None) -> str:
    """The report over the results of ``folders`` in ``fmt``, grouped by provenance if asked."""
    if fmt not in FORMATS:
        raise UserError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if group_by is not None:
        label_function(group_by)  # a bad grouping fails before any work
    pooled = load(folders)
    return render(compute(pooled), pooled, fmt, group_by)
