"""The Logist platform's rules of play, met by Java agents unchanged (issue 31).

Each figure asserted here under a Logist configuration is what the real platform (its 2018 jar)
gave the same agents on the same file (tests/data/java/rules, on the probe's France configuration
with 4 tasks and a bid limit of 2 s): a slow ``auctionResult`` is a timeout of the next bid, the
first fault ends the game, money is Java ``long``s that wrap around, and ``Long.MAX_VALUE`` is a bid
like any other. Under apdp's own rules the same agents meet apdp's.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from apdp.check.verify import verify_record
from apdp.game.auction import LONG_MAX
from apdp.referee.match import play_match
from apdp.scenario import Scenario, load_scenario, make_scenario
from tests.command import apdp
from tests.paths import JAVA


@pytest.fixture(scope="module")
def rules_project(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> Iterator[Path]:
    """The rules agents imported, beside the probe's configurations."""
    from apdp.agents.java.project import import_project

    project = tmp_path_factory.mktemp("rules") / "project"
    shutil.copytree(JAVA / "rules", project)
    shutil.copytree(JAVA / "probe" / "config", project / "config", dirs_exist_ok=True)
    shutil.copy(JAVA / "rules" / "config" / "agents.xml", project / "config" / "agents.xml")
    result = import_project(project, project / "agents")
    assert result.failed == [] and len(result.installed) == 8
    yield project


@pytest.fixture
def in_project(rules_project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("APDP_AGENTS", str(rules_project / "agents"))
    monkeypatch.chdir(rules_project)
    return rules_project


def _logist() -> Scenario:
    """The configuration the platform played these games on, with its own task draw (their tasks)."""
    return load_scenario(Path("config") / "d20_france.xml", {"tasks": 4, "timeouts.bid": 2.0, "task_draw": "platform"})


def _apdp() -> Scenario:
    return make_scenario({"topology": "france", "tasks": 3, "timeouts": {"setup": 10.0, "bid": 2.0, "plan": 5.0}})


def test_a_slow_auction_result_is_a_timeout_of_the_next_bid_as_on_the_platform(in_project: Path) -> None:
    # 1.4 s in auctionResult, then 1.4 s in askPrice: each within 2 s, together not
    record = play_match(_logist(), ["slow-result", "plain"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert (fault["agent"], fault["kind"], fault["phase"], fault["task"]) == (0, "timeout", "bid", 1)
    assert "auction_result of task 0 and this bid" in fault["message"]
    assert len(record["auctions"]) == 1 and record["result"]["winner"] == 1  # the fault ended the game
    assert verify_record(record) == []
    # apdp's own rules: each call has its own limit, and the agent is in time
    record = play_match(_apdp(), ["slow-result", "plain"], seed=1).to_json()
    assert record["result"]["faults"] == [] and len(record["auctions"]) == 3


def test_the_first_fault_ends_the_game_under_the_platform_s_rules_only(in_project: Path) -> None:
    record = play_match(_logist(), ["thrower", "plain"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert (fault["kind"], fault["phase"], fault["task"]) == ("exception", "bid", 2)
    assert [a["task"] for a in record["auctions"]] == [0, 1] and record["plans"] == [None, None]
    result = record["result"]
    assert result["winner"] == 1 and result["revenue"] == result["cost"] == result["profit"] == [0, 0]
    assert verify_record(record) == []
    record = play_match(_apdp(), ["thrower", "plain"], seed=1).to_json()
    assert len(record["auctions"]) == 3 and record["plans"][1] is not None  # plays on, the thrower abstaining
    assert record["result"]["winner"] == 1 and verify_record(record) == []


def test_money_is_java_longs_that_wrap_as_on_the_platform(in_project: Path) -> None:
    # the platform's history for these games: revenue -4 (4 x Long.MAX_VALUE) and 4 (4 x (2**62 + 1))
    for agents, revenue in ((["max-bid", "max-bid"], -4), (["huge-bid", "huge-bid-too"], 4)):
        record = play_match(_logist(), agents, seed=1).to_json()
        result = record["result"]
        assert result["revenue"] == [revenue, 0] and result["cost"] == [29780, 0]
        assert result["profit"] == [revenue - 29780, 0] and result["winner"] == 1
        assert result["wrapped"] == [0] and result["faults"] == []
        assert all(isinstance(a["bids"][0], int) for a in record["auctions"])
        assert verify_record(record) == []
        forged = {**record, "result": {**result, "revenue": [float(revenue), 0]}}
        assert any("long arithmetic" in p for p in verify_record(forged))


def test_a_long_max_value_bid_loses_on_apdp_s_networks_and_prints_as_the_long_it_is(in_project: Path) -> None:
    record = play_match(_apdp(), ["max-bid", "honest"], seed=1).to_json()
    assert record["result"]["faults"] == []
    assert all(a["bids"][0] == LONG_MAX and isinstance(a["bids"][0], int) and a["winner"] == 1
               for a in record["auctions"])
    assert verify_record(record) == []
    shown = apdp("match", "--topology", "france", "--tasks", "2", "--bid-timeout", "2", "--seed", "1",
                 "--agents", "max-bid", "honest", cwd=in_project)
    assert shown.returncode == 0, shown.stderr
    assert "max-bid=9,223,372,036,854,775,807" in shown.stdout and "-> honest" in shown.stdout


def test_the_platform_checks_moves_not_where_a_task_is_picked_up_or_delivered(in_project: Path) -> None:
    # on the platform: picking up and delivering every task at home, without a move, is a valid plan
    # that costs nothing; a move to a city that is not a neighbour is an invalid plan
    record = play_match(_logist(), ["anywhere", "plain"], seed=1).to_json()
    result = record["result"]
    assert result["faults"] == [] and result["revenue"] == [4000, 0] and result["cost"] == [0, 0]
    assert result["winner"] == 0 and verify_record(record) == []
    record = play_match(_logist(), ["jump", "plain"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert (fault["agent"], fault["kind"], fault["phase"]) == (0, "invalid_plan", "plan")
    assert "follows no road" in fault["message"] and verify_record(record) == []
    # apdp's own rules: where counts; a move along no road is driven along a shortest path
    record = play_match(_apdp(), ["anywhere", "plain"], seed=1).to_json()
    assert [f["kind"] for f in record["result"]["faults"]] == ["invalid_plan"]
    assert "picked up in" in record["result"]["faults"][0]["message"]
    record = play_match(_apdp(), ["jump", "plain"], seed=1).to_json()
    assert record["result"]["faults"] == [] and verify_record(record) == []
