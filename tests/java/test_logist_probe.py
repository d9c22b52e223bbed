"""A Logist agent sees in apdp exactly what it saw on the platform (issue 31).

The probe agent (tests/data/java/probe) prints every value the platform's API hands it; the real
platform played it against itself on three configurations and its lines are kept beside it. Here
apdp plays the same agent, unchanged, on the same files, and each agent must print the same lines,
to the last digit of every probability, and end with the platform's revenue, cost and profit.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.scenario import load_scenario
from tests.logist_probe import probe_lines, split_platform_output
from tests.paths import JAVA

PROBE = JAVA / "probe"
CONFIGURATIONS = ("d20_france", "d12_switzerland", "d30_england")


@pytest.fixture(scope="module")
def probe_project(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> Iterator[Path]:
    """The probe's project imported (agents probeA and probeB), as the working folder of a match."""
    from apdp.agents.java.project import import_project

    project = tmp_path_factory.mktemp("probe") / "project"
    shutil.copytree(PROBE, project)
    result = import_project(project, project / "agents")
    assert result.failed == [] and [a.name for a in result.installed] == ["probeA", "probeB"]
    yield project


@pytest.fixture
def in_project(probe_project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("APDP_AGENTS", str(probe_project / "agents"))
    monkeypatch.chdir(probe_project)
    return probe_project


def test_the_platform_s_output_splits_per_agent_in_its_order_of_calls() -> None:
    text = (PROBE / "platform-d20_france.txt").read_text(encoding="utf-8")
    a, b = split_platform_output(text)
    assert len(a) == len(b) == 146
    assert a[0] == "PROBE id=0 name=probeA" and b[-1] == "PROBE plan vehicles=2 tasks=10 rewardSum=10000"


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_the_probe_sees_in_apdp_what_it_saw_on_the_platform(in_project: Path, configuration: str) -> None:
    scenario = load_scenario(Path("config") / f"{configuration}.xml", {"task_draw": "platform"})
    record = play_match(scenario, ["probeA", "probeB"], seed=3).to_json()
    assert record["result"]["faults"] == []
    expected = split_platform_output((PROBE / f"platform-{configuration}.txt").read_text(encoding="utf-8"))
    for agent in (0, 1):
        got = probe_lines(record["output"][agent])
        assert got == expected[agent], next(
            (f"agent {agent}, line {k}: platform {e!r}, apdp {g!r}" for k, (e, g) in enumerate(zip(expected[agent], got,
                                                                                                  strict=False))
             if e != g), f"agent {agent}: {len(expected[agent])} lines on the platform, {len(got)} in apdp")
    figures = json.loads((PROBE / "platform-results.json").read_text(encoding="utf-8"))[configuration]
    result = record["result"]
    assert {k: result[k] for k in ("revenue", "cost", "profit")} == figures
    assert all(isinstance(x, int) for k in ("revenue", "cost", "profit") for x in result[k])  # Java longs
    assert record["rules"] == "logist" and record["settlement"] == "logist"
    assert verify_record(record) == []
