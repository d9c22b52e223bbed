"""A failure of the referee's own never makes a match vanish (issue 17, class 2): the match is stored
as a referee error with its reason, counted in every report, its tournament never called complete,
and a resume plays it again."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import apdp.referee.match
from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.referee.record import referee_error
from apdp.referee.record_format import MatchRecord
from apdp.tournament.config import make_config
from apdp.tournament.play import PlayMatch
from apdp.tournament.report import report
from apdp.tournament.run import run_tournament
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.store import ResultsStore
from tests.matches import fast_scenario


def test_a_referee_that_fails_mid_match_still_returns_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = apdp.referee.match.auction_winner

    def failing(bids: list[float | None], ties: object, rule: str) -> int | None:
        calls.append(bids)
        if len(calls) == 2:
            raise ZeroDivisionError("a bug of the referee's own")
        return real(bids, ties, rule)  # type: ignore[arg-type]

    monkeypatch.setattr(apdp.referee.match, "auction_winner", failing)
    record = play_match(fast_scenario(tasks=4), ["naive", "honest"], seed=3).to_json()
    reason = referee_error(record)
    assert reason is not None and "ZeroDivisionError: a bug of the referee's own (test_referee_errors.py:" in reason
    assert record["result"]["winner"] is None and record["result"]["profit"] == [0.0, 0.0]
    (problem,) = verify_record(record)
    assert problem.startswith("the referee could not finish this match") and reason in problem
    json.dumps(record)


@dataclass(frozen=True)
class FailingPlay(PlayMatch):
    """Plays like the real referee, but fails (as a bug would) in the match ``failing``."""

    failing: str = ""

    def __call__(self, match: MatchSpec) -> MatchRecord:
        if match.match_id == self.failing:
            raise RuntimeError("the referee broke down")
        return super().__call__(match)


def test_a_failed_match_is_stored_reported_and_played_again(tmp_path: Path) -> None:
    config = make_config(topology="france", agents=["naive", "honest", "template"], seed=7,
                         overrides={"tasks": 3})
    schedule = len(config.agents) * (len(config.agents) - 1)
    failing = "france/7/honest/naive"
    play = FailingPlay(config.scenario, dict(zip(config.agents, config.agent_paths, strict=True)), bytes(32),
                       failing=failing)
    out = tmp_path / "out"
    summary = run_tournament(config, out, jobs=1, progress=False, play=play, secret=bytes(32))
    assert (summary.played, summary.errors) == (schedule - 1, 1), summary.error_messages
    assert "the referee broke down" in summary.error_messages[0]
    store = ResultsStore.open(out)
    try:
        rows = {m.match_id: m for m in store.matches()}
        assert len(rows) == schedule and rows[failing].error is not None and rows[failing].winner is None
        assert failing not in store.finished_keys()
    finally:
        store.close()
    text = report([out])
    assert "incomplete" in text and "1 of them ended in a referee error" in text and "the referee broke down" in text
    data = json.loads(report([out], "json"))
    assert [e["match"] for e in data["referee_errors"]] == [failing]
    assert {a["agent"]: a["referee_errors"] for a in data["agents"]} == {"naive": 1, "honest": 1, "template": 0}
    assert sum(a["total_wins"] + a["total_losses"] + a["draws"] for a in data["agents"]) == 2 * (schedule - 1)
    assert "referee_errors" in report([out], "csv").splitlines()[0]

    again = run_tournament(config, out, jobs=1, progress=False, secret=bytes(32))  # the resume plays it
    assert (again.played, again.errors) == (1, 0)
    data = json.loads(report([out], "json"))
    assert data["referee_errors"] == [] and data["incomplete"] == []
    store = ResultsStore.open(out)
    try:
        assert len(list(store.matches())) == schedule and store.finished_keys() == {m.match_id for m in store.matches()}
    finally:
        store.close()
