"""Tidy tables of a report, for ``apdp report --format csv``: each loads as one data frame.

One table per CSV text: a header row of distinct column names, then one row per agent (per network
and agent in ``networks``, per group in ``groups`` (its agents' names, how many they are in
``samples``, what its interval resampled in ``interval_from``), per ordered pair in ``grid`` and
``pairs``, per child and parent in ``lineage``, per evolve lineage and version in ``curves``).
Numbers are numbers (intervals as two columns, ``rating_low`` and ``rating_high``), never text; a
figure with no meaning (an SD of one tournament, an interval over too few matches, a mean profit
with every entry faulted: see :mod:`apdp.tournament.stats`) is an empty cell.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from apdp.errors import UserError
from apdp.text import clean_line
from apdp.tournament.choices import TABLES as TABLES  # the tables, in the order ``--table`` lists them
from apdp.tournament.groups import Group
from apdp.tournament.lineage import Lineage
from apdp.tournament.stats import Standing, Statistics

#: Columns of an agent's row in ``standings`` and ``networks`` (the JSON ``agents`` keys).
STANDING_COLUMNS = (
    "agent", "tournaments", "matches", "avg_wins", "sd_wins", "avg_losses", "sd_losses",
    "total_wins", "total_losses", "draws", "win_rate", "faults", "rating", "rating_low", "rating_high",
    "referee_errors",
)

Table = tuple[list[str], list[list[Any]]]


def _number(value: Any) -> Any:
    return round(value, 6) + 0.0 if isinstance(value, float) else value


def _standing_row(s: Standing) -> list[Any]:
    data = asdict(s)
    return [_number(data[c]) for c in STANDING_COLUMNS]


def tidy_table(
    name: str,
    stats: Statistics,
    groups: Sequence[Group] | None = None,
    networks: Mapping[str, Statistics] | None = None,
    lineage: Lineage | None = None,
) -> Table:
    """The table ``name`` (one of TABLES) as (headers, rows).

    ``groups`` are the grouped standings (the ``groups`` table needs them); ``networks`` the
    statistics of each network (default: every match is on one network, the pooled ones);
    ``lineage`` the children and parents and the evolve curves (:mod:`apdp.tournament.lineage`).
    """
    if name not in TABLES:
        raise UserError(f"unknown table {name!r}; choose one of: {', '.join(TABLES)}")
    if name == "standings":
        return list(STANDING_COLUMNS), [_standing_row(s) for s in stats.standings]
    if name == "networks":
        per_network = networks or {}
        return ["network", *STANDING_COLUMNS], [
            [network, *_standing_row(s)] for network, ns in per_network.items() for s in ns.standings
        ]
    if name == "groups":
        if groups is None:
            raise UserError("the groups table needs --group-by model, strategy or model,strategy")
        columns = ["group", "agents", "tournaments", "matches", "avg_wins", "sd_wins", "avg_losses",
                   "sd_losses", "wins", "losses", "draws", "win_rate", "faults", "mean_rating",
                   "rating_low", "rating_high", "samples", "interval_from"]
        rows = []
        for g in groups:
            data = {**asdict(g), "agents": " ".join(g.agents)}
            rows.append([_number(data[c]) for c in columns])
        return columns, rows
    found = lineage or Lineage()
    if name == "lineage":
        columns = ["agent", "parent", "matches", "wins", "draws", "losses", "win_rate", "parent_win_rate", "rating",
                   "parent_rating", "lineage", "evolve_round"]
        return columns, [[_number(asdict(p)[c]) for c in columns] for p in found.pairs]
    if name == "curves":
        columns = ["round", "agent", "cumulative_tokens", "rating", "rating_low", "rating_high", "win_rate"]
        return ["lineage", *columns], [[lineage_name, *(_number(asdict(p)[c]) for c in columns)]
                                       for lineage_name, points in found.curves.items() for p in points]
    order = [s.agent for s in stats.standings]
    if name == "grid":
        return ["agent", "opponent", "wins", "draws", "losses"], [
            [a, o, *stats.grid.get(a, {}).get(o, (0, 0, 0))] for a in order for o in order if a != o
        ]
    if name == "pairs":
        columns = ["agent", "opponent", "matches", "wins", "draws", "losses", "profit", "opponent_profit",
                   "faulted", "opponent_faulted"]
        return columns, [[_number(v) for v in asdict(g).values()] for g in stats.legs]
    if name == "faults":
        kinds = stats.fault_kinds
        return ["agent", *kinds, "total"], [
            [a, *(stats.faults.get(a, {}).get(k, 0) for k in kinds), sum(stats.faults.get(a, {}).values())]
            for a in order
        ]
    columns = ["agent", "matches", "mean", "sd", "min", "median", "max", "faulted"]
    return columns, [[_number(v) for v in asdict(p).values()] for p in stats.profits]


#: What a spreadsheet program reads as the start of a formula (or a control) in a cell.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet program shows as the text it is: a text cell that would start
    a formula (an agent named ``=HYPERLINK(...)``, ``-1+1``, ``@SUM``) gets a leading ``'``, and its
    control characters are escaped; numbers stay numbers."""
    if not isinstance(value, str):
        return value
    text = clean_line(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def to_csv(table: Table) -> str:
    """A table as CSV text (header row first), every text cell safe for spreadsheet programs."""
    headers, rows = table
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([spreadsheet_cell(h) for h in headers])
    writer.writerows([spreadsheet_cell(c) for c in row] for row in rows)
    return buffer.getvalue()
