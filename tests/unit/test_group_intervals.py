"""A group's rating interval is a two-level bootstrap (its agents drawn, the matches drawn): samples
that differ widely make it wide, identical samples do not; a group of one agent has its matches'
interval; the same results give the same report (hand-built matches: nothing is played)."""

from __future__ import annotations

import numpy as np
import pytest

from apdp.errors import UserError
from apdp.tournament.groups import (
    FROM_AGENTS_AND_MATCHES,
    FROM_MATCHES,
    GROUP_BY,
    Group,
    check_grouping,
    group_rating_samples,
    group_standings,
)
from apdp.tournament.report import check_options, sections
from apdp.tournament.stats import PooledMatch, Statistics, compute
from apdp.tournament.store import StoredMatch
from apdp.tournament.tidy import tidy_table

TOURNAMENTS = [("results", "france", 1), ("results", "france", 2)]
OPPONENTS = ["o1", "o2", "o3", "o4"]
#: Each agent's share of wins against every opponent (out of 10 matches a pairing and tournament).
WINS = {"wide-1": 9, "wide-2": 1, "same-1": 5, "same-2": 5, "alone": 5}
LABELS = {"wide-1": "wide", "wide-2": "wide", "same-1": "same", "same-2": "same", "alone": "alone",
          **{o: "field" for o in OPPONENTS}}


def match(tournament: tuple[str, str, int], n: int, agents: tuple[str, str], winner: str | None) -> PooledMatch:
    """A match of ``agents`` won by ``winner`` (None: a draw), with made-up profits."""
    profit = tuple(10.0 if a == winner else 5.0 for a in agents)
    stored = StoredMatch(f"{tournament[1]}/{tournament[2]}/{n}", tournament[1], tournament[2], n, agents, profit,
                         winner, ())
    return PooledMatch(tournament, stored)


def field_matches(wins: dict[str, int]) -> list[PooledMatch]:
    """Each agent of ``wins`` plays each opponent 10 times in each tournament (both sides in turn),
    winning ``wins[agent]`` of them; the opponents play each other to draws."""
    out: list[PooledMatch] = []
    for t in TOURNAMENTS:
        for agent, won in wins.items():
            for opponent in OPPONENTS:
                for k in range(10):
                    agents = (agent, opponent) if k % 2 == 0 else (opponent, agent)
                    out.append(match(t, len(out), agents, agent if k < won else opponent))
        for i, a in enumerate(OPPONENTS):
            for b in OPPONENTS[i + 1:]:
                out.extend(match(t, len(out), (a, b), None) for _ in range(2))
    return out


@pytest.fixture(scope="module")
def stats() -> Statistics:
    return compute(field_matches(WINS), bootstrap=400)


def groups_of(stats: Statistics, labels: dict[str, str] = LABELS) -> dict[str, Group]:
    return {g.group: g for g in group_standings(stats, labels)}


def width(g: Group) -> float:
    assert g.rating_low is not None and g.rating_high is not None
    return g.rating_high - g.rating_low


def test_samples_that_differ_widely_make_a_wider_interval_than_identical_samples(stats: Statistics) -> None:
    groups = groups_of(stats)
    wide, same = groups["wide"], groups["same"]
    assert wide.interval_from == same.interval_from == FROM_AGENTS_AND_MATCHES
    # both groups have 160 agent matches and win half of them: only the spread between samples differs
    assert (wide.matches, wide.wins, same.matches, same.wins) == (160, 80, 160, 80)
    assert width(wide) > 3 * width(same)
    # the wide group's interval reaches towards both of its samples' ratings
    ratings = {s.agent: s.rating for s in stats.standings}
    assert wide.rating_low is not None and wide.rating_high is not None
    assert wide.rating_low < (wide.mean_rating + ratings["wide-2"]) / 2
    assert wide.rating_high > (wide.mean_rating + ratings["wide-1"]) / 2


def test_identical_samples_resample_to_about_the_matches_interval_of_one(stats: Statistics) -> None:
    groups = groups_of(stats)
    same, alone = groups["same"], groups["alone"]
    # a group of two identical samples is no better known than one agent with as many matches: its
    # interval is about as wide as one agent's (two samples of 80 matches each, against one of 80)
    assert 0.5 * width(alone) < width(same) < 1.5 * width(alone)


def test_a_group_of_one_agent_has_the_interval_of_its_matches(stats: Statistics) -> None:
    alone = groups_of(stats)["alone"]
    agent = next(s for s in stats.standings if s.agent == "alone")
    assert (alone.agents, alone.samples, alone.interval_from) == (["alone"], 1, FROM_MATCHES)
    assert (alone.mean_rating, alone.rating_low, alone.rating_high) == (agent.rating, agent.rating_low,
                                                                         agent.rating_high)


def test_sample_counts_and_agent_matches(stats: Statistics) -> None:
    groups = groups_of(stats)
    assert {name: (g.samples, sorted(g.agents)) for name, g in groups.items()} == {
        "wide": (2, ["wide-1", "wide-2"]), "same": (2, ["same-1", "same-2"]), "alone": (1, ["alone"]),
        "field": (4, OPPONENTS),
    }
    # a match counts once per agent of the group in it: the field's matches among themselves twice
    assert groups["field"].matches == 2 * (5 * 4 * 10 + 2 * 6 * 2)
    assert sum(g.wins + g.draws + g.losses for g in groups.values()) == 2 * stats.matches


def test_the_same_results_give_the_same_intervals() -> None:
    matches = field_matches(WINS)
    first = group_standings(compute(matches, bootstrap=200), LABELS)
    again = group_standings(compute(matches, bootstrap=200), LABELS)
    assert first == again
    samples = np.arange(12.0).reshape(4, 3)
    drawn = group_rating_samples(samples, [0, 2], "wide")
    assert np.array_equal(drawn, group_rating_samples(samples, [0, 2], "wide"))
    # in each resample, the mean of two of the group's agents drawn with replacement
    assert all(row[0] <= d <= row[2] for row, d in zip(samples, drawn, strict=True))
    assert drawn.shape == (4,)


def test_too_few_matches_give_no_interval() -> None:
    few = [match(TOURNAMENTS[0], k, ("a", "b"), "a") for k in range(4)]
    groups = group_standings(compute(few, bootstrap=200), {"a": "x", "b": "x"})
    assert [(g.samples, g.matches, g.rating_low, g.rating_high, g.interval_from) for g in groups] == [
        (2, 8, None, None, None)]


def test_the_report_keeps_table_1_and_says_how_the_interval_was_made(stats: Statistics) -> None:
    by_title = {title.split("\n")[0]: (title, headers) for title, headers, _ in sections(stats, "model", None)}
    # the study's Table 1 columns stay as they were, for agents and for groups
    assert by_title["Groups by model: wins and losses per tournament and agent of the group"][1] == [
        "group", "agents", "tournaments", "avg wins", "sd wins", "avg losses", "sd losses"]
    assert by_title["Wins and losses per tournament: means and SDs over the tournaments (no SD over one "
                    "tournament)"][1] == ["agent", "tournaments", "avg wins", "sd wins", "avg losses", "sd losses"]
    title, headers = by_title["Groups by model: ratings"]
    assert headers == ["group", "agents", "agent matches", "rating", "95% CI", "CI from"]
    assert "two-level bootstrap (400 resamples" in title and "a group of one agent: over its matches only" in title
    columns, rows = tidy_table("groups", stats, group_standings(stats, LABELS))
    assert columns[:16] == ["group", "agents", "tournaments", "matches", "avg_wins", "sd_wins", "avg_losses",
                            "sd_losses", "wins", "losses", "draws", "win_rate", "faults", "mean_rating",
                            "rating_low", "rating_high"]
    assert columns[16:] == ["samples", "interval_from"]
    assert {r[0]: r[16:] for r in rows}["alone"] == [1, FROM_MATCHES]


def test_groupings_and_resamples_are_checked_in_one_line() -> None:
    assert "model,strategy" in GROUP_BY
    check_grouping("model,strategy")
    with pytest.raises(UserError, match=r"unknown grouping 'model,seed'; choose one of: model \| strategy"):
        check_grouping("model,seed")
    with pytest.raises(UserError) as info:
        check_options("json", "model", resamples=10)
    assert str(info.value).startswith("--resamples 10: give at least 100") and "\n" not in str(info.value)
