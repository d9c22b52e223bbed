"""Schedule, store, statistics and report of tournaments, on made-up records (no match is played)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord
from apdp.tournament.config import config_difference
from apdp.tournament.report import AGENT_FIELDS, report
from apdp.tournament.schedule import MatchSpec, double_round_robin, match_seed
from apdp.tournament.stats import PooledMatch, compute, tournaments_text
from apdp.tournament.store import ResultsStore
from tests.records import typed_record

CONFIG: dict[str, Any] = {"format": "apdp-tournament/1", "agents": ["a", "b", "c"], "seed": 0}


def fake_record(match: MatchSpec, profit: tuple[float, float], faulty: int | None = None) -> MatchRecord:
    """A record of the apdp-record/1 shape with only what the store and reports read."""
    faults = []
    if faulty is not None:
        faults = [{"agent": faulty, "kind": "exception", "phase": "bid", "task": 0, "message": "x"}]
    if faulty is not None:
        winner: int | None = 1 - faulty
    elif profit[0] == profit[1]:
        winner = None
    else:
        winner = 0 if profit[0] > profit[1] else 1
    return typed_record({
        "format": "apdp-record/1",
        "topology": match.topology,
        "seed": match.seed,
        "agents": list(match.agents),
        "result": {"profit": list(profit), "winner": winner, "faults": faults},
    })


def test_every_pair_meets_twice_with_companies_swapped_on_one_seed() -> None:
    schedule = double_round_robin(["a", "b", "c", "d"], ["france"], seed=0, repeat=2)
    assert len(schedule) == 2 * 4 * 3
    assert len({m.match_id for m in schedule}) == len(schedule)
    legs = Counter(m.agents for m in schedule)
    assert set(legs.values()) == {2} and len(legs) == 12
    by_pair: dict[tuple[int, frozenset[str]], set[int]] = {}
    for m in schedule:
        by_pair.setdefault((m.tournament_seed, frozenset(m.agents)), set()).add(m.seed)
    assert all(len(seeds) == 1 for seeds in by_pair.values())
    assert len({next(iter(s)) for s in by_pair.values()}) == len(by_pair)


def test_match_seeds_do_not_depend_on_the_order_of_the_field() -> None:
    one = {m.match_id: m.seed for m in double_round_robin(["a", "b", "c"], ["france"], 3, 1)}
    two = {m.match_id: m.seed for m in double_round_robin(["c", "a", "b"], ["france"], 3, 1)}
    assert one == two
    assert match_seed("france", 3, ("a", "b")) != match_seed("france", 4, ("a", "b"))
    assert 0 <= match_seed("france", 3, ("a", "b")) < 2**63


def test_store_keeps_each_match_once_and_resumes(tmp_path: Path) -> None:
    schedule = double_round_robin(["a", "b", "c"], ["france"], 0, 1)
    store = ResultsStore.create_or_resume(tmp_path, CONFIG)
    for m in schedule[:4]:
        store.add(m, fake_record(m, (10.0, 5.0)))
    store.close()
    store = ResultsStore.create_or_resume(tmp_path, CONFIG)
    assert store.finished_keys() == {m.match_id for m in schedule[:4]}
    stored = list(store.matches())
    assert [s.winner for s in stored] == [s.agents[0] for s in stored]
    assert store.record(schedule[0].match_id)["seed"] == schedule[0].seed  # type: ignore[index]
    store.close()


def test_a_folder_takes_one_run_at_a_time(tmp_path: Path) -> None:
    store = ResultsStore.create_or_resume(tmp_path, CONFIG)
    with pytest.raises(UserError, match="in use by another tournament run"):
        ResultsStore.create_or_resume(tmp_path, CONFIG)
    store.close()
    ResultsStore.create_or_resume(tmp_path, CONFIG).close()


def test_resume_with_another_configuration_is_refused(tmp_path: Path) -> None:
    ResultsStore.create_or_resume(tmp_path, CONFIG).close()
    with pytest.raises(UserError, match="another configuration: seed differs") as err:
        ResultsStore.create_or_resume(tmp_path, {**CONFIG, "seed": 1})
    assert "\n" not in str(err.value)
    assert config_difference(CONFIG, {**CONFIG, "agents": ["a", "b"]}) is not None
    assert config_difference(CONFIG, dict(CONFIG)) is None


def test_resuming_a_tournament_of_an_earlier_apdp_says_so_and_that_its_results_still_read(tmp_path: Path) -> None:
    older = {**CONFIG, "scenario": {"tasks": 50}}
    ResultsStore.create_or_resume(tmp_path, older).close()
    with pytest.raises(UserError, match="played by an earlier apdp") as err:
        ResultsStore.create_or_resume(tmp_path, {**CONFIG, "scenario": {"tasks": 50, "bids": "apdp"}})
    assert "\n" not in str(err.value) and "still read" in str(err.value)
    with pytest.raises(UserError, match=r"another configuration: scenario\.tasks differs"):
        ResultsStore.create_or_resume(tmp_path, {**CONFIG, "scenario": {"tasks": 40}})


def _two_tournaments(folder: Path) -> None:
    """a beats everyone; b and c draw as company 0 vs 1 and b wins the other leg; c faults once."""
    store = ResultsStore.create_or_resume(folder, CONFIG)
    for m in double_round_robin(["a", "b", "c"], ["france"], 0, 2):
        if "a" in m.agents:
            profit = (9.0, 1.0) if m.agents[0] == "a" else (1.0, 9.0)
            store.add(m, fake_record(m, profit))
        elif m.agents == ("b", "c"):
            store.add(m, fake_record(m, (3.0, 3.0)))
        elif m.tournament_seed == 0:
            store.add(m, fake_record(m, (0.0, 0.0), faulty=0))  # c faults, b wins
        else:
            store.add(m, fake_record(m, (1.0, 2.0)))  # c as company 0 loses to b
    store.close()


def test_statistics_follow_the_study(tmp_path: Path) -> None:
    _two_tournaments(tmp_path)
    store = ResultsStore.open(tmp_path)
    pooled = [PooledMatch((str(tmp_path), m.topology, m.tournament_seed), m) for m in store.matches()]
    store.close()
    stats = compute(pooled, bootstrap=50)
    rows = {s.agent: s for s in stats.standings}
    assert [s.agent for s in stats.standings] == ["a", "b", "c"]
    assert stats.tournaments == 2 and stats.matches == 12
    assert (rows["a"].avg_wins, rows["a"].sd_wins, rows["a"].total_wins) == (4.0, 0.0, 8)
    assert (rows["b"].total_wins, rows["b"].total_losses, rows["b"].draws) == (2, 4, 2)
    assert (rows["c"].total_wins, rows["c"].total_losses, rows["c"].draws) == (0, 6, 2)
    assert rows["c"].faults == 1 and stats.faults == {"c": {"exception": 1}}
    assert rows["b"].win_rate == pytest.approx(2 / 8)
    assert rows["a"].rating > rows["b"].rating > rows["c"].rating
    # 8 matches each: too few for a bootstrap interval that means anything
    assert all(s.rating_low is None and s.rating_high is None for s in stats.standings)
    leg = next(g for g in stats.legs if (g.agent, g.opponent) == ("b", "c"))
    assert (leg.matches, leg.wins, leg.draws, leg.losses, leg.profit) == (2, 0, 2, 0, 3.0)
    assert stats.grid["b"]["c"] == (2, 2, 0)


def test_figures_without_meaning_are_left_out(tmp_path: Path) -> None:
    _two_tournaments(tmp_path)
    store = ResultsStore.open(tmp_path)
    matches = list(store.matches())
    store.close()
    pooled = [PooledMatch((str(tmp_path), m.topology, m.tournament_seed), m) for m in matches]
    # Faulted entries are in no profit figure: c faulted once (its 0.0 there is left out), b did not.
    stats = compute(pooled, bootstrap=50)
    profits = {p.agent: p for p in stats.profits}
    assert (profits["c"].matches, profits["c"].faulted) == (7, 1)
    assert (profits["b"].matches, profits["b"].faulted) == (8, 0)
    leg = next(g for g in stats.legs if (g.agent, g.opponent) == ("c", "b"))
    assert (leg.matches, leg.faulted, leg.opponent_faulted) == (2, 1, 0)
    assert (leg.profit, leg.opponent_profit) == (1.0, 1.0)  # c's 1.0 of the sound match; b's 0.0 and 2.0
    # One tournament: no SD (a spread of one value means nothing); 14+ matches: an interval.
    one = compute([p for p in pooled if p.match.tournament_seed == 0] * 4, bootstrap=50)
    assert all(s.sd_wins is None and s.sd_losses is None for s in one.standings)
    assert all(s.rating_low is not None and s.rating_high is not None for s in one.standings)
    assert stats.standings[0].sd_wins == 0.0  # two tournaments: a real spread, here none
    table = report([tmp_path], "table")
    assert "profit 0 and profit 1 are mean profits per match" in table
    assert "faulted" in table
    standings = table[table.rindex("Standings: "):].splitlines()  # the last table, where a terminal shows it
    assert standings[-3].startswith("a ") and standings[-3].endswith(" 1760  -")  # no interval: "-"


def test_tournaments_are_counted_in_words() -> None:
    def pooled(keys: list[tuple[str, int]]) -> list[PooledMatch]:
        return [PooledMatch(("r", t, s), None) for t, s in keys]  # type: ignore[arg-type]

    assert tournaments_text(pooled([("france", 1)])) == "1 tournament"
    assert tournaments_text(pooled([("france", 1), ("france", 2)])) == "2 tournaments"
    every = [(t, 1) for t in ("switzerland", "france", "england", "netherlands")]
    assert tournaments_text(pooled(every)) == "4 tournaments: 4 networks x 1 seed"
    assert tournaments_text(pooled([*every, ("france", 2)])) == "5 tournaments on 4 networks"


def test_json_report_has_the_study_fields_and_is_reproducible(tmp_path: Path) -> None:
    _two_tournaments(tmp_path)
    text = report([tmp_path], "json")
    assert report([tmp_path], "json") == text
    data = json.loads(text)
    assert [list(a)[: len(AGENT_FIELDS)] for a in data["agents"]] == [list(AGENT_FIELDS)] * 3
    assert len(data["matches"]) == 12
    match = data["matches"][0]
    assert {"topology", "seed", "agents", "profit", "winner", "faults"} <= set(match)
    faulted = [m for m in data["matches"] if m["faults"]]
    assert len(faulted) == 1 and faulted[0]["faults"][0]["agent"] == "c"
    assert faulted[0]["winner"] == "b"
    for fmt in ("table", "markdown"):
        assert "Standings" in report([tmp_path, tmp_path], fmt)
    assert report([tmp_path, tmp_path], "csv").startswith("agent,tournaments,matches,avg_wins")


def test_the_markdown_report_opens_with_the_standings_under_short_headings(tmp_path: Path) -> None:
    """A page's reader sees the overall standings first; each heading is a short title, and what a
    section's title says besides (scales, notes) is a paragraph under it (issue 35)."""
    _two_tournaments(tmp_path)
    text = report([tmp_path], "markdown")
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings[0] == "## Standings" and len(headings) > 4
    assert all(len(h) <= 80 and ":" not in h for h in headings), headings
    assert "\nBradley-Terry" in text or "(ratings: Bradley-Terry" in text  # the scale, as a paragraph


def test_report_of_a_folder_without_results_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no tournament results"):
        report([tmp_path], "table")
    with pytest.raises(UserError, match="unknown report format"):
        report([tmp_path], "xml")


LONG_NAMES = ["honest", "exp-cost-fixed-bid", "gpt-4o-mini-2024-07-18-attempt-3-greedy-insertion-lns",
              "model-opponent", "a_student_agent_with_an_unusually_long_name_and_no_hyphen_at_all_in_it",
              "lns", "x", "template", "claude-3-5-sonnet-20241022-attempt-1-auction-aware-planner"]


@pytest.mark.parametrize("group_by", [None, "model"])
def test_the_terminal_report_fits_100_columns_with_the_standings_last(tmp_path: Path, group_by: str | None) -> None:
    store = ResultsStore.create_or_resume(tmp_path, {**CONFIG, "agents": LONG_NAMES})
    for k, m in enumerate(double_round_robin(LONG_NAMES, ["france", "england"], 0, 2)):
        store.add(m, fake_record(m, (1000.0 * (k % 7), 12345.6 * (k % 3)), faulty=1 if k % 9 == 0 else None))
    store.close()
    table = report([tmp_path], "table", group_by=group_by)
    too_wide = [line for line in table.splitlines() if len(line) > 100]
    assert too_wide == []
    last = table[table.rindex("\n\n") + 2:]
    assert last.startswith("Standings: 4 tournaments: 2 networks x 2 seeds (england, france), 288 matches")
    assert len(re.findall(r"^-+(  -+)+$", last, re.MULTILINE)) == 1  # one table, not split
    assert all(name[:16] in last for name in LONG_NAMES)
    assert "Standings on england" in table and "Standings on france" in table
    assert "profit 0 and profit 1 are mean profits per match" in table
    rows = table[table.index("Pairwise grid"):table.index("Pairings by side")]
    assert all(name[:16] in rows for name in LONG_NAMES)  # long names wrapped, never dropped
