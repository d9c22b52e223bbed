"""The check gate plays the same match twice and fails an agent whose record differs, naming why."""

from __future__ import annotations

from pathlib import Path

import pytest

from apdp.check.reproducibility import likely_causes, record_difference
from apdp.testing import CheckConfig, check_agent

FAST = CheckConfig(opponents=("template",), topologies=("france",), tasks=5, timeouts={"bid": 0.5})

AGENT = """\
{imports}
from apdp import Agent, Stop, plan_from_stops


class Noisy(Agent):
    def bid(self, task):
        return self.topology.distance(task.pickup, task.delivery) * 5 + 300.0 * {draw}

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
"""


@pytest.mark.parametrize(
    ("imports", "draw", "named"),
    [
        ("import random", "random.random()", "line 7 calls random.random (the random module"),
        ("import numpy as np", "np.random.random()", "line 7 calls np.random.random (numpy's global"),
        ("import numpy as np", "np.random.default_rng().random()", "generator without a seed"),
        ("", "float(self.rng.random())", None),
    ],
)
def test_check_fails_an_agent_that_ignores_self_rng(tmp_path: Path, imports: str, draw: str,
                                                    named: str | None) -> None:
    path = tmp_path / "noisy.py"
    path.write_text(AGENT.format(imports=imports, draw=draw))
    report = check_agent(path, FAST)
    if named is None:
        assert report.ok, report.text()
        return
    assert not report.ok
    [problem] = report.problems
    assert problem.category == "reproducibility" and problem.matches == ["self-play on france"]
    assert "the same match played twice gave different records" in problem.message
    assert "auctions[0].bids[" in problem.message and named in problem.message
    assert "Not reproducible (1)" in report.text() and "self.rng" in report.text()


def test_record_difference_ignores_timing_output_sandbox_and_identities() -> None:
    a = {"seed": 1, "auctions": [{"bids": [1.0, 2.0]}], "timing": {"match": 1.0}, "output": ["x"],
         "sandbox": {"unprotected": []}, "identities": [{"provenance": {"usage": {"seconds": 1.0}}}]}
    # the ledger may record the same file again between two plays (another sample wrote the same code)
    b = {**a, "timing": {"match": 2.0}, "output": ["y"], "sandbox": {"unprotected": ["landlock"]},
         "identities": [{"provenance": {"usage": {"seconds": 2.0}}}]}
    assert record_difference(a, b) is None
    c = {**a, "auctions": [{"bids": [1.0, 2.5]}]}
    assert record_difference(a, c) == "auctions[0].bids[1]: 2.0 then 2.5"
    assert record_difference(a, {**a, "auctions": []}) == "auctions: 1 items then 0"


def test_likely_causes_point_at_lines() -> None:
    source = "import time\nfrom random import choice\n\nx = time.perf_counter()\ny = choice([1])\n"
    assert likely_causes(source) == [
        "line 2 imports from the random module",
        "line 4 reads the clock (time.perf_counter)",
    ]
    assert likely_causes("x = self.rng.random()\n") == []
    assert likely_causes("def broken(:\n") == []
