"""Reports over any number of results folders: table, markdown, csv, json or html.

Sections: the pairwise grid (W-D-L of each row agent against each column agent, both sides pooled),
every pairing side by side (W/D/L and both mean profits), faults per agent and kind, profit
statistics per agent, with more than one network the standings of each network, the wins and losses
per tournament, and last, where a terminal shows it, the study's table (standings with ratings). The
``table`` format fits 100 columns (:func:`fit_table`): long names are wrapped, and a table still too
wide is split into parts. ``csv`` prints one tidy table (:mod:`apdp.tournament.tidy`, ``--table``);
``json`` has ``agents``, ``matches`` and the rest (and ``notes``, ``incomplete``, ``networks``);
``html`` is a self-contained page drawn from the json (:mod:`apdp.tournament.report_page`). Grouped
reports add the model usage (tokens, time) of each generated agent next to its results.

What is pooled is decided by :mod:`apdp.tournament.pool`: every tournament once (a copy or a replay is
the same tournament), incomplete ones said so, and tournaments that differ, or stores of one tournament
whose results differ, refused unless ``mixed``.
Groups come from the agents' identities stored when they played (:mod:`apdp.tournament.groups`).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from apdp.errors import UserError
from apdp.text import markdown_table
from apdp.tournament.choices import FORMATS as FORMATS  # the output formats
from apdp.tournament.choices import MIN_RESAMPLES, RESAMPLES, TABLES
from apdp.tournament.lineage import Lineage, lineage
from apdp.tournament.pool import Pool, load_pool
from apdp.tournament.rating import SCALE
from apdp.tournament.stats import (
    MIN_INTERVAL_MATCHES,
    PooledMatch,
    Statistics,
    compute,
    match_json,
    tournaments_text,
)

if TYPE_CHECKING:
    from apdp.tournament.groups import Group

# apdp.tournament.groups, .usage and .tidy are imported where used: the table of a tournament's own
# report (every apdp tournament prints one) needs none of them.

#: Keys of each JSON ``agents`` entry, in order.
AGENT_FIELDS = (
    "agent", "avg_wins", "sd_wins", "avg_losses", "sd_losses", "total_wins", "total_losses",
    "draws", "win_rate", "faults", "rating", "rating_low", "rating_high", "referee_errors",
)


def load(folders: Sequence[str | Path], *, mixed: bool = False) -> list[PooledMatch]:
    """Every stored match of ``folders``, each tournament once (see :func:`apdp.tournament.pool.load_pool`);
    a folder without results, or tournaments that differ unless ``mixed``, raise UserError."""
    return load_pool(folders, mixed=mixed).matches()


Section = tuple[str, list[str], list[list[Any]]]


@dataclass(frozen=True, slots=True)
class Part:
    """What a caller adds to a report after the tournament's own sections (a study adds its
    generation funnel and its analysis): its ``key`` and ``data`` in the JSON report, its block of
    ``text`` after the terminal's tables, and its section of the HTML page (``html``, trusted
    markup; none when the page draws it from the JSON, as it does the analysis). The markdown and
    csv formats show the tournament's own tables only."""

    key: str
    data: Any
    text: str
    html: str = ""


@dataclass
class Context:
    """What a report knows beyond the pooled statistics: notes on what was pooled, each agent's
    group (from stored identities), and the statistics of each network when there are several."""

    notes: list[str] = field(default_factory=list)
    labels: dict[str, str] | None = None
    networks: dict[str, Statistics] = field(default_factory=dict)
    incomplete: list[dict[str, Any]] = field(default_factory=list)
    #: The stored matches the referee could not finish: tournament, match id, agents, reason.
    referee_errors: list[dict[str, Any]] = field(default_factory=list)
    #: How many tournaments were pooled, in words (:func:`apdp.tournament.stats.tournaments_text`).
    summary: str = ""
    #: Each child against its parent, and the evolve lineages' curves (:mod:`apdp.tournament.lineage`).
    lineage: Lineage = field(default_factory=Lineage)
    #: Each agent's provenance as stored when it played (:func:`apdp.tournament.usage.stored_provenance`).
    provenance: dict[str, Mapping[str, Any] | None] = field(default_factory=dict)


def build(
    folders: Sequence[str | Path], group_by: str | None = None, *, mixed: bool = False,
    resamples: int = RESAMPLES,
) -> tuple[Statistics, list[PooledMatch], Context]:
    """Load and compute everything a report of ``folders`` shows, the intervals from ``resamples``
    bootstrap resamples (UserError on bad input)."""
    if group_by is not None:
        from apdp.tournament.groups import check_grouping

        check_grouping(group_by)  # a bad grouping fails before any work
    check_resamples(resamples)
    pool: Pool = load_pool(folders, mixed=mixed)
    pooled = pool.matches()
    errors = pool.errors()
    stats = compute(pooled, errors=errors, bootstrap=resamples)
    context = Context(notes=list(pool.notes), summary=tournaments_text(pooled))
    context.lineage = lineage(stats, pool.tournaments)
    context.referee_errors = [
        {"results": p.tournament[0], "topology": p.tournament[1], "seed": p.tournament[2], "match": p.match.match_id,
         "agents": list(p.match.agents), "reason": p.match.error}
        for p in errors
    ]
    context.incomplete = [
        {"results": t.results, "topology": t.topology, "seed": t.seed, "scheduled": len(t.schedule()),
         "missing": [m.match_id for m in missing]}
        for t, missing in pool.gaps
    ]
    if group_by is not None:
        from apdp.tournament.groups import stored_labels
        from apdp.tournament.usage import stored_provenance

        context.labels, notes = stored_labels(pool.tournaments, [s.agent for s in stats.standings], group_by)
        context.notes += notes
        context.provenance = stored_provenance(pool.tournaments, [s.agent for s in stats.standings])
    networks = sorted({p.match.topology for p in pooled})
    if len(networks) > 1:
        context.networks = {
            n: compute([p for p in pooled if p.match.topology == n], bootstrap=resamples) for n in networks
        }
    return stats, pooled, context


def _groups(stats: Statistics, group_by: str, context: Context | None) -> list[Group]:
    from apdp.tournament.groups import group_standings, label_function

    labels = context.labels if context is not None and context.labels is not None else None
    if labels is None:  # no stored identities at hand: the agent files present now
        label = label_function(group_by)
        labels = {s.agent: label(s.agent) for s in stats.standings}
    return group_standings(stats, labels)


def _provenance(context: Context | None) -> Callable[[str], Mapping[str, Any] | None]:
    """Each agent's provenance for the usage table: stored with the results, else its file's now."""
    from apdp.tournament.usage import provenance_lookup

    return provenance_lookup(context.provenance if context is not None else {})


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:.0f} to {high:.0f}"


def _standings_section(title: str, stats: Statistics) -> Section:
    """The study's table: totals, win rate, faults and ratings (the wins and losses per
    tournament are :func:`_per_tournament_section`: one table of both would not fit 100 columns)."""
    return (
        title,
        ["agent", "wins", "losses", "draws", "win rate", "faults", "rating", "95% CI"],
        [[s.agent, s.total_wins, s.total_losses, s.draws, f"{s.win_rate:.3f}", s.faults, round(s.rating),
          _interval(s.rating_low, s.rating_high)]
         for s in stats.standings],
    )


def _per_tournament_section(stats: Statistics) -> Section:
    return (
        "Wins and losses per tournament: means and SDs over the tournaments (no SD over one tournament)",
        ["agent", "tournaments", "avg wins", "sd wins", "avg losses", "sd losses"],
        [[s.agent, s.tournaments, round(s.avg_wins, 2), _r(s.sd_wins, 2), round(s.avg_losses, 2),
          _r(s.sd_losses, 2)] for s in stats.standings],
    )


def _r(x: float | None, digits: int = 1) -> float | str:
    """A figure for a table: "-" where it has no meaning (None)."""
    return "-" if x is None else round(x, digits) + 0.0  # + 0.0: no "-0" in tables


def _grid_cell(stats: Statistics, agent: str, opponent: str) -> str:
    if agent == opponent:
        return ""
    w, d, lo = stats.grid.get(agent, {}).get(opponent, (0, 0, 0))
    return f"{w}-{d}-{lo}"


def sections(stats: Statistics, group_by: str | None = None, context: Context | None = None) -> list[Section]:
    """(title, headers, rows) of every section, in print order: the standings last, where a reader
    of the terminal sees them, after each network's."""
    out: list[Section] = []
    if group_by is not None:
        out += _group_sections(stats, group_by, context)
    out += _match_sections(stats)
    if context is not None and context.referee_errors:
        out.append(_referee_errors_section(context.referee_errors))
    out += _fault_and_profit_sections(stats)
    if context is not None:
        out += _lineage_sections(context.lineage)
    networks = context.networks if context is not None else {}
    for network, ns in networks.items():
        out.append(_standings_section(
            f"Standings on {network}: {_count(ns.tournaments, 'tournament')}, {ns.matches} matches", ns
        ))
    out.append(_per_tournament_section(stats))
    summary = context.summary if context is not None and context.summary else _count(stats.tournaments, "tournament")
    on = f" ({', '.join(networks)})" if networks else ""
    out.append(_standings_section(
        f"Standings: {summary}{on}, {stats.matches} matches\n({SCALE}; no interval under "
        f"{MIN_INTERVAL_MATCHES} matches)", stats
    ))
    return out


def _group_sections(stats: Statistics, group_by: str, context: Context | None) -> list[Section]:
    """The groups' results, their ratings, their wins and losses per tournament, and the model
    usage of each agent."""
    from apdp.tournament.groups import interval_note
    from apdp.tournament.usage import agent_usage

    groups = _groups(stats, group_by, context)
    return [(
        f"Groups by {group_by}: agents are the samples behind each figure (agent matches: a match counts "
        "once per agent of the group in it)",
        ["group", "agents", "agent matches", "wins", "losses", "draws", "win rate", "faults"],
        [[g.group, g.samples, g.matches, g.wins, g.losses, g.draws, f"{g.win_rate:.3f}", g.faults]
         for g in groups],
    ), (
        f"Groups by {group_by}: ratings\n({interval_note(stats.resamples)})",
        ["group", "agents", "agent matches", "rating", "95% CI", "CI from"],
        [[g.group, g.samples, g.matches, round(g.mean_rating), _interval(g.rating_low, g.rating_high),
          g.interval_from or "-"] for g in groups],
    ), (
        f"Groups by {group_by}: wins and losses per tournament and agent of the group",
        ["group", "agents", "tournaments", "avg wins", "sd wins", "avg losses", "sd losses"],
        [[g.group, len(g.agents), g.tournaments, round(g.avg_wins, 2), _r(g.sd_wins, 2),
          round(g.avg_losses, 2), _r(g.sd_losses, 2)] for g in groups],
    ), (
        "Model usage per agent: model calls, their prompt, completion and total tokens, the seconds\n"
        "spent waiting for the model, and total tokens per win (its wins: the standings)",
        ["agent", "model", "calls", "prompt", "completion", "tokens", "model s", "tokens/win"],
        [[u.agent, u.model or "-", *("-" if x is None else x for x in (u.calls, u.prompt_tokens,
          u.completion_tokens, u.total_tokens)), "-" if u.seconds is None else _r(u.seconds),
          "-" if u.tokens_per_win is None else round(u.tokens_per_win)]
         for u in agent_usage(stats.standings, _provenance(context))],
    )]


def _match_sections(stats: Statistics) -> list[Section]:
    """The pairwise grid and the pairings by side."""
    names = [s.agent for s in stats.standings]
    return [(
        "Pairwise grid: W-D-L of the row agent against the column agent (columns numbered as the rows)",
        ["#", "agent", *(str(k + 1) for k in range(len(names)))],
        [[k + 1, a, *(_grid_cell(stats, a, o) for o in names)] for k, a in enumerate(names)],
    ), (
        "Pairings by side: company 0 agent vs company 1 agent\n"
        "profit 0 and profit 1 are mean profits per match (a side's matches where it faulted left out)",
        ["company 0", "company 1", "matches", "W", "D", "L", "profit 0", "profit 1"],
        [[g.agent, g.opponent, g.matches, g.wins, g.draws, g.losses, _r(g.profit),
          _r(g.opponent_profit)] for g in stats.legs],
    )]


def _referee_errors_section(errors: list[dict[str, Any]]) -> Section:
    return (
        f"Referee errors: {len(errors)} match(es) the referee could not finish (apdp's "
        "failure, never an agent's: counted for nobody; a resume plays them again)",
        ["tournament", "match", "reason"],
        [[f"{e['results']}: {e['topology']} seed {e['seed']}", e["match"], e["reason"]] for e in errors],
    )


def _fault_and_profit_sections(stats: Statistics) -> list[Section]:
    """Faults per agent and kind, and the profit per match of each agent."""
    kinds = stats.fault_kinds
    return [(
        "Faults per agent and kind" if stats.faults else "Faults: none",
        ["agent", *kinds, "total"],
        [[a, *(c.get(k, 0) for k in kinds), sum(c.values())] for a, c in stats.faults.items()],
    ), (
        "Profit per match, over the matches an agent played without a fault (faulted: those left out)",
        ["agent", "matches", "mean", "sd", "min", "median", "max", "faulted"],
        [[p.agent, p.matches, _r(p.mean), _r(p.sd), _r(p.min),
          _r(p.median), _r(p.max), p.faulted] for p in stats.profits],
    )]


def _lineage_sections(found: Lineage) -> list[Section]:
    """Each child against its parent, and each evolve lineage's rating per round."""
    out: list[Section] = []
    if found.pairs:
        out.append((
            "Lineage: each agent made from another (improve, evolve) against its parent: their head-to-head\n"
            "(the child's W-D-L), and each one's win rate and rating over the whole report",
            ["agent", "parent", "matches", "W", "D", "L", "win rate", "parent's", "rating", "parent's"],
            [[p.agent, p.parent, p.matches, p.wins, p.draws, p.losses, f"{p.win_rate:.3f}",
              f"{p.parent_win_rate:.3f}", round(p.rating), round(p.parent_rating)] for p in found.pairs],
        ))
    for name, points in found.curves.items():
        out.append((
            f"Lineage {name}: rating per round of evolution (tokens: spent on the lineage up to the version)",
            ["round", "agent", "tokens", "rating", "95% CI", "win rate"],
            [[p.round, p.agent, "-" if p.cumulative_tokens is None else p.cumulative_tokens, round(p.rating),
              _interval(p.rating_low, p.rating_high), f"{p.win_rate:.3f}"] for p in points],
        ))
    return out


def _agents_json(stats: Statistics) -> list[dict[str, Any]]:
    return [
        {**{k: asdict(s)[k] for k in AGENT_FIELDS}, "matches": s.matches, "tournaments": s.tournaments}
        for s in stats.standings
    ]


def to_json(stats: Statistics, pooled: Sequence[PooledMatch], group_by: str | None = None,
            context: Context | None = None, parts: Sequence[Part] = ()) -> dict[str, Any]:
    """The JSON report (``tournaments_text``: how many tournaments in words, "4 tournaments: 4
    networks x 1 seed"; figures with no meaning are null, see :mod:`apdp.tournament.stats`; with
    ``groups`` when grouped; ``notes`` on what was pooled, ``incomplete``
    tournaments and their missing match ids, ``referee_errors`` (matches the referee could not
    finish, in no figure), ``networks`` with each network's ``agents``; last, each of the ``parts``
    a caller adds, under its key)."""
    extra: dict[str, Any] = {}
    if group_by is not None:
        from apdp.tournament.groups import interval_note
        from apdp.tournament.usage import agent_usage

        extra = {"group_by": group_by, "groups": [asdict(g) for g in _groups(stats, group_by, context)],
                 "group_interval": interval_note(stats.resamples)}
        extra["usage"] = [asdict(u) for u in agent_usage(stats.standings, _provenance(context))]
    return {
        **extra,
        "tournaments": stats.tournaments,
        "tournaments_text": tournaments_text(pooled),
        "agents": _agents_json(stats),
        "pairs": [asdict(g) for g in stats.legs],
        "faults": stats.faults,
        "profits": [asdict(p) for p in stats.profits],
        "matches": [match_json(p) for p in pooled],
        "rating_scale": SCALE,
        "lineage": (context.lineage if context is not None else Lineage()).to_json(),
        "notes": list(context.notes) if context is not None else [],
        "incomplete": list(context.incomplete) if context is not None else [],
        "referee_errors": list(context.referee_errors) if context is not None else [],
        "networks": [
            {"network": n, "tournaments": ns.tournaments, "matches": ns.matches, "agents": _agents_json(ns)}
            for n, ns in (context.networks if context is not None else {}).items()
        ],
        **{part.key: part.data for part in parts},
    }


def render(stats: Statistics, pooled: Sequence[PooledMatch], fmt: str, group_by: str | None = None,
           context: Context | None = None, table: str | None = None, parts: Sequence[Part] = ()) -> str:
    """The report in ``fmt`` (one of FORMATS), with a section of groups when ``group_by`` is set.

    ``csv`` is the one tidy table ``table`` (default ``standings``; see :mod:`apdp.tournament.tidy`);
    table and markdown begin with the context's notes. The ``parts`` a caller adds follow the
    tournament's own sections in table, json and html (see :class:`Part`).
    """
    if fmt not in FORMATS:
        raise UserError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if table is not None and fmt != "csv":
        raise UserError(f"--table chooses the one table of --format csv ({', '.join(TABLES)}); "
                        f"--format {fmt} shows them all")
    if fmt == "csv":
        from apdp.tournament.tidy import tidy_table, to_csv

        groups = _groups(stats, group_by, context) if group_by is not None else None
        networks = context.networks if context is not None and context.networks else None
        if networks is None and pooled:
            networks = {pooled[0].match.topology: stats}
        found = context.lineage if context is not None else None
        return to_csv(tidy_table(table or "standings", stats, groups, networks, found)).rstrip("\n")
    if fmt == "json":
        return json.dumps(to_json(stats, pooled, group_by, context, parts), indent=2)
    if fmt == "html":
        from apdp.tournament.report_page import report_html

        return report_html(to_json(stats, pooled, group_by, context, parts), sections=page_sections(parts))
    notes = context.notes if context is not None else []
    if fmt == "markdown":
        blocks = ["".join(f"- Note: {n}\n" for n in notes)] if notes else []
        for title, headers, rows in _standings_first(sections(stats, group_by, context)):
            heading, paragraphs = _heading(title)
            table = f"\n{markdown_table(rows, headers)}\n" if rows else ""
            blocks.append(f"## {heading}\n" + "".join(f"\n{p}\n" for p in paragraphs) + table)
        return "\n".join(blocks)
    blocks = ["".join(f"{_wrap(f'Note: {n}')}\n" for n in notes)] if notes else []
    for title, headers, rows in sections(stats, group_by, context):
        tables = "\n\n".join(fit_table(headers, rows)) if rows else ""  # the parts of a split table
        blocks.append("\n".join(filter(None, [_wrap(title), tables])) + "\n")
    return "\n\n".join(["\n".join(blocks), *(part.text for part in parts)])


def page_sections(parts: Sequence[Part]) -> list[str]:
    """The sections of the HTML page that ``parts`` add."""
    return [part.html for part in parts if part.html]


def _heading(title: str) -> tuple[str, list[str]]:
    """A section's title as a page shows it: a short heading (the first line up to its first ': '
    or ' ('), then what the title says besides, a paragraph a line."""
    first, *rest = title.splitlines()
    ends = [i for i in (first.find(": "), first.find(" (")) if i > 0]
    if not ends:
        return first, rest
    cut = min(ends)
    said = first[cut:].removeprefix(": ").strip()
    return first[:cut], [said[0].upper() + said[1:], *rest] if said else rest


def _standings_first(found: list[Section]) -> list[Section]:
    """The sections in reading order for a page: the overall standings first (a terminal shows them
    last, where its reader's eyes are), then the others in their order."""
    overall = [s for s in found if s[0].startswith("Standings: ")]
    return overall + [s for s in found if not s[0].startswith("Standings: ")]


#: The widest line of a terminal report.
WIDTH = 100
#: Leading columns that name a row: a table too wide keeps them in every part it is split into.
KEY_HEADERS = ("#", "agent", "model", "group", "company 0", "company 1", "tournament", "match")
#: The narrowest a key column is wrapped to.
MIN_KEY = 12
_GAP = 2  # between two columns of tabulate's "simple" format


def _wrap(text: str, width: int = WIDTH) -> str:
    """``text`` wrapped to ``width``, each of its lines on its own; a word longer than the line
    (a path) is kept whole."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)) or line
        for line in text.splitlines()
    )


def _widest(text: str) -> int:
    return max(map(len, text.splitlines()), default=0)


def _cut(cell: Any, width: int) -> Any:
    """A text cell wrapped to ``width`` (a name without spaces is cut, at a hyphen if it can)."""
    if not isinstance(cell, str) or len(cell) <= width:
        return cell
    return "\n".join(textwrap.wrap(cell, width)) or cell


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], widths: dict[int, int]) -> str:
    """The table of the columns in ``widths`` (column index: the width to wrap its text to)."""
    columns = sorted(widths)
    return tabulate([[_cut(r[c], widths[c]) for c in columns] for r in rows],
                    [_cut(headers[c], widths[c]) for c in columns], tablefmt="simple")


def _share(natural: dict[int, int], room: int) -> dict[int, int] | None:
    """Widths of the key columns within ``room``: the narrow ones whole, the rest an equal share
    of what is left; None if a column would be narrower than :data:`MIN_KEY` (and its text)."""
    widths: dict[int, int] = {}
    for k, c in enumerate(sorted(natural, key=natural.__getitem__)):
        widths[c] = min(natural[c], room // (len(natural) - k))
        if widths[c] < min(MIN_KEY, natural[c]):
            return None
        room -= widths[c]
    return widths


def fit_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], width: int = WIDTH) -> list[str]:
    """A table as one or more blocks, none wider than ``width`` where its cells allow it.

    A table too wide first has its key columns (the names of its rows, :data:`KEY_HEADERS`)
    wrapped, down to :data:`MIN_KEY`; if it is still too wide, its other columns are split into
    parts, each beginning with the key columns; a text column alone too wide is wrapped.
    """
    natural = {c: max(len(str(x)) for x in [headers[c], *(r[c] for r in rows)]) for c in range(len(headers))}
    whole = _table(headers, rows, natural)
    if _widest(whole) <= width:
        return [whole]
    keys = 0
    while keys < len(headers) - 1 and headers[keys] in KEY_HEADERS:
        keys += 1
    keys = max(keys, 1)
    rest = list(range(keys, len(headers)))
    rest_width = _widest(_table(headers, rows, {c: natural[c] for c in rest}))
    room = width - rest_width - _GAP * keys
    for _ in range(3):  # tabulate pads a short header: take what it adds from the room, and try again
        key_widths = _share({c: natural[c] for c in range(keys)}, room)
        if key_widths is None:
            break
        wrapped = _table(headers, rows, {**key_widths, **{c: natural[c] for c in rest}})
        if _widest(wrapped) <= width:
            return [wrapped]
        room -= _widest(wrapped) - width
    key_widths = _share({c: natural[c] for c in range(keys)}, width // 2 - _GAP * keys) or {
        c: min(natural[c], MIN_KEY) for c in range(keys)}

    def part_table(part: list[int]) -> str:
        if len(part) == 1:  # a text column alone too wide is wrapped to the room the keys leave
            room = width - _widest(_table(headers, rows, key_widths)) - _GAP
            return _table(headers, rows, {**key_widths, part[0]: max(MIN_KEY, min(natural[part[0]], room))})
        return _table(headers, rows, {**key_widths, **{c: natural[c] for c in part}})

    parts: list[list[int]] = [[]]
    for c in rest:
        if parts[-1] and _widest(part_table([*parts[-1], c])) > width:
            parts.append([])
        parts[-1].append(c)
    return [part_table(part) for part in parts]


def check_resamples(resamples: int) -> None:
    """Raise UserError (one line) unless ``resamples`` is at least MIN_RESAMPLES."""
    if resamples < MIN_RESAMPLES:
        raise UserError(f"--resamples {resamples}: give at least {MIN_RESAMPLES} (the 95% intervals are the "
                        f"2.5th and 97.5th percentiles of the resamples; {RESAMPLES} by default)")


def check_options(fmt: str, group_by: str | None = None, table: str | None = None,
                  resamples: int = RESAMPLES) -> None:
    """Raise UserError (one line) for a bad format, grouping, table or number of resamples, before
    any work."""
    check_resamples(resamples)
    if fmt not in FORMATS:
        raise UserError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if group_by is not None:
        from apdp.tournament.groups import check_grouping

        check_grouping(group_by)
    if table is not None and table not in TABLES:
        raise UserError(f"unknown table {table!r}; choose one of: {', '.join(TABLES)}")
    if table is not None and fmt != "csv":
        raise UserError(f"--table chooses the one table of --format csv; --format {fmt} shows them all")


def report(folders: Sequence[str | Path], fmt: str = "table", group_by: str | None = None, *,
           mixed: bool = False, table: str | None = None, resamples: int = RESAMPLES) -> str:
    """The report over the results of ``folders`` in ``fmt``, grouped by origin if asked;
    ``mixed`` pools tournaments that differ, ``table`` is the one table of ``csv``, ``resamples``
    the bootstrap resamples behind the intervals."""
    check_options(fmt, group_by, table, resamples)
    stats, pooled, context = build(folders, group_by, mixed=mixed, resamples=resamples)
    return render(stats, pooled, fmt, group_by, context, table)
