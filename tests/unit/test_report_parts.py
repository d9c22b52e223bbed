"""Parts a caller adds to a report (a study's funnel and analysis): each comes after the tournament's
own sections, in the JSON under its key, in the terminal's text as its block, on the HTML page as its
section inside <main>; the report without parts is what it was (made-up matches: none is played)."""

from __future__ import annotations

import json

from apdp.tournament.report import Part, page_sections, render, to_json
from apdp.tournament.stats import PooledMatch, compute
from apdp.tournament.store import StoredMatch

POOLED = [
    PooledMatch(("results", "france", 1), StoredMatch(f"france/1/{a}/{b}", "france", 1, k, (a, b), (10.0, 5.0), a, ()))
    for k, (a, b) in enumerate([("a", "b"), ("b", "a")])
]
FUNNEL = Part("funnel", [{"model": "m"}], "Generation funnel: one row", '<section id="funnel-section"></section>\n')
ANALYSIS = Part("analysis", {"agents": []}, "Bidding and planning: none")


def test_parts_follow_the_tournament_s_own_sections_in_every_format_that_shows_them() -> None:
    stats = compute(POOLED, bootstrap=100)
    parts = [FUNNEL, ANALYSIS]
    plain = render(stats, POOLED, "table")
    assert render(stats, POOLED, "table", parts=parts) == f"{plain}\n\nGeneration funnel: one row\n\n" \
        "Bidding and planning: none"
    data = to_json(stats, POOLED, parts=parts)
    assert list(data)[-2:] == ["funnel", "analysis"] and data["funnel"] == [{"model": "m"}]
    assert json.loads(render(stats, POOLED, "json", parts=parts)) == json.loads(json.dumps(data))
    page = render(stats, POOLED, "html", parts=parts)
    assert page.count('<section id="funnel-section">') == 1
    assert page.index('id="matches-section"') < page.index('id="funnel-section"') < page.index("</main>")
    assert page_sections(parts) == [FUNNEL.html]
    assert render(stats, POOLED, "html") == page.replace(FUNNEL.html, "").replace(
        ',"funnel":[{"model":"m"}],"analysis":{"agents":[]}', "")
