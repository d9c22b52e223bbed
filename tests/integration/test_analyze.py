"""``apdp analyze`` on a small tournament of a shipped agent, an agent that bids exactly its
reference marginal cost and one that plans badly on purpose (``tests/data/analysis``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.command import apdp
from tests.paths import ANALYSIS

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analyze") / "results"
    played = apdp("tournament", "--topology", "switzerland", "--tasks", "10", "--seed", "3", "--quiet", "--jobs", "2",
                  "--agents", str(ANALYSIS / "at_cost.py"), str(ANALYSIS / "detour_planner.py"), "honest",
                  "--out", str(out))
    assert played.returncode == 0, played.stderr
    return out


def _analysis(results: Path, *options: str) -> dict[str, Any]:
    done = apdp("analyze", str(results), "--format", "json", "--quiet", *options)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_the_analysis_tells_bidding_at_cost_from_planning_badly(results: Path) -> None:
    data = _analysis(results)
    assert (data["matches"], data["faulted"], data["unreadable"]) == (6, 0, [])
    agents = {a["agent"]: a for a in data["agents"]}
    assert sorted(agents) == ["at-cost", "detour-planner", "honest"]
    for entry in agents.values():
        assert entry["matches"] == 4
        assert len(entry["markup_by_auction"]) == 10
    at_cost, detour, honest = agents["at-cost"], agents["detour-planner"], agents["honest"]
    assert at_cost["markup"] == 0.0 and at_cost["markup_median"] == 0.0 and at_cost["markup_bids"] > 0
    assert detour["markup"] == pytest.approx(-0.2)  # it bids 80% of the same marginal cost
    assert detour["planning_gap"] > 0.5  # home after every delivery
    assert detour["planning_gap"] > max(at_cost["planning_gap"], honest["planning_gap"])
    assert honest["markup_median"] > 0  # its marginal cost + 10
    for entry in agents.values():
        assert entry["lost_on_planning"] <= entry["lost"]
    assert len(data["match_figures"]) == 12


def test_the_analysis_is_the_same_on_one_core_or_two(results: Path) -> None:
    assert _analysis(results, "--jobs", "1") == _analysis(results, "--jobs", "2")


def test_the_table_and_its_mistakes(results: Path, tmp_path: Path) -> None:
    shown = apdp("analyze", str(results), "--quiet", "--jobs", "1")
    assert shown.returncode == 0, shown.stderr
    assert "detour-planner" in shown.stdout and max(len(line) for line in shown.stdout.splitlines()) <= 100
    missing = apdp("analyze", str(tmp_path / "nothing"))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "no tournament results here" in missing.stderr
    bad = apdp("analyze", str(results), "--format", "xml")
    assert bad.returncode == 2 and "choose one of: table, json" in bad.stderr


def test_the_report_adds_the_analysis_when_asked(results: Path) -> None:
    plain = apdp("report", str(results))
    assert plain.returncode == 0 and "Bidding and planning" not in plain.stdout
    asked = apdp("report", str(results), "--analysis", "--jobs", "1")
    assert asked.returncode == 0, asked.stderr
    assert "Bidding and planning: 6 matches analysed" in asked.stdout and "detour-planner" in asked.stdout
    data = json.loads(apdp("report", str(results), "--analysis", "--format", "json").stdout)
    assert data["analysis"]["agents"] == _analysis(results)["agents"]
    csv = apdp("report", str(results), "--analysis", "--format", "csv")
    assert csv.returncode == 2 and "--analysis is for --format table, markdown, json or html" in csv.stderr
