"""apdp.testing: the check gate names every fault class and passes a good agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from apdp.agents.discovery import AgentNotFound, find_agent
from apdp.testing import AgentCheckFailed, CheckConfig, assert_agent_ok, check_agent

FAST = CheckConfig(opponents=("template",), topologies=("france",), tasks=6, timeouts={"bid": 0.5})

HEADER = "import math\nimport time\n\nfrom apdp import Agent, Stop, plan_from_stops\n\n\n"


def agent(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + body)
    return path


GOOD = """\
class Good(Agent):
    def bid(self, task):
        return self.topology.distance(task.pickup, task.delivery) * 5 + 300.0

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
"""


def test_good_agent_passes(tmp_path: Path) -> None:
    report = assert_agent_ok(agent(tmp_path, "good", GOOD), FAST)
    assert report.ok and report.problems == []
    assert [m.label for m in report.matches] == [
        "self-play on france",
        "vs template on france as company 0",
    ]
    assert "PASSED" in report.text() and "vs template" in report.scores_text()


def test_two_networks_put_the_agent_in_both_seats(tmp_path: Path) -> None:
    config = CheckConfig(opponents=("template",), topologies=("france", "switzerland"), tasks=4, timeouts={"bid": 0.5})
    report = check_agent(agent(tmp_path, "good", GOOD), config)
    assert report.ok
    assert [m.seats for m in report.matches] == [(0, 1), (0,), (1,)]
    assert report.matches[2].record.agents[0] == "template"


def test_plan_violations_by_class(tmp_path: Path) -> None:
    body = """\
class Sloppy(Agent):
    def bid(self, task):
        return 1.0

    def plan(self, vehicles, tasks):
        if self.agent_id == 1:
            return [[] for _ in vehicles]  # delivers nothing
        # picks up everything before delivering: overloads; forgets the last delivery
        stops = [Stop.pickup(t) for t in tasks] + [Stop.deliver(t) for t in tasks[:-1]]
        heavy = [plan_from_stops(self.topology, vehicles[0], stops)]
        return heavy + [[] for _ in vehicles[1:]]
"""
    config = CheckConfig(opponents=(), topologies=("france",), tasks=12, timeouts={"bid": 0.5})
    report = check_agent(agent(tmp_path, "sloppy", body), config)
    assert not report.ok
    groups = report.by_category()
    assert {"undelivered", "capacity"} <= groups.keys()
    assert any("never picked up nor delivered" in p.message for p in groups["undelivered"])
    assert any("picked up but never delivered" in p.message for p in groups["undelivered"])
    text = report.text()
    assert "Undelivered tasks" in text and "Capacity exceeded" in text and "exceeds capacity" in text


def test_exception_with_traceback_and_bad_bid(tmp_path: Path) -> None:
    body = """\
class Broken(Agent):
    def bid(self, task):
        if self.agent_id == 1:
            return math.nan
        return 1.0

    def plan(self, vehicles, tasks):
        return self.helper(tasks)

    def helper(self, tasks):
        return 1 / 0
"""
    report = check_agent(agent(tmp_path, "broken", body), FAST)
    groups = report.by_category()
    assert groups.keys() == {"exception", "bad_bid"}
    (exc,) = groups["exception"]
    assert exc.phase == "plan" and "ZeroDivisionError" in exc.message
    assert exc.traceback is not None and "in helper" in exc.traceback
    assert "a bid must be finite" in groups["bad_bid"][0].message
    text = report.text()
    assert "Traceback" in text and "in helper" in text and "Bad bids" in text


def test_timeout_names_the_phase(tmp_path: Path) -> None:
    body = """\
class Slow(Agent):
    def bid(self, task):
        time.sleep(3.0)
        return 1.0

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
"""
    report = check_agent(agent(tmp_path, "slow", body), FAST)
    (problem,) = report.problems
    assert (problem.category, problem.phase, problem.task) == ("timeout", "bid", 0)
    assert problem.matches == ["self-play on france", "vs template on france as company 0"]
    assert "Timeouts (1)" in report.text() and "self.deadline" in report.text()


def test_import_errors_stop_the_check(tmp_path: Path) -> None:
    raising = agent(tmp_path, "raising", "raise ImportError('needs torch')\n")
    report = check_agent(raising, FAST)
    assert [p.category for p in report.problems] == ["import"]
    assert "needs torch" in report.problems[0].message
    assert len(report.matches) == 1 and "skipped" in report.text()
    syntax = tmp_path / "syntax.py"
    syntax.write_text("from apdp import Agent\nclass A(Agent)\n    pass\n")
    report = check_agent(syntax, FAST)
    assert not report.ok and len(report.matches) == 1  # compiled in the sandbox only, never in the checker
    assert "syntax error at line 2" in report.problems[0].message
    none = agent(tmp_path, "none", "class NotAnAgent:\n    pass\n")
    assert "defines no agent" in check_agent(none, FAST).problems[0].message


def test_missing_baseline_falls_back_to_template(tmp_path: Path) -> None:
    config = CheckConfig(opponents=("no-such-baseline",), topologies=("france",), tasks=3, timeouts={"bid": 0.5})
    report = check_agent(agent(tmp_path, "good", GOOD), config)
    assert report.ok
    assert "'no-such-baseline' is not available; played 'template' instead" in report.text()


def test_assert_agent_ok_raises_with_the_report(tmp_path: Path) -> None:
    body = GOOD.replace("return self.topology.distance", "raise RuntimeError('no bid')  #")
    with pytest.raises(AgentCheckFailed) as info:
        assert_agent_ok(agent(tmp_path, "bad", body), FAST)
    assert isinstance(info.value, AssertionError)
    assert "RuntimeError: no bid" in str(info.value)


def test_default_check_plays_the_baselines(tmp_path: Path) -> None:
    try:
        find_agent("naive")
        find_agent("honest")
    except AgentNotFound:
        pytest.skip("baselines not installed")
    report = check_agent(agent(tmp_path, "good", GOOD), CheckConfig(tasks=4, timeouts={"bid": 1.0}))
    assert report.ok, report.text()
    assert [m.opponent for m in report.matches] == [None, "naive", "naive", "honest", "honest"]
    assert {m.topology for m in report.matches} == {"france", "switzerland"}
