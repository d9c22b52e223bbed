"""A Logist configuration's tasks: drawn from the secret by default, the platform's draw on request.

The platform draws every task from the file's ``rngSeed`` with the generator that also filled the
probabilities it tells agents: anyone with the file (or an agent that recovers the generator's state
from those probabilities) foresees every task. apdp draws them from the match's secret stream under the
same laws unless ``--platform-tasks`` asks for the platform's draw (issue 32, point 2).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from apdp.errors import UserError
from apdp.logist.tasks import LogistDistribution, draw_logist_tasks
from apdp.messages.values import distribution_to_json
from apdp.referee.match import play_match
from apdp.scenario import load_scenario
from apdp.tournament.report import report
from apdp.tournament.store import ResultsStore
from tests.paths import LOGIST

FRANCE = LOGIST / "config" / "auction_france.xml"

#: An agent that knows the configuration's rngSeed (as anyone with the file does) and the laws, and
#: draws the platform's tasks ahead of their auctions: it prints how many it foresaw.
FORESIGHT = '''
from apdp import Agent
from apdp.errors import UserError
from apdp.logist.tasks import LogistTasks, draw_logist_tasks


class Foresight(Agent):
    def setup(self, topology, distribution, company):
        spec = LogistTasks.model_validate(self.param("spec", {}))
        self.foreseen = draw_logist_tasks(topology, spec, 15)
        self.hits = 0
        self.seen = 0

    def bid(self, task):
        guess = self.foreseen[task.id]
        self.hits += (guess.pickup, guess.delivery, guess.weight, guess.reward) == (
            task.pickup, task.delivery, task.weight, task.reward)
        self.seen += 1
        return None

    def auction_result(self, task, winner, bids):
        if self.seen == 15:
            print(f"foresaw {self.hits} of 15")

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''


@pytest.fixture
def foresight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "foresight.py").write_text(FORESIGHT, encoding="utf-8")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    return agents


def _foreseen(record: dict[str, object]) -> int:
    output = record["output"]
    assert isinstance(output, list)
    line = next(line for line in str(output[0]).splitlines() if line.startswith("foresaw"))
    return int(line.split()[1])


def test_no_agent_foresees_the_tasks_of_a_configuration_unless_the_platform_draw_is_asked(foresight: Path) -> None:
    scenario = load_scenario(FRANCE, {"tasks": 15})
    assert scenario.task_draw == "secret" and scenario.logist_tasks is not None
    spec = scenario.logist_tasks.model_dump(mode="json")
    secret = load_scenario(FRANCE, {"tasks": 15, "agents.foresight": {"spec": spec}})
    record = play_match(secret, ["foresight", "naive"], seed=4).to_json()
    assert record["result"]["faults"] == [] and record["task_draw"] == "secret"
    assert _foreseen(record) <= 3  # chance alone: 90 pairs on France
    platform = secret.model_copy(update={"task_draw": "platform"})
    record = play_match(platform, ["foresight", "naive"], seed=4).to_json()
    assert record["task_draw"] == "platform" and _foreseen(record) == 15


def test_the_secret_draw_follows_the_match_and_the_configuration_laws() -> None:
    scenario = load_scenario(FRANCE, {"tasks": 40})
    topology = scenario.load_topology()
    distribution = scenario.distribution_for(topology)
    assert isinstance(distribution, LogistDistribution)
    a = scenario.draw_tasks(topology, distribution, np.random.default_rng(1))
    assert a == scenario.draw_tasks(topology, distribution, np.random.default_rng(1))
    assert a != scenario.draw_tasks(topology, distribution, np.random.default_rng(2))
    assert scenario.logist_tasks is not None
    assert a != draw_logist_tasks(topology, scenario.logist_tasks, 40)
    assert [t.id for t in a] == list(range(40))
    for t in a:  # each task is a pair the configuration can draw, with that pair's weight and reward
        assert distribution.platform_probability(t.pickup, t.delivery) > 0
        assert (t.weight, t.reward) == (distribution.weight(t.pickup, t.delivery),
                                        distribution.reward(t.pickup, t.delivery))
    # the platform's generator (rngSeed itself) is handed to agents only under the platform's draw
    assert "generator" not in distribution_to_json(distribution)
    platform = scenario.model_copy(update={"task_draw": "platform"})
    told = distribution_to_json(platform.distribution_for(topology))
    assert told["generator"]["seed"] == scenario.logist_tasks.rng_seed


def _apdp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from apdp.cli import console; console()", *args],
                          capture_output=True, text=True, timeout=600, cwd=cwd)


def test_the_command_line_says_which_draw_and_the_platform_draw_needs_a_configuration(tmp_path: Path) -> None:
    run = _apdp("match", "--scenario", str(FRANCE), "--tasks", "3", "--agents", "naive", "template",
                "--seed", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "tasks: drawn from each match's secret" in run.stdout
    wrong = _apdp("match", "--topology", "france", "--platform-tasks", "--agents", "naive", "template",
                  cwd=tmp_path)
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    assert wrong.stderr.strip().count("\n") == 0, wrong.stderr
    assert "needs a Logist configuration: give --scenario FILE.xml" in wrong.stderr


def test_a_tournament_stores_and_reports_its_draw_and_keeps_draws_apart(tmp_path: Path) -> None:
    common = ["tournament", "--scenario", str(FRANCE), "--tasks", "3", "--agents", "naive,template,honest",
              "--jobs", "1", "--quiet", "--seed", "5"]
    secret = _apdp(*common, "--out", str(tmp_path / "secret"), cwd=tmp_path)
    assert secret.returncode == 0, secret.stderr
    platform = _apdp(*common, "--platform-tasks", "--out", str(tmp_path / "platform"), cwd=tmp_path)
    assert platform.returncode == 0, platform.stderr
    assert "tasks: drawn from each match's secret" in report([tmp_path / "secret"], "table")
    shown = report([tmp_path / "platform"], "table")
    assert "tasks: the Logist platform's own draw" in shown
    # the platform draw: every match the same tasks; the secret draw: each pair's own (both its matches)
    tasks = {}
    for name in ("secret", "platform"):
        store = ResultsStore.open(tmp_path / name)
        try:
            records = [store.record(m.match_id) for m in store.matches()]
            assert store.config()["scenario"]["task_draw"] == name
        finally:
            store.close()
        assert len(records) == 6 and all(r is not None and r["task_draw"] == name for r in records)
        tasks[name] = {json.dumps(r["tasks"]) for r in records if r is not None}
    assert len(tasks["platform"]) == 1 and len(tasks["secret"]) == 3, tasks
    # resuming a store with the other draw is refused, and the two are not pooled as one study
    again = _apdp(*common, "--out", str(tmp_path / "secret"), "--platform-tasks", cwd=tmp_path)
    assert again.returncode != 0 and "scenario.task_draw differs" in again.stderr
    with pytest.raises(UserError, match=r"task draw: platform in .* secret in|task draw: secret in .* platform in"):
        report([tmp_path / "platform", tmp_path / "secret"], "table")
