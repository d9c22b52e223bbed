"""Each agent's figures over many matches, as a terminal table and as JSON.

Means are over what has the figure: the planning gap over the matches where the agent won a task,
the markup over the auctions it bid in with a marginal cost above 0 (see :mod:`apdp.analysis`),
money left on the table per match over its analysed matches, and per task over the auctions it won
that another agent bid in. Matches left out (a fault, a referee error, an unreadable record) are in
no figure: they are counted.
"""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from apdp.analysis.figures import REFERENCE_ITERATIONS, ZERO_COST, AgentMatch, MatchAnalysis
from apdp.text import markdown_table
from apdp.tournament.report import WIDTH, fit_table

#: Keys of each JSON ``agents`` entry, in order (``markup_by_auction`` follows them).
AGENT_FIELDS = (
    "agent", "matches", "faulted", "planning_gap", "planning_gap_matches", "markup", "markup_median", "markup_bids",
    "zero_cost", "left_on_table", "left_per_task", "lost", "lost_on_planning",
)


@dataclass(frozen=True, slots=True)
class AgentSummary:
    """One agent's figures over the matches analysed (fractions: 0.12 is 12%)."""

    agent: str
    #: Matches analysed (finished without a fault).
    matches: int
    #: Its matches left out because an agent faulted in them.
    faulted: int
    #: Mean planning gap over the matches where it won a task (None: none).
    planning_gap: float | None
    planning_gap_matches: int
    #: Mean and median markup over its bids with a marginal cost above 0 (None: none).
    markup: float | None
    markup_median: float | None
    markup_bids: int
    #: Bids with no markup: marginal cost 0, or no vehicle for the task.
    zero_cost: int
    #: Money left on the table per match (mean of each match's sum; None: no match).
    left_on_table: float | None
    #: Money left on the table per task won that another agent bid on (None: none).
    left_per_task: float | None
    #: Matches it lost, and of those, the ones it would have won or drawn with the reference plans.
    lost: int
    lost_on_planning: int
    #: Mean markup at each auction index (0: the first auction), over its matches (None: no markup).
    markup_by_auction: list[float | None] = field(default_factory=list)


@dataclass
class Analysis:
    """The figures of a set of matches: per agent, per match and agent, and what was left out."""

    agents: list[AgentSummary]
    details: list[tuple[MatchAnalysis, AgentMatch]]
    matches: int
    faulted: int
    referee_errors: int
    #: (match id, why) of each record that does not read as a match.
    unreadable: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarise(analyses: Iterable[MatchAnalysis], notes: Sequence[str] = ()) -> Analysis:
    """Each agent's figures over ``analyses`` (in the order given: the figures do not depend on it,
    but sums of floats are added in it), agents by name."""
    done = list(analyses)
    per_agent: dict[str, list[AgentMatch]] = {}
    faulted: dict[str, int] = {}
    for match in done:
        for name in match.players:
            per_agent.setdefault(name, [])
            if match.excluded == "faulted":
                faulted[name] = faulted.get(name, 0) + 1
        for figures in match.agents:
            per_agent[figures.agent].append(figures)
    agents = [_agent_summary(name, per_agent[name], faulted.get(name, 0)) for name in sorted(per_agent)]
    return Analysis(
        agents=agents,
        details=[(m, a) for m in done for a in m.agents],
        matches=sum(1 for m in done if m.excluded is None),
        faulted=sum(1 for m in done if m.excluded == "faulted"),
        referee_errors=sum(1 for m in done if m.excluded == "referee_error"),
        unreadable=[(m.match_id, m.reason) for m in done if m.excluded == "unreadable"],
        notes=list(notes),
    )


def _agent_summary(agent: str, matches: Sequence[AgentMatch], faulted: int) -> AgentSummary:
    gaps = [g for m in matches if (g := m.planning_gap) is not None]
    markups = [x for m in matches for x in m.markups if x is not None]
    auctions = max((len(m.markups) for m in matches), default=0)
    by_auction = [[x for m in matches if k < len(m.markups) and (x := m.markups[k]) is not None]
                  for k in range(auctions)]
    left_auctions = sum(m.left_auctions for m in matches)
    return AgentSummary(
        agent=agent,
        matches=len(matches),
        faulted=faulted,
        planning_gap=_mean(gaps),
        planning_gap_matches=len(gaps),
        markup=_mean(markups),
        markup_median=statistics.median(markups) if markups else None,
        markup_bids=len(markups),
        zero_cost=sum(m.zero_cost for m in matches),
        left_on_table=_mean([m.left_on_table for m in matches]),
        left_per_task=sum(m.left_on_table for m in matches) / left_auctions if left_auctions else None,
        lost=sum(1 for m in matches if m.outcome == "loss"),
        lost_on_planning=sum(1 for m in matches if m.lost_on_planning),
        markup_by_auction=[_mean(xs) for xs in by_auction],
    )


def reference_json() -> dict[str, Any]:
    """How the reference figures are made (the JSON's ``reference``)."""
    return {
        "plan": f"the cheaper of two LNS searches of {REFERENCE_ITERATIONS} iterations (from cheapest insertion, "
                "and from the agent's own plan)",
        "plan_iterations": REFERENCE_ITERATIONS,
        "marginal_cost": "cheapest insertion into the tasks won so far, each inserted in auction order",
        "zero_cost": ZERO_COST,
    }


def to_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON: ``agents`` (one entry per agent: :data:`AGENT_FIELDS` and
    ``markup_by_auction``), ``match_figures`` (one entry per analysed match and agent), the counts
    of matches analysed and left out, ``unreadable`` records, ``notes`` and ``reference``."""
    return {
        "reference": reference_json(),
        "matches": analysis.matches,
        "faulted": analysis.faulted,
        "referee_errors": analysis.referee_errors,
        "unreadable": [{"match": m, "reason": why} for m, why in analysis.unreadable],
        "notes": list(analysis.notes),
        "agents": [asdict(a) for a in analysis.agents],
        "match_figures": [
            {"match": m.match_id, "agent": a.agent, "company": a.company, "won": a.won, "revenue": a.revenue,
             "cost": a.cost, "reference_cost": a.reference_cost, "planning_gap": a.planning_gap, "profit": a.profit,
             "counterfactual_profit": a.counterfactual_profit, "opponent_profit": a.opponent_profit,
             "outcome": a.outcome, "lost_on_planning": a.lost_on_planning, "left_on_table": a.left_on_table,
             "markup": _mean([x for x in a.markups if x is not None])}
            for m, a in analysis.details
        ],
    }


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{round(100 * x, 1) + 0.0:+.1f}%"  # + 0.0: no "-0.0%"


def _money(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _wrap(text: str) -> str:
    return "\n".join(textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False))


def summary_line(analysis: Analysis) -> str:
    """What was analysed and what was left out, in one sentence."""
    left_out = [f"{n} {what}" for n, what in (
        (analysis.faulted, "with a fault"), (analysis.referee_errors, "with a referee error"),
        (len(analysis.unreadable), "unreadable"),
    ) if n]
    out = f"; left out: {', '.join(left_out)}" if left_out else ""
    return f"{analysis.matches} match{'' if analysis.matches == 1 else 'es'} analysed{out}"


def headers_and_rows(analysis: Analysis) -> tuple[list[str], list[list[Any]]]:
    """The table of the agents' figures (the matches left out for a fault are :func:`to_text`'s line)."""
    headers = ["agent", "matches", "plan\ngap", "markup", "median\nmarkup", "left per\nmatch", "left per\ntask",
               "lost\n(planning)"]
    rows = [[a.agent, a.matches, _percent(a.planning_gap), _percent(a.markup), _percent(a.markup_median),
             _money(a.left_on_table), _money(a.left_per_task), f"{a.lost} ({a.lost_on_planning})"]
            for a in analysis.agents]
    return headers, rows


def to_markdown(analysis: Analysis) -> str:
    """The table as a markdown section (``apdp report --format markdown --analysis``)."""
    headers, rows = headers_and_rows(analysis)
    notes = "".join(f"- Note: {n}\n" for n in analysis.notes)
    table = markdown_table(rows, [h.replace("\n", " ") for h in headers])
    return f"## Bidding and planning: {summary_line(analysis)}\n{notes}\n{table}\n"


def to_text(analysis: Analysis) -> str:
    """The terminal table (at most :data:`apdp.tournament.report.WIDTH` columns), with what its
    figures mean under it."""
    headers, rows = headers_and_rows(analysis)
    lines = [_wrap(f"Note: {n}") for n in analysis.notes]
    lines.append(_wrap(f"Bidding and planning: {summary_line(analysis)}"))
    lines += fit_table(headers, rows)
    lines.append(_wrap(
        f"plan gap: its plan cost over the reference plan's, minus 1 (the reference: its won tasks planned by "
        f"apdp's LNS, {REFERENCE_ITERATIONS} iterations from insertion and from its own plan, the cheaper). "
        "markup: bid over its own reference marginal cost (cheapest insertion into the tasks it had won), minus "
        "1; bids where that cost is 0 have none. left: the next-lowest bid minus its winning bid, summed per "
        "match, and per task won. lost (planning): matches lost (of those, matches the reference plans would "
        "have won or drawn with the same bids)."
    ))
    faulted = [f"{a.agent} {a.faulted}" for a in analysis.agents if a.faulted]
    if faulted:
        lines.append(_wrap(f"Matches left out for a fault: {', '.join(faulted)}."))
    for match_id, why in analysis.unreadable[:3]:
        lines.append(_wrap(f"unreadable record {match_id}: {why}"))
    return "\n".join(lines)
