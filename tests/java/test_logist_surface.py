"""The Logist API's surface as agents read it (issue 31): an agent of ours (tests/data/java/surface,
``surface.Surface``) prints what each member agents use returns, one line a value, and each of its
two copies prints in apdp exactly the lines it printed on the real platform (its 2018 jar, run
headless on the same files: platform-<configuration>.txt, both agents' lines interleaved).

The values: City (fields, toString, equals, hashCode, neighbours and their order, paths and
distances, randomNeighbor), Topology (cities, toString, parseCity, randomCity), Task (fields, path,
the constructor), TaskSet (order, sums, add/remove/contains, noneOf, copyOf, create, union,
intersect, intersectComplement, clone, stream), Plan and Action (constructors, append*, toString,
distances, EMPTY, sealing), Measures, the time limits, Agent (id, name, vehicles, getTasks,
readProperty of agents.xml's values), Vehicle (every member), TaskDistribution (probability,
reward and weight of every pair, to null too) and DefaultTaskDistribution.createTask; in setup,
askPrice, auctionResult and plan, through an auction with ties, abstentions, a negative bid and
bids of Long.MAX_VALUE.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.logist_play import logist_project, play_configuration
from tests.paths import JAVA

SURFACE = JAVA / "surface"
#: France with 20 tasks (the probe's game, tests/data/java/surface/config) and the course's
#: Switzerland (15 tasks; accented names)
CONFIGURATIONS = ["d20_france", "auction_switzerland"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> Path:
    return logist_project(SURFACE, tmp_path_factory.mktemp("surface") / "project")


def agent_lines(output: str, agent: int) -> list[str]:
    """The lines agent ``agent`` printed (``SURFACE <agent id> ...``) of ``output``."""
    return [line for line in output.splitlines() if line.startswith(f"SURFACE {agent} ")]


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_each_member_returns_what_the_platform_returns(
    project: Path, configuration: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    platform = (SURFACE / f"platform-{configuration}.txt").read_text(encoding="utf-8")
    record = play_configuration(project, configuration, ["surfaceA", "surfaceB"], monkeypatch,
                                **{"limits.output_kb": 512, "limits.record_kb": 4096})
    assert record["result"]["faults"] == []
    for agent, output in enumerate(record["output"]):
        expected = agent_lines(platform, agent)
        assert len(expected) > 700  # setup to plan, both agents alike
        assert expected[-1].startswith(f"SURFACE {agent} plan handed in distance ")
        lines = agent_lines(output, agent)
        differences = difflib.unified_diff(expected, lines, "the platform", "apdp", n=0, lineterm="")
        assert lines == expected, f"agent {agent}:\n" + "\n".join(list(differences)[:100])
