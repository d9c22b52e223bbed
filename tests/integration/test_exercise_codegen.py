"""The harness generates agents of the course's other exercises (issue 33): the exercise's prompt,
its check (a round of its course configuration, sandboxed), repairs on faults, provenance; and the
record of a round is scored against the references (the bridge to apdp.exercises.scores)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apdp.agents.provenance import read_provenance
from apdp.check.config import CheckConfig
from apdp.check.exercise_check import check_exercise_agent
from apdp.check.exercise_score import deliberative_scores, reported_search
from apdp.codegen.loop import RunSettings, run
from apdp.errors import UserError
from apdp.exercises.configuration import read_exercise
from apdp.exercises.scores import discriminating_instances
from apdp.referee.exercise_round import play_exercise
from tests.chat import ChatServer
from tests.command import apdp
from tests.exercise_replies import ADMISSIBLE, INADMISSIBLE
from tests.replies import answer

LAZY = '''\
from apdp import DeliberativeAgent


class Lazy(DeliberativeAgent):
    def plan(self, vehicle, tasks):
        return []
'''
CHECK = CheckConfig(tasks=5, timeouts={"setup": 10.0, "plan": 10.0})


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_a_deliberative_agent_is_generated_checked_by_a_round_and_repaired(tmp_path: Path,
                                                                           server: ChatServer) -> None:
    server.reply(answer(LAZY))
    server.reply(answer(ADMISSIBLE))
    settings = RunSettings(strategy="a1", name="astar", agents_dir=tmp_path / "agents", rounds=2, check=CHECK,
                           exercise="deliberative")
    result = run(settings, server.client("m1"))
    assert result.ok and result.rounds == 1
    first = server.requests[0]["messages"][0]["content"]
    assert "apdp.DeliberativeAgent" in first and "class DeliberativeTemplate" in first and "setup 10 s" in first
    repair = server.requests[1]["messages"][-1]["content"]
    assert "played one round of the exercise" in repair and "Not all available tasks were picked up" in repair
    provenance = read_provenance(tmp_path / "agents" / "astar.py")
    assert provenance is not None and provenance["model"] == "m1" and provenance["round"] == 1
    assert provenance["exercise"] == "deliberative" and provenance["check"] == "passed"


def test_an_exercise_run_refuses_the_auctions_strategies_in_one_line(tmp_path: Path, server: ChatServer) -> None:
    settings = RunSettings(strategy="cr", name="x", agents_dir=tmp_path, check=CHECK, exercise="deliberative")
    with pytest.raises(UserError, match="strategy cr is the auction's; an exercise's agent is generated with a1 or ir"):
        run(settings, server.client())
    done = apdp("codegen", "run", "--model", "m", "--base-url", server.url, "--exercise", "auctions",
                "--agents-dir", str(tmp_path))
    assert done.returncode == 2 and "exercise 'auctions': choose reactive, deliberative or centralized" in done.stderr


def test_codegen_run_exercise_on_the_command_line(tmp_path: Path, server: ChatServer) -> None:
    server.reply(answer(ADMISSIBLE))
    done = apdp("codegen", "run", "--model", "m2", "--base-url", server.url, "--exercise", "deliberative",
                "--agents-dir", str(tmp_path), "--plan-timeout", "10", "--setup-timeout", "10", "--tasks", "5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASSED" in done.stdout and (tmp_path / "m2-deliberative-a1.py").is_file()
    sidecar = json.loads((tmp_path / "m2-deliberative-a1.json").read_text(encoding="utf-8"))
    assert sidecar["strategy"] == "a1" and sidecar["exercise"] == "deliberative"


def test_the_check_of_each_exercise_plays_its_template(tmp_path: Path) -> None:
    for exercise in ("reactive", "deliberative", "centralized"):
        report = check_exercise_agent(f"agents/exercises/{exercise}.py", CHECK, exercise=exercise)
        assert report.ok, report.text()
    wrong = check_exercise_agent("agents/exercises/reactive.py", CHECK, exercise="deliberative")
    assert not wrong.ok and wrong.problems[0].category == "import" and "apdp.DeliberativeAgent" in wrong.text()


def test_a_record_is_scored_admissible_and_inadmissible_agents_told_apart(tmp_path: Path) -> None:
    base = read_exercise("scenarios/exercises/deliberative_switzerland.toml")
    instance = discriminating_instances(base, count=1)[0]
    configuration = instance.configuration(base)
    verdicts = {}
    for name, code in (("good", ADMISSIBLE), ("sum", INADMISSIBLE)):
        path = tmp_path / f"{name}.py"
        path.write_text(code, encoding="utf-8")
        # an instance is the platform's draw of its seed: its batch is what makes it discriminate
        (score,) = deliberative_scores(play_exercise(configuration, [str(path)], platform_draw=True), configuration)
        assert score.plans[0].optimal_units == instance.optimal_units and score.nodes is not None
        verdicts[name] = score.all_optimal
    assert verdicts == {"good": True, "sum": False}
    assert reported_search("A* expanded 1,200 nodes in 35 ms\nbye") == [(0.035, 1200)]
