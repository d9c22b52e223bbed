"""The report as one self-contained HTML page (``apdp report --format html --out FILE.html``).

The page's data is exactly the JSON report (:func:`apdp.tournament.report.to_json`), so its tables show
the same figures; the page draws from it the study's table (and each network's, when there are
several), the groups (with ``--group-by``: the agents behind each, their rating and its interval
over agents and matches), the ratings with their 95% intervals, the pairwise grid as a heat map, the profit
distributions, the faults by kind and every match, each with a link to its replay (written next to
the page with ``replays``) or the ``apdp replay`` command that makes it. A report with an ``analysis``
(``apdp report --analysis``, a study's report; :mod:`apdp.analysis`) also shows each agent's bidding
and planning figures and a plot of its mean markup by auction.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apdp.errors import UserError
from apdp.files import check_writable, write_atomically
from apdp.pages.html import page
from apdp.pages.replay import write_replay
from apdp.tournament.store import ResultsStore

#: The page up to the end of its own sections: the sections a caller adds, then ``</main>``, follow.
_MAIN = """\
<header><h1 id="title"></h1><p id="subtitle"></p></header>
<main>
<nav id="toc"></nav>
<section id="notes-section" hidden><h2>Notes</h2><ul id="notes"></ul>
  <div id="referee-errors-box" hidden><h3>Referee errors</h3>
  <p class="note">Matches the referee could not finish (apdp's failure, never an agent's): counted for
  nobody; a resume of the tournament plays them again.</p>
  <div class="scroll"><table id="referee-errors"></table></div></div></section>
<section id="standings-section"><h2>Standings</h2>
  <p class="note">Average wins and losses per tournament with their SDs, totals, win rate, faults, and
  Bradley-Terry ratings (Elo scale) with bootstrap 95% intervals.</p>
  <div class="scroll"><table id="standings"></table></div></section>
<section id="networks-section" hidden><h2>Standings per network</h2>
  <p class="note">The same figures over each network's matches alone.</p>
  <div id="networks"></div></section>
<section id="groups-section" hidden><h2 id="groups-title">Groups</h2>
  <p class="note" id="groups-note"></p>
  <div class="scroll"><table id="groups"></table></div>
  <h2>Model usage per agent</h2><div class="scroll"><table id="usage"></table></div></section>
<section id="lineage-section" hidden><h2>Lineage</h2>
  <p class="note">Each agent made from another (improve, evolve) against its parent: their head-to-head (the
  child's wins, draws, losses), and each one's win rate and rating over the whole report.</p>
  <div class="scroll"><table id="lineage"></table></div><div id="curves"></div></section>
<section id="ratings-section"><h2>Ratings with 95% intervals</h2><svg id="ratings" class="chart"></svg></section>
<section id="grid-section"><h2>Pairwise grid</h2>
  <p class="note">Wins-draws-losses of the row agent against the column agent, both sides pooled; the colour is
  the row agent's score (a draw counts half).</p><div class="scroll"><table id="grid"></table></div></section>
<section id="profits-section"><h2>Profit per match</h2>
  <p class="note">Box: quartiles; whiskers: min and max; dot: mean. An agent's matches where it faulted are
  left out.</p><svg id="profits" class="chart"></svg></section>
<section id="analysis-section" hidden><h2>Bidding and planning</h2>
  <p class="note"><span id="analysis-count"></span> Planning gap: the agent's plan cost over the cost of
  apdp's reference plan of the tasks it won, minus 1. Markup: its bid over its own reference marginal cost
  (cheapest insertion into the tasks it had won), minus 1 (abstentions and tasks that cost it nothing have
  none). Left on table: the next-lowest bid minus its winning bid. Lost on planning: matches it lost that it
  would have won or drawn with the reference plans and the same bids. Matches with a fault are left out.</p>
  <div class="scroll"><table id="analysis"></table></div>
  <h3>Mean markup by auction</h3>
  <p class="note">Each agent's markup at each auction, averaged over its matches, on a log scale of bid over
  marginal cost (0%: it bids its marginal cost).</p><svg id="markups" class="chart"></svg></section>
<section id="faults-section"><h2>Faults by kind</h2><div id="faults"></div></section>
<section id="matches-section"><h2>Matches</h2>
  <p class="note" id="replay-note"></p>
  <input id="filter" type="search" placeholder="filter: agent, network, seed..." aria-label="filter matches">
  <span id="match-count"></span>
  <div class="scroll tall"><table id="matches"></table></div></section>
"""


def match_id(match: dict[str, Any]) -> str:
    """The match id of a JSON report's match (``topology/tournament seed/agent0/agent1``)."""
    return "/".join((str(match["topology"]), str(match["tournament_seed"]), *match["agents"]))


def replay_name(index: int, key: str) -> str:
    """The file name of match ``index``'s replay: its number and its id, made safe for a path."""
    return f"{index + 1:04d}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', key)}.html"


def page_data(report: dict[str, Any], title: str, replays: Sequence[str] | None = None) -> dict[str, Any]:
    """The page's data: the JSON report with each match's id (for ``apdp replay --match``), the
    title, and the relative link to each match's replay (or None); an ``analysis`` without its
    figures of each match (the page shows each agent's). Seeds are strings: a
    JavaScript number rounds an integer above 2**53 (3358432059346614871 would read
    3358432059346615000 and the page's filter would not find it)."""
    matches = [{**_seeds_as_text(m), "match_id": match_id(m)} for m in report["matches"]]
    analysis = report.get("analysis")
    if isinstance(analysis, dict):  # the page draws the agents' figures, not those of each match
        report = {**report, "analysis": {k: v for k, v in analysis.items() if k != "match_figures"}}
    return {**report, "matches": matches, "title": title, "replays": list(replays) if replays is not None else None,
            "referee_errors": [_seeds_as_text(e) for e in report.get("referee_errors", [])],
            "incomplete": [_seeds_as_text(e) for e in report.get("incomplete", [])]}


def _seeds_as_text(item: dict[str, Any]) -> dict[str, Any]:
    return {k: str(v) if k in ("seed", "tournament_seed") and v is not None else v for k, v in item.items()}


def report_html(report: dict[str, Any], title: str | None = None, replays: Sequence[str] | None = None,
                sections: Sequence[str] = ()) -> str:
    """The HTML page of a JSON report (``replays``: one relative link per match, or None), with the
    ``sections`` a caller adds (trusted markup: a study's generation funnel) after its own."""
    tournaments = report.get("tournaments_text") or f"{report['tournaments']} tournament(s)"
    shown = title or f"apdp report: {tournaments}, {len(report['matches'])} matches"
    body = _MAIN + "".join(sections) + "</main>"
    return page(shown, body, page_data(report, shown, replays), ("common.css", "report.css"),
                ("common.js", "report.js"))


def write_replays(matches: Sequence[dict[str, Any]], folder: Path) -> list[str]:
    """Write the replay of every match of a JSON report into ``folder``, from the stores the
    matches came from; their links relative to the folder's parent."""
    folder.mkdir(parents=True, exist_ok=True)
    by_results: dict[str, list[int]] = defaultdict(list)
    for i, m in enumerate(matches):
        by_results[str(m["results"])].append(i)
    links = [""] * len(matches)
    for results, indices in by_results.items():
        store = ResultsStore.open(results)
        try:
            for i in indices:
                key = match_id(matches[i])
                record = store.record(key)
                if record is None:
                    raise UserError(f"{results}: match {key} is gone from the store; make the report again")
                name = replay_name(i, key)
                write_replay(record, folder / name, source=f"{results} {key}")
                links[i] = f"{folder.name}/{name}"
        finally:
            store.close()
    return links


@dataclass(frozen=True, slots=True)
class WrittenReport:
    """What :func:`write_report_page` wrote: the page, its size, and the replays' folder if any."""

    path: Path
    bytes: int
    matches: int
    replays: Path | None


def write_report_page(report: dict[str, Any], out: str | Path, *, replays: bool = False,
                      sections: Sequence[str] = ()) -> WrittenReport:
    """Write the page of a JSON report to ``out``, with the ``sections`` a caller adds (see
    :func:`report_html`).

    With ``replays``, every match's replay goes in ``OUT-replays/`` beside the page (a folder named
    after the page), and the page links to them.
    """
    out = Path(out)
    check_writable(out)
    folder = out.with_name(out.stem + "-replays") if replays else None
    links = write_replays(report["matches"], folder) if folder is not None else None
    text = report_html(report, replays=links, sections=sections)
    write_atomically(out, text)
    return WrittenReport(out, len(text.encode("utf-8")), len(report["matches"]), folder)
